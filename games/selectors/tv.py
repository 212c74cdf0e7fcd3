"""TV: the featured live game of the whole site or of one game.

A live game scores by its players' ratings and how close they are: the mean
rating, shrunk by the spread between the best and the worst (``score``). The
featured game changes only when it ends or when another scores at least
``SWITCH_FACTOR`` times as much (``pick``), so viewers are not thrown from
game to game by a few points; games with a bot are shown only when no game
of people alone is live. Candidates are the lobby's bounded list (the most
watched running games from the Redis ranking, topped up with the newest:
``tables.most_watched_live``), so choosing costs the same with 10 games
running as with 10,000.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from ..models import Game, Rating, Seat
from ..users import is_bot
from .ratings import BASE_DISPLAY, speed_of
from .tables import most_watched_live

SWITCH_FACTOR = 1.2
# A spread of this many rating points halves the score of a game's mean.
CLOSENESS_POINTS = 400
KEEP_CURRENT_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Candidate:
    game_id: int
    score: float
    bots: bool


def score(ratings: list[int]) -> float:
    """Mean rating, shrunk by the spread: 1800 against 1800 beats 2100 against 1500."""
    if not ratings:
        return 0.0
    mean = sum(ratings) / len(ratings)
    spread = max(ratings) - min(ratings)
    return mean * CLOSENESS_POINTS / (CLOSENESS_POINTS + spread)


def pick(current: int | None, candidates: list[Candidate]) -> Candidate | None:
    """The game to feature now, given the one featured so far (its id)."""
    people = [c for c in candidates if not c.bots]
    pool = people or candidates  # bot games only when nothing else is live
    if not pool:
        return None
    best = max(pool, key=lambda c: (c.score, c.game_id))
    held = next((c for c in pool if c.game_id == current), None)
    if held is None or best.score >= SWITCH_FACTOR * held.score:
        return best
    return held


def candidates(ruleset: str | None) -> list[Candidate]:
    """The running games worth considering, scored (a bounded read: three queries)."""
    # Never a family's game at one screen (its players are names, not accounts).
    games = Game.objects.filter(one_screen__isnull=True)
    games = games if ruleset is None else games.filter(ruleset=ruleset)
    live = most_watched_live(games)
    seats = list(Seat.objects.filter(game__in=live, user__isnull=False).select_related("user"))
    users = {s.user_id for s in seats}
    ratings = {
        (r.user_id, r.ruleset, r.speed): r.display
        for r in Rating.objects.filter(user__in=users, ruleset__in={g.ruleset for g in live}).only(
            "user_id", "ruleset", "speed", "display"
        )
    }
    out = []
    for game in live:
        mine = [s for s in seats if s.game_id == game.pk]
        speed = speed_of(game.clock)
        figures = [
            ratings.get((s.user_id, game.ruleset, speed), BASE_DISPLAY)
            for s in mine
            if s.user_id is not None
        ]
        bots = bool(game.bots) or any(is_bot(s.user) for s in mine)
        out.append(Candidate(game.pk, score(figures), bots))
    return out


def featured(ruleset: str | None) -> dict[str, Any] | None:
    """The channel's featured game now (remembered in the cache for the next ask)."""
    channel = f"tv:featured:{ruleset or '*'}"
    chosen = pick(cache.get(channel), candidates(ruleset))
    if chosen is None:
        cache.delete(channel)
        return None
    cache.set(channel, chosen.game_id, KEEP_CURRENT_SECONDS)
    game = Game.objects.only("id", "ruleset", "version").get(pk=chosen.game_id)
    players = Seat.objects.filter(game=game, user__isnull=False).order_by("index")
    return {
        "game": game.pk,
        "ruleset": game.ruleset,
        "version": game.version,
        "players": [s.user.username for s in players.select_related("user") if s.user],
        "score": round(chosen.score),
        "bots": chosen.bots,
    }
