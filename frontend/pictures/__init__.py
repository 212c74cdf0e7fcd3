"""Position pictures: a board as spectators see it, drawn on the server as SVG
from the ruleset's spectator view (the data the pages draw from, with the
pages' colours), one module per game (``generic`` for a game without one);
PNG painted from the SVG by ``raster`` (cairosvg for anything it does not
draw)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

import cairosvg

from . import daschax, generic, halma, hexenhalma, idiotenspiel, malefiz, raster

log = logging.getLogger(__name__)

DRAWERS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "halma": halma.draw,
    "malefiz": malefiz.draw,
    "daschax": daschax.draw,
    "hexenhalma": hexenhalma.draw,
    "idiotenspiel": idiotenspiel.draw,
}
PNG_WIDTH = 800  # wide enough for chat previews, small enough to send


def svg_of(slug: str, view: dict[str, Any], title: str) -> str:
    """The SVG document of one spectator ``view`` of game ``slug``."""
    return DRAWERS.get(slug, generic.draw)(view, title)


def lower_priority() -> None:
    """A picture worker process's start: drawings take the CPU that the
    server's other requests leave."""
    os.nice(10)


def png_of(svg: str) -> bytes:
    """The SVG rasterised (no network: the drawings hold no external references)."""
    try:
        return raster.png(svg, PNG_WIDTH)
    except raster.Unsupported as missing:
        log.warning("position picture drawn by cairosvg: the painter lacks %s", missing)
        return cairosvg.svg2png(bytestring=svg.encode(), output_width=PNG_WIDTH, unsafe=False)
