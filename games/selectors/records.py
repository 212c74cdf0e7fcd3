"""Reads of the results of long work kept outside the state (Hexenhalma match traces)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_noop

from ..errors import GameError
from ..models import Game, MatchRecord


def record_rows(
    game: Game, *, full: bool, round_: int | None = None, version: int | None = None
) -> QuerySet[MatchRecord, dict[str, Any]]:
    """A game's records in order (``version``, ``index`` and their summary, or
    with ``full`` their data), optionally of one round or one version only."""
    rows = MatchRecord.objects.filter(game=game).order_by("version", "index")
    if round_ is not None:
        rows = rows.filter(summary__round=round_)
    if version is not None:
        rows = rows.filter(version=version)
    return rows.values("version", "index", "data" if full else "summary")


def flat(row: Mapping[str, Any]) -> dict[str, Any]:
    """One row of ``record_rows`` as the API shows it: its summary or data, with its place."""
    content = row["data"] if "data" in row else row["summary"]
    return {"version": row["version"], "index": row["index"], **content}


def record(*, game_id: int, version: int, index: int) -> dict[str, Any]:
    """One record with its data, or the error saying there is none."""
    # A foreign key's lookup, unlike the game's own id, does not turn an id
    # beyond the database's range into "no rows": such an id has no records.
    found = None
    if 0 < game_id < 2**63:
        found = (
            MatchRecord.objects.filter(game_id=game_id, version=version, index=index)
            .values("version", "index", "data")
            .first()
        )
    if found is None:
        raise GameError("not_found", gettext_noop("There is no such record."), status=404)
    return flat(found)
