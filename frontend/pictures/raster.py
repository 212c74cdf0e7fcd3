"""A lean rasteriser for the position pictures' own SVG (frontend/pictures/svg.py).

cairosvg reads any SVG and spends most of a render in Python on each element
(styles, units, a copy of the parent's state): 30-60 ms of CPU for a board of
a few hundred elements. The drawings here use a handful of elements and
attributes, so this paints them with the same library underneath (cairo)
straight from the parsed tree, in a few milliseconds. Anything outside that
subset raises ``Unsupported`` and ``png_of`` hands the document to cairosvg.
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

import cairocffi as cairo
from PIL import Image

NS = "{http://www.w3.org/2000/svg}"
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
PATH_TOKEN = re.compile(r"[MmLlHhVvAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
TRANSFORM = re.compile(r"(translate|rotate|scale)\(([^)]*)\)")
Rgba = tuple[float, float, float, float]
NAMED = {"black": "#000", "white": "#fff"}


class Unsupported(ValueError):
    """An element or attribute this painter does not draw."""


def png(svg: str, width: int) -> bytes:
    """The document rasterised ``width`` pixels wide, as PNG bytes."""
    root = ET.fromstring(svg)
    w, h = _number(root.get("width")), _number(root.get("height"))
    scale = width / w
    # Opaque: every drawing starts with a card-coloured rectangle.
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, round(h * scale))
    ctx = cairo.Context(surface)
    ctx.scale(scale, scale)
    ctx.set_miter_limit(4)  # SVG's default (cairo's is 10)
    for child in root:
        _element(ctx, child)
    surface.flush()
    return _encode(surface)


def _encode(surface: cairo.ImageSurface) -> bytes:
    """PNG bytes at zlib's fastest level: cairo's own encoder spends about
    20 ms on 800 by 800 pixels, this a third of that for files a few per cent
    larger (a palette would halve them but shifts colours or costs more)."""
    size = (surface.get_width(), surface.get_height())
    data = bytes(surface.get_data())
    image = Image.frombuffer("RGB", size, data, "raw", "BGRX", surface.get_stride(), 1)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return out.getvalue()


def _element(ctx: cairo.Context, node: ET.Element) -> None:
    tag = node.tag.removeprefix(NS)
    if tag == "title":
        return
    if tag == "g":
        ctx.save()
        _transform(ctx, node.get("transform", ""))
        for child in node:
            _element(ctx, child)
        ctx.restore()
        return
    outline = OUTLINES.get(tag)
    if outline is None:
        raise Unsupported(tag)
    opacity = float(node.get("opacity", "1"))
    if opacity < 1:
        ctx.push_group()
    if tag == "text":
        _text(ctx, node)
    else:
        ctx.new_path()
        outline(ctx, node)
        _paint(ctx, node, filled=tag != "line")  # a line has no inside
    if opacity < 1:
        ctx.pop_group_to_source()
        ctx.paint_with_alpha(opacity)


def _paint(ctx: cairo.Context, node: ET.Element, *, filled: bool) -> None:
    fill = _colour(node.get("fill", "#000")) if filled else None
    stroke = _colour(node.get("stroke", "none"))
    if fill:
        ctx.set_source_rgba(*fill)
        ctx.fill_preserve() if stroke else ctx.fill()
    if stroke:
        ctx.set_source_rgba(*stroke)
        ctx.set_line_width(_number(node.get("stroke-width", "1")))
        ctx.stroke()


def _rect(ctx: cairo.Context, node: ET.Element) -> None:
    x, y, w, h = (_number(node.get(a, "0")) for a in ("x", "y", "width", "height"))
    r = min(_number(node.get("rx", "0")), w / 2, h / 2)
    if r <= 0:
        ctx.rectangle(x, y, w, h)
        return
    ctx.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    ctx.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    ctx.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    ctx.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    ctx.close_path()


def _circle(ctx: cairo.Context, node: ET.Element) -> None:
    cx, cy, r = (_number(node.get(a, "0")) for a in ("cx", "cy", "r"))
    ctx.arc(cx, cy, r, 0, 2 * math.pi)
    ctx.close_path()


def _line(ctx: cairo.Context, node: ET.Element) -> None:
    x1, y1, x2, y2 = (_number(node.get(a, "0")) for a in ("x1", "y1", "x2", "y2"))
    ctx.move_to(x1, y1)
    ctx.line_to(x2, y2)


def _points(ctx: cairo.Context, node: ET.Element) -> None:
    values = [float(v) for v in NUMBER.findall(node.get("points", ""))]
    ctx.move_to(values[0], values[1])
    for i in range(2, len(values) - 1, 2):
        ctx.line_to(values[i], values[i + 1])


def _polygon(ctx: cairo.Context, node: ET.Element) -> None:
    _points(ctx, node)
    ctx.close_path()


def _path(ctx: cairo.Context, node: ET.Element) -> None:
    tokens = PATH_TOKEN.findall(node.get("d", ""))
    command, x, y, i = "", 0.0, 0.0, 0
    while i < len(tokens):
        if tokens[i].isalpha():
            command, i = tokens[i], i + 1
        relative, op = command.islower(), command.upper()
        if op == "Z":
            ctx.close_path()
            continue
        count = {"M": 2, "L": 2, "H": 1, "V": 1, "A": 7}.get(op)
        if count is None:
            raise Unsupported(f"path command {command}")
        args = [float(t) for t in tokens[i : i + count]]
        i += count
        dx, dy = (x, y) if relative else (0.0, 0.0)
        if op == "H":
            x = args[0] + dx
        elif op == "V":
            y = args[0] + dy
        else:
            end = (args[-2] + dx, args[-1] + dy)
            if op == "A":
                _arc(ctx, (x, y), end, args[:5])
            x, y = end
        (ctx.move_to if op == "M" else ctx.line_to)(x, y)
        if op == "M":
            command = "l" if relative else "L"  # further pairs are lines


def _arc(ctx: cairo.Context, start: tuple[float, float], end: tuple[float, float], a: list) -> None:
    """SVG's endpoint arc as cairo's centre arc (SVG 1.1, appendix F.6.5)."""
    rx, ry, phi, large, sweep = abs(a[0]), abs(a[1]), math.radians(a[2]), a[3], a[4]
    (x1, y1), (x2, y2) = start, end
    if rx == 0 or ry == 0 or start == end:
        return
    cos, sin = math.cos(phi), math.sin(phi)
    hx, hy = (x1 - x2) / 2, (y1 - y2) / 2
    px, py = cos * hx + sin * hy, -sin * hx + cos * hy
    grow = px * px / (rx * rx) + py * py / (ry * ry)
    if grow > 1:
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    num = rx * rx * ry * ry - rx * rx * py * py - ry * ry * px * px
    root = math.sqrt(max(0.0, num / (rx * rx * py * py + ry * ry * px * px)))
    if large == sweep:
        root = -root
    qx, qy = root * rx * py / ry, -root * ry * px / rx
    cx, cy = cos * qx - sin * qy + (x1 + x2) / 2, sin * qx + cos * qy + (y1 + y2) / 2
    a1 = math.atan2((py - qy) / ry, (px - qx) / rx)
    a2 = math.atan2((-py - qy) / ry, (-px - qx) / rx)
    ctx.save()
    ctx.translate(cx, cy)
    ctx.rotate(phi)
    ctx.scale(rx, ry)
    (ctx.arc if sweep else ctx.arc_negative)(0, 0, 1, a1, a2)
    ctx.restore()


def _text(ctx: cairo.Context, node: ET.Element) -> None:
    weight = cairo.FONT_WEIGHT_BOLD if node.get("font-weight") == "bold" else 0
    ctx.select_font_face(node.get("font-family", "sans-serif"), cairo.FONT_SLANT_NORMAL, weight)
    ctx.set_font_size(_number(node.get("font-size", "16")))
    text = node.text or ""
    x, y = _number(node.get("x", "0")), _number(node.get("y", "0"))
    anchor = node.get("text-anchor", "start")
    if anchor != "start":
        x_bearing, _, width = ctx.text_extents(text)[:3]
        x -= (width / 2 if anchor == "middle" else width) + x_bearing
    ctx.move_to(x, y)
    ctx.set_source_rgba(*(_colour(node.get("fill", "#000")) or (0, 0, 0, 0)))
    ctx.show_text(text)


def _transform(ctx: cairo.Context, text: str) -> None:
    for name, raw in TRANSFORM.findall(text):
        args = [float(v) for v in NUMBER.findall(raw)]
        if name == "translate":
            ctx.translate(args[0], args[1] if len(args) > 1 else 0.0)
        elif name == "rotate" and len(args) == 1:
            ctx.rotate(math.radians(args[0]))
        elif name == "scale":
            ctx.scale(args[0], args[-1])
        else:
            raise Unsupported(f"transform {text}")


def _colour(text: str) -> Rgba | None:
    text = NAMED.get(text, text)
    if text == "none":
        return None
    if not text.startswith("#") or len(text) not in (4, 7, 9):
        raise Unsupported(f"colour {text}")
    digits = text[1:]
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in range(0, len(digits), 2)]
    return (channels[0], channels[1], channels[2], channels[3] if len(channels) == 4 else 1.0)


def _number(text: str | None) -> float:
    if text is None:
        raise Unsupported("a size is missing")
    return float(text)


OUTLINES: dict[str, Callable[[cairo.Context, ET.Element], None]] = {
    "rect": _rect,
    "circle": _circle,
    "line": _line,
    "polyline": _points,
    "polygon": _polygon,
    "path": _path,
    "text": _text,
}
