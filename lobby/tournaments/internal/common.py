"""What every tournament service shares: the locked row, checks, the live push."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

from django.db import connection
from django.utils.translation import gettext_noop

from games import publish
from games.errors import GameError
from games.row_ids import row_pk
from lobby.models import Tournament

log = logging.getLogger(__name__)


def each_due(
    field: str, now: datetime, batch: int, run: Callable[[int, datetime], int], work: str
) -> int:
    """The sweeper's tournament thread: ``run`` each of up to ``batch``
    tournaments whose ``field`` (a due time on a partial index) has come by
    ``now``, oldest first; one broken tournament must not stop the others.
    Returns what the runs did."""
    due = list(
        Tournament.objects.filter(**{f"{field}__lte": now})
        .order_by(field)
        .values_list("pk", flat=True)[:batch]
    )
    done = 0
    for tournament_id in due:
        try:
            done += run(tournament_id, now)
        except Exception:
            log.exception("tournament %s: %s failed", tournament_id, work)
    return done


def claim_due(tournament_id: int, field: str, now: datetime) -> Tournament | None:
    """The tournament, locked, if its ``field`` is still due (in a
    transaction); None when another process holds it (a result's or a
    round's transaction: the next round of the thread retries) or it is done."""
    claimed = Tournament.objects.filter(pk=tournament_id, **{f"{field}__lte": now})
    if connection.features.has_select_for_update_skip_locked:
        claimed = claimed.select_for_update(skip_locked=True)
    return claimed.first()


def locked_tournament(tournament_id: object) -> Tournament:
    return tournament_or_404(tournament_id, lock=True)


def tournament_or_404(tournament_id: object, *, lock: bool = False) -> Tournament:
    """The tournament of ``tournament_id`` (a client's value: an id, or its digits)."""
    found = Tournament.objects.select_for_update() if lock else Tournament.objects
    pk = row_pk(tournament_id)
    tournament = None if pk is None else found.filter(pk=pk).first()
    if tournament is None:
        raise GameError("not_found", gettext_noop("There is no such tournament."), status=404)
    return tournament


def refuse_unless_open(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.OPEN:
        raise GameError("not_open", gettext_noop("This tournament has already started or ended."))


def tell_lobby(tournament: Tournament) -> None:
    """After the commit: the lobby's sockets (and every tournament page on
    them) hear that this tournament changed; pages fetch it again."""
    frame = {
        "type": "lobby.tournament",
        "tournament": {
            "id": tournament.pk,
            "status": tournament.status,
            "current_round": tournament.current_round,
        },
    }
    publish.send(publish.LOBBY_GROUP, frame)


def tell_players(tournament: Tournament, number: int, games: list[tuple[int, list[int]]]) -> None:
    """After the commit (never from inside the pairing's transaction, which
    may still roll back): each player of a round's games (game id, user ids in
    seat order) hears on their API event streams that it waits for them."""
    summary = {
        "id": tournament.pk,
        "name": tournament.name,
        "round": number,
        "rounds": tournament.rounds,
    }
    publish.after_commit(partial(_send_round, summary, tournament.ruleset, games))


def _send_round(summary: dict[str, Any], ruleset: str, games: list[tuple[int, list[int]]]) -> None:
    for game_id, players in games:
        publish.best_effort(publish.publish_round, summary, game_id, ruleset, players)
