"""Pure-Python rulesets behind one contract; see :mod:`games.rules.base`."""

from .base import IllegalAction, InvalidOptions, RulesError, Ruleset
from .registry import RULESETS, get_ruleset

__all__ = ["RULESETS", "IllegalAction", "InvalidOptions", "RulesError", "Ruleset", "get_ruleset"]
