"""Where a move's time goes on the server: the site with timestamps.

Serve ``bench.move_probe:application`` instead of ``config.asgi:application``;
it wraps the hot path's functions (nothing else changes) and, on SIGTERM or
at exit, writes each move's timestamps to ``MOVE_PROBE_OUT`` (JSON). Then
``python bench/move_probe.py FILE`` prints each step's p50/p90/p99:

  received -> batch starts -> lock sent/back -> decided -> commit sent/back
  -> frames built and published -> each socket's consumer has the frame
  -> written to it; and the ack.

Drive it with bench/ws_load.py (``--mode=open`` for the paced latency), e.g.
on the bench database (environment as bench/bars.py sets it)::

  MOVE_PROBE_OUT=/tmp/probe.json .venv/bin/daphne -p 8931 bench.move_probe:application &
  .venv/bin/python bench/ws_load.py --url=ws://127.0.0.1:8931 \
      --origin=http://127.0.0.1:8931 --setup --mode=open --spectators=2 \
      --games 200 --duration 24 --interval=3.0
  kill %1; .venv/bin/python bench/move_probe.py /tmp/probe.json

The CPU lines are the loop thread's CPU between two marks: the move's own
work and whatever else the loop ran meanwhile. A probe, not a benchmark:
its wrappers cost a few microseconds a step.
"""

from __future__ import annotations

import atexit
import contextvars
import json
import os
import signal
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

now = time.perf_counter
cpu = time.thread_time  # the loop's thread: its CPU between two marks
# (game, version) -> name -> time (lists for the per-socket steps)
moves: dict[tuple[int, int], dict[str, Any]] = defaultdict(dict)
_batch: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar(
    "batch", default=None
)
_batch_of: dict[int, dict[str, float]] = {}  # game -> its last batch's marks


def _patch() -> None:
    from games.realtime import acts, consumers
    from games.services import moves_on_loop
    from games.store import rows

    act, lock, commit, write_batch = (
        acts.act,
        rows.alock_games,
        rows.acommit,
        moves_on_loop._write_batch,
    )
    publish, game_frames = acts.publish_from_loop, consumers.GameConsumer.game_frames
    send_event_frame = consumers.GameConsumer.send_event_frame

    async def timed_act(*, game_id: Any, **kw: Any) -> int:
        t = now()
        version = await act(game_id=game_id, **kw)
        entry = moves[(int(game_id), version)]
        entry.update(received=t, acted=now(), **(_batch_of.pop(int(game_id), {})))
        return version

    async def timed_write_batch(batch: list[Any], written: Any) -> None:
        marks = {"batch": now(), "size": len(batch)}
        _batch.set(marks)
        try:
            await write_batch(batch, written)
        finally:
            marks["written"] = now()
            for move in batch:
                _batch_of[move.game_id] = marks

    def timed_round_trip(func: Any, name: str) -> Any:
        async def timed(conn: Any, sent: Any, **kw: Any) -> Any:
            marks = _batch.get()
            if marks is not None:
                marks[f"{name}_sent"], marks[f"{name}_sent_cpu"] = now(), cpu()
            back = await func(conn, sent, **kw)
            if marks is not None:
                marks[f"{name}_back"], marks[f"{name}_back_cpu"] = now(), cpu()
            return back

        return timed

    async def timed_publish(func: Any, change: Any) -> None:
        key = (change.game.pk, change.event.version)
        moves[key]["publish"], moves[key]["publish_cpu"] = now(), cpu()
        await publish(func, change)
        moves[key]["published"], moves[key]["published_cpu"] = now(), cpu()

    async def timed_game_frames(self: Any, message: dict[str, Any]) -> None:
        entry = moves[(self.game_id, message["version"])]
        entry.setdefault("arrive", []).append(now())
        await game_frames(self, message)

    async def timed_send_event_frame(self: Any, text: str, message: dict[str, Any]) -> None:
        await send_event_frame(self, text, message)
        moves[(self.game_id, message["version"])].setdefault("sent", []).append(now())

    acts.act = timed_act
    moves_on_loop._write_batch = timed_write_batch
    rows.alock_games = timed_round_trip(lock, "lock")
    rows.acommit = timed_round_trip(commit, "commit")
    acts.publish_from_loop = timed_publish
    consumers.GameConsumer.game_frames = timed_game_frames
    consumers.GameConsumer.send_event_frame = timed_send_event_frame


def _dump(*_: Any) -> None:
    out = os.environ.get("MOVE_PROBE_OUT", "/tmp/move_probe.json")
    done = [m for m in moves.values() if "received" in m and "sent" in m]
    with open(out, "w") as f:
        json.dump(done, f)
    if _:
        sys.exit(0)


def _application() -> Any:
    import django

    django.setup()
    _patch()
    from config.asgi import application

    atexit.register(_dump)
    signal.signal(signal.SIGTERM, _dump)
    return application


STEPS = [
    ("received -> batch", "received", "batch"),
    ("batch -> lock sent", "batch", "lock_sent"),
    ("lock round trip", "lock_sent", "lock_back"),
    ("decided (lock back -> commit sent)", "lock_back", "commit_sent"),
    ("batch -> commit sent (either path)", "batch", "commit_sent"),
    ("commit round trip", "commit_sent", "commit_back"),
    ("commit -> batch done", "commit_back", "written"),
    ("batch done -> publish", "written", "publish"),
    ("publish (frames built, sent)", "publish", "published"),
    ("  CPU in the lock round trip", "lock_sent_cpu", "lock_back_cpu"),
    ("  CPU lock back -> commit sent", "lock_back_cpu", "commit_sent_cpu"),
    ("  CPU in the commit round trip", "commit_sent_cpu", "commit_back_cpu"),
    ("  CPU in the publish", "publish_cpu", "published_cpu"),
    ("received -> ack (act returns)", "received", "acted"),
    ("published -> first socket has it", "published", "arrive[0]"),
    ("published -> last socket has it", "published", "arrive[-1]"),
    ("last socket has it -> written", "arrive[-1]", "sent[-1]"),
    ("received -> last frame written", "received", "sent[-1]"),
]


def _at(entry: dict[str, Any], name: str) -> float | None:
    if name.endswith("]"):
        base, index = name[:-1].split("[")
        values = entry.get(base)
        return values[int(index)] if values else None
    return entry.get(name)


def report(path: str) -> None:
    with open(path) as f:
        entries = json.load(f)
    print(
        f"{len(entries)} moves; batch size median {statistics.median(e.get('size', 1) for e in entries)}"
    )
    for label, start, end in STEPS:
        spans = sorted(
            (b - a) * 1000
            for e in entries
            if (a := _at(e, start)) is not None and (b := _at(e, end)) is not None
        )
        if not spans:
            continue
        q = statistics.quantiles(spans, n=100)
        print(
            f"{label:38s} p50 {q[49]:6.2f}  p90 {q[89]:6.2f}  p99 {q[98]:6.2f}  max {spans[-1]:7.2f} ms"
        )


if __name__ == "__main__":
    report(sys.argv[1])
else:
    application = _application()
