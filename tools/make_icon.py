#!/usr/bin/env python3
"""Writes assets/icon.png: the window icon, a 64x64 two-armed spiral galaxy drawn here (no third-party art).
Plain Python (zlib + struct), so the file can be regenerated anywhere: tools/make_icon.py [out.png]."""
import math
import struct
import sys
import zlib

SIZE = 64


def pixel(x, y):
    # Polar coordinates about the centre, in units of the icon's half-width.
    u, v = (x + 0.5) / SIZE * 2 - 1, (y + 0.5) / SIZE * 2 - 1
    r, phi = math.hypot(u, v), math.atan2(v, u)
    bulge = math.exp(-(r / 0.16) ** 2)
    # Two logarithmic arms: brightness peaks where phi - ln(r) / tan(pitch) is a multiple of pi.
    arm_phase = phi - math.log(max(r, 1e-3)) / math.tan(math.radians(22))
    arms = (0.5 + 0.5 * math.cos(2 * arm_phase)) ** 6 * math.exp(-r / 0.45) * (r > 0.08)
    glow = min(1.0, bulge + 0.9 * arms)
    alpha = min(1.0, glow * 1.6) if r < 1 else 0.0
    red, green, blue = 0.75 + 0.25 * bulge, 0.7 + 0.2 * bulge, 1.0 - 0.35 * bulge
    return [int(255 * min(1.0, c * glow)) for c in (red, green, blue)] + [int(255 * alpha)]


def png(width, height, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(v for p in row for v in p) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "assets/icon.png"
    with open(out, "wb") as f:
        f.write(png(SIZE, SIZE, [[pixel(x, y) for x in range(SIZE)] for y in range(SIZE)]))
