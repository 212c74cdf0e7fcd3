"""A player's rating history as an SVG line chart, drawn on the server.

The SVG scales to its box (viewBox, width 100%), so one drawing reads on a
360 px phone and on a desktop; it carries a <title> and a <desc> (the text
alternative, also shown under the chart) for screen readers.
"""

from __future__ import annotations

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

WIDTH, HEIGHT = 320, 160
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 10, 28  # room for the axis labels
# Points drawn at most: a 320-unit-wide chart shows no more, and the page's
# size then stays flat however many rated games a player has (issue 31).
MAX_POINTS = 200


def summary(ratings: list[int]) -> str:
    """The chart in words: where it started and ended, its range."""
    if not ratings:
        return gettext("No rated games yet.")
    return ngettext(
        "%(games)s rated game: from %(first)s to %(last)s; highest %(high)s, lowest %(low)s.",
        "%(games)s rated games: from %(first)s to %(last)s; highest %(high)s, lowest %(low)s.",
        len(ratings) - 1,
    ) % {
        "games": len(ratings) - 1,
        "first": ratings[0],
        "last": ratings[-1],
        "high": max(ratings),
        "low": min(ratings),
    }


def _scale(ratings: list[int]) -> tuple[int, int]:
    """The y axis's bounds: the values' range, padded, at least 100 points tall."""
    low, high = min(ratings), max(ratings)
    middle, half = (low + high) / 2, max((high - low) / 2 + 10, 50)
    return int(middle - half) // 10 * 10, -(-int(middle + half) // 10) * 10


def thinned(ratings: list[int], limit: int = MAX_POINTS) -> list[tuple[int, int]]:
    """(game index, rating) pairs to draw: all of them up to ``limit``; beyond,
    the first, the last, and each stretch's lowest and highest in their order,
    so no peak or trough the player reached disappears from the line."""
    if len(ratings) <= limit:
        return list(enumerate(ratings))
    buckets = (limit - 2) // 2
    inner = len(ratings) - 2
    kept = [(0, ratings[0])]
    for b in range(buckets):
        start, stop = 1 + inner * b // buckets, 1 + inner * (b + 1) // buckets
        if start >= stop:
            continue
        stretch = range(start, stop)
        low = min(stretch, key=ratings.__getitem__)
        high = max(stretch, key=ratings.__getitem__)
        kept.extend((i, ratings[i]) for i in sorted({low, high}))
    kept.append((len(ratings) - 1, ratings[-1]))
    return kept


def rating_chart(ratings: list[int], title: str, chart_id: str) -> SafeString:
    """``ratings``: the rating before the first game, then after each game."""
    low, high = _scale(ratings)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    steps = max(len(ratings) - 1, 1)

    def xy(i: int, value: int) -> tuple[float, float]:
        return (
            round(LEFT + plot_w * i / steps, 1),
            round(TOP + plot_h * (high - value) / (high - low), 1),
        )

    points = [xy(i, v) for i, v in thinned(ratings)]
    line = " ".join(f"{x},{y}" for x, y in points)
    dots = "".join(f'<circle cx="{x}" cy="{y}" r="2.5"/>' for x, y in points)
    bottom = TOP + plot_h
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" preserveAspectRatio="xMidYMid meet">',
        format_html('<title id="{}-t">{}</title>', chart_id, title),
        format_html('<desc id="{}-d">{}</desc>', chart_id, summary(ratings)),
        f'<g class="axis"><line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>'
        f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}"/></g>',
        f'<g class="ticks" text-anchor="end"><text x="{LEFT - 4}" y="{TOP + 4}">{high}</text>'
        f'<text x="{LEFT - 4}" y="{bottom}">{low}</text></g>',
        f'<text class="label" x="{LEFT}" y="{HEIGHT - 6}">0</text>',
        f'<text class="label" x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end">'
        f"{len(ratings) - 1}</text>",
        f'<text class="label" x="{LEFT + plot_w / 2}" y="{HEIGHT - 6}" text-anchor="middle">'
        f"{escape(gettext('rated games'))}</text>",
        f'<text class="label" transform="translate(10 {TOP + plot_h / 2}) rotate(-90)" '
        f'text-anchor="middle">{escape(gettext("rating"))}</text>',
        f'<polyline class="line" points="{line}"/>',
        f'<g class="dots">{dots}</g>',
        "</svg>",
    ]
    # Safe: numbers, and text escaped above.
    return mark_safe("".join(parts))
