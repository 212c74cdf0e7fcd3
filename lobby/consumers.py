"""The lobby socket: pushes table and live-game changes, and personal notices."""

from __future__ import annotations

import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext as _

from games.i18n import TranslatedConsumerMixin
from games.publish import LOBBY_GROUP, user_group
from games.ratelimit import ConnectionBudget
from games.realtime import watch
from games.realtime.consumer_base import LoopOnlyDispatchMixin
from games.realtime.draining import DrainsSocketMixin
from games.realtime.socket_cap import AddressCapMixin
from games.realtime.socket_frames import FrameConsumerMixin, error_frame
from games.selectors.frames import dumps
from lobby.selectors.club_matches import club_match_group
from lobby.selectors.club_page import readable_club
from lobby.selectors.clubs import club_group
from lobby.selectors.tournaments import tournament_group

# A page that connects starts from a snapshot read at most this long ago;
# what changes after it joined the lobby's group is pushed to it.
CONNECT_FRESH_SECONDS = 1.0


class LobbyConsumer(
    DrainsSocketMixin,
    AddressCapMixin,
    FrameConsumerMixin,
    TranslatedConsumerMixin,
    LoopOnlyDispatchMixin,
    AsyncWebsocketConsumer,
):
    """A bounded snapshot first, then only changes; a ping that carries the
    page's lobby token is answered from what the process knows."""

    # A table's change is one frame for everybody, built once per process.
    untranslated = TranslatedConsumerMixin.untranslated | {
        "lobby.table",
        "tournament.chat",
        "club_match.changed",
        "club.chat",
    }

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.groups_joined = [LOBBY_GROUP]
        if user is not None and user.is_authenticated:
            self.groups_joined.append(user_group(user.pk))
        query = self.scope.get("query_string", b"")
        tournament = watched(query, b"tournament")
        if tournament is not None:  # a tournament page: its chat too
            self.groups_joined.append(tournament_group(tournament))
        match = watched(query, b"club_match")
        if match is not None:  # a club match's page: its changes
            self.groups_joined.append(club_match_group(match))
        asked = watched(query, b"club")
        if asked is not None:  # a club page: its changes and chat, for who may read them
            club = await database_sync_to_async(readable_club)(asked, user)
            if club is not None:
                self.groups_joined.append(club_group(club))
        await self.join_groups()
        self.budget = ConnectionBudget(None)
        await self.accept()
        # At most a second old: a burst of new pages shares one read.
        await watch.lobby.current(max_age=CONNECT_FRESH_SECONDS)
        await self.send(text_data=dumps(watch.lobby.frame()))

    async def join_groups(self) -> None:
        self.joined = time.monotonic()
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = await self.checked_frame(text_data)
        if frame is not None:
            await self.answering_errors(self.on_frame, frame)

    async def on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] != "ping":
            await self.send(
                text_data=error_frame(
                    "unknown_type", _("The lobby socket only takes ping; use the API to act.")
                )
            )
            return
        if watch.rejoin_due(self.joined):
            await self.join_groups()
        token = await watch.lobby.current()
        has = frame.get("lobby")
        if isinstance(has, str) and has != token:
            await self.send(text_data=dumps(watch.lobby.frame()))
        else:  # up to date, or an older page that sends no token: never a snapshot
            await self.send(text_data=dumps({"type": "pong", "lobby": token}))

    async def lobby_table(self, message: dict[str, Any]) -> None:
        change = message.get("change") or ""
        frame = watch.lobby.apply(change, message["table"], message.get("counts"))
        await self.send(text_data=frame)

    async def lobby_tournament(self, message: dict[str, Any]) -> None:
        """A tournament changed: its page (on this socket) fetches it again."""
        await self.send(
            text_data=dumps({"type": "tournament", "tournament": message["tournament"]})
        )

    async def tournament_chat(self, message: dict[str, Any]) -> None:
        """A line of the chat of the tournament this page shows (public)."""
        await self.send(text_data=dumps({"type": "tournament_chat", "message": message["message"]}))

    async def club_match_changed(self, message: dict[str, Any]) -> None:
        """The club match this page shows changed: the page fetches it again."""
        await self.send(text_data=dumps({"type": "club_match", "match": message["match"]}))

    async def club_changed(self, message: dict[str, Any]) -> None:
        """The club this page shows changed (members, roles, code): it fetches it again."""
        await self.send(text_data=dumps({"type": "club", "club": message["club"]}))

    async def club_chat(self, message: dict[str, Any]) -> None:
        """A line of the chat of the club this page shows (to who may read it)."""
        await self.send(text_data=dumps({"type": "club_chat", "message": message["message"]}))

    async def user_notify(self, message: dict[str, Any]) -> None:
        await self.send(text_data=dumps({"type": "notify", **message["payload"]}))


def watched(query: bytes, key: bytes) -> int | None:
    """``?<key>=<id>`` of a page's socket (the first one), else None."""
    for part in query.split(b"&"):
        name, _, value = part.partition(b"=")
        if name == key and value.isdigit() and len(value) <= 12:
            return int(value)
    return None
