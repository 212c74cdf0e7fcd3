"""The reasons a game's result gives, stored untranslated (``gettext_noop``)
and shown in each reader's language."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from games.rules.daschax.ruleset import REASON_STALL

REASON_RESIGNED = gettext_noop("%(player)s resigned.")
REASON_FLAGGED = gettext_noop("%(player)s ran out of time.")
REASON_DRAW_AGREED = gettext_noop("Drawn by agreement.")
REASON_ABORTED = gettext_noop("%(player)s aborted the game before every seat had moved.")
REASON_DECLINED = gettext_noop("%(player)s declined the challenge.")
REASON_CLOSED = gettext_noop("%(player)s closed the table.")
REASON_ENDED_EARLY = gettext_noop(
    "The game ended before every seat had made a move: it is aborted and unrated."
)
REASON_NO_PERSON_LEFT = gettext_noop("%(player)s left, and only bots were left to play.")
REASON_LAST_LEFT = gettext_noop("Everybody else left the game.")
REASON_ROUND_DEADLINE = gettext_noop(
    "The tournament round's deadline passed: the seat that used the least time wins."
)
REASON_APPROVED = {
    "repetition": gettext_noop("Remis by repetition, approved by an admin."),
    "deadlock": gettext_noop("Remis: neither side could win, approved by an admin."),
}
# The Daschax house rule's draw (RULES.md section 2): the site's rule, so it
# is listed here; the ruleset returns it from ``outcome`` (the rules stay free
# of Django), with ``reason_params`` {"turns": the table's limit}.
REASON_DASCHAX_STALL = REASON_STALL
