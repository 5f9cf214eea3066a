// The View panel's settings (colour by component or speed, dark matter shown or dimmed, the exposure and glow
// the tone map takes: exposure_panel.ts) turned into what the sprites are drawn with and into the legend over the picture, from the core's account of how the desktop's
// window draws the scene (SceneLook, web/core/look_web.cpp): the same groups, colours, dimming and colour bar.
import { SceneLook } from './core';
import { Exposure } from './tone_map';
import { ColourMode } from './url_state';

export interface ViewSettings {
  colour: ColourMode;
  showDarkMatter: boolean;
  exposure: Exposure;
  guide: boolean; // a choreography scene's orbit guide (orbit_guide.ts), on by default
  trails: boolean; // fading trails (trails.ts): on where the scene opens with them, and by the switch
}

export interface SlotStyle {
  colour: number[]; // linear RGB
  light: number; // 1, or the dimmed share for dark matter
}

export function slotStyles(look: SceneLook, view: ViewSettings): SlotStyle[] {
  return look.slots.map((s) => ({ colour: s.colour, light: s.darkMatter && !view.showDarkMatter ? look.darkMatterLight : 1 }));
}

export function hasDarkMatter(look: SceneLook): boolean {
  return look.groups.some((g) => g.darkMatter);
}

// Linear RGB as the screen shows a sprite of it (the tone map's gamma 2.2), so a swatch or the ramp has the hue
// the bodies have.
function cssColour(c: number[]): string {
  return `rgb(${c.map((k) => Math.round(255 * Math.pow(Math.min(1, Math.max(0, k)), 1 / 2.2))).join(',')})`;
}

function span(text: string, className = ''): HTMLSpanElement {
  const e = document.createElement('span');
  e.textContent = text;
  if (className) e.className = className;
  return e;
}

// By component: a swatch and the group's name for each colour slot the scene uses (the desktop's legend: at
// most 8), dimmed dark matter saying so. By speed: the colour bar, its ends and unit. Then the orbit guide's
// entry where `guideLabel` names one and it is shown: dashes, its name, a ring, "point masses on it".
export function showLegend(el: HTMLElement, look: SceneLook, view: ViewSettings, colormap: number[][], guideLabel = ''): void {
  el.replaceChildren();
  if (view.colour === 'speed') {
    const b = look.speedBar;
    const ramp = span('', 'ramp');
    const stops = Array.from({ length: 17 }, (_, i) => cssColour(colormap[Math.round((i * (colormap.length - 1)) / 16)]));
    ramp.style.background = `linear-gradient(90deg, ${stops.join(', ')})`;
    const row = document.createElement('div');
    row.append(span(`${b.title} ${b.left}`), ramp, span(`${b.right} ${b.unit}`));
    el.append(row);
  } else {
    for (const g of look.groups.slice(0, look.slots.length)) {
      const row = document.createElement('div');
      const swatch = span('', 'swatch');
      swatch.style.background = cssColour(g.colour);
      row.append(swatch, span(g.darkMatter && !view.showDarkMatter ? `${g.name} (dimmed)` : g.name));
      el.append(row);
    }
  }
  if (guideLabel && view.guide) {
    const row = document.createElement('div');
    row.append(span('', 'guide-dashes'), span(guideLabel), span('', 'guide-ring'), span('point masses on it'));
    el.append(row);
  }
}
