#!/usr/bin/env python3
"""Draw the web app's icons (frontend/static/frontend/icons/): a cream game
piece on the site's green, full bleed so that a "maskable" crop loses
nothing. Standard library only (zlib), no image library needed.

    python3 bin/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

GREEN = (0x2F, 0x6F, 0x4F)
CREAM = (0xF4, 0xEC, 0xD8)
RINGS = [(0.30, CREAM), (0.19, GREEN), (0.13, CREAM)]  # radius (of the size), colour
SAMPLES = 4  # per axis: smooth edges
OUT = Path(__file__).resolve().parent.parent / "frontend/static/frontend/icons"


def colour_at(x: float, y: float) -> tuple[int, int, int]:
    d2 = (x - 0.5) ** 2 + (y - 0.5) ** 2
    found = GREEN
    for radius, colour in RINGS:
        if d2 <= radius * radius:
            found = colour
    return found


def pixel(px: int, py: int, size: int) -> bytes:
    total = [0, 0, 0]
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            c = colour_at((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size)
            for i in range(3):
                total[i] += c[i]
    return bytes(round(t / SAMPLES**2) for t in total)


def png(size: int) -> bytes:
    rows = b"".join(b"\0" + b"".join(pixel(x, y, size) for x in range(size)) for y in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def svg() -> str:
    circles = "".join(
        f'<circle cx="256" cy="256" r="{radius * 512:g}" fill="#{bytes(c).hex()}"/>'
        for radius, c in RINGS
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
        f'<rect width="512" height="512" fill="#{bytes(GREEN).hex()}"/>{circles}</svg>\n'
    )


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (OUT / f"icon-{size}.png").write_bytes(png(size))
    (OUT / "icon.svg").write_text(svg())
