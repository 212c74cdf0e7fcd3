"""halma bots (being written: random play until the search lands)."""

from __future__ import annotations

from games.bots.base import Bot, RandomBot


def make(level: str) -> Bot:
    return RandomBot("halma")
