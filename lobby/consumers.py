"""The lobby socket: pushes table and live-game changes, and personal notices."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext as _

from games.i18n import TranslatedConsumerMixin
from games.publish import LOBBY_GROUP, in_thread_then_publish, user_group
from games.ratelimit import ConnectionBudget
from games.realtime.consumer_base import LoopOnlyDispatchMixin
from games.realtime.socket_frames import FrameConsumerMixin, error_frame
from games.selectors.frames import dumps
from games.selectors.tables import lobby_tables


class LobbyConsumer(
    FrameConsumerMixin, TranslatedConsumerMixin, LoopOnlyDispatchMixin, AsyncWebsocketConsumer
):
    async def connect(self) -> None:
        user = self.scope.get("user")
        self.groups_joined = [LOBBY_GROUP]
        if user is not None and user.is_authenticated:
            self.groups_joined.append(user_group(user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        self.budget = ConnectionBudget(None)
        await self.accept()
        await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def send_snapshot(self) -> None:
        tables = await in_thread_then_publish(lobby_tables)()
        await self.send(text_data=dumps({"type": "tables", "tables": tables}))

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
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.send_snapshot()

    async def lobby_table(self, message: dict[str, Any]) -> None:
        await self.send(text_data=dumps({"type": "table", "table": message["table"]}))

    async def user_notify(self, message: dict[str, Any]) -> None:
        await self.send(text_data=dumps({"type": "notify", **message["payload"]}))
