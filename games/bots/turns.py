"""A bot's whole turn thought in one go: the bot processes choose one action,
apply it to their own copy of the state, and go on while the same seat alone
is to act (an Idiotenspiel movement turn is twenty unit moves, a Malefiz turn
a roll and a move). Each choice is the very one the bot makes when asked
action by action: the same blinded state, the same seed (from the game, the
version the action is played at and the seat), a fresh bot per choice. The
site then stores the actions one by one, so a turn costs one round trip to
the bot processes instead of one per action.

A thinking budget (seconds) only cuts the turn into pieces, never changes a
choice: what is left is asked for in the next round trip.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from typing import Any

from games.rules import get_ruleset

MAX_ACTIONS = 60  # at most this many actions a round trip (a long turn goes on in the next)


def turn_seed(game_id: int, *, version: int, seat: int) -> int:
    """The bot's seed for the action at ``version``: from the game, so a turn is reproducible."""
    text = f"bot:{game_id}:{version}:{seat}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 2


def turn_actions(
    slug: str,
    level: str,
    encoded: dict[str, Any],
    seat: int,
    game_id: int,
    version: int,
    budget: float,
) -> Iterator[dict[str, Any]]:
    """The bot's actions from ``version`` on while ``seat`` alone is to act,
    until the game ends, ``MAX_ACTIONS`` or ``budget`` seconds of thinking."""
    from games.bots import get_bot  # the package imports this module

    rs = get_ruleset(slug)
    state = rs.decode(encoded)
    began = time.monotonic()
    for played in range(MAX_ACTIONS):
        seed = turn_seed(game_id, version=version + played, seat=seat)
        action = get_bot(slug, level).choose(state, seat, seed=seed)
        yield action
        state, _ = rs.apply(state, seat, action)
        alone = rs.to_act(state) == [seat] and rs.outcome(state) is None
        if not alone or time.monotonic() - began >= budget:
            return


def decide_turn_or_report(
    slug: str,
    level: str,
    encoded: dict[str, Any],
    seat: int,
    game_id: int,
    version: int,
    budget: float,
) -> dict[str, Any]:
    """``turn_actions`` as the bot processes run them: ``{"actions": [...]}``,
    or ``{"failed": why}`` when the bot itself failed before its first action
    (a later failure cuts the turn short: the next round trip reports it).
    Anything the pool raises is the machinery's, never the bot's."""
    actions: list[dict[str, Any]] = []
    try:
        for action in turn_actions(slug, level, encoded, seat, game_id, version, budget):
            actions.append(action)
    except Exception as exc:  # the bot's own bug, reported to the worker
        if not actions:
            return {"failed": f"{type(exc).__name__}: {exc}"[:500]}
    return {"actions": actions}
