"""Any other game as spectators see it: a ruleset registered without a drawing
of its own (frontend/pictures/<slug>.py) still gets a picture, the spectator
view's plain entries as lines of text, so a new game stays data plus
functions. Only the spectator view is read, as for every drawing."""

from __future__ import annotations

from typing import Any

from .svg import INK, MUTED, document, el

WIDTH, LINE, TOP = 480, 24, 40
MOST_LINES, MOST_CHARS = 16, 48


def draw(view: dict[str, Any], title: str) -> str:
    lines = _lines(view)
    body = [el("text", title, x=16, y=TOP, fill=INK, font_size=20, font_family="sans-serif")]
    body += [
        el(
            "text",
            line,
            x=16,
            y=TOP + LINE * (i + 1.5),
            fill=MUTED,
            font_size=16,
            font_family="sans-serif",
        )
        for i, line in enumerate(lines)
    ]
    return document(WIDTH, TOP + LINE * (len(lines) + 1.5), title, body)


def _lines(view: dict[str, Any]) -> list[str]:
    """``key: value`` for each number, word or short list of them; nested
    data has no general shape to draw and is left out."""
    out = []
    for key, value in view.items():
        if isinstance(value, list) and all(_plain(v) for v in value):
            shown = ", ".join(str(v) for v in value)
        elif _plain(value) and value is not None:
            shown = str(value)
        else:
            continue
        line = f"{key}: {shown}"
        out.append(line if len(line) <= MOST_CHARS else line[: MOST_CHARS - 1] + "…")
    return out[:MOST_LINES]


def _plain(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool)
