"""A player's act from a socket: on the event loop where it can be
(``services/moves_on_loop.py``), else in the thread pool
(``services/play.game_act``); then what follows the commit.

Both paths write through the one funnel (``services/internal/events.py``). After a
commit on the loop, this module publishes the change (``events.change_publish``,
which needs no query for a change the loop may write) and runs its other
side effects, each in a thread and a transaction of its own: awaited, or in
the background when the move's answer need not wait (``events.Later``).
"""

from __future__ import annotations

import logging
from typing import Any

from ..services import moves_on_loop, play
from ..services.internal import events
from .sending import in_background, in_thread_then_publish, publish_from_loop, to_the_end

log = logging.getLogger(__name__)


async def act(
    *,
    game_id: Any,
    user: Any,
    version: Any,
    action: Any,
    admitted: moves_on_loop.Admission = None,
) -> int:
    """Apply one player's action; returns the new version (as ``play.game_act``).

    ``admitted`` is the user's shared budget being counted (None: no count);
    the move waits for it only after locking its row, and is refused with
    ``rate_limited`` when over.

    Run to the end even when the socket's handler is cancelled mid-move: a
    committed move is never cut off from its broadcast and notifications.
    """
    return await to_the_end(
        _act(game_id=game_id, user=user, version=version, action=action, admitted=admitted)
    )


async def _act(
    *, game_id: Any, user: Any, version: Any, action: Any, admitted: moves_on_loop.Admission
) -> int:
    if moves_on_loop.loop_moves_enabled():
        committed = await moves_on_loop.loop_move_write(
            game_id=game_id, user=user, version=version, action=action, admitted=admitted
        )
        if committed is not None:
            await _after_commit(committed)
            return committed[0].change.event.version
    await moves_on_loop.loop_move_admit(admitted)
    return await in_thread_then_publish(play.game_act)(
        game_id=game_id, user=user, version=version, action=action
    )


async def _after_commit(committed: list[moves_on_loop.Committed]) -> None:
    """The move's change, then each conditional reply's: published in order,
    then their side effects."""
    for item in committed:
        await publish_from_loop(item.publish, item.change)
    for item in committed:
        for effect in item.effects:
            later = effect.later(item.change)
            if later is events.Later.WAIT:
                await _run_effect(effect, item.change)
            elif later is events.Later.BACKGROUND:
                in_background(_run_effect(effect, item.change))


async def _run_effect(effect: events.SideEffect, change: events.Change) -> None:
    """One side effect after the commit: best effort, as publishing is (the
    move is stored either way)."""
    try:
        await in_thread_then_publish(events.change_effect_run)(effect, change=change)
    except Exception:
        version = change.event.version
        log.warning(
            "%r for game %s version %s failed", effect.run, change.game.pk, version, exc_info=True
        )
