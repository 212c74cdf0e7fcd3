"""Hexenhalma as spectators see it: the round's board with both teams' start
fields and the standings. Orders are a team's secret: a spectator's view has
none, and this drawing reads nothing else."""

from __future__ import annotations

from typing import Any

from .svg import INK, LIGHT, MUTED, document, el

CELL = 24
PLAIN_ODD, START, GOAL = "#e7d8b7", "#f0d2ae", "#cfe0c8"


def draw(view: dict[str, Any], title: str) -> str:
    board = view.get("board")
    lines = _standings(view)
    if not board:
        body = [
            el("text", line, x=16, y=32 + 26 * i, fill=INK, font_size=18, font_family="sans-serif")
            for i, line in enumerate([title, *lines])
        ]
        return document(480, 48 + 26 * len(lines) + 16, title, body)
    rows, cols = board["rows"], board["cols"]
    starts = {tuple(f) for f in board.get("starts", [])}
    goals = {(rows - 1 - r, cols - 1 - c) for r, c in starts}  # side B's starts: A's goal
    body = []
    for r, c in board["fields"]:
        fill = (
            START
            if (r, c) in starts
            else GOAL
            if (r, c) in goals
            else LIGHT
            if (r + c) % 2 == 0
            else PLAIN_ODD
        )
        body.append(
            el(
                "rect",
                x=c * CELL,
                y=r * CELL,
                width=CELL,
                height=CELL,
                fill=fill,
                stroke="#5a46282e",
                stroke_width=0.8,
            )
        )
    top = rows * CELL + 24
    for i, line in enumerate(lines):
        body.append(
            el(
                "text",
                line,
                x=6,
                y=top + 22 * i,
                fill=MUTED,
                font_size=16,
                font_family="sans-serif",
            )
        )
    return document(cols * CELL, top + 22 * len(lines), title, body)


def _standings(view: dict[str, Any]) -> list[str]:
    names = view.get("seat_names", [])
    out = []
    for row in view.get("standings", []):
        seat = row["seat"]
        name = names[seat] if seat < len(names) else str(seat)
        out.append(f"{row['rank']}. {name}: {row['points']} ({row['goals']})")
    return out
