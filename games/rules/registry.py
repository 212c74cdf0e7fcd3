"""The registered rulesets, by slug."""

from __future__ import annotations

from typing import Any

from .base import Ruleset
from .daschax import DaschaxRuleset
from .halma import HalmaRuleset
from .hexenhalma import HexenhalmaRuleset
from .idiotenspiel import IdiotenspielRuleset
from .malefiz import MalefizRuleset

RULESETS: dict[str, Ruleset[Any]] = {
    rs.slug: rs
    for rs in (
        HalmaRuleset(),
        MalefizRuleset(),
        DaschaxRuleset(),
        HexenhalmaRuleset(),
        IdiotenspielRuleset(),
    )
}


def get_ruleset(slug: str) -> Ruleset[Any]:
    """The ruleset registered under ``slug``; KeyError if there is none."""
    return RULESETS[slug]
