"""Computer players for every ruleset, pure Python beside the rules.

The fixed interface (ARCHITECTURE.md, "Bots")::

    bot = get_bot(slug, level)          # "easy" | "medium" | "strong"
    action = bot.choose(state, seat, seed=n)
    bot.win_chances(state, seat, seed=n)  # per seat, as seat sees it (chances.py)
    bot.accepts_draw(state, seat)       # a draw offer: True when the game is dead

Each game's module exposes ``make(level) -> Bot``; any other registered ruleset
is played by the contract's generic bot (games/bots/generic.py), so every game
in ``games.rules.RULESETS`` has all three levels. ``get_bot`` wraps the bot in
``Guarded`` so that a bot which raises or overruns its wall-clock cap still
answers with a legal action.
"""

from __future__ import annotations

from typing import Any

from games.bots import daschax, generic, halma, hexenhalma, idiotenspiel, malefiz
from games.bots.base import LEVELS, Bot, Guarded
from games.bots.chances import win_chances
from games.rules import RULESETS, get_ruleset

_MAKERS = {
    "halma": halma.make,
    "daschax": daschax.make,
    "malefiz": malefiz.make,
    "hexenhalma": hexenhalma.make,
    "idiotenspiel": idiotenspiel.make,
}

SLUGS = tuple(_MAKERS)  # the games with bots of their own

__all__ = ["LEVELS", "SLUGS", "Bot", "accepts_draw", "decide", "decide_or_report", "get_bot"]


def get_bot(slug: str, level: str) -> Guarded:
    """The bot for ``slug`` at ``level``; LookupError names what exists."""
    if slug not in RULESETS:
        games = ", ".join(sorted(RULESETS))
        raise LookupError(f"No bot for game {slug!r}; games with bots: {games}.")
    if level not in LEVELS:
        raise LookupError(f"Unknown bot level {level!r}; levels: {', '.join(LEVELS)}.")
    maker = _MAKERS.get(slug)
    inner = maker(level) if maker else generic.make(slug, level)
    return Guarded(slug, level, inner, win_chances)


def accepts_draw(slug: str, level: str, state: Any, seat: int) -> bool:
    """Whether the ``level`` bot in ``seat`` accepts a draw offered to it: only
    when its evaluation says the game is dead (default False)."""
    return get_bot(slug, level).accepts_draw(state, seat)


def decide(slug: str, level: str, encoded: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
    """One decision from a stored state: what the site's bot processes run
    (plain arguments in, a plain action out, so it crosses a process pool)."""
    state = get_ruleset(slug).decode(encoded)
    return get_bot(slug, level).choose(state, seat, seed=seed)


def decide_or_report(
    slug: str, level: str, encoded: dict[str, Any], seat: int, seed: int
) -> dict[str, Any]:
    """``decide`` as the bot processes run it: ``{"action": ...}``, or
    ``{"failed": why}`` when the bot itself failed (even ``Guarded``'s random
    action). The failure comes back as data, so anything the pool raises is
    the machinery's, never the bot's: the worker retries that later."""
    try:
        return {"action": decide(slug, level, encoded, seat, seed)}
    except Exception as exc:  # the bot's own bug, reported to the worker
        return {"failed": f"{type(exc).__name__}: {exc}"[:500]}
