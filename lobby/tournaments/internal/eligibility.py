"""Who plays a tournament's rounds: who may enter (joining, and a creator
who plays), its entry conditions, no-show bans and the starting ranks. Shared
by joining (entry.py), creating (setup.py) and the rounds (rounds.py)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext_noop

from games.errors import GameError
from games.models import Game, Rating, Seat
from games.selectors.ratings import speed_of
from games.users import is_bot, is_guest
from lobby.models import Tournament, TournamentBan, TournamentPlayer
from lobby.pairing import max_round_robin_players
from lobby.selectors.clubs import is_member
from moderation.standing import refuse_if_playbanned, refuse_if_suspended

if TYPE_CHECKING:
    from accounts.models import User

FIRST_BAN_DAYS = 1
MAX_BAN_DAYS = 30


def refuse_unfit_player(account: User) -> None:
    """What keeps an account out of every tournament: a suspension, being a
    guest, a no-show ban."""
    refuse_if_suspended(account)
    if is_guest(account):
        raise GameError("guest", gettext_noop("Sign up to play in tournaments."), status=403)
    _refuse_if_banned(account.pk)


def refuse_entry(tournament: Tournament, account: User) -> int:
    """What keeps ``account`` (``refuse_unfit_player`` asked first) out of the
    locked ``tournament``; else the number of its players so far. A realtime
    tournament refuses a play-ban as a realtime table does; a bot plays
    casual tournaments only, as it sits at casual tables only."""
    if is_bot(account) and tournament.rated:
        raise GameError(
            "bot_account",
            gettext_noop("Bot accounts play casual tournaments only: this one is rated."),
            status=403,
        )
    refuse_if_playbanned(account, tournament.clock)
    if tournament.club_id is not None and not is_member(tournament.club_id, account.pk):
        raise GameError(
            "club_only",
            gettext_noop("This tournament is for its club's members."),
            status=403,
        )
    found = TournamentPlayer.objects.filter(tournament=tournament, user=account).first()
    if found is not None and not found.withdrawn:
        raise GameError("already_joined", gettext_noop("You are already in this tournament."))
    if found is not None:
        raise GameError(
            "withdrawn", gettext_noop("You withdrew from this tournament; you cannot rejoin.")
        )
    reason = ineligible(tournament, account.pk)
    if reason is not None:
        raise reason
    players = TournamentPlayer.objects.filter(tournament=tournament).count()
    if tournament.system == Tournament.System.ROUND_ROBIN and players >= max_round_robin_players():
        raise GameError(
            "full",
            gettext_noop("A round robin takes at most %(n)s players."),
            n=max_round_robin_players(),
        )
    return players


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


def ineligible(tournament: Tournament, user_id: int) -> GameError | None:
    if tournament.min_games:
        played = Seat.objects.filter(
            user_id=user_id, game__status=Game.Status.FINISHED, game__ruleset=tournament.ruleset
        ).count()
        if played < tournament.min_games:
            return GameError(
                "entry_condition",
                gettext_noop("This tournament needs %(n)s finished games of its game."),
                n=tournament.min_games,
            )
    if tournament.min_rating:
        rating = (
            Rating.objects.filter(
                user_id=user_id, ruleset=tournament.ruleset, speed=speed_of(tournament.clock)
            )
            .values_list("display", flat=True)
            .first()
        )
        if rating is None or rating < tournament.min_rating:
            return GameError(
                "entry_condition",
                gettext_noop("This tournament needs a rating of at least %(n)s."),
                n=tournament.min_rating,
            )
    return None


def record_no_show(user_id: int, now: datetime) -> None:
    """Ban from tournaments: 1 day for the first no-show, doubling, at most 30."""
    ban, _ = TournamentBan.objects.select_for_update().get_or_create(user_id=user_id)
    ban.no_shows += 1
    days = min(MAX_BAN_DAYS, FIRST_BAN_DAYS * 2 ** min(ban.no_shows - 1, 5))
    ban.until = now + timedelta(days=days)
    ban.save(update_fields=["no_shows", "until"])


SEED_BATCH = 100


def seed_by_rating(tournament: Tournament) -> None:
    """Starting ranks at the start: the rating for the tournament's game and
    speed, highest first; players without one after, in join order."""
    players = list(TournamentPlayer.objects.filter(tournament=tournament).order_by("joined", "pk"))
    ratings = dict(
        Rating.objects.filter(
            user_id__in=[p.user_id for p in players],
            ruleset=tournament.ruleset,
            speed=speed_of(tournament.clock),
        ).values_list("user_id", "display")
    )
    ordered = sorted(
        enumerate(players),
        key=lambda item: (
            item[1].user_id not in ratings,
            -ratings.get(item[1].user_id, 0),
            item[0],
        ),
    )
    for seed, (_, player) in enumerate(ordered, start=1):
        player.seed = seed
    # In batches: one statement's CASE of 1,000 branches, tried for each of
    # its 1,000 rows, took a second (a 1,000-player start).
    TournamentPlayer.objects.bulk_update(players, ["seed"], batch_size=SEED_BATCH)
