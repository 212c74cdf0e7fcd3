"""Reads about ratings: the shown scale, a player's ratings and history, the
leaderboard. The scale is documented in docs/protocol.md ("Ratings")."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import Min

from ..models import PROVISIONAL_GAMES, Event, Game, Rating, RatingChange
from ..users import is_bot, is_guest

# openskill's Plackett-Luce starts everybody at mu 25, sigma 25/3.
BASE_MU = 25.0
BASE_SIGMA = 25.0 / 3.0
# Shown rating = 1500 + 30 * (mu - 25): a newcomer shows 1500, and a gap of
# 200 shown points means about 3 wins in 4 between two settled players, as
# on the Elo scale (openskill's win chance is 1 / (1 + e^(-Δmu / c)) with
# c = √2·β ≈ 5.9 for settled players; Elo's 200 points ≈ 76 %, so
# 1 mu ≈ 400 / (c · ln 10) ≈ 29.5 points).
BASE_DISPLAY = 1500
POINTS_PER_MU = 30

SPEEDS = (Rating.Speed.REALTIME.value, Rating.Speed.CORRESPONDENCE.value)
LEADERBOARD_SIZE = 100


def shown(mu: float) -> int:
    return round(BASE_DISPLAY + POINTS_PER_MU * (mu - BASE_MU))


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def speed_of(clock: dict[str, Any] | None) -> str:
    """Realtime clocks rate as realtime; correspondence and untimed games
    (no pressure to move quickly) as correspondence, the default's speed."""
    kind = (clock or {}).get("kind")
    return Rating.Speed.REALTIME if kind == "realtime" else Rating.Speed.CORRESPONDENCE


def speed_label(speed: str) -> str:
    return str(Rating.Speed(speed).label)


def counts_as_rated(rated: bool | None, users: Iterable[Any]) -> bool:
    """Rated between people unless chosen casual; never with a bot account
    seated (a bot's rating would rank it, and a person farm it), nor with a
    guest (a temporary account is never rated)."""
    return rated is not False and not any(is_bot(u) or is_guest(u) for u in users)


def own_movers(game: Game) -> set[int]:
    """The seats that made a move of their own: an ``act`` event of the seat,
    before a bot took it over if one did (the bot's moves are not the
    player's). Read once, when a game ends: one grouped query, and one count
    per handed-over seat."""
    first_act = dict(
        Event.objects.filter(game=game, kind=Event.Kind.ACT)
        .values("seat")
        .annotate(first=Min("version"))
        .values_list("seat", "first")
    )
    movers: set[int] = set()
    for seat, version in first_act.items():
        if seat is None:  # acts always name their seat
            continue
        handed_at = (game.handovers.get(str(seat)) or {}).get("move")
        if handed_at is not None:  # the bot plays from act number ``handed_at`` on
            before = Event.objects.filter(game=game, kind=Event.Kind.ACT, version__lte=version)
            if before.count() >= handed_at:
                continue
        movers.add(seat)
    return movers


def every_seat_moved(game: Game, is_referee: Any) -> bool:
    """Whether every playing seat (not a game master) made a move of its own."""
    playing = {s for s in range(game.seat_count) if not is_referee(s)}
    return playing <= own_movers(game)


def ratings_of(user: Any) -> list[dict[str, Any]]:
    return [
        {
            "ruleset": r.ruleset,
            "speed": r.speed,
            "rating": r.display,
            "games": r.games,
            "provisional": is_provisional(r.games),
        }
        for r in Rating.objects.filter(user=user).order_by("ruleset", "speed")
    ]


HISTORY_SIZE = 2000  # rating changes a chart shows at once, the newest


def history_of(
    user: Any, *, before: datetime | None = None, size: int = HISTORY_SIZE
) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """The newest ``size`` rated games' ratings (those before ``before``, to
    page back), per (ruleset, speed), oldest first: from the index
    ``rating_change_user_newest``, however long the player's history."""
    changes = RatingChange.objects.filter(user=user)
    if before is not None:
        changes = changes.filter(created__lt=before)
    newest = list(changes.order_by("-created", "-pk")[:size])
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for change in reversed(newest):
        out.setdefault((change.ruleset, change.speed), []).append(
            {
                "game": change.game_id,
                "before": change.before,
                "rating": change.after,
                "place": change.place,
                "date": change.created,
            }
        )
    return out


def older_history(history: dict[tuple[str, str], list[dict[str, Any]]]) -> datetime | None:
    """Where the next page back starts (``history_of(before=...)``), or None
    when ``history`` is all there is (fewer than a page)."""
    points = [p for chart in history.values() for p in chart]
    if len(points) < HISTORY_SIZE:
        return None
    return min(p["date"] for p in points)


def leaderboard(ruleset: str, speed: str) -> list[dict[str, Any]]:
    """The best players of one game at one speed, bots never: every established
    player first, then the provisional ones (marked), each by rating. Two
    reads each walking the index ``rating_board`` (ruleset, speed, -display,
    covering games and user) until the page is full, rather than sorting
    every rated player by a computed column."""
    rated = (
        Rating.objects.filter(
            ruleset=ruleset, speed=speed, games__gt=0, user__is_bot=False, user__is_guest=False
        )
        .order_by("-display", "-games", "user__username")
        # Only what the index rating_board covers (and the name): no rating's heap page.
        .values_list("user__username", "display", "games")
    )
    rows = list(rated.filter(games__gte=PROVISIONAL_GAMES)[:LEADERBOARD_SIZE])
    if len(rows) < LEADERBOARD_SIZE:
        rows += list(rated.filter(games__lt=PROVISIONAL_GAMES)[: LEADERBOARD_SIZE - len(rows)])
    return [
        {
            "rank": n,
            "username": username,
            "rating": display,
            "games": games,
            "provisional": is_provisional(games),
        }
        for n, (username, display, games) in enumerate(rows, start=1)
    ]


def outcome_for(game: Game, seat: int) -> str:
    """ "win", "loss" or "draw" for one seat of a finished game."""
    result = game.result or {}
    if result.get("draw"):
        return "draw"
    return "win" if seat in (result.get("winners") or []) else "loss"


def head_to_head(viewer: Any, player: Any) -> dict[str, int]:
    """The viewer's wins, losses and draws against ``player`` in finished games
    both sat in: a win when only the viewer won, a loss when only the player did."""
    record = {"wins": 0, "losses": 0, "draws": 0}
    if viewer is None or not getattr(viewer, "pk", None) or viewer.pk == player.pk:
        return record
    games = Game.objects.filter(status=Game.Status.FINISHED, seats__user=viewer).filter(
        seats__user=player
    )
    for game in games.prefetch_related("seats")[:1000]:
        seat_of = {s.user_id: s.index for s in game.seats.all()}
        mine = outcome_for(game, seat_of[viewer.pk])
        theirs = outcome_for(game, seat_of[player.pk])
        if mine == "win" and theirs != "win":
            record["wins"] += 1
        elif theirs == "win" and mine != "win":
            record["losses"] += 1
        else:
            record["draws"] += 1
    return record
