"""Imports off the request path: the request queues an export, a worker replays it.

Replaying a long game costs what playing it cost (a big Hexenhalma campaign:
tens of seconds of CPU), so no request does it. ``import_enqueue`` checks
the export's header and stores it as an ``ImportJob``; the sweeper's import
thread (``imports_run``, one per process) claims one job at a time with a
lease (the outbox's claim: a job survives a restart, a claim whose process
died expires), replays it holding no database connection, within
``IMPORT_CPU_SECONDS`` of CPU, and stores the game or the reason it failed.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from .. import wakeups
from ..errors import GameError
from ..models import ImportJob
from .internal import game_import
from .internal.guards import lock_user
from .outbox import Outbox

if TYPE_CHECKING:
    from ..users import Visitor

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30  # for someone with too many imports waiting


def _import_queue() -> Outbox:
    return Outbox(
        model=ImportJob,
        what="import",
        log=log,
        batch=1,  # one job claimed at a time: no lease held on work not started
        lease=timedelta(seconds=settings.IMPORT_CLAIM_SECONDS),
        first_retry=timedelta(seconds=settings.IMPORT_CLAIM_SECONDS),
        last_retry=timedelta(seconds=settings.IMPORT_CLAIM_SECONDS),
        max_attempts=settings.IMPORT_MAX_ATTEMPTS,
    )


def import_enqueue(*, user: Visitor, data: object) -> ImportJob:
    """Queue an export for its replay once its header is sound (else the
    error now, nothing stored); a user has a few imports waiting at most."""
    game_import.check_export(user=user, data=data)
    if not user.is_authenticated:  # refused by check_export already; narrows the type
        raise AssertionError("check_export refuses anonymous callers")
    with transaction.atomic():
        lock_user(user.pk)  # two requests at once cannot both count the same waiting jobs
        waiting = ImportJob.objects.filter(user=user, status=ImportJob.Status.PENDING).count()
        if waiting >= settings.IMPORT_PENDING_PER_USER:
            raise GameError(
                "rate_limited",
                gettext_noop("You have %(n)s imports waiting; try again once they are done."),
                status=429,
                retry_after=RETRY_AFTER_SECONDS,
                n=waiting,
            )
        job = ImportJob.objects.create(user=user, data=data)
        wakeups.wake_after_commit("imports")
        return job


def imports_next_due() -> datetime | None:
    """When ``imports_run`` next has a job: the earliest queued ``due``."""
    return _import_queue().next_due(purge=False)


def imports_run() -> int:
    """Claim one due import and decide it; returns how many were decided (0 or 1)."""
    now = timezone.now()
    queue = _import_queue()
    lease = now + queue.lease
    claimed = queue.claim_due(now, lease)
    return sum(_run_one(job_id, lease) for job_id in claimed)


def _run_one(job_id: int, lease: datetime) -> int:
    """Replay one claimed job and store what came of it (1), unless the claim
    has passed to another worker meanwhile (0)."""
    found = ImportJob.objects.filter(pk=job_id, due=lease).values_list("attempts", "data").first()
    if found is None:
        return 0
    attempts, data = found
    if attempts > settings.IMPORT_MAX_ATTEMPTS:  # the earlier tries died with their process
        return _decide(job_id, lease, error=_broken())
    if transaction.get_autocommit():  # not inside a caller's transaction (a test's)
        close_old_connections()  # the replay holds no connection: back to the pool
    try:
        # A job keeps its export until it is decided (then ``data`` is cleared).
        export = cast("dict[str, Any]", data)
        checked = game_import.replay_export(export, cpu_seconds=settings.IMPORT_CPU_SECONDS)
    except GameError as exc:
        return _decide(job_id, lease, error=exc)
    except Exception:  # a bug the log shows: the same every time, so no retry
        log.exception("replaying import %s failed", job_id)
        return _decide(job_id, lease, error=_broken())
    finally:
        del data, export
    return _decide(job_id, lease, checked=checked)


def _broken() -> GameError:
    return GameError(
        "server_error",
        gettext_noop("The server could not check this game; the export may be damaged."),
        status=500,
    )


@transaction.atomic
def _decide(
    job_id: int,
    lease: datetime,
    *,
    error: GameError | None = None,
    checked: game_import.Checked | None = None,
) -> int:
    """Store the game (or the error) and close the job, if the claim is still ours."""
    job = ImportJob.objects.select_for_update().filter(pk=job_id, due=lease).defer("data").first()
    if job is None:
        return 0
    job.data, job.due, job.decided = None, None, timezone.now()
    if checked is not None:
        job.game = game_import.store_game(user_id=job.user_id, checked=checked)
        job.status = ImportJob.Status.DONE
    else:
        assert error is not None  # a decision carries one or the other
        job.error = {"code": error.code, "template": error.template, "params": error.params}
        job.status = ImportJob.Status.FAILED
    job.save(update_fields=["data", "due", "decided", "game", "error", "status"])
    return 1
