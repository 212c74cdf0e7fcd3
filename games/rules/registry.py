"""The registered rulesets, by slug."""

from __future__ import annotations

from .base import Ruleset
from .halma import HalmaRuleset

RULESETS: dict[str, Ruleset] = {rs.slug: rs for rs in (HalmaRuleset(),)}


def get_ruleset(slug: str) -> Ruleset:
    """The ruleset registered under ``slug``; KeyError if there is none."""
    return RULESETS[slug]
