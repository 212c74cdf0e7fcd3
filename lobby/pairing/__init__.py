"""Tournament pairings, pure Python (no Django): Swiss, round robin, tables, tie-breaks.

The services feed plain values in (``Entrant``) and store what comes out
(``Pairing``); nothing here reads or writes a database.
"""

from .round_robin import berger_rounds, max_round_robin_players
from .seats import seat_order
from .swiss import NoPairing, pair_swiss, swiss_cost
from .tables import pair_tables, table_points, table_sizes
from .tiebreaks import Result, standings
from .types import Entrant, Pairing

__all__ = [
    "Entrant",
    "NoPairing",
    "Pairing",
    "Result",
    "berger_rounds",
    "max_round_robin_players",
    "pair_swiss",
    "pair_tables",
    "seat_order",
    "standings",
    "swiss_cost",
    "table_points",
    "table_sizes",
]
