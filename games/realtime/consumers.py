"""The game, notification and remis-queue sockets: thin; they parse frames and
call services and selectors."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from moderation import roles

from ..i18n import TranslatedConsumerMixin
from ..publish import QUEUE_GROUP, game_group, player_group, user_group
from ..ratelimit import ConnectionBudget
from ..selectors import frames
from ..selectors import notifications as notification_reads
from ..selectors import remis as remis_reads
from ..selectors.frames import SPECTATOR, dumps
from ..services import chat, endings, forced, rematch, remis
from ..services.internal import notifications
from ..store import presence
from . import acts, socket_input, watch, watchers
from .consumer_base import LoopOnlyDispatchMixin
from .draining import DrainsSocketMixin
from .sending import in_thread_then_publish
from .socket_cap import AddressCapMixin
from .socket_frames import (
    UNAVAILABLE,
    FrameConsumerMixin,
    error_frame,
    since_from_query,
)
from .staff_queue import StaffQueueConsumer

log = logging.getLogger(__name__)


db = in_thread_then_publish  # ORM work in the thread pool, broadcasts from the loop


# Frames a seated player sends without arguments, and the service each calls.
SEAT_COMMANDS = {
    "resign": endings.game_resign,
    "offer_draw": endings.game_offer_draw,
    "accept_draw": endings.game_accept_draw,
    "decline_draw": endings.game_decline_draw,
    "abort": endings.game_abort,
}

# What a bot account (accounts/bot_upgrade.py) may send here: it plays by the API.
WATCHING = frozenset({"sync", "ping"})

# Rematch frames (a finished game's players): the answer is the offer for all.
REMATCH_COMMANDS = {
    "rematch": rematch.rematch_offer,
    "decline_rematch": rematch.rematch_decline,
}


class GameConsumer(
    DrainsSocketMixin,
    AddressCapMixin,
    FrameConsumerMixin,
    TranslatedConsumerMixin,
    LoopOnlyDispatchMixin,
    AsyncWebsocketConsumer,
):
    """One socket per open game page: players and spectators alike."""

    deferred_budgets = frozenset({"act"})  # counted while the move locks its row
    # The newest version this socket sent the page, and that as of its
    # previous ping (``missed``); set by the hello.
    sent_version = 0
    sent_before_ping = 0

    async def connect(self) -> None:
        try:
            await self.open_game()
        except Exception:
            # The database gone, say: refuse this try; the page reconnects.
            log.warning("opening game socket %s failed", self.scope["path"], exc_info=True)
            await self.close(code=UNAVAILABLE)

    async def open_game(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.group = game_group(self.game_id)
        # The game's group carries what everybody may see; a seat's own frames
        # go to its holder's group, whichever seat that user holds at the time.
        self.groups_joined = [self.group]
        if self.user is not None and self.user.is_authenticated:
            self.groups_joined.append(player_group(self.game_id, self.user.pk))
        self.hidden: frozenset[str] | None = None
        # Join first: a move committed after the hello's read is then pushed
        # (after the hello) instead of missed until the next ping.
        await self.join_groups()
        opened = await db(frames.opening)(self.game_id, self.user, since_from_query(self.scope))
        if opened is None:
            await self.leave_groups()
            await self.close(code=4404)
            return
        hello, blocked = opened
        self.seat = hello["seat"]
        self.holds_screen = hello["holds_screen"]
        # Chat lines of players this user blocked are never sent (read once per connection).
        self.hidden = frozenset(blocked) or None
        session = self.scope.get("session")
        self.person = presence.person_key(
            self.user, getattr(session, "session_key", None), self.channel_name
        )
        self.budget = ConnectionBudget(getattr(self.user, "pk", None))
        watch.games.watch(self.game_id)
        self.watching = True
        self.saw_table(hello["table"])
        await self.accept()
        await self.send_hello(hello)

    def saw_table(self, table: dict[str, Any]) -> None:
        seen = {"version": table["version"], "status": table["status"], "taken": table["taken"]}
        watch.games.saw(self.game_id, seen)

    async def send_hello(self, hello: dict[str, Any]) -> None:
        count = await presence.join(self.game_id, self.channel_name, self.person, self.seat)
        hello["watchers"] = count
        await self.send(text_data=dumps(hello))
        # The page pings only after its hello: it has this version at least.
        self.sent_version = self.sent_before_ping = hello["state"]["version"]
        watchers.changed(self.game_id)  # the others hear the count batched

    async def join_groups(self) -> None:
        self.joined = time.monotonic()
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def leave_groups(self) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        await self.leave_groups()
        if getattr(self, "watching", False):
            self.watching = False
            watch.games.unwatch(self.game_id)
        if not hasattr(self, "seat"):
            return
        await presence.leave(self.game_id, self.channel_name)
        watchers.changed(self.game_id)

    async def refresh_seat(self) -> None:
        """The user's seat changed (joined, left, moved): start afresh from the
        state that seat may see now."""
        hello = await db(frames.hello_frame)(self.game_id, self.user, 0)
        if hello is not None:
            self.seat = hello["seat"]
            await self.send_hello(hello)

    # -- from the client -------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = await self.checked_frame(text_data)
        if frame is None:
            return
        kind = frame["type"]
        handler = {
            "act": self.on_act,
            "sync": self.on_sync,
            "ping": self.on_ping,
            "chat": self.on_chat,
            "remis": self.on_remis,
            "forced_turns": self.on_forced_turns,
        }.get(kind)
        if handler is None and kind in SEAT_COMMANDS:
            handler = self.on_command
        if handler is None and kind in REMATCH_COMMANDS:
            handler = self.on_rematch
        if handler is None:
            await self.send(
                text_data=error_frame(
                    "unknown_type",
                    _("Unknown message type: %(type)s.") % {"type": kind[:40]},
                    ref=frame.get("ref"),
                )
            )
            return
        if kind not in WATCHING and getattr(self.user, "plays_by_api", False):
            text = _("A bot account plays through the API only (docs/api.md).")
            await self.send(text_data=error_frame("bot_account", text, ref=frame.get("ref")))
            return
        if frame.get("game", self.game_id) != self.game_id:
            await self.send(
                text_data=error_frame(
                    "wrong_game", _("This socket belongs to another game."), ref=frame.get("ref")
                )
            )
            return
        await self.answering_errors(handler, frame)

    async def on_act(self, frame: dict[str, Any]) -> None:
        admitted, self.admission = self.admission, None
        # No sanction is checked here: the decision refuses a suspended or
        # closed mover from what the game's lock reads (deciding.decide_act),
        # so a lifted suspension plays at once and a new one bites at once.
        version, action = socket_input.act(frame)
        version = await acts.act(
            game_id=self.game_id,
            user=self.user,
            version=version,
            action=action,
            admitted=admitted,
        )
        await self.send(
            text_data=dumps({"type": "ack", "version": version, "ref": frame.get("ref")})
        )

    async def on_command(self, frame: dict[str, Any]) -> None:
        service = SEAT_COMMANDS[frame["type"]]
        version = await db(service)(game_id=self.game_id, user=self.user)
        await self.send(
            text_data=dumps({"type": "ack", "version": version, "ref": frame.get("ref")})
        )

    async def on_rematch(self, frame: dict[str, Any]) -> None:
        """Offer, accept, decline or withdraw; every page hears it as a ``rematch`` frame."""
        await db(REMATCH_COMMANDS[frame["type"]])(game_id=self.game_id, user=self.user)

    async def on_remis(self, frame: dict[str, Any]) -> None:
        request = await db(remis.remis_request)(
            game_id=self.game_id, user=self.user, **socket_input.remis_request(frame)
        )
        await self.send(
            text_data=dumps({"type": "remis_filed", "id": request.pk, "ref": frame.get("ref")})
        )

    async def on_forced_turns(self, frame: dict[str, Any]) -> None:
        """Opt in or out of forced turns (services/forced.py); only this page hears."""
        on = socket_input.flag(frame, "on")
        on = await db(forced.game_forced_turns)(game_id=self.game_id, user=self.user, on=on)
        await self.send(
            text_data=dumps({"type": "forced_turns", "on": on, "ref": frame.get("ref")})
        )

    async def on_chat(self, frame: dict[str, Any]) -> None:
        text = socket_input.text(frame, "text")
        await db(chat.chat_post)(game_id=self.game_id, user=self.user, text=text)

    async def on_sync(self, frame: dict[str, Any]) -> None:
        version = socket_input.sync_version(frame)
        data, self.seat = await db(frames.sync_frame)(self.game_id, self.user, version)
        await self.send(text_data=dumps(data))
        self.sent_version = max(self.sent_version, data["version"])

    async def on_ping(self, frame: dict[str, Any]) -> None:
        """A tiny pong from what the process knows (no query, no Redis); the
        events the page missed only when it is behind."""
        if watch.rejoin_due(self.joined):
            await self.join_groups()
        now = await watch.games.current(self.game_id)
        current = now["version"] if now else None
        pong = {"type": "pong", "version": current}
        if now and now["status"] == "open":
            pong.update(status=now["status"], taken=now["taken"])
        await self.send(text_data=dumps(pong))
        version = frame.get("version")
        if isinstance(version, int) and current is not None and self.missed(version, current):
            await self.on_sync({"version": version})
        self.sent_before_ping = self.sent_version

    def missed(self, version: int, current: int) -> bool:
        """Whether a page that pings at ``version`` lacks events it will not
        otherwise get: a push this socket never sent (the channel layer is
        at-most-once), or one sent before its previous ping that it has not
        applied. A page behind only by frames sent since then has them on
        their way: measured (bench/rolling.py, 400 sockets pinging every
        10 s), a ping crossing an event made 6 % of pings a needless sync,
        each costing what a hello costs."""
        if version >= current:
            return False
        return self.sent_version < current or version < self.sent_before_ping

    # -- from the group --------------------------------------------------
    async def game_frames(self, message: dict[str, Any]) -> None:
        watch.games.saw(self.game_id, {"version": message["version"]})
        if self.holds_screen and message.get("one_screen", self.seat) != self.seat:
            # At one screen the turn passed to another seat (or to a bot):
            # start afresh from what the seat to act now may see.
            await self.refresh_seat()
            return
        frames = message.get("frames")
        if frames is not None:  # nothing secret: every seat's frame is here
            key = SPECTATOR if self.seat is None else str(self.seat)
            await self.send_event_frame(frames[key], message)
        elif self.seat is None or self.seat not in message["own"]:
            await self.send_event_frame(message["frame"], message)
        # else: this seat's own frame comes to its holder's group

    async def game_own_frame(self, message: dict[str, Any]) -> None:
        if message["seat"] != self.seat:
            # Sent to this user as that seat's holder now: our seat is out of date.
            await self.refresh_seat()
            return
        await self.send_event_frame(message["frame"], message)

    async def send_event_frame(self, text: str, message: dict[str, Any]) -> None:
        # (.get: a message from a process of the release before carries no version)
        self.sent_version = max(self.sent_version, message.get("version", 0))
        if message.get("result"):
            # The frames were built once for everybody: say the result in this
            # connection's language.
            frame = json.loads(text)
            frame["state"]["result_text"] = frames.result_text(message["result"])
            text = dumps(frame)
        await self.send(text_data=text)

    async def game_watchers(self, message: dict[str, Any]) -> None:
        await self.send(text_data=dumps({"type": "watchers", "count": message["count"]}))

    async def game_chat(self, message: dict[str, Any]) -> None:
        if self.hidden and message["message"].get("user") in self.hidden:
            return
        await self.send(text_data=dumps({"type": "chat", "message": message["message"]}))

    async def game_rematch(self, message: dict[str, Any]) -> None:
        await self.send(text_data=dumps({"type": "rematch", "rematch": message["rematch"]}))

    async def game_analysis(self, message: dict[str, Any]) -> None:
        await self.send(text_data=dumps({"type": "analysis", "analysis": message["analysis"]}))

    async def game_table(self, message: dict[str, Any]) -> None:
        self.saw_table(message["table"])
        await self.send(text_data=dumps({"type": "table", "table": message["table"]}))
        if not self.holds_screen and self.seat_in(message["table"]) != self.seat:
            await self.refresh_seat()

    def seat_in(self, table: dict[str, Any]) -> int | None:
        """This socket's user's seat by the table's list of seated names."""
        if self.user is None or not self.user.is_authenticated:
            return None
        names = table["seats"]
        return names.index(self.user.username) if self.user.username in names else None

    async def game_sanction(self, message: dict[str, Any]) -> None:
        """This user was suspended or closed: the page hears it at once (the
        moves it sends are refused by the decision, not here)."""
        code = message["code"]
        text = (
            _("Your account was closed.")
            if code == "closed"
            else _("Your account is suspended: you cannot play for now.")
        )
        await self.send(text_data=error_frame(code, text))


