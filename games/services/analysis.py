"""Analysis of finished games by the computer: asked for in a request, done by a worker.

``analysis_request`` only records the wish (one ``Analysis`` per game, shared
by everyone who asks; each user may ask for ``ANALYSIS_PER_DAY`` a day). The
sweeper's analysis thread (games/realtime/analysis_worker.py) calls
``analyses_run``, which takes the next due analysis, fairly between users
(``turn``: everyone's first waiting analysis before anyone's second), and
runs it with ``analysis_run``: each ply is thought in a bot process
(games/bots/analysis.py), stored at once with the lease renewed, and pushed
to the game's pages. A worker that died leaves its lease to run out; the
next claim goes on from the plies stored.

No analysis helps anyone during a game: a running game is refused (409
``game_running``), and the plies are read from the log of a game that is
over, where every action (Hexenhalma's orders included) is public.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from .. import publish, wakeups
from ..bots.analysis import analyse_ply, summary
from ..errors import GameError
from ..models import Analysis, AnalysisRequest, Event, Game, RatingChange
from ..rules import get_ruleset
from ..selectors.analysis import analysis_answer, summary_by_name
from ..selectors.walk import opening, step
from .internal.guards import lock_user

if TYPE_CHECKING:
    from ..users import Visitor

log = logging.getLogger(__name__)

Think = Callable[..., dict[str, Any]]  # analyse_ply's signature, maybe in another process
PLY_KINDS = (Event.Kind.ACT, Event.Kind.TIMEOUT)  # a seat's ruleset actions
RETRY_AFTER_SECONDS = 3600
# Rated games of players who want theirs analysed are looked for this often,
# back to the last look (with a margin) or, in a fresh process, this far.
AUTO_EVERY = timedelta(seconds=30)
AUTO_LOOKBACK = timedelta(hours=1)
_auto_checked: list[datetime] = []  # this process's last look


class Interrupted(Exception):
    """The thinking machinery failed (a bot process died): no fault of the
    game's, so the analysis is left to its lease and taken up again."""


def analysis_request(*, user: Visitor, game_id: int) -> tuple[dict[str, Any], bool]:
    """Ask for the analysis of a game that is over: (the answer, whether it
    was queued now or is still waiting). One that exists (queued, running or
    done) is shared; a failed one is queued again."""
    if not user.is_authenticated:
        raise GameError("forbidden", gettext_noop("Sign in to ask for an analysis."), status=403)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameError("not_found", gettext_noop("There is no such game."), status=404)
    if game.status in (Game.Status.OPEN, Game.Status.ACTIVE):
        raise GameError(
            "game_running",
            gettext_noop("A game is analysed only once it is over."),
            status=409,
        )
    with transaction.atomic():
        lock_user(user.pk)  # two requests at once cannot both pass the daily limit
        analysis = Analysis.objects.select_for_update().filter(game=game).first()
        if analysis is None or analysis.status == Analysis.Status.FAILED:
            _check_daily_limit(user.pk)
            analysis = _queue(game, user.pk, analysis)
        if analysis.status != Analysis.Status.DONE:
            AnalysisRequest.objects.get_or_create(analysis=analysis, user_id=user.pk)
    return analysis_answer(game), analysis.status != Analysis.Status.DONE


def analyses_queue_rated(*, since: datetime) -> int:
    """Queue the rated games that ended since ``since`` of the players who
    asked for theirs in their settings (``User.analyse_rated_games``), as if
    each had asked (within their daily limit, else silently not); returns
    how many requests were added."""
    rows = RatingChange.objects.filter(
        user__analyse_rated_games=True, created__gte=since
    ).values_list("user_id", "game_id")
    added = 0
    for user_id, game_id in rows:
        with transaction.atomic():
            lock_user(user_id)
            analysis = Analysis.objects.select_for_update().filter(game_id=game_id).first()
            if analysis is not None and analysis.requests.filter(user_id=user_id).exists():
                continue
            if _over_daily_limit(user_id):
                continue
            if analysis is None:
                analysis = _queue(Game.objects.get(pk=game_id), user_id, None)
            if analysis.status != Analysis.Status.DONE:
                AnalysisRequest.objects.create(analysis=analysis, user_id=user_id)
                added += 1
    return added


def _over_daily_limit(user_id: int) -> bool:
    since = timezone.now() - timedelta(days=1)
    asked = AnalysisRequest.objects.filter(user_id=user_id, created__gte=since).count()
    return asked >= settings.ANALYSIS_PER_DAY


def _check_daily_limit(user_id: int) -> None:
    if _over_daily_limit(user_id):
        raise GameError(
            "rate_limited",
            gettext_noop("You may ask for %(n)s analyses a day; try again tomorrow."),
            status=429,
            retry_after=RETRY_AFTER_SECONDS,
            n=settings.ANALYSIS_PER_DAY,
        )


def _queue(game: Game, user_id: int, failed: Analysis | None) -> Analysis:
    waiting = AnalysisRequest.objects.filter(
        user_id=user_id, analysis__status__in=(Analysis.Status.QUEUED, Analysis.Status.RUNNING)
    ).count()
    fields = {
        "status": Analysis.Status.QUEUED,
        "level": settings.ANALYSIS_LEVEL,
        "turn": waiting,
        "due": timezone.now(),
        "attempts": 0,
        "plies": [],
        "summary": {},
        "total": 0,
        "last_error": "",
    }
    wakeups.wake_after_commit("analyses")
    if failed is None:
        return Analysis.objects.create(game=game, **fields)
    for name, value in fields.items():
        setattr(failed, name, value)
    failed.save()
    return failed


