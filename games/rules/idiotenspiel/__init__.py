"""Das Idiotenspiel: Robin Hood vs. the Sheriff (RULES.md §5), a pure rules engine.

Public: :class:`IdiotenspielRuleset` and the two geometry helpers the
platform may use on its own, :func:`line_of_sight` and :func:`reachable`.
"""

from .maps import MAPS, as_map
from .movement import reachable
from .ruleset import IdiotenspielRuleset
from .sight import line_of_sight

__all__ = ["MAPS", "IdiotenspielRuleset", "as_map", "line_of_sight", "reachable"]
