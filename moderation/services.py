"""Filing reports and the moderators' actions, one transaction each.

The evidence is attached here, never typed by the reporter: the game's
record, the reported chat lines with their context, the pair's recent rated
games. Every action is logged (``Sanction``: who, what, why); the reporters
of the account's open reports are told they were acted on, not how.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import publish, ratelimit
from games.errors import GameError
from games.models import Game, Notification
from games.services.internal.notifications import notify
from games.users import is_bot, signed_in
from lobby.models import Club, ClubChatMessage
from lobby.selectors.club_page import may_read_chat

from . import roles, selectors
from .internal import detection, refunds
from .models import Report, Sanction, Standing

if TYPE_CHECKING:
    from accounts.models import User
    from games.users import Visitor

PERSON_REASONS = ("cheating", "abuse", "stalling", "other")
ACTIONS = tuple(Sanction.Action.values)
MAX_DAYS = 3650


def report_file(
    *,
    reporter: Visitor | None,
    username: object,
    game: object = None,
    reason: object,
    text: object = "",
    chat: object = None,
    club: object = None,
) -> Report:
    if reporter is None or not reporter.is_authenticated:
        raise GameError("login_required", gettext_noop("Log in to report."), status=403)
    target = selectors.user_named(username)
    if target.pk == reporter.pk:
        raise GameError("bad_request", gettext_noop("You cannot report yourself."))
    if is_bot(target):
        raise GameError("bad_request", gettext_noop("Bots cannot be reported."))
    if reason not in PERSON_REASONS:
        raise GameError(
            "bad_request", gettext_noop("Choose a reason: cheating, abuse, stalling or other.")
        )
    text = _clean_text(text)
    found = _optional_game(game)
    chat_id = _optional_id(chat, gettext_noop("The chat line must be a number."))
    in_club = _optional_club(club, reporter)
    if found is not None and in_club is not None:
        raise GameError("bad_request", gettext_noop("A report names a game or a club, not both."))
    _check_rate(reporter.pk)
    evidence = _gather_evidence(found, target.pk, reporter.pk, chat_id)
    if in_club is not None:
        evidence["club"] = {"id": in_club.pk, "name": in_club.name}
        lines = ClubChatMessage.objects.filter(club=in_club)
        evidence["chat"] = selectors.lines_evidence(lines, target.pk, chat_id)
    try:
        with transaction.atomic():
            report = Report.objects.create(
                reporter=reporter,
                target=target,
                game=found,
                reason=reason,
                text=text,
                evidence=evidence,
            )
            publish.after_commit(partial(detection.announce, report.pk))
            _many_reports(target.pk)
    except IntegrityError:
        raise GameError(
            "already_reported",
            gettext_noop("You already reported this player; moderators will look at it."),
            status=409,
        ) from None
    return report


def _clean_text(text: object) -> str:
    if text is None:
        return ""
    if not isinstance(text, str):
        raise GameError("bad_request", gettext_noop("The text must be a string."))
    text = text.strip()
    if len(text) > settings.REPORT_TEXT_MAX:
        raise GameError(
            "too_long",
            gettext_noop("Reports are limited to %(n)s characters."),
            n=settings.REPORT_TEXT_MAX,
        )
    return text


def _optional_id(value: object, message: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**62:
        raise GameError("bad_request", message)
    return value


def _optional_game(game: object) -> Game | None:
    game_id = _optional_id(game, gettext_noop("The game must be a game's number or null."))
    if game_id is None:
        return None
    found = Game.objects.filter(pk=game_id).first()
    if found is None:
        raise GameError("not_found", gettext_noop("There is no such game."), status=404)
    return found


def _optional_club(club: object, reporter: Visitor) -> Club | None:
    """The club whose chat is reported: one the reporter may read."""
    pk = _optional_id(club, gettext_noop("The club must be a club's number or null."))
    if pk is None:
        return None
    found = Club.objects.filter(pk=pk, dissolved__isnull=True).first()
    if found is None or not may_read_chat(found, reporter):
        raise GameError("not_found", gettext_noop("There is no such club."), status=404)
    return found


def _check_rate(user_id: int) -> None:
    count, seconds = settings.REPORT_RATE
    wait = ratelimit.hit(f"report:{user_id}", count, seconds)
    if wait is not None:
        raise GameError(
            "rate_limited",
            gettext_noop("You filed %(n)s reports lately; try again in %(wait)s seconds."),
            status=429,
            retry_after=wait,
            n=count,
            wait=wait,
        )


def _gather_evidence(
    game: Game | None, target_id: int, reporter_id: int | None, chat_id: int | None
) -> dict[str, Any]:
    evidence: dict[str, Any] = {}
    if game is not None:
        evidence["game"] = selectors.game_record(game)
        evidence["chat"] = selectors.chat_evidence(game.pk, target_id, chat_id)
    if reporter_id is not None:
        evidence["pair_games"] = selectors.pair_games(target_id, reporter_id)
    return evidence


def user_moderate(
    *,
    moderator: Visitor | None,
    username: object,
    action: object,
    days: object = None,
    note: object = "",
) -> Sanction:
    """Apply one action to an account, log it, settle its open reports."""
    if not roles.is_moderator(moderator):
        raise GameError("forbidden", gettext_noop("Only moderators may do this."), status=403)
    target = selectors.user_named(username)
    if roles.is_staff_member(target) or target.pk == moderator.pk:
        raise GameError(
            "forbidden", gettext_noop("Moderators cannot act on staff accounts."), status=403
        )
    if action not in ACTIONS:
        raise GameError(
            "bad_request",
            gettext_noop("The action must be warn, mute, suspend, close, booster or clear."),
        )
    span = _clean_days(action, days)
    note = _clean_text(note)
    if not note:
        raise GameError("bad_request", gettext_noop("Say why in the note; it is logged."))
    with transaction.atomic():
        standing, _ = Standing.objects.select_for_update().get_or_create(user=target)
        detail = _apply(action, target, standing, span, note)
        entry = Sanction.objects.create(
            user=target, moderator=moderator, action=action, days=span, note=note, detail=detail
        )
        _settle_reports(target, moderator, acted=action != Sanction.Action.CLEAR)
    return entry


def warning_acknowledge(*, user: Visitor | None, warning: object) -> Sanction:
    """The warned player has read their warning: its banner goes. Only their
    own; acknowledging twice changes nothing."""
    player = signed_in(user, gettext_noop("Log in first."))
    if isinstance(warning, bool) or not isinstance(warning, int):
        raise GameError("bad_request", gettext_noop("Name the warning by its number."))
    with transaction.atomic():
        entry = (
            Sanction.objects.select_for_update()
            .filter(pk=warning, user_id=player.pk, action=Sanction.Action.WARN)
            .first()
        )
        if entry is None:  # someone else's, or no warning at all: the same answer
            raise GameError("not_found", gettext_noop("You have no such warning."), status=404)
        if "acknowledged" not in entry.detail:
            entry.detail = {**entry.detail, "acknowledged": timezone.now().isoformat()}
            entry.save(update_fields=["detail"])
    return entry


def _clean_days(action: str, days: object) -> int | None:
    if action not in (Sanction.Action.MUTE, Sanction.Action.SUSPEND):
        return None
    if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= MAX_DAYS:
        raise GameError(
            "bad_request",
            gettext_noop("Give the days as a whole number from 0 (lift) to %(n)s."),
            n=MAX_DAYS,
        )
    return days


def _apply(
    action: str, target: User, standing: Standing, days: int | None, note: str
) -> dict[str, Any]:
    now = timezone.now()
    until = now + timedelta(days=days) if days else None
    if action == Sanction.Action.WARN:
        notify(
            user_ids=[target.pk],
            kind=Notification.Kind.DECISION,
            game=None,
            params={"warning": note},
        )
    elif action == Sanction.Action.MUTE:
        standing.muted_until = until
    elif action == Sanction.Action.SUSPEND:
        standing.suspended_until = until
        if until is not None:
            publish.after_commit(partial(publish.publish_sanction, target.pk, "suspended"))
    elif action == Sanction.Action.CLOSE:
        standing.closed = True
        target.is_active = False
        target.save(update_fields=["is_active"])
        publish.after_commit(partial(publish.publish_sanction, target.pk, "closed"))
    elif action == Sanction.Action.BOOSTER:
        if standing.booster:
            return {"refunded": [], "already": True}
        standing.booster = True
        standing.save()
        return {"refunded": refunds.refund_victims(target.pk)}
    standing.save()
    return {"until": until.isoformat()} if until else {}


def _settle_reports(target: User, moderator: User, *, acted: bool) -> None:
    """Close the account's open reports; tell the reporters when acted on."""
    open_reports = list(
        Report.objects.select_for_update().filter(target=target, status=Report.Status.OPEN)
    )
    if not open_reports:
        return
    status = Report.Status.ACTED if acted else Report.Status.CLEARED
    Report.objects.filter(pk__in=[r.pk for r in open_reports]).update(
        status=status, closed=timezone.now(), closed_by=moderator
    )
    reporters = sorted({r.reporter_id for r in open_reports if r.reporter_id})
    if acted and reporters:
        notify(
            user_ids=reporters,
            kind=Notification.Kind.DECISION,
            game=None,
            params={"report_on": target.username},
        )
    for report in open_reports:
        publish.after_commit(partial(detection.announce, report.pk))


def _many_reports(target_id: int) -> None:
    """Reports from several people at once are a signal of their own."""
    people = (
        Report.objects.filter(
            target_id=target_id, status=Report.Status.OPEN, reporter__isnull=False
        )
        .values("reporter_id")
        .distinct()
        .count()
    )
    if people >= settings.MANY_REPORTS:
        detection.file_signal(
            target_id=target_id,
            reason=Report.Reason.MANY_REPORTS,
            evidence={"reporters": people},
        )
