"""Tournament services: create, join, withdraw, start, pair rounds, record results.

Each public function is one transaction; the tournament's row is its lock.
"""

from .creation import tournament_create, tournament_feature
from .entry import tournament_join, tournament_withdraw
from .rounds import tournament_rounds_pair_due, tournament_start

__all__ = [
    "tournament_create",
    "tournament_feature",
    "tournament_join",
    "tournament_rounds_pair_due",
    "tournament_start",
    "tournament_withdraw",
]
