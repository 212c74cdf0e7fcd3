"""Look-alike usernames (issue 47): a name is compared by its skeleton.

The skeleton is the name NFKC-normalised, each character replaced by the
ASCII character it can be mistaken for (Unicode's confusables data, as the
kept library ``confusable_homoglyphs`` ships it: Cyrillic "\u0435" is "e";
"I", "l" and "1" are one letter, "0" and "o" another, "rn" is "m"),
lower-cased, with the separators a username may hold (``- _ . + @``) all
read as "-" (and none at either end). Two names with one
skeleton look alike on a page; a sign-up whose skeleton is taken, or that
starts like a reserved name, is refused (accounts/forms.py).

No Django here: the user model stores every name's skeleton on save.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

# Stored skeletons are cut here (a name is at most 150 characters after NFKC;
# a few characters' look-alikes are two ASCII letters).
MAX_LENGTH = 300
SEPARATORS = re.compile(r"[-_.+@\s]+")
# Names starting like these are kept: the generated ones of guests and bots
# (accounts/services/guests.py, accounts/services/internal/bot_accounts.py) and the staff's
# titles ("admin1", "Administrator", "staff_x"; "admiral" stays free).
RESERVED = ("guest-", "bot-", "admin", "staff", "moderator")


def _ascii_lookalikes(char: str) -> list[str]:
    """The ASCII strings ``char`` can be mistaken for, in the data's order."""
    found = confusables.is_confusable(char, greedy=True, preferred_aliases=[])
    if not found:
        return []
    return [glyph["c"] for glyph in found[0]["homoglyphs"] if glyph["c"].isascii()]


@cache
def _ascii_classes() -> tuple[dict[str, str], dict[str, str]]:
    """Lower-case ASCII characters that look alike (names are told apart
    without case: "I" looks like "l", so "i", "l", "1" and "|" are one class),
    each mapped to one of its class, and the multi-letter look-alikes of a
    letter ("rn" for "m")."""
    parent = {c: c for c in map(chr, range(33, 127)) if not c.isupper()}

    def root(c: str) -> str:
        while parent[c] != c:
            c = parent[c]
        return c

    sequences: dict[str, str] = {}
    for char in map(chr, range(33, 127)):
        for other in _ascii_lookalikes(char):
            if len(other) == 1:
                parent[root(other.lower())] = root(char.lower())
            else:
                sequences[other.lower()] = char.lower()
    members: dict[str, list[str]] = {}
    for char in parent:
        members.setdefault(root(char), []).append(char)
    classes: dict[str, str] = {}
    for group in members.values():
        if len(group) > 1:
            representative = min([c for c in group if c.isalpha()] or group)
            classes.update(dict.fromkeys(group, representative))
    return classes, sequences


@cache
def _prototype(char: str) -> str:
    """``char`` as the lower-case ASCII it looks like (itself when none)."""
    classes, _ = _ascii_classes()
    if not char.isascii():
        lookalikes = _ascii_lookalikes(char)
        single = [c for c in lookalikes if len(c) == 1]
        char = (single or lookalikes or [char])[0]
    return "".join(classes.get(c, c) for c in char.lower())


def skeleton(name: str) -> str:
    """The form two look-alike names share (see the module's docstring)."""
    text = "".join(_prototype(c) for c in unicodedata.normalize("NFKC", name))
    _, sequences = _ascii_classes()
    for sequence, letter in sequences.items():
        text = text.replace(sequence, letter)
    return SEPARATORS.sub("-", text).strip("-")[:MAX_LENGTH]


@cache
def _reserved_shapes() -> tuple[str, ...]:
    # "x" keeps a prefix's trailing separator through the strip.
    return tuple(skeleton(word + "x")[:-1] for word in RESERVED)


def is_reserved(name: str) -> bool:
    """Looks like a guest's or a bot's generated name, or a staff title."""
    return skeleton(name).startswith(_reserved_shapes())
