"""The contract's bot: plays any registered ruleset from its contract alone.

A game without a bot of its own still has all three levels, so a new game is
data plus functions. Every level answers from ``actors``/``random_action`` and
``legal_actions``:

- easy: ``random_action``;
- medium: a move that wins at once, else easy's;
- strong: that, else a move after which no single opponent to act can win at
  once, else easy's.

Looking ahead with ``apply`` would show the dice or another seat's secrets, so
medium and strong search only in rulesets of ``perfect_information`` whose
actions enumerate; elsewhere they play as easy does. Choices are seeded from
the seat's view (``view_rng``), so they never depend on what it hides.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.base import Action, RandomBot, view_rng
from games.rules import Ruleset, get_ruleset


def wins(rs: Ruleset[Any], state: Any, seat: int) -> bool:
    outcome = rs.outcome(state)
    return outcome is not None and not outcome["draw"] and seat in outcome["winners"]


def lets_a_rival_win(rs: Ruleset[Any], state: Any, seat: int) -> bool:
    """Whether, in ``state``, one seat other than ``seat`` is to act and has a winning move."""
    actors = rs.actors(state)
    if actors.kind != "players" or len(actors.seats) != 1 or actors.seats[0] == seat:
        return False
    rival = actors.seats[0]
    replies = rs.legal_actions(state, rival) or []
    return any(wins(rs, rs.apply(state, rival, reply)[0], rival) for reply in replies)


class GenericBot:
    def __init__(self, slug: str, level: str) -> None:
        self.slug, self.level = slug, level
        self.random = RandomBot(slug)

    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        rs = get_ruleset(self.slug)
        actions = rs.legal_actions(state, seat) if rs.perfect_information else None
        if self.level == "easy" or not actions:
            return self.random.choose(state, seat, seed=seed)
        rng = view_rng(self.slug, state, seat, seed)
        return self.search(rs, state, seat, actions, rng)

    def search(
        self, rs: Ruleset[Any], state: Any, seat: int, actions: list[Action], rng: random.Random
    ) -> Action:
        after = [(action, rs.apply(state, seat, action)[0]) for action in actions]
        winning = [action for action, new in after if wins(rs, new, seat)]
        if winning:
            return rng.choice(winning)
        if self.level == "strong":
            safe = [action for action, new in after if not lets_a_rival_win(rs, new, seat)]
            if safe:
                return rng.choice(safe)
        return rng.choice(actions)


def make(slug: str, level: str) -> GenericBot:
    return GenericBot(slug, level)
