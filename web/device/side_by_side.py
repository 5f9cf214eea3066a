#!/usr/bin/env python3
"""The WGSL kernels beside the desktop's GLSL ones on the same GPU: one row a size and variant, from the WGSL
bench's lines (scripts/device-web.sh's web-bench.txt) and nbody-bench's JSON (scripts/device-run.sh bench,
its gl rows), with WGSL over GLSL. Usage: side_by_side.py WEB_BENCH_TXT BENCH_JSON..."""
import json
import re
import sys

LONG = {"none": "none", "i": "i-unrolled", "ij": "ij-unrolled"}


def wgsl_rows(path):
    rows = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r'wgsl (\S+) N=(\d+) shape="([^"]*)".* interactions_per_s=(\S+)', line)
        if m:
            rows[(int(m[2]), LONG[m[1]])] = (m[3], float(m[4]))
    return rows


def glsl_rows(paths):
    rows = {}
    for path in paths:
        try:
            data = json.load(open(path, encoding="utf-8"))
        except (OSError, ValueError) as e:
            print(f"side_by_side: skipping {path}: {e}", file=sys.stderr)
            continue
        for r in data.get("rows", []):
            if r.get("backend") == "gl":
                rows[(int(r["n"]), r["variant"])] = (r["kernel"], float(r["interactions_per_s"]))
    return rows


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    wgsl, glsl = wgsl_rows(sys.argv[1]), glsl_rows(sys.argv[2:])
    print(f"{'N':>8} {'variant':<12} {'GLSL interactions/s':>20} {'WGSL interactions/s':>20} {'WGSL/GLSL':>9}  shapes (GLSL | WGSL)")
    for key in sorted(set(wgsl) | set(glsl)):
        g, w = glsl.get(key), wgsl.get(key)
        ratio = f"{w[1] / g[1]:.2f}" if g and w else "-"
        print(f"{key[0]:>8} {key[1]:<12} {g[1] if g else float('nan'):>20.3e} {w[1] if w else float('nan'):>20.3e} "
              f"{ratio:>9}  {g[0] if g else '-'} | {w[0] if w else '-'}")


if __name__ == "__main__":
    main()
