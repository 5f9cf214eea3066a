#!/usr/bin/env python3
"""Where a kernel's instructions go, from Nsight Compute's source page per SASS instruction
(ncu -i REPORT --page source --csv --print-source sass):
   scripts/ncu_source_top.py FILE.csv [BLOCKS]
prints the kernel's straight-line runs (consecutive instructions executed equally often: a basic block, or an
unrolled loop body) with the most warp instructions executed, each with its share of the kernel's instructions
and stall samples, its length, how often it ran, its mean active lanes and its commonest opcodes. The columns
are found by name, so the page's other columns may come and go between versions."""
import collections
import csv
import sys


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def main():
    path = sys.argv[1]
    wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    with open(path, newline="") as f:
        table = list(csv.reader(f))
    start = next((i for i, r in enumerate(table) if "Source" in r and "Instructions Executed" in r), None)
    if start is None:
        print(f"{path}: no per-instruction header (Source, Instructions Executed) found")
        return 1
    head = table[start]
    src, inst = head.index("Source"), head.index("Instructions Executed")
    threads = head.index("Thread Instructions Executed") if "Thread Instructions Executed" in head else None
    stall = next((i for i, h in enumerate(head) if h.startswith("Warp Stall Sampling (All")), None)
    rows = [r for r in table[start + 1:] if len(r) == len(head)]
    total = sum(number(r[inst]) for r in rows) or 1.0
    total_stall = sum(number(r[stall]) for r in rows) if stall is not None else 0.0
    runs = []
    for k, r in enumerate(rows):
        count = number(r[inst])
        op = (r[src].split() or [""])[0]
        if op.startswith("@"):  # a predicate guard: the opcode follows
            op = (r[src].split()[1:] or [""])[0]
        op = op.split(".")[0]
        if runs and runs[-1]["count"] == count and count > 0:
            run = runs[-1]
        else:
            run = {"first": k, "count": count, "length": 0, "threads": 0.0, "stall": 0.0, "ops": collections.Counter()}
            runs.append(run)
        run["length"] += 1
        run["threads"] += number(r[threads]) if threads is not None else 0.0
        run["stall"] += number(r[stall]) if stall is not None else 0.0
        run["ops"][op] += 1
    print(f"{path}: {len(rows)} instructions, {total:.4g} warp instructions executed, {total_stall:.4g} stall samples")
    for run in sorted((r for r in runs if r["count"] > 0), key=lambda r: -r["count"] * r["length"])[:wanted]:
        executed = run["count"] * run["length"]
        lanes = run["threads"] / executed if threads is not None else 0.0
        stalls = run["stall"] / total_stall * 100 if total_stall else 0.0
        ops = " ".join(f"{o} {n}" for o, n in run["ops"].most_common(6))
        print(f"{executed / total * 100:6.2f}% inst {stalls:6.2f}% stall  at {run['first']:5d}  {run['length']:4d} long"
              f"  x {run['count']:.3g}  lanes {lanes:4.1f}  {ops}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
