"""Reads for reports and cases: the queue, one case with its evidence and the
account's history, a reporter's own reports, completion rates."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.errors import GameError
from games.models import ChatMessage, Game, RatingChange, Seat

from .models import Offence, PlayBan, Report, Sanction, Sighting, Standing

if TYPE_CHECKING:
    from accounts.models import User

PER_PAGE = 50
CHAT_CONTEXT = 3  # lines before and after a reported line
PAIR_GAMES = 20


def name_of(user: Any) -> str | None:
    return user.username if user is not None else None


def report_summary(report: Report) -> dict[str, Any]:
    """The fixed shape of ARCHITECTURE.md (plus the target's open count)."""
    return {
        "id": report.pk,
        "username": report.target.username,
        "reporter": name_of(report.reporter),
        "game": report.game_id,
        "reason": report.reason,
        "text": report.text,
        "status": report.status,
        "created": report.created.isoformat(),
    }


def open_count() -> int:
    return Report.objects.filter(status=Report.Status.OPEN).count()


def queue(status: str = Report.Status.OPEN) -> dict[str, Any]:
    if status not in Report.Status.values:
        raise GameError("bad_request", gettext_noop("status must be open, acted or cleared."))
    rows = Report.objects.filter(status=status).select_related("target", "reporter")
    return {
        "items": [report_summary(r) for r in rows.order_by("created", "pk")[:PER_PAGE]],
        "open": open_count(),
    }


def mine(user: Any) -> dict[str, Any]:
    """A reporter's own reports: whether each was acted on, never how."""
    rows = Report.objects.filter(reporter=user).select_related("target")[:PER_PAGE]
    return {
        "items": [
            {
                "id": r.pk,
                "username": r.target.username,
                "game": r.game_id,
                "reason": r.reason,
                "status": r.status,
                "created": r.created.isoformat(),
            }
            for r in rows
        ]
    }


def chat_evidence(game_id: int, user_id: int, chat_id: int | None) -> list[dict[str, Any]]:
    """A game chat's reported line (or the user's last lines) with the lines around it."""
    return lines_evidence(ChatMessage.objects.filter(game_id=game_id), user_id, chat_id)


def lines_evidence(lines: QuerySet[Any], user_id: int, chat_id: int | None) -> list[dict[str, Any]]:
    """The reported line of one chat's ``lines`` (or the user's last lines)
    with the lines around it: any chat with a user, a text and a time."""
    lines = lines.select_related("user")
    if chat_id is not None:
        anchor = lines.filter(pk=chat_id, user_id=user_id).first()
        anchors = [anchor] if anchor else []
    else:
        anchors = list(lines.filter(user_id=user_id).order_by("-created", "-pk")[:3])
    if not anchors:
        return []
    first, last = min(a.pk for a in anchors), max(a.pk for a in anchors)
    before = list(lines.filter(pk__lt=first).order_by("-pk")[:CHAT_CONTEXT])
    after = list(lines.filter(pk__gt=last).order_by("pk")[:CHAT_CONTEXT])
    middle = list(lines.filter(pk__gte=first, pk__lte=last).order_by("pk")[:50])
    reported = {a.pk for a in anchors}
    return [
        {
            "id": m.pk,
            "user": name_of(m.user),
            "text": m.text,
            "time": m.created.isoformat(),
            "reported": m.pk in reported,
        }
        for m in [*reversed(before), *middle, *after]
    ]


def game_record(game: Game) -> dict[str, Any]:
    seats = Seat.objects.filter(game=game).select_related("user").order_by("index")
    return {
        "id": game.pk,
        "ruleset": game.ruleset,
        "status": game.status,
        "rated": game.rated,
        "clock": game.clock,
        "version": game.version,
        "result": game.result,
        "players": [name_of(s.user) for s in seats],
    }


def pair_games(a: int, b: int, limit: int = PAIR_GAMES) -> list[dict[str, Any]]:
    """The pair's recent rated games, newest first, with each one's rating changes."""
    shared = Seat.objects.filter(user_id=b).values("game_id")
    changes = (
        RatingChange.objects.filter(user_id=a, game_id__in=shared)
        .order_by("-created", "-pk")
        .values("game_id", "ruleset", "place", "before", "after", "created")[:limit]
    )
    theirs = dict(
        RatingChange.objects.filter(
            user_id=b, game_id__in=[c["game_id"] for c in changes]
        ).values_list("game_id", "place")
    )
    return [
        {
            "game": c["game_id"],
            "ruleset": c["ruleset"],
            "place": c["place"],
            "their_place": theirs.get(c["game_id"]),
            "change": c["after"] - c["before"],
            "created": c["created"].isoformat(),
        }
        for c in changes
    ]


COMPLETION_WINDOW = 500  # the player's newest games that the rate covers


def completion(user_id: int) -> dict[str, Any]:
    """Finished / started over the player's newest ``COMPLETION_WINDOW``
    games: those that left the open table, less those the player aborted or
    ran out of time in. Read from the newest-first seat index, so the cost does
    not grow with a long history."""
    # Two reads, not a join: joined, the planner walks every game stored,
    # newest first, to meet this player's.
    newest = Seat.objects.filter(user_id=user_id).order_by("-game_id")
    window = list(newest.values_list("game_id", "game_ended")[:COMPLETION_WINDOW])
    games = _ended(window)
    offences = Offence.objects.filter(user_id=user_id, game_id__in=games).count() if games else 0
    started = len(games)
    done = max(0, started - offences)
    return {
        "started": started,
        "completed": done,
        "rate": round(100 * done / started) if started else None,
    }


ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)


