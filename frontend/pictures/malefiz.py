"""Malefiz as spectators see it: paths, goal, barricades, houses, pieces."""

from __future__ import annotations

from typing import Any

from .svg import LAST, document, el, polyline

K = 3.6  # pixels per unit of the page's board (frontend/static/frontend/js/boards/malefiz.js)
CELL = 10 * K
TOP = 15.4
W = 18 * CELL
HOUSE_DY, HOUSE_W, HOUSE_H = 2.25 * CELL, 3.2 * CELL, 2.7 * CELL
H = (TOP - 1) * CELL + HOUSE_DY + HOUSE_H / 2 + K
COLOURS = {"red": "#c8372d", "green": "#2f8a4f", "yellow": "#e8b523", "blue": "#2e6fb7"}
FIELD, FIELD_EDGE, BASE = "#efe4cc", "#7d6640", "#f6efdf"


def point(field: list[int]) -> tuple[float, float]:
    return field[0] * CELL, (TOP - field[1]) * CELL


def house_centre(entry: list[int]) -> tuple[float, float]:
    return entry[0] * CELL, (TOP - 1) * CELL + HOUSE_DY


def draw(view: dict[str, Any], title: str) -> str:
    board = view["board"]
    body = [_edge(a, b) for a, b in board["edges"]]
    for field in board["fields"]:
        x, y = point(field)
        fill = BASE if field[1] == board["no_barricade_row"] else FIELD
        body.append(
            el("circle", cx=x, cy=y, r=3.4 * K, fill=fill, stroke=FIELD_EDGE, stroke_width=0.6 * K)
        )
    gx, gy = point(board["goal"])
    body.append(
        el(
            "circle",
            cx=gx,
            cy=gy,
            r=5.2 * K,
            fill="#f4d27a",
            stroke="#8a6a1f",
            stroke_width=0.8 * K,
        )
    )
    colour_of = {h["seat"]: h["colour"] for h in view["houses"]}
    body += _houses(view, colour_of)
    last = view.get("last_move")
    if last and last.get("path"):
        colour = COLOURS[colour_of.get(last["seat"], "red")]
        body.append(
            polyline([point(p) for p in last["path"]], stroke=colour, stroke_width=K, opacity="0.7")
        )
    for field in view["barricades"]:
        x, y = point(field)
        side = 6.6 * K
        body.append(
            el(
                "rect",
                x=x - side / 2,
                y=y - side / 2,
                width=side,
                height=side,
                rx=1.5 * K,
                fill="#f7f7f2",
                stroke="#333",
                stroke_width=0.6 * K,
            )
        )
    for entry in view["pieces"]:
        colour = COLOURS[colour_of[entry["seat"]]]
        for field in entry["fields"]:
            x, y = point(field)
            body.append(_piece(x, y, colour))
    return document(W, H, title, [*body, *_last_mark(view)])


def _piece(x: float, y: float, colour: str) -> str:
    return el("circle", cx=x, cy=y, r=3 * K, fill=colour, stroke="#1d1a15", stroke_width=0.5 * K)


def _edge(a: list[int], b: list[int]) -> str:
    (x1, y1), (x2, y2) = point(a), point(b)
    return el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=FIELD_EDGE, stroke_width=0.9 * K)


def _houses(view: dict[str, Any], colour_of: dict[int, str]) -> list[str]:
    """Each used house with its pieces still at home as dots."""
    home = {p["seat"]: p["home"] for p in view["pieces"]}
    seat_of = {colour: seat for seat, colour in colour_of.items()}
    out = []
    for house in view["board"]["houses"]:
        colour = COLOURS[house["colour"]]
        cx, cy = house_centre(house["entry"])
        seat = seat_of.get(house["colour"])
        out.append(
            el(
                "rect",
                x=cx - HOUSE_W / 2,
                y=cy - HOUSE_H / 2,
                width=HOUSE_W,
                height=HOUSE_H,
                rx=4 * K,
                fill="#fffdf8",
                stroke=colour if seat is not None else "#a39c8f",
                stroke_width=0.9 * K,
            )
        )
        for i in range(home.get(seat, 0) if seat is not None else 0):
            dx = (i % 3 - 1) * 8 * K
            dy = (i // 3) * 7 * K - 2 * K
            out.append(_piece(cx + dx, cy + dy, colour))
    return out


def _last_mark(view: dict[str, Any]) -> list[str]:
    last = view.get("last_move")
    if not last or not last.get("path"):
        return []
    x, y = point(last["path"][-1])
    return [el("circle", cx=x, cy=y, r=4.2 * K, fill="none", stroke=LAST, stroke_width=0.8 * K)]
