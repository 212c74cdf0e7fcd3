"""The deadline sweeper, the mail sender and the presence refresh: started in
every server process; each sweep runs in one of them at a time (its lease,
games/realtime/leases.py), the presence refresh in each (its own entries).

The in-memory channel layer exists only inside one process, so a timer must
fire where the sockets are (with Redis, any process reaches every socket).
The process holding the lease polls for due games; should two ever overlap
(a lease handed over mid-round), ``select_for_update(skip_locked=True)`` in
``game_timeout`` still makes sure exactly one applies each deadline. The outbox's mail (games/services/mail.py)
goes out from here too, in a thread of its own, and so do web pushes
(games/services/push.py), in another; imports (games/services/import_jobs.py)
are replayed in a third, one at a time, and so are analyses in a thread of
theirs (games/realtime/analysis_worker.py); tournaments' due starts and rounds
are paired, and their standings stored after results, in a fourth (a
1,000-player round takes seconds: no clock waits for it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from django.utils import timezone

from accounts.services import guests
from lobby.tournaments.due import tournament_due_next, tournament_due_run

from ..models import Game
from ..services import due_times, forced, handover, import_jobs, mail, push
from ..services.internal import replay_checkpoints
from ..services.play import game_timeout
from ..store import presence, replay_requests
from ..store.replay_requests import take_requests
from ..threads import closing_connections
from .analysis_worker import analyses_run_in_pool
from .bot_worker import bot_worker
from .polling import NextDue, poll_forever

log = logging.getLogger(__name__)
BATCH = 50
PER_GAME = 64
MAIL_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")
PUSH_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="push")
IMPORT_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="import")
ANALYSIS_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
TOURNAMENT_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tournaments")


def due_in(
    read: Callable[[], datetime | None], executor: ThreadPoolExecutor | None = None
) -> NextDue:
    """``read`` (a loop's next due time, from the database) as the seconds
    until then, awaitable: in ``executor``'s thread, else in the pool."""
    ask = closing_connections(lambda: due_times.loop_seconds_until(read()))
    return sync_to_async(ask, thread_sensitive=False, executor=executor)


async def replays_next_due() -> float | None:
    """0 while builds are asked for (in memory: no query), else nothing known."""
    return 0.0 if replay_requests.pending() else None


def in_thread_of_its_own(
    call: Callable[[], object], executor: ThreadPoolExecutor
) -> Callable[[], Awaitable[object]]:
    """``call`` awaitable in ``executor``'s one thread, closing its connections
    after each round: a slow round of one loop holds up no other loop."""
    return sync_to_async(closing_connections(call), thread_sensitive=False, executor=executor)


def sweep_once() -> int:
    """Apply every due deadline once; returns how many were applied."""
    # Only running games have a deadline (clocks.set_deadline), so the index
    # on it alone finds the due ones: no status in the query, which would let
    # a planner walk every running game instead. One left on a game that is
    # over (an older path) is cleared here, so it cannot crowd out others.
    rows = (
        Game.objects.filter(deadline__lte=timezone.now(), paused=False)
        .order_by("deadline")
        .values_list("pk", "status")[:BATCH]
    )
    due = [pk for pk, status in rows if status == Game.Status.ACTIVE]
    stale = [pk for pk, status in rows if status != Game.Status.ACTIVE]
    if stale:
        Game.objects.filter(pk__in=stale).exclude(status=Game.Status.ACTIVE).update(deadline=None)
    applied = 0
    for game_id in due:
        # A phase deadline can be due for several seats (every team of a round):
        # apply them all now rather than one per sweep.
        for _ in range(PER_GAME):
            try:
                if game_timeout(game_id=game_id) is None:
                    break
            except Exception:  # one broken game must not stop the others' clocks
                log.exception("timeout for game %s failed", game_id)
                break
            applied += 1
    try:  # forced turns of players who let the site play them (their index only)
        applied += forced.forced_turns_play_due()
    except Exception:
        log.exception("forced turns failed")
    try:  # leavers' seats nobody decided on in time leave as the rules say
        applied += handover.handover_offers_expire()
    except Exception:
        log.exception("expiring handover offers failed")
    return applied


def build_replays() -> int:
    """Prepare the replays asked for (games that ended, pages that found no
    checkpoint near); returns how many games were done."""
    done = 0
    for game_id, since, until in take_requests():
        try:
            replay_checkpoints.replay_checkpoints_build(game_id, since=since, until=until)
        except Exception:  # one broken log must not stop the others' replays
            log.exception("preparing the replay of game %s failed", game_id)
        done += 1
    return done


def build_replays_in_thread() -> int:
    """``build_replays`` in a worker thread of its own, which keeps no connection."""
    try:
        return build_replays()
    finally:
        connections.close_all()


class Sweeper:
    """Started once per process, on the server's event loop: the deadline
    sweep, and beside it the mail outbox's sender."""

    def __init__(self) -> None:
        self.task: asyncio.Task | None = None
        self.mail_task: asyncio.Task | None = None
        self.push_task: asyncio.Task | None = None
        self.builder: asyncio.Task | None = None
        self.presence_task: asyncio.Task | None = None
        self.import_task: asyncio.Task | None = None
        self.analysis_task: asyncio.Task | None = None
        self.guest_task: asyncio.Task | None = None
        self.tournament_task: asyncio.Task | None = None
        self.stopping = asyncio.Event()

    async def stop(self) -> None:
        """End every loop once its current round is done (a test's teardown
        must not empty tables under a round's query: a deadlock on PostgreSQL)."""
        self.stopping.set()
        every = (self.task, self.mail_task, self.push_task, self.builder, self.import_task)
        others = (self.guest_task, self.tournament_task, self.analysis_task)
        loops = [t for t in (*every, *others) if t]
        await asyncio.gather(*loops, bot_worker.stop(), return_exceptions=True)
        if self.presence_task is not None:
            self.presence_task.cancel()
            await asyncio.gather(self.presence_task, return_exceptions=True)

    def ensure_started(self) -> None:
        if not getattr(settings, "GAME_SWEEPER", True):
            return
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done():
            self.stopping = asyncio.Event()  # of this loop (a test runs several)
            self.task = loop.create_task(self.run())
        if self.mail_task is None or self.mail_task.done():
            self.mail_task = loop.create_task(self.run_mail())
        if self.push_task is None or self.push_task.done():
            self.push_task = loop.create_task(self.run_push())
        if self.builder is None or self.builder.done():
            self.builder = loop.create_task(self.run_builder())
        if self.import_task is None or self.import_task.done():
            self.import_task = loop.create_task(self.run_imports())
        if self.analysis_task is None or self.analysis_task.done():
            self.analysis_task = loop.create_task(self.run_analyses())
        if self.guest_task is None or self.guest_task.done():
            self.guest_task = loop.create_task(self.run_guests())
        if self.tournament_task is None or self.tournament_task.done():
            self.tournament_task = loop.create_task(self.run_tournaments())
        bot_worker.ensure_started()
        if self.presence_task is None:
            # Renews this process's presence entries in Redis (nothing in memory).
            self.presence_task = loop.create_task(presence.refresh_forever())

    async def run_builder(self) -> None:
        """Replays are prepared in a thread of their own: not the one the
        sockets' database work shares, so a long campaign's replay (seconds
        of work for games stored before checkpoints) holds up no move, and
        not on the sweep's timer, so no deadline waits for it either."""
        await poll_forever(
            sync_to_async(build_replays_in_thread, thread_sensitive=False),
            getattr(settings, "GAME_SWEEP_SECONDS", 0.5),
            "preparing replays failed",
            self.stopping,
            lease="replays",
            next_due=replays_next_due,
        )

    async def run_imports(self) -> None:
        """Replay queued imports, one at a time in a thread of their own: the
        requests that queued them hold nothing, and a long replay holds up no
        move, mail or deadline (it holds no connection either, but to store)."""
        await poll_forever(
            in_thread_of_its_own(import_jobs.imports_run, IMPORT_THREAD),
            getattr(settings, "GAME_IMPORT_SECONDS", 1.0),
            "importing a game failed",
            self.stopping,
            lease="imports",
            next_due=due_in(due_times.loop_imports_due, IMPORT_THREAD),
        )

    async def run_analyses(self) -> None:
        """Run queued analyses, one at a time in a thread of their own, each
        ply thought in the bot processes (games/realtime/analysis_worker.py)."""
        await poll_forever(
            in_thread_of_its_own(analyses_run_in_pool, ANALYSIS_THREAD),
            getattr(settings, "GAME_IMPORT_SECONDS", 1.0),
            "analysing a game failed",
            self.stopping,
            lease="analyses",
            next_due=due_in(due_times.loop_analyses_due, ANALYSIS_THREAD),
        )

    async def run(self) -> None:
        await poll_forever(
            sync_to_async(closing_connections(sweep_once)),
            getattr(settings, "GAME_SWEEP_SECONDS", 0.5),
            "deadline sweep failed",
            self.stopping,
            lease="deadlines",
            next_due=due_in(due_times.loop_sweep_due),
        )

    async def run_tournaments(self) -> None:
        """Tournaments whose start or next round is due (after a round's
        pause, or a big field's start handed over by its request), and whose
        standings wait after results, in a thread of their own: a round's
        games take seconds to create, and the deadline sweep must not wait
        for them."""
        await poll_forever(
            in_thread_of_its_own(tournament_due_run, TOURNAMENT_THREAD),
            getattr(settings, "GAME_SWEEP_SECONDS", 0.5),
            "tournament rounds failed",
            self.stopping,
            lease="tournaments",
            next_due=due_in(tournament_due_next, TOURNAMENT_THREAD),
        )

    async def run_guests(self) -> None:
        """Clean up guests idle for a day (accounts/services/guests.py)."""
        await poll_forever(
            sync_to_async(closing_connections(guests.guests_clean_up), thread_sensitive=False),
            getattr(settings, "GUEST_CLEANUP_SECONDS", 600.0),
            "cleaning up guests failed",
            self.stopping,
            lease="guests",
        )

    async def run_mail(self) -> None:
        """Send the outbox's due mail, in a thread of its own: a slow mail
        server holds up neither the deadlines nor any move."""
        await poll_forever(
            in_thread_of_its_own(mail.mail_send_due, MAIL_THREAD),
            getattr(settings, "GAME_MAIL_SECONDS", 2.0),
            "sending mail failed",
            self.stopping,
            lease="mail",
            next_due=due_in(due_times.loop_mail_due, MAIL_THREAD),
        )

    async def run_push(self) -> None:
        """Send the push outbox, in a thread of its own: a push service that
        hangs holds up neither mail, deadlines nor moves."""
        await poll_forever(
            in_thread_of_its_own(push.pushes_send_due, PUSH_THREAD),
            getattr(settings, "GAME_PUSH_SECONDS", 1.0),
            "sending pushes failed",
            self.stopping,
            lease="pushes",
            next_due=due_in(due_times.loop_pushes_due, PUSH_THREAD),
        )


sweeper = Sweeper()


class StartSweeper:
    """ASGI wrapper: starts the sweeper on the first connection or request.

    Daphne has no lifespan events; the pages' 10-second pings mean a
    restarted process is reached within seconds of coming up.
    """

    def __init__(self, app) -> None:
        self.app = app

    _asgi_single_callable = True  # a plain __call__ that returns the app's coroutine

    def __call__(self, scope, receive, send):
        # Hands back the app's coroutine instead of awaiting it, so no frame of
        # this wrapper stays alive for each open socket.
        coroutine = self.app(scope, receive, send)
        try:
            sweeper.ensure_started()
        except RuntimeError:  # called outside the loop (a test's communicator)
            return self.started_first(coroutine)
        return coroutine

    async def started_first(self, coroutine):
        sweeper.ensure_started()
        return await coroutine
