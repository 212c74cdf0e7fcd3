"""What every bot shares: the protocol, seeded randomness and the safety net."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from games.rules import get_ruleset

Action = dict[str, Any]
LEVELS = ("easy", "medium", "strong")

# The wall-clock cap is a safety net only: bots meet their budgets with node or
# depth limits, so their choices stay deterministic on a loaded machine.
WALL_CLOCK_CAP_SECONDS = {"easy": 1.0, "medium": 3.0, "strong": 6.0}

log = logging.getLogger(__name__)
_deadline = threading.local()


class OutOfTime(Exception):
    """A search passed the wall-clock cap; ``Guarded`` plays a random action."""


def check_clock() -> None:
    """Searches call this every few hundred nodes; it raises past the cap."""
    until = getattr(_deadline, "until", None)
    if until is not None and time.monotonic() > until:
        raise OutOfTime


# (slug, state, seat) -> a win chance per seat: games.bots.chances.win_chances
Chances = Callable[[str, Any, int], list[float]]


class Bot(Protocol):
    def choose(self, state: Any, seat: int, *, seed: int) -> Action: ...


def view_rng(slug: str, state: Any, seat: int, seed: int) -> random.Random:
    """A generator seeded from what ``seat`` may see and the caller's seed.

    Seeding from the view (never from the state) keeps a bot's randomness blind
    to the game's hidden dice seed and to other seats' secrets.
    """
    view = get_ruleset(slug).view(state, seat)
    digest = hashlib.blake2b(
        json.dumps([seed, seat, view], sort_keys=True, default=str).encode(), digest_size=8
    ).digest()
    return random.Random(int.from_bytes(digest, "big"))


class RandomBot:
    """Plays a uniformly random legal action (the fallback and the bench's baseline)."""

    def __init__(self, slug: str) -> None:
        self.slug = slug

    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        rs = get_ruleset(self.slug)
        action = rs.random_action(state, seat, view_rng(self.slug, state, seat, seed))
        if action is None:
            raise LookupError(f"Seat {seat} has nothing to do in this {self.slug} position.")
        return action


class Guarded:
    """Runs a bot; if it raises, overruns its cap or answers an illegal action,
    plays a random legal action instead and logs why."""

    def __init__(self, slug: str, level: str, inner: Bot, chances: Chances | None = None) -> None:
        self.slug, self.level, self.inner = slug, level, inner
        self.fallback = RandomBot(slug)
        self.chances = chances  # games.bots.chances.win_chances (get_bot passes it)

    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        cap = WALL_CLOCK_CAP_SECONDS[self.level]
        _deadline.until = time.monotonic() + cap
        try:
            action = self.inner.choose(state, seat, seed=seed)
            get_ruleset(self.slug).apply(state, seat, action)
        except OutOfTime:
            log.warning(
                "%s %s bot passed its %.1f s cap; random action", self.slug, self.level, cap
            )
            return self.fallback.choose(state, seat, seed=seed)
        except Exception:
            log.exception("%s %s bot failed; playing a random legal action", self.slug, self.level)
            return self.fallback.choose(state, seat, seed=seed)
        finally:
            _deadline.until = None
        return action

    def win_chances(self, state: Any, seat: int, *, seed: int) -> list[float]:
        """Each seat's win chance as ``seat`` sees it (games/bots/chances.py):
        the same calibrated estimate at every level; ``seed`` is accepted for
        the interface and changes nothing (the estimate has no randomness).
        An evaluation that fails (or none given) gives even chances (logged)."""
        try:
            if self.chances is None:
                raise LookupError("no win chances given to this bot")
            return self.chances(self.slug, state, seat)
        except Exception:
            log.exception("%s %s bot failed to judge its win chances", self.slug, self.level)
            seats = getattr(state, "seats", None)
            count = seats if isinstance(seats, int) else get_ruleset(self.slug).min_seats
            return [1 / count] * count

    def accepts_draw(self, state: Any, seat: int) -> bool:
        """The inner bot's answer to a draw offer: a bot with an
        ``accepts_draw(state, seat) -> bool`` says True when its evaluation
        says the game is dead (neither side can still win it); one without
        never accepts, nor does one that fails."""
        judge = getattr(self.inner, "accepts_draw", None)
        if judge is None:
            return False
        try:
            return bool(judge(state, seat))
        except Exception:
            log.exception("%s %s bot failed to judge a draw offer", self.slug, self.level)
            return False
