"""Keeping states of a game's log (checkpoints) so replay pages start near them.

The worker (``games.realtime.sweeper``) walks the log once and stores the
state at least every ``CHECKPOINT_EVERY`` versions and every
``CHECKPOINT_CPU_SECONDS`` of stepping, and after every piece of long work
(which the live game stored already when it did that work, so it is never
redone).
"""

from __future__ import annotations

import time

from ...models import Event, Game, ReplayCheckpoint
from ...rules import get_ruleset
from ...selectors.replays import state_at_checkpoint
from ...selectors.walk import checkpoint_due, step


def keep_work_state(game: Game, version: int) -> None:
    """The state right after long work, as the live game computed it (no redoing)."""
    ReplayCheckpoint.objects.create(game=game, version=version, state=game.state)


def replay_checkpoints_build(game_id: int, *, since: int = 0, until: int | None = None) -> int:
    """Walk the log once from the checkpoint at or before ``since`` up to
    ``until`` (None: the current version), keeping states as
    ``checkpoint_due`` says (by versions and by the CPU the steps cost
    here); returns how many are new."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status == Game.Status.OPEN:
        return 0
    rs = get_ruleset(game.ruleset)
    have = set(ReplayCheckpoint.objects.filter(game=game).values_list("version", flat=True))
    last = max((v for v in have if v <= since), default=0)
    state = state_at_checkpoint(game, rs, last)
    end = game.version if until is None else min(until, game.version)
    rows = (
        Event.objects.filter(game=game, version__gt=last, version__lte=end)
        .order_by("version")
        .values_list("version", "kind", "seat", "action")
    )
    new: list[ReplayCheckpoint] = []
    stored, started = 0, time.thread_time()
    for version, kind, seat, action in rows.iterator(chunk_size=500):
        if kind == Event.Kind.WORK and version in have:  # the live game kept it
            state = state_at_checkpoint(game, rs, version)
        else:  # long work of a game stored before checkpoints is done once, here
            state = step(rs, state, kind, seat, action)
        if version in have:  # kept by the live game or an earlier walk
            last, started = version, time.thread_time()
        elif checkpoint_due(kind, version, last, time.thread_time() - started):
            new.append(ReplayCheckpoint(game=game, version=version, state=rs.encode(state)))
            last, started = version, time.thread_time()
        if len(new) >= 50:
            stored += len(ReplayCheckpoint.objects.bulk_create(new, ignore_conflicts=True))
            new = []
    stored += len(ReplayCheckpoint.objects.bulk_create(new, ignore_conflicts=True))
    return stored
