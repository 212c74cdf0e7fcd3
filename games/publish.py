"""Push committed changes to sockets through the channel layer: the groups'
names, the messages, and sending them after the commit.

One group message per game event: each distinct view (every seat's, one for
spectators) is computed and serialised once per event
(``selectors.frames.event_frames``), not once per socket; each connection
sends the frame for its own seat, so secrets stay with their seat. Sends are
best effort after the commit: clients catch up through their version ping.
How the sends leave a thread for the event loop is the realtime layer's
business (``games/realtime/sending.py``); services only call ``after_commit``
(or ``send`` for one ready message). Every group message of the product
leaves through this module: ``send`` from sync code, ``send_from_loop`` from
the event loop, both best effort.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from . import wakeups
from .models import Event, Game, RemisRequest
from .rules import Ruleset
from .selectors.frames import SPECTATOR, event_frames
from .selectors.remis import request_summary
from .selectors.seats import screen_holders, seat_holders
from .selectors.tables import lobby_counts, table_summary

log = logging.getLogger(__name__)


LOBBY_GROUP = "lobby"


def after_commit(callback: Callable[[], None]) -> None:
    """Publish once the transaction commits. Best effort: the move is stored,
    and a failing channel layer (Redis down) must not turn it into an error;
    clients catch up through their version ping."""
    transaction.on_commit(partial(best_effort, callback))


def send(group: str, message: dict[str, Any]) -> None:
    """One message to ``group`` once the transaction commits (at once outside
    one), best effort: a channel layer that is down never undoes or fails what
    was stored (a token revoked while Redis is gone is still a 204)."""
    after_commit(partial(_send, group, message))


async def send_from_loop(group: str, message: dict[str, Any], timeout: float) -> None:
    """One message to ``group`` from the event loop, best effort: a layer that
    is gone or stuck (``timeout`` seconds) holds back nothing after it."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async with asyncio.timeout(timeout):  # no task of its own, as wait_for makes
            await layer.group_send(group, message)
    except Exception:
        log.warning("publishing to %s failed", group, exc_info=True)


def best_effort(callback: Callable[..., None], *args: Any) -> None:
    try:
        callback(*args)
    except Exception:
        log.warning("publishing %r failed", callback, exc_info=True)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def account_group(user_id: int) -> str:
    """One account's API event streams (``/api/stream/events/``): only what
    that account must answer, so a stream wakes for nobody else's tables."""
    return f"account-{user_id}"


def player_group(game_id: int, user_id: int) -> str:
    """The sockets one user has open on one game: where that user's seat's own
    frames go, so no seat's secrets travel to another's socket (or sit in a
    group message that every member of the game's group receives)."""
    return f"game-{game_id}-user-{user_id}"


# Who sends the group messages built in this context: None sends each at once
# (``async_to_sync``, for code outside any event loop). The realtime layer
# (``games/realtime/sending.py``) installs a collector while it runs sync work
# for a socket, and sends what it collected from the event loop itself.
Sender = Callable[[str, dict[str, Any]], None]
_sender: ContextVar[Sender | None] = ContextVar("group_sender", default=None)


@contextmanager
def sending_with(sender: Sender) -> Iterator[None]:
    """Every group message built inside goes to ``sender``."""
    token = _sender.set(sender)
    try:
        yield
    finally:
        _sender.reset(token)


@contextmanager
def sending_together() -> Iterator[None]:
    """The group messages built inside (after-commit publishing too, when the
    transaction ends inside) are sent at its end from one trip to the event
    loop, not one each: a tournament round's thousands of messages. Inside a
    collector already installed (the realtime layer's), that one collects."""
    if _sender.get() is not None:
        yield
        return
    queued: list[tuple[str, dict[str, Any]]] = []
    with sending_with(lambda group, message: queued.append((group, message))):
        yield
    layer = get_channel_layer()
    if layer is not None and queued:
        async_to_sync(_send_all)(layer, queued)


async def _send_all(layer: Any, queued: list[tuple[str, dict[str, Any]]]) -> None:
    for group, message in queued:
        try:
            await layer.group_send(group, message)
        except Exception:  # best effort, as each publish is (``after_commit``)
            log.warning("publishing to %s failed", group, exc_info=True)


def _send(group: str, message: dict[str, Any]) -> None:
    sender = _sender.get()
    if sender is not None:
        sender(group, message)
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def publish_game_event(
    game: Game,
    rs: Ruleset,
    state: Any,
    event: Event,
    holders: dict[int, int | None] | None = None,
) -> None:
    """Where nothing is secret, every seat's frame in one message to the game's
    group. Otherwise the spectators' frame to the game's group, and a seat whose
    frame differs (its legal moves, its secrets) gets its own, sent only to the
    user who holds that seat now (``holders``, read with the row lock; else
    read here)."""
    game_event_sender(game, rs, state, event, holders)()


