"""The analysis of a game as the API and the replay page show it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from ..models import Analysis, Game, Seat


def analysis_answer(game: Game) -> dict[str, Any]:
    """``{"status", "progress", "plies", "summary"}`` (ARCHITECTURE.md,
    "Analysis"), with ``done`` and ``total`` plies beside ``progress``."""
    row = Analysis.objects.filter(game=game).first()
    if row is None:
        return {
            "status": "none",
            "progress": 0.0,
            "plies": [],
            "summary": {},
            "done": 0,
            "total": 0,
        }
    done = len(row.plies)
    total = max(row.total, done)
    if row.status == Analysis.Status.DONE:
        progress = 1.0
    else:
        progress = round(done / total, 4) if total else 0.0
    return {
        "status": row.status,
        "progress": progress,
        "plies": row.plies,
        "summary": row.summary,
        "done": done,
        "total": total,
    }


def summary_by_name(game: Game, by_seat: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The per-seat summary keyed by each seat's player (a seat nobody held:
    its seat's name), each with its ``seat``."""
    names = dict(
        Seat.objects.filter(game=game, user__isnull=False).values_list("index", "user__username")
    )
    out = {}
    for seat, row in by_seat.items():
        name = names.get(seat) or gettext("Seat %(n)s") % {"n": seat + 1}
        out[name] = {**row, "seat": seat}
    return out