def analyses_next_due() -> datetime | None:
    """When ``analyses_run`` next has work: the earliest queued or leased
    ``due`` (its index); the rated games asked for in settings are looked
    for on the loop's longest sleep (``LOOP_IDLE_SECONDS``)."""
    return (
        Analysis.objects.filter(due__isnull=False)
        .order_by("due")
        .values_list("due", flat=True)
        .first()
    )


# -- the worker -------------------------------------------------------------


def analyses_run(*, think: Think = analyse_ply) -> int:
    """Queue the rated games players asked for in their settings (every
    ``AUTO_EVERY`` in this process), then run the next due analysis to its
    end; returns how many finished (0 or 1)."""
    now = timezone.now()
    if not _auto_checked or now - _auto_checked[0] >= AUTO_EVERY:
        since = _auto_checked[0] - AUTO_EVERY if _auto_checked else now - AUTO_LOOKBACK
        _auto_checked[:] = [now]
        analyses_queue_rated(since=since)
    game_id = (
        Analysis.objects.filter(due__lte=timezone.now())
        .order_by("turn", "created")
        .values_list("game_id", flat=True)
        .first()
    )
    if game_id is None:
        return 0
    return int(analysis_run(game_id=game_id, think=think))


def analysis_run(*, game_id: int, think: Think = analyse_ply) -> bool:
    """Claim the game's due analysis and run it to its end in this process
    (``think`` may send each ply to a bot process); False when it was not
    due or the claim passed to another worker meanwhile."""
    lease = _claim(game_id)
    if lease is None:
        return False
    analysis = Analysis.objects.select_related("game").get(game_id=game_id)
    game = analysis.game
    try:
        plies = list(analysis.plies)
        todo = _positions(game)
        for version, seat, action, encoded in todo[len(plies) :]:
            thought = think(game.ruleset, analysis.level, encoded, seat, action, game.seed)
            plies.append({"version": version, "seat": seat, "action": action, **thought})
            renewed = _store_ply(analysis.pk, lease, plies, len(todo))
            if renewed is None:
                return False  # taken over: the lease ran out
            lease = renewed
            _tell(game.pk, "running", len(plies), len(todo), plies[-1])
    except Interrupted:
        log.warning("analysing game %s interrupted; left to its lease", game_id)
        return False
    except Exception as exc:
        log.exception("analysing game %s failed", game_id)
        return _give_up(analysis.pk, lease, exc)
    return _finish(game, analysis.pk, lease, plies)


def _positions(game: Game) -> list[tuple[int, int, Any, dict[str, Any]]]:
    """Every ply of the game's log: (version, seat, action, encoded state before it)."""
    rs = get_ruleset(game.ruleset)
    state = opening(rs, game)
    out = []
    rows = Event.objects.filter(game=game).order_by("version")
    for version, kind, seat, action in rows.values_list("version", "kind", "seat", "action"):
        if kind in PLY_KINDS and seat is not None and action is not None:
            out.append((version, seat, action, rs.encode(state)))
        state = step(rs, state, kind, seat, action)
    return out


def _lease() -> datetime:
    return timezone.now() + timedelta(seconds=settings.ANALYSIS_CLAIM_SECONDS)


@transaction.atomic
def _claim(game_id: int) -> datetime | None:
    row = (
        Analysis.objects.select_for_update(skip_locked=True)
        .filter(game_id=game_id, due__lte=timezone.now())
        .first()
    )
    if row is None:
        return None
    if row.attempts >= settings.ANALYSIS_MAX_ATTEMPTS:  # earlier tries died with their process
        row.status, row.due, row.last_error = Analysis.Status.FAILED, None, "gave up"
        row.save(update_fields=["status", "due", "last_error"])
        return None
    lease = _lease()
    row.status, row.due, row.attempts = Analysis.Status.RUNNING, lease, row.attempts + 1
    row.save(update_fields=["status", "due", "attempts"])
    return lease


def _store_ply(
    pk: int, lease: datetime, plies: list[dict[str, Any]], total: int
) -> datetime | None:
    """Keep the plies so far and renew the lease, if it is still ours."""
    renewed = _lease()
    kept = Analysis.objects.filter(pk=pk, due=lease).update(
        plies=plies, total=total, due=renewed, attempts=0
    )
    return renewed if kept else None


def _finish(game: Game, pk: int, lease: datetime, plies: list[dict[str, Any]]) -> bool:
    by_seat = summary(plies, game.seat_count)
    with transaction.atomic():
        done = Analysis.objects.filter(pk=pk, due=lease).update(
            status=Analysis.Status.DONE,
            due=None,
            plies=plies,
            total=len(plies),
            summary=summary_by_name(game, by_seat),
            finished=timezone.now(),
        )
        if not done:
            return False
        askers = list(AnalysisRequest.objects.filter(analysis_id=pk).values_list("user", flat=True))
    _tell(game.pk, "done", len(plies), len(plies), None)
    for user_id in askers:
        publish.best_effort(publish.publish_analysis_done, user_id, game.pk)
    return True


def _give_up(pk: int, lease: datetime, exc: Exception) -> bool:
    Analysis.objects.filter(pk=pk, due=lease).update(
        status=Analysis.Status.FAILED, due=None, last_error=repr(exc)[:300]
    )
    return False


def _tell(game_id: int, status: str, done: int, total: int, ply: dict[str, Any] | None) -> None:
    progress = {"status": status, "done": done, "total": total, "ply": ply}
    publish.best_effort(publish.publish_analysis, game_id, progress)
