#!/usr/bin/env python3
"""Issued instructions per interaction of each step kernel, read from `cuobjdump --dump-sass` output.

For every kernel function, the loop with the most MUFU.RSQ (one per interaction) is its inner j loop:
the instructions between a backward branch's target and the branch. Instructions per interaction =
loop instructions / MUFU.RSQ in the loop. Usage: cuobjdump --dump-sass lib.a | sass_per_interaction.py
"""
import collections
import re
import sys

func_re = re.compile(r"Function : (\S+)")
ins_re = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")


def demangle_shape(name):
    h = re.search(r"hermite_force_kernelINS0_(\w+?)ELb([01])E", name)
    if h:
        pol = "fp32" if "If6float4" in h.group(1) else "ds" if "HermiteDS" in h.group(1) else "fp64"
        return f"hermite_force_kernel<{pol}, PHI={'true' if h.group(2) == '1' else 'false'}>"
    m = re.search(r"step_kernelILi(\d+)ELi(\d+)ELb([01])E", name)
    if not m:
        return name
    k, u, rolled = m.groups()
    return f"step_kernel<K={k}, U={u}, ROLLED={'true' if rolled == '1' else 'false'}>"


def analyse(name, instrs):
    # The Hermite kernel's tile loop holds several unrolled inner loops (k = 1, 2, 4, ragged): take its
    # cheapest loop per interaction, the full-tile loop of the largest k.
    cheapest = "hermite_force_kernel" in name
    best = None
    for idx, (addr, op, rest) in enumerate(instrs):
        if not op.startswith("BRA"):
            continue
        tgt = re.search(r"0x([0-9a-f]+)", rest)
        if not tgt:
            continue
        target = int(tgt.group(1), 16)
        if target >= addr:
            continue
        body = [i for i in instrs if target <= i[0] <= addr]
        mufu = sum(1 for i in body if i[1].startswith("MUFU.RSQ"))
        if mufu and cheapest and (best is None or len(body) / mufu < len(best[1]) / best[0]):
            best = (mufu, body)
        elif mufu and not cheapest and (
            best is None or mufu > best[0] or (mufu == best[0] and len(body) < len(best[1]))
        ):
            best = (mufu, body)
    if best is None:
        return None
    mufu, body = best
    ops = collections.Counter(i[1].split(".")[0] for i in body)
    return mufu, len(body), ops


def main():
    funcs, cur = {}, None
    for line in sys.stdin:
        m = func_re.search(line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        m = ins_re.search(line)
        if m and cur:
            funcs[cur].append((int(m.group(1), 16), m.group(3), m.group(4)))
    print(f"{'kernel':44s} {'inter/loop':>10s} {'instr/loop':>10s} {'instr/inter':>11s}  mix per loop")
    for name in sorted(funcs, key=demangle_shape):
        if "step_kernel" not in name and "hermite_force_kernel" not in name:
            continue
        r = analyse(name, funcs[name])
        if not r:
            continue
        mufu, n, ops = r
        mix = " ".join(f"{k}:{v}" for k, v in ops.most_common(8))
        print(f"{demangle_shape(name):44s} {mufu:10d} {n:10d} {n / mufu:11.2f}  {mix}")


if __name__ == "__main__":
    main()