def _ended(window: list[tuple[int, bool]]) -> list[int]:
    """Which games of the window (game id, its seat's ``game_ended``) have
    ended. A marked seat says so from the index alone; the others are read
    by key (each key a descent: 1,101 pages for 500): the player's live
    games, and any game a process of the release before the mark ended."""
    known = [game_id for game_id, ended in window if ended]
    unknown = [game_id for game_id, ended in window if not ended]
    if unknown:
        found = Game.objects.filter(pk__in=unknown, status__in=ENDED)
        known += found.values_list("pk", flat=True)
    return sorted(known)


def same_origin(user_id: int) -> list[dict[str, Any]]:
    """Other accounts seen from this account's addresses or device cookies."""
    seen = Sighting.objects.filter(user_id=user_id)
    addresses = [s.address for s in seen if s.address]
    devices = [s.device for s in seen if s.device]
    if not addresses and not devices:
        return []
    others = (
        Sighting.objects.filter(Q(address__in=addresses) | Q(device__in=devices))
        .exclude(user_id=user_id)
        .select_related("user")[:50]
    )
    return [
        {
            "username": s.user.username,
            "address": s.address in addresses,
            "device": bool(s.device) and s.device in devices,
        }
        for s in others
    ]


def history(user: Any) -> dict[str, Any]:
    standing = Standing.objects.filter(user=user).first()
    now = timezone.now()
    recent = (
        Seat.objects.filter(user=user)
        .exclude(game__status=Game.Status.OPEN)
        .select_related("game")
        .order_by("-game__created")[:20]
    )
    return {
        "username": user.username,
        "joined": user.date_joined.isoformat(),
        "closed": bool(standing and standing.closed),
        "muted_until": iso(standing.muted_until) if standing else None,
        "suspended_until": iso(standing.suspended_until) if standing else None,
        "booster": bool(standing and standing.booster),
        "completion": completion(user.pk),
        "games": [
            {"id": s.game_id, "ruleset": s.game.ruleset, "status": s.game.status} for s in recent
        ],
        "sanctions": [
            {
                "action": s.action,
                "days": s.days,
                "note": s.note,
                "moderator": name_of(s.moderator),
                "created": s.created.isoformat(),
            }
            for s in Sanction.objects.filter(user=user).select_related("moderator")[:50]
        ],
        "playbans": PlayBan.objects.filter(user=user, created__gt=now - timedelta(days=30)).count(),
        "reports": Report.objects.filter(target=user).count(),
        "same_origin": same_origin(user.pk),
    }


def iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def case(report_id: Any) -> dict[str, Any]:
    try:
        pk = int(report_id)
        if not 0 < pk < 2**63:  # beyond a bigint: PostgreSQL would refuse the query
            raise ValueError(pk)
        report = Report.objects.select_related("target", "reporter").get(pk=pk)
    except (TypeError, ValueError, Report.DoesNotExist):
        raise GameError("not_found", gettext_noop("There is no such report."), status=404) from None
    return {
        **report_summary(report),
        "evidence": report.evidence,
        "history": history(report.target),
    }


def user_named(username: object) -> User:
    if not isinstance(username, str) or not username or len(username) > 150:
        raise GameError("not_found", gettext_noop("There is no such player."), status=404)
    found = get_user_model().objects.filter(username=username).first()
    if found is None:
        raise GameError("not_found", gettext_noop("There is no such player."), status=404)
    return found


def usernames(ids: list[int]) -> list[tuple[int, str]]:
    return list(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))


def warning_pending(user_id: int | None) -> Sanction | None:
    """The oldest warning its player has not acknowledged yet: every page
    shows it as a banner until they do (``detail["acknowledged"]``)."""
    if user_id is None:
        return None
    return (
        Sanction.objects.filter(user_id=user_id, action=Sanction.Action.WARN)
        .exclude(detail__has_key="acknowledged")
        .order_by("created", "pk")
        .first()
    )
