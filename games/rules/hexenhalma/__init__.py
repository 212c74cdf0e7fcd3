"""Hexenhalma (RULES.md §4): a play-by-mail campaign of witches racing across a board.

Public API:

- :func:`resolve_match` — the pure resolution of one match (ARCHITECTURE.md).
- :func:`validate_orders` — the planning validator the order editor and the
  ruleset use; returns the orders normalised or raises IllegalAction.
- :func:`validate_board`, :func:`validate_params` — the GM's round set-up.
- :class:`HexenhalmaRuleset` — the campaign on the ruleset contract, with the
  extra ``round_ready(state)`` and ``resolve_round(state)`` for the platform.
- :data:`PRESETS` — preset boards with suggested params.
"""

from __future__ import annotations

from typing import Any

from .board import compile_board, validate_board, validate_params
from .orders import rotate_orders, validate_orders_compiled
from .presets import PRESETS
from .resolve import resolve_match
from .ruleset import HexenhalmaRuleset, HexenhalmaState, pairings, standings


def validate_orders(
    board: dict[str, Any], params: dict[str, Any], orders: Any
) -> list[dict[str, Any]]:
    """Check one team's orders (written as side A) against the round's rules.

    Returns the normalised orders; raises IllegalAction with a message naming
    the witch, the step and the rule broken.
    """
    norm_board = validate_board(board)
    norm_params = validate_params(params, norm_board)
    return validate_orders_compiled(compile_board(norm_board), norm_params, orders)


__all__ = [
    "PRESETS",
    "HexenhalmaRuleset",
    "HexenhalmaState",
    "pairings",
    "resolve_match",
    "rotate_orders",
    "standings",
    "validate_board",
    "validate_orders",
    "validate_params",
]
