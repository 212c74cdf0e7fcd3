"""Daschax as spectators see it: flat-topped hexes, pieces with their facing
(seat 0 at the bottom, as spectators see the page)."""

from __future__ import annotations

import math
from typing import Any

from .svg import LAST, document, el

K = 3.0  # pixels per unit of the page's board (js/boards/daschax-draw.js)
S = 10 * K
H = math.sqrt(3) * S
GAP = 3 * K
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
RADIUS = {"small": 3.4 * K, "medium": 4.8 * K, "large": 6.2 * K}
CORE = {"small": "#d23a2e", "medium": "#efb823", "large": "#2f69b3"}
BASE = (("#fbf8f1", "#4a4336"), ("#26231f", "#000"))
CELL, CELL_EDGE, START = ("#efe4cc", "#f6eedd", "#d5c8ae"), "#c3ad82", None


def draw(view: dict[str, Any], title: str) -> str:
    cols, rows = view["board"]["cols"], view["board"]["rows"]
    height = H * (rows + 0.5)

    def centre(field: list[int]) -> tuple[float, float]:
        c, r = field
        return GAP + S + 1.5 * S * c, GAP + height - (H / 2 + H * r + (H / 2 if c & 1 else 0))

    starts = view.get("start_rows", [])
    body = []
    for c in range(cols):
        for r in range(rows):
            fill = CELL[0]
            if r in starts:
                fill = CELL[1 + starts.index(r) % 2]
            body.append(
                el(
                    "polygon",
                    points=_hex(centre([c, r])),
                    fill=fill,
                    stroke=CELL_EDGE,
                    stroke_width=0.5 * K,
                )
            )
    last = view.get("last")
    if last and last.get("path"):
        x, y = centre(last["path"][-1]["at"])
        body.append(el("polygon", points=_hex((x, y)), fill="none", stroke=LAST, stroke_width=K))
    for piece in view["pieces"]:
        body.append(_piece(piece, centre(piece["at"])))
    return document(2 * GAP + S * (1.5 * (cols - 1) + 2), 2 * GAP + height, title, body)


def _hex(point: tuple[float, float]) -> str:
    x, y = point
    corners = [
        (x + S * math.cos(math.pi / 3 * i), y + S * math.sin(math.pi / 3 * i)) for i in range(6)
    ]
    return " ".join(f"{a:.2f},{b:.2f}" for a, b in corners)


def _piece(piece: dict[str, Any], point: tuple[float, float]) -> str:
    """A base in the seat's colour with a nose towards the facing, a disc by size."""
    r = RADIUS[piece["size"]]
    fill, edge = BASE[piece["seat"] % 2]
    turn = FACINGS.index(piece["facing"]) * 60 if piece.get("facing") in FACINGS else 0
    a, nose = 0.45, r + K + 0.3 * r
    lx, rx, ty = -r * math.sin(a), r * math.sin(a), -r * math.cos(a)
    base = f"M {lx:.2f} {ty:.2f} L 0 {-nose:.2f} L {rx:.2f} {ty:.2f} A {r:.2f} {r:.2f} 0 1 1 {lx:.2f} {ty:.2f} Z"
    x, y = point
    return (
        f'<g transform="translate({x:.2f} {y:.2f}) rotate({turn})">'
        + el("path", d=base, fill=fill, stroke=edge, stroke_width=0.6 * K)
        + el(
            "circle",
            r=r * 0.64,
            fill=CORE[piece["size"]],
            stroke="#00000059",
            stroke_width=0.35 * K,
        )
        + "</g>"
    )
