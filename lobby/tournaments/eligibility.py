"""Who plays a tournament's rounds: its entry conditions, no-show bans and
the starting ranks. Shared by joining (entry.py) and the rounds (rounds.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext_noop

from games.errors import GameError
from games.models import Game, Rating, Seat
from games.selectors.ratings import speed_of
from lobby.models import Tournament, TournamentBan, TournamentPlayer

FIRST_BAN_DAYS = 1
MAX_BAN_DAYS = 30


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
