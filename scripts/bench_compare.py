#!/usr/bin/env python3
"""Compares nbody-bench JSON files row by row: before (A) against after (B).

Usage: bench_compare.py A1.json[,A2.json...] B1.json[,B2.json...] [--limit 0.01]
Rows are matched by (n, variant, precision, integrator, gpus); each side's rate is the best steps/s over its
files (several rounds of the same command, taken alternately, so drift of the shared GPU hits both sides).
Prints one line per row and exits 1 when any row of B is slower than A by more than the limit.
"""
import json
import sys


def rows(paths):
    best = {}
    for path in paths.split(","):
        with open(path) as f:
            for r in json.load(f)["rows"]:
                key = (r["n"], r["variant"], r["precision"], r["integrator"], r.get("gpus", 1))
                if key not in best or r["steps_per_s"] > best[key]["steps_per_s"]:
                    best[key] = r
    return best


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    limit = 0.01
    if "--limit" in sys.argv:
        limit = float(sys.argv[sys.argv.index("--limit") + 1])
        args = [a for a in args if a != str(sys.argv[sys.argv.index("--limit") + 1])]
    a, b = rows(args[0]), rows(args[1])
    worst, bad = 0.0, 0
    print(f"{'N':>9} {'variant':<12} {'prec':<5} {'before steps/s':>15} {'after steps/s':>15} {'after/before':>12}  kernel (after)")
    for key in sorted(set(a) & set(b)):
        ra, rb = a[key]["steps_per_s"], b[key]["steps_per_s"]
        ratio = rb / ra if ra > 0 else float("nan")
        flag = "  <-- slower" if ratio < 1 - limit else ""
        bad += bool(flag)
        worst = min(worst, ratio - 1)
        print(f"{key[0]:>9} {key[1]:<12} {key[2]:<5} {ra:>15.6g} {rb:>15.6g} {ratio:>12.4f}  {b[key]['kernel']}{flag}")
    for key in sorted(set(a) ^ set(b)):
        print(f"only in {'before' if key in a else 'after'}: {key}")
    print(f"{len(set(a) & set(b))} rows compared; worst change {worst * 100:+.2f}%; {bad} slower by more than {limit * 100:.1f}%")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
