#!/usr/bin/env python3
"""Writes assets/colormaps/<name>.txt: the colour ramps for speed and depth, from formulas written here (no
third-party tables), so the shipped data can be regenerated and checked: tools/make_colormaps.py [out_dir].

Format (read by src/io/colormap_file.cpp): one `r g b` row per line, linear RGB in [0, 1], low end first;
`#` starts a comment."""
import math
import os
import sys

ROWS = 256  # the renderer's texture has 256 texels: one row each, so nothing is lost to resampling

# ember: the ramp src/render/colormap.cpp builds in as its fallback (keep the two equal). Control points
# chosen by eye to rise monotonically in brightness (speed reads as light) and to stay saturated in the
# middle; interpolated linearly.
EMBER = [(0.10, 0.05, 0.35), (0.35, 0.10, 0.60), (0.75, 0.20, 0.45), (0.95, 0.40, 0.20), (1.00, 0.70, 0.25),
         (1.00, 0.95, 0.75)]


def ember(t):
    x = t * (len(EMBER) - 1)
    i = min(int(x), len(EMBER) - 2)
    f = x - i
    return tuple(a + (b - a) * f for a, b in zip(EMBER[i], EMBER[i + 1]))


def ice(t):
    """Night blue -> cyan -> white: each channel a smoothstep starting later than the one before, so the
    lightness rises monotonically and blue leads (cold to hot reads as dark to bright)."""
    def smooth(a, b, x):
        u = min(1.0, max(0.0, (x - a) / (b - a)))
        return u * u * (3 - 2 * u)
    return (0.02 + 0.98 * smooth(0.45, 1.0, t), 0.03 + 0.97 * smooth(0.15, 0.85, t),
            0.12 + 0.88 * smooth(-0.1, 0.6, t))


MAPS = {
    "ember": (ember, "dark purple -> red -> orange -> pale yellow (the built-in fallback)"),
    "ice": (ice, "night blue -> cyan -> white"),
}


def write(out_dir, name, fn, what):
    path = os.path.join(out_dir, name + ".txt")
    with open(path, "w") as f:
        f.write(f"# {name}: {what}\n")
        f.write("# Written by tools/make_colormaps.py (do not edit by hand). One 'r g b' row per line,\n")
        f.write(f"# linear RGB in 0..1, low end first; {ROWS} rows.\n")
        for i in range(ROWS):
            rgb = fn(i / (ROWS - 1))
            assert all(0.0 <= c <= 1.0 and math.isfinite(c) for c in rgb), (name, i, rgb)
            f.write("%.6f %.6f %.6f\n" % rgb)
    print("wrote", path)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "assets",
                                                                 "colormaps")
    os.makedirs(out_dir, exist_ok=True)
    for name, (fn, what) in MAPS.items():
        write(out_dir, name, fn, what)


if __name__ == "__main__":
    main()