class NotifyConsumer(
    DrainsSocketMixin,
    AddressCapMixin,
    FrameConsumerMixin,
    TranslatedConsumerMixin,
    LoopOnlyDispatchMixin,
    AsyncWebsocketConsumer,
):
    """The bell: a logged-in user's notifications, pushed live on every page."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group(self.user.pk)
        self.budget = ConnectionBudget(self.user.pk)  # "read" spends the API's write budget
        self.newest = 0  # the newest notification this page has
        await self.join_group()
        watch.newest_notifications.watch(self.user.pk)
        await self.accept()
        await self.send_list()

    async def join_group(self) -> None:
        self.joined = time.monotonic()
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            watch.newest_notifications.unwatch(self.user.pk)
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def send_list(self) -> None:
        items = await db(notification_reads.unread)(self.user)
        self.saw_newest(max((item["id"] for item in items), default=0))
        await self.send(
            text_data=dumps({"type": "notifications", "items": items, "newest": self.newest})
        )

    def saw_newest(self, newest: int) -> None:
        self.newest = max(self.newest, newest)
        watch.newest_notifications.saw(self.user.pk, newest)

    async def on_ping(self, frame: dict[str, Any]) -> None:
        """A tiny pong when the page has the newest notification this process
        knows of (no query); the list when the page is behind."""
        if watch.rejoin_due(self.joined):
            await self.join_group()
        newest = max(self.newest, await watch.newest_notifications.current(self.user.pk) or 0)
        has = frame.get("newest")
        if isinstance(has, int) and not isinstance(has, bool) and has < newest:
            await self.send_list()
        else:
            await self.send(text_data=dumps({"type": "pong", "newest": newest}))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = await self.checked_frame(text_data)
        if frame is not None:
            await self.answering_errors(self.on_frame, frame)

    async def on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "ping":
            await self.on_ping(frame)
        elif frame["type"] == "read":
            ids = frame.get("ids")
            if ids is not None and not (
                isinstance(ids, list) and all(isinstance(i, int) for i in ids)
            ):
                await self.send(
                    text_data=error_frame("bad_request", _("ids must be a list of numbers."))
                )
                return
            await db(notifications.notifications_mark_read)(user=self.user, ids=ids)
            await self.send_list()
        else:
            await self.send(text_data=error_frame("unknown_type", _("Expected ping or read.")))

    async def user_notify(self, message: dict[str, Any]) -> None:
        if message["payload"].get("kind") == "notification":
            self.saw_newest(message["payload"]["notification"]["id"])
            await self.send(text_data=dumps({"type": "notify", **message["payload"]}))


class RemisQueueConsumer(StaffQueueConsumer):
    """The arbiters' live remis queue (others are refused with 4403)."""

    group = QUEUE_GROUP
    holds_role = staticmethod(roles.is_arbiter)
    expected = gettext_noop("Expected queue, ping or decide.")

    async def send_queue(self, frame: dict[str, Any]) -> None:
        page = frame.get("page", 1)
        older = frame.get("older_than_hours", 0)
        after = frame.get("after")
        if (
            not isinstance(page, int)
            or not isinstance(older, int | float)
            or isinstance(page, bool)
            or (after is not None and (not isinstance(after, int) or isinstance(after, bool)))
        ):
            await self.send(
                text_data=error_frame(
                    "bad_request", _("page, after and older_than_hours must be numbers.")
                )
            )
            return
        data = await db(remis_reads.queue_page)(page=page, older_than_hours=older, after=after)
        await self.send(text_data=dumps({"type": "queue", **data}))

    async def on_command(self, frame: dict[str, Any]) -> bool:
        if frame["type"] != "decide":
            return False
        await db(remis.remis_decide)(admin=self.user, **socket_input.remis_decision(frame))
        return True

    async def remis_changed(self, message: dict[str, Any]) -> None:
        await self.send(text_data=dumps({"type": "request", "request": message["request"]}))
