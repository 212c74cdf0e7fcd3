"""Idiotenspiel as spectators see it: the map's terrain and every unit on it,
one counter per side and field (a number when several stand there)."""

from __future__ import annotations

from typing import Any

from .svg import document, el

CELL = 24
TERRAIN = {
    ".": "#e9ddb3", "=": "#e9ddb3", "h": "#d8bb7f", "f": "#a6c287", "s": "#c3cda3",
    "~": "#6fa5cf", "o": "#a9cfe3", "F": "#bfb5a5", "c": "#ecd8a5", "r": "#9c978d",
}  # fmt: skip
ROAD = "#b59a63"
SIDE = ("#2e6b35", "#a02d25")
CIVILIAN = "#f6ead0"
LEADER = "#f2c230"


def draw(view: dict[str, Any], title: str) -> str:
    game_map = view["map"]
    body = []
    for y, row in enumerate(game_map["rows"]):
        for x, letter in enumerate(row):
            body.append(
                el(
                    "rect",
                    x=x * CELL,
                    y=y * CELL,
                    width=CELL,
                    height=CELL,
                    fill=TERRAIN.get(letter, "#e9ddb3"),
                    stroke="#00000014",
                    stroke_width=0.5,
                )
            )
            if letter == "=":
                body.append(
                    el(
                        "rect",
                        x=x * CELL,
                        y=y * CELL + CELL * 0.4,
                        width=CELL,
                        height=CELL * 0.2,
                        fill=ROAD,
                    )
                )
    for (x, y, side), units in sorted(_stacks(view["units"]).items()):
        body += _counter(x, y, side, units)
    return document(game_map["width"] * CELL, game_map["height"] * CELL, title, body)


def _stacks(units: list[dict[str, Any]]) -> dict[tuple[int, int, int], list[dict[str, Any]]]:
    """Units standing on the map, by field and side (side -1: civilians)."""
    stacks: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for unit in units:
        if not unit.get("alive") or unit.get("at") is None or unit.get("prisoner"):
            continue
        side = unit["side"] if unit.get("kind") != "civilian" else -1
        x, y = unit["at"]
        stacks.setdefault((x, y, side), []).append(unit)
    return stacks


def _counter(x: int, y: int, side: int, units: list[dict[str, Any]]) -> list[str]:
    shift = {-1: 0.0, 0: -3.0, 1: 3.0}[side] if side in (-1, 0, 1) else 0.0
    cx, cy = x * CELL + CELL / 2 + shift, y * CELL + CELL / 2 + shift
    size = CELL * 0.72
    fill = CIVILIAN if side == -1 else SIDE[side % 2]
    edge = LEADER if any(u.get("leader") for u in units) else "#1d1a15"
    out = [
        el(
            "rect",
            x=cx - size / 2,
            y=cy - size / 2,
            width=size,
            height=size,
            rx=2.5,
            fill=fill,
            stroke=edge,
            stroke_width=1.6,
        )
    ]
    if len(units) > 1:
        out.append(
            el(
                "text",
                str(len(units)),
                x=cx,
                y=cy + 4.5,
                fill="#fff",
                font_size=13,
                font_family="sans-serif",
                text_anchor="middle",
                font_weight="bold",
            )
        )
    return out
