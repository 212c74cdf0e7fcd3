"""Joining and withdrawing, and a no-show withdrawn (the entry conditions and bans: eligibility.py)."""

from __future__ import annotations

import math
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.errors import GameError
from games.models import Game
from games.services.endings import game_resign
from games.users import is_guest, signed_in
from lobby.models import Tournament, TournamentBan, TournamentPairing, TournamentPlayer
from lobby.pairing import max_round_robin_players
from moderation.standing import refuse_if_suspended

from .common import (
    locked_tournament,
    refuse_unless_open,
    tell_lobby,
    tournament_or_404,
)
from .eligibility import ineligible, record_no_show

if TYPE_CHECKING:
    from games.users import Visitor


def tournament_join(*, tournament_id: object, user: Visitor | None) -> Tournament:
    """Join an open tournament, or a running Swiss before half its rounds are played."""
    account = signed_in(user)
    refuse_if_suspended(account)
    if is_guest(account):
        raise GameError("guest", gettext_noop("Sign up to play in tournaments."), status=403)
    _refuse_if_banned(account.pk)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _refuse_unless_joinable(tournament)
        found = TournamentPlayer.objects.filter(tournament=tournament, user=account).first()
        if found is not None and not found.withdrawn:
            raise GameError("already_joined", gettext_noop("You are already in this tournament."))
        if found is not None:
            raise GameError(
                "withdrawn", gettext_noop("You withdrew from this tournament; you cannot rejoin.")
            )
        _refuse_unless_eligible(tournament, account.pk)
        players = TournamentPlayer.objects.filter(tournament=tournament).count()
        if (
            tournament.system == Tournament.System.ROUND_ROBIN
            and players >= max_round_robin_players()
        ):
            raise GameError(
                "full",
                gettext_noop("A round robin takes at most %(n)s players."),
                n=max_round_robin_players(),
            )
        late = tournament.status == Tournament.Status.RUNNING
        # A late joiner ranks after everyone seeded at the start.
        TournamentPlayer.objects.create(
            tournament=tournament, user=account, seed=players + 1 if late else None
        )
        tell_lobby(tournament)
    return tournament


def _refuse_unless_joinable(tournament: Tournament) -> None:
    """Open, or a Swiss (of two seats) with fewer than half its rounds played."""
    late = (
        tournament.status == Tournament.Status.RUNNING
        and tournament.system == Tournament.System.SWISS
        and tournament.seat_count == 2
        and tournament.current_round * 2 < tournament.rounds
    )
    if not late:
        refuse_unless_open(tournament)


def tournament_withdraw(*, tournament_id: object, user: Visitor | None) -> Tournament:
    """Leave a tournament; a running game of it is resigned, its points stay."""
    account = signed_in(user)
    with transaction.atomic():
        before = tournament_or_404(tournament_id)  # no lock yet: a game's row comes first
        if before.status == Tournament.Status.FINISHED:
            raise GameError("finished", gettext_noop("This tournament is over."))
        if not TournamentPlayer.objects.filter(
            tournament=before, user_id=account.pk, withdrawn=False
        ).exists():
            raise GameError("not_joined", gettext_noop("You are not playing in this tournament."))
        # Resigning locks the game, then (its ending) the tournament again.
        for game_id in _running_games_of(before.pk, account.pk):
            game_resign(game_id=game_id, user=account)
        tournament = locked_tournament(before.pk)
        found = TournamentPlayer.objects.get(tournament=tournament, user_id=account.pk)
        if tournament.status == Tournament.Status.OPEN:
            found.delete()  # nothing played yet: as if never joined
        else:
            found.withdrawn = True
            found.save(update_fields=["withdrawn"])
        tell_lobby(tournament)
    return tournament


def _running_games_of(tournament_id: int, user_id: int) -> list[int]:
    games = TournamentPairing.objects.filter(
        tournament_id=tournament_id, game__status=Game.Status.ACTIVE, game__seats__user_id=user_id
    ).values_list("game_id", flat=True)
    return [g for g in games if g is not None]


def _refuse_unless_eligible(tournament: Tournament, user_id: int) -> None:
    """The tournament's entry conditions (off unless set)."""
    reason = ineligible(tournament, user_id)
    if reason is not None:
        raise reason


def _refuse_if_banned(user_id: int, now: datetime | None = None) -> None:
    now = now or timezone.now()
    ban = TournamentBan.objects.filter(user_id=user_id, until__gt=now).first()
    if ban is not None and ban.until is not None:
        hours = math.ceil((ban.until - now).total_seconds() / 3600)
        raise GameError(
            "tournament_ban",
            gettext_noop("You missed tournament games: no tournaments for %(hours)s more hours."),
            status=403,
            hours=hours,
            retry_after=math.ceil((ban.until - now).total_seconds()),
        )


def on_seat_no_show(sender: object, game: Game, seat: int, **kwargs: object) -> bool:
    """A table's seat ran out of time without a move (in the timeout's
    transaction, the game's row locked): a tournament game's player is
    withdrawn and banned as a two-seat no-show is, and the seat goes to a bot
    (True); the player ranks last at the table (a seat handed to a bot leaves
    first). Not a tournament game: False."""
    pairing = TournamentPairing.objects.filter(game_id=game.pk).only("tournament_id").first()
    if pairing is None or seat >= len(pairing.players):
        return False
    tournament = locked_tournament(pairing.tournament_id)
    uid = TournamentPairing.objects.get(pk=pairing.pk).players[seat]
    if TournamentPlayer.objects.filter(tournament=tournament, user_id=uid, withdrawn=False).update(
        withdrawn=True
    ):
        record_no_show(uid, timezone.now())
    tell_lobby(tournament)
    return True
