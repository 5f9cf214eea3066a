// The run's state in the page's address (?scene=cartwheel&n=4096&dt=0.0078125&eps=0.01&variant=ij&colour=speed),
// so a link reproduces the run and its picture. Parsing never throws: each problem comes back located (which
// parameter, at which character of the query) with the allowed values; the numeric ranges are the desktop's
// parameter registry's and its window's exposure and glow sliders', asked through `check` (the core's
// paramProblem), so the words match the scene files' and the command line's.

export interface UrlState {
  scene?: string;
  n?: number;
  dt?: number;
  eps?: number;
  G?: number;
  variant?: string;
  method?: 'direct' | 'tree'; // how the GPU finds the forces (the page chooses where it is not named)
  colour?: ColourMode; // what a body's colour says (component where not named)
  'dark-matter'?: DarkMatter; // the scene's dark matter shown at full light or dimmed (dimmed where not named)
  trails?: Trails; // the fading lines on or off (the scene's own choice where not named)
  // The desktop's --exposure-ev, --exposure and --glow: the automatic exposure's stops; a fixed exposure
  // (automatic exposure off where named); the bloom's weight.
  'exposure-ev'?: number;
  exposure?: number;
  glow?: number;
}

// The desktop's words (--colour, render/colour_scale.cpp) for the two colourings the page draws, and for
// those only the desktop draws.
export const COLOUR_MODES = ['component', 'speed'] as const;
export type ColourMode = (typeof COLOUR_MODES)[number];
const DESKTOP_COLOUR_MODES = ['depth', 'density', 'potential'];
// --dark-matter's words on the desktop, less 'hide' (the page's switch shows or dims).
const DARK_MATTER = ['show', 'dim'] as const;
export type DarkMatter = (typeof DARK_MATTER)[number];
// The View panel's trails switch, where it is not what the scene opens with.
const TRAILS = ['on', 'off'] as const;
export type Trails = (typeof TRAILS)[number];

export interface UrlProblem {
  key: string;
  at: number; // character offset of the parameter in the query string (after '?')
  message: string; // "URL parameter 'dt' (character 17): must be from 1e-12 to 1e6 (got -1)"
}

const KEYS = ['scene', 'n', 'dt', 'eps', 'G', 'variant', 'method', 'colour', 'dark-matter', 'trails', 'exposure-ev', 'exposure', 'glow'] as const;
type CheckedNumber = 'dt' | 'eps' | 'G' | 'exposure-ev' | 'exposure' | 'glow'; // numbers `check` judges
const METHODS = ['direct', 'tree'] as const;
export const MAX_BODIES = 1 << 24; // the page's largest buffer: 16,777,216 bodies x 16 bytes = 256 MiB
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function decode(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

export function parseUrlState(
  query: string,
  check: (name: string, value: number) => string,
  variants: readonly string[],
): { state: UrlState; problems: UrlProblem[] } {
  const state: UrlState = {};
  const problems: UrlProblem[] = [];
  const q = query.startsWith('?') ? query.slice(1) : query;
  let at = 0;
  for (const part of q.length ? q.split('&') : []) {
    const here = at;
    at += part.length + 1;
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq)) ?? part;
    const raw = eq < 0 ? null : decode(part.slice(eq + 1));
    const fail = (why: string) =>
      problems.push({ key, at: here, message: `URL parameter '${key}' (character ${here + 1}): ${why}` });
    if (!(KEYS as readonly string[]).includes(key)) {
      fail(`unknown; the page reads ${KEYS.join(', ')}`);
      continue;
    }
    if (raw === null) {
      fail(eq < 0 ? 'has no value (write key=value)' : 'is not valid percent-encoding');
      continue;
    }
    if (key === 'scene') {
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw)) fail(`'${raw.slice(0, 64)}' is not a scene name (letters, digits, - _ .)`);
      else state.scene = raw;
    } else if (key === 'variant') {
      if (!variants.includes(raw)) fail(`must be one of ${variants.join(', ')} (got '${raw.slice(0, 32)}')`);
      else state.variant = raw;
    } else if (key === 'method') {
      if (!(METHODS as readonly string[]).includes(raw)) fail(`must be one of ${METHODS.join(', ')} (got '${raw.slice(0, 32)}')`);
      else state.method = raw as 'direct' | 'tree';
    } else if (key === 'colour') {
      const desktop = DESKTOP_COLOUR_MODES.includes(raw) ? `; ${raw} is drawn by the desktop program (nbody-sandbox --colour ${raw})` : '';
      if (!(COLOUR_MODES as readonly string[]).includes(raw)) fail(`must be one of ${COLOUR_MODES.join(', ')} (got '${raw.slice(0, 32)}'${desktop})`);
      else state.colour = raw as ColourMode;
    } else if (key === 'dark-matter') {
      if (!(DARK_MATTER as readonly string[]).includes(raw)) fail(`must be one of ${DARK_MATTER.join(', ')} (got '${raw.slice(0, 32)}')`);
      else state['dark-matter'] = raw as DarkMatter;
    } else if (key === 'trails') {
      if (!(TRAILS as readonly string[]).includes(raw)) fail(`must be one of ${TRAILS.join(', ')} (got '${raw.slice(0, 32)}')`);
      else state.trails = raw as Trails;
    } else {
      const v = NUMBER.test(raw.trim()) ? Number(raw) : NaN;
      if (!Number.isFinite(v)) {
        fail(`'${raw.slice(0, 32)}' is not a number`);
        continue;
      }
      if (key === 'n') {
        if (!Number.isInteger(v) || v < 1 || v > MAX_BODIES) fail(`must be a whole number from 1 to ${MAX_BODIES} (got ${raw.slice(0, 32)})`);
        else state.n = v;
        continue;
      }
      const why = check(key, v);
      if (why) fail(why);
      else state[key as CheckedNumber] = v;
    }
  }
  return { state, problems };
}

export function formatUrlState(s: UrlState): string {
  const parts: string[] = [];
  for (const k of KEYS) if (s[k] !== undefined) parts.push(`${k}=${encodeURIComponent(String(s[k]))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
