#!/usr/bin/env python3
"""The loops of one kernel in `cuobjdump --dump-sass` output (stdin), each with its opcode mix.

    cuobjdump --dump-sass lib.a | scripts/sass_loops.py tensor_step_kernel [OPCODE]

A loop is the code from a backward branch's target to the branch. With OPCODE (e.g. HMMA) only the loops
that contain it are listed, innermost first. Used for the tensor-core kernel, whose pair loop handles 4
interactions per lane per 8-body j-group: issued instructions per interaction = loop length / (4 x groups
per trip) (docs/bench/performance-log.md).
"""
import collections
import re
import sys


def functions(text):
    for chunk in re.split(r"\n\s*Function : ", text)[1:]:
        name, _, body = chunk.partition("\n")
        yield name.strip(), body


def instructions(body):
    for line in body.split("\n"):
        m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            yield int(m.group(1), 16), m.group(2)


def opcode(text):
    return re.sub(r"^@!?U?P\w+\s+", "", text).split()[0].split(".")[0]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    want, must = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
    for name, body in functions(sys.stdin.read()):
        if want not in name:
            continue
        ins = list(instructions(body))
        loops = []
        for addr, text in ins:
            m = re.search(r"BRA\s.*?(0x[0-9a-f]+)", text)
            if m and int(m.group(1), 16) < addr:
                start = int(m.group(1), 16)
                mix = collections.Counter(opcode(t) for a, t in ins if start <= a <= addr)
                if must is None or mix[must]:
                    loops.append((sum(mix.values()), start, addr, mix))
        print(f"{name}: {len(ins)} instructions, {len(loops)} loops")
        for length, start, end, mix in sorted(loops):
            top = ", ".join(f"{k} {v}" for k, v in mix.most_common(16))
            print(f"  {start:#06x}-{end:#06x}: {length} instructions: {top}")


if __name__ == "__main__":
    main()
