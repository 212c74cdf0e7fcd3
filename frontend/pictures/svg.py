"""A small SVG writer for the position pictures: elements as escaped text."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

# The page's palette (frontend/static/frontend/css/site.css), so a picture
# looks like the board on the page.
INK = "#23201b"
MUTED = "#6b6458"
LIGHT = "#efe4cc"
DARK = "#dccaa5"
LAST = "#d9822b"
CARD = "#fffdf8"


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def el(tag: str, text: str = "", **attrs: object) -> str:
    """One element; ``class_`` and ``stroke_width`` style names become ``class``
    and ``stroke-width``."""
    parts = []
    for name, value in attrs.items():
        if value is None:
            continue
        shown = _number(value) if isinstance(value, float) else str(value)
        parts.append(f"{name.rstrip('_').replace('_', '-')}={quoteattr(shown)}")
    head = " ".join([tag, *parts])
    if text:
        return f"<{head}>{escape(text)}</{tag}>"
    return f"<{head}/>"


def document(width: float, height: float, title: str, body: list[str]) -> str:
    """A standalone SVG document of the given size (user units = pixels)."""
    w, h = _number(width), _number(height)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" role="img">'
        f"{el('title', title)}{el('rect', x=0, y=0, width=w, height=h, fill=CARD)}"
        + "".join(body)
        + "</svg>"
    )


def polyline(points: list[tuple[float, float]], **attrs: object) -> str:
    joined = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
    return el("polyline", "", points=joined, fill="none", **attrs)
