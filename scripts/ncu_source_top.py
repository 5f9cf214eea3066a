#!/usr/bin/env python3
"""The heaviest lines of an Nsight Compute source page (ncu -i REPORT --page source --csv --print-source cuda|sass):
   scripts/ncu_source_top.py FILE.csv [ROWS]
prints the rows with the most instructions executed, each with its share of the kernel's instructions and of its
warp stall samples. The columns are found by name, so the page's other columns may come and go between versions."""
import csv
import sys


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def main():
    path = sys.argv[1]
    rows_wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    with open(path, newline="") as f:
        lines = [line for line in f if line.strip()]
    start = next((i for i, line in enumerate(lines) if "Source" in line and "Instructions Executed" in line), None)
    if start is None:
        print(f"{path}: no source page header (instructions executed) found; first lines:")
        print("".join(lines[:5]))
        return 1
    table = list(csv.reader(lines[start:]))
    head = table[0]
    col = {name: head.index(name) for name in head}
    src = next(i for i, h in enumerate(head) if h in ("Source", "# Source"))
    inst = next(i for i, h in enumerate(head) if h.startswith("Instructions Executed"))
    stall = next((i for i, h in enumerate(head) if h.startswith("Warp Stall Sampling (All")), None)
    where = col.get("# Address", col.get("Address", col.get("#", None)))
    body = [r for r in table[1:] if len(r) == len(head)]
    total_inst = sum(number(r[inst]) for r in body) or 1.0
    total_stall = sum(number(r[stall]) for r in body) if stall is not None else 0.0
    print(f"{path}: {len(body)} rows, {total_inst:.4g} warp instructions executed, {total_stall:.4g} stall samples")
    for r in sorted(body, key=lambda r: -number(r[inst]))[:rows_wanted]:
        share_stall = number(r[stall]) / total_stall * 100 if stall is not None and total_stall else 0.0
        label = f"{r[where]:>8} " if where is not None else ""
        print(f"{number(r[inst]) / total_inst * 100:6.2f}% inst {share_stall:6.2f}% stall  {label}{r[src].strip()[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
