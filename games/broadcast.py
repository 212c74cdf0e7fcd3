"""Push committed changes to sockets: one group message per game event.

Each distinct view (every seat's, one for spectators) is computed and
serialised once per event, not once per socket; each connection sends the
frame for its own seat, so secrets stay with their seat.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from .models import Event, Game
from .rules import Ruleset
from .selectors import client_event, snapshot, table_summary

LOBBY_GROUP = "lobby"
SPECTATOR = "s"


def after_commit(callback: Callable[[], None]) -> None:
    """Publish once the transaction commits. Best effort: the move is stored,
    and a failing channel layer (Redis down) must not turn it into an error;
    clients catch up through their version ping."""
    transaction.on_commit(callback, robust=True)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def event_frames(game: Game, rs: Ruleset, state: Any, event: Event) -> dict[str, str]:
    frames: dict[str, str] = {}
    for seat in [*range(game.seat_count), None]:
        frame = {
            "type": "event",
            "game": game.pk,
            "version": event.version,
            "event": client_event(rs, event, seat),
            "state": snapshot(game, rs, state, seat),
        }
        frames[SPECTATOR if seat is None else str(seat)] = dumps(frame)
    return frames


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def publish_game_event(game: Game, rs: Ruleset, state: Any, event: Event) -> None:
    frames = event_frames(game, rs, state, event)
    message = {"type": "game.frames", "version": event.version, "frames": frames}
    if game.result:
        message["result"] = game.result
    _send(game_group(game.pk), message)


def publish_table(game: Game) -> None:
    """Tell the lobby a table or live game changed (or went away)."""
    summary = table_summary(game)
    _send(LOBBY_GROUP, {"type": "lobby.table", "table": summary})
    _send(game_group(game.pk), {"type": "game.table", "table": summary})


def publish_to_user(user_id: int, payload: dict[str, Any]) -> None:
    _send(user_group(user_id), {"type": "user.notify", "payload": payload})


def publish_watchers(game_id: int, count: int) -> None:
    _send(game_group(game_id), {"type": "game.watchers", "count": count})


def publish_chat(game_id: int, message: dict[str, Any]) -> None:
    _send(game_group(game_id), {"type": "game.chat", "message": message})
