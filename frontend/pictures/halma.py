"""Halma as spectators see it: the 10 by 10 board, houses, pieces, last move."""

from __future__ import annotations

from typing import Any

from .svg import DARK, LAST, LIGHT, document, el, polyline

CELL = 40
N = 10
HOUSE = ({"light": "#e9dcc0", "dark": "#d8c39a"}, {"light": "#cfd9cf", "dark": "#b9c9b9"})
PIECE = (("#f7f3ea", "#5a5346"), ("#2b2a28", "#000"), ("#c0392b", "#000"), ("#2e6fb7", "#000"))


def centre(field: list[int]) -> tuple[float, float]:
    r, c = field
    return c * CELL + CELL / 2, r * CELL + CELL / 2


def draw(view: dict[str, Any], title: str) -> str:
    houses = [{tuple(f) for f in house} for house in view["board"]["houses"]]
    body = []
    for r in range(N):
        for c in range(N):
            shade = "dark" if (r + c) % 2 else "light"
            fill = DARK if shade == "dark" else LIGHT
            for seat, house in enumerate(houses):
                if (r, c) in house:
                    fill = HOUSE[seat % 2][shade]
            body.append(el("rect", x=c * CELL, y=r * CELL, width=CELL, height=CELL, fill=fill))
    last = view.get("last_move")
    if last:
        body.append(polyline([centre(p) for p in last["path"]], stroke=LAST, stroke_width=4))
    for seat, pieces in enumerate(view["pieces"]):
        fill, edge = PIECE[seat % len(PIECE)]
        for field in pieces:
            x, y = centre(field)
            body.append(el("circle", cx=x, cy=y, r=13.6, fill=fill, stroke=edge, stroke_width=2.4))
    return document(N * CELL, N * CELL, title, body)