def game_event_sender(
    game: Game,
    rs: Ruleset,
    state: Any,
    event: Event,
    holders: dict[int, int | None] | None = None,
) -> Callable[[], None]:
    """``publish_game_event``'s frames built now, from ``game`` as it is (a
    conditional reply moves it on before the commit); the call sends them
    after the commit and wakes the loops that run a new deadline or bot turn."""
    frames = event_frames(game, rs, state, event)
    result = {"result": game.result} if game.result else {}
    message: dict[str, Any] = {"type": "game.frames", "version": event.version, **result}
    if game.one_screen is not None:
        # The screen's socket follows the seat to act (realtime/consumers.py).
        message["one_screen"] = game.one_screen_seat()
    group, pk = game_group(game.pk), game.pk
    if rs.views_are_public:
        return partial(_send_each, game, [(group, {**message, "frames": frames})])
    public = frames.pop(SPECTATOR)
    own = {int(seat): text for seat, text in frames.items() if text != public}
    if own and holders is None:
        holders = seat_holders(game)
    if own and holders is not None:
        holders = screen_holders(game, holders)  # at one screen: the seat to act only
    sends = [(group, {**message, "frame": public, "own": sorted(own)})]
    for seat, text in own.items():
        if (holder := (holders or {}).get(seat)) is not None:
            own_message = {
                "type": "game.own_frame",
                "seat": seat,
                "version": event.version,
                "frame": text,
                **result,
            }
            sends.append((player_group(pk, holder), own_message))
    return partial(_send_each, game, sends)


def _send_each(game: Game, sends: list[tuple[str, dict[str, Any]]]) -> None:
    wakeups.game_changed(game)
    for group, message in sends:
        _send(group, message)


def publish_table(game: Game) -> None:
    """Tell the lobby a table or live game changed (or went away)."""
    summary = table_summary(game)
    # Every lobby socket of a process hears it; the process applies it once.
    change = uuid.uuid4().hex
    if game.one_screen is None:  # a family's game at one screen is not listed
        message = {
            "type": "lobby.table",
            "table": summary,
            "change": change,
            "counts": lobby_counts(),
        }
        _send(LOBBY_GROUP, message)
    _send(game_group(game.pk), {"type": "game.table", "table": summary})
    for user_id in table_accounts(game):
        _send(account_group(user_id), {"type": "account.table", "table": summary})


def publish_started_to_accounts(games: Iterable[Game]) -> None:
    """Games started in bulk (a tournament's round): each seated account's
    event streams hear it as ``publish_table`` tells them; the lobby hears of
    the whole round once, from the caller, and no page of a new game is open."""
    for game in games:
        summary = table_summary(game)
        for user_id in table_accounts(game):
            _send(account_group(user_id), {"type": "account.table", "table": summary})


def table_accounts(game: Game) -> set[int]:
    """Whose event streams hear of this table's change: the challenged player
    while it is open (the others have nothing to answer yet), else every
    seated player and the challenged one (a start, an end, a withdrawn challenge)."""
    found = {game.challenged_id} if game.challenged_id else set()
    if game.status != Game.Status.OPEN:
        found.update(seat.user_id for seat in game.seats.all() if seat.user_id)
    return found


def publish_round(
    tournament: dict[str, Any], game_id: int, ruleset: str, players: list[int]
) -> None:
    """A tournament round started: each player's event streams hear which
    game waits for them (``players``: user ids in seat order)."""
    for seat, user_id in enumerate(players):
        game = {"id": game_id, "ruleset": ruleset, "seat": seat}
        message = {"type": "account.round", "tournament": tournament, "game": game}
        _send(account_group(user_id), message)


def publish_to_user(user_id: int, payload: dict[str, Any]) -> None:
    _send(user_group(user_id), {"type": "user.notify", "payload": payload})


def publish_rematch(game_id: int, summary: dict[str, Any]) -> None:
    """Every page of the finished game hears of the offer (and of the new game)."""
    _send(game_group(game_id), {"type": "game.rematch", "rematch": summary})


def publish_chat(game_id: int, message: dict[str, Any]) -> None:
    _send(game_group(game_id), {"type": "game.chat", "message": message})


QUEUE_GROUP = "remis-queue"


def publish_queue(request_id: int) -> None:
    """Tell the admins' queue pages that a request was filed, decided or closed."""
    request = RemisRequest.objects.select_related("game", "requested_by", "decided_by").get(
        pk=request_id
    )
    _send(QUEUE_GROUP, {"type": "remis.changed", "request": request_summary(request)})


MODERATION_GROUP = "moderation-queue"


def publish_report(report: dict[str, Any], open_count: int) -> None:
    """Tell the moderators' queue pages that a report was filed or settled."""
    _send(MODERATION_GROUP, {"type": "report.changed", "report": report, "open": open_count})


def publish_sanction(user_id: int, code: str) -> None:
    """A suspended or closed account's pages hear it at once: the bell on
    every page, and each game page it plays on (which then refuses moves)."""
    publish_to_user(user_id, {"kind": "sanction", "code": code})
    playing = Game.objects.filter(status=Game.Status.ACTIVE, seats__user_id=user_id).values_list(
        "pk", flat=True
    )
    for game_id in playing:
        _send(player_group(game_id, user_id), {"type": "game.sanction", "code": code})


def publish_analysis(game_id: int, progress: dict[str, Any]) -> None:
    """The game's pages follow its analysis: each ply as it is done, then the end."""
    _send(game_group(game_id), {"type": "game.analysis", "analysis": progress})


def publish_analysis_done(user_id: int, game_id: int) -> None:
    """One line on the asker's events stream: the analysis is done."""
    _send(account_group(user_id), {"type": "account.analysis", "game": {"id": game_id}})
