"""``/ws/moderation/``: the moderators' live queue, as ``/ws/remis/`` is the
arbiters'. Anyone else is closed with 4403 before anything is sent."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext as _

from games.i18n import TranslatedConsumerMixin
from games.publish import MODERATION_GROUP, in_thread_then_publish
from games.ratelimit import ConnectionBudget
from games.realtime.consumer_base import LoopOnlyDispatchMixin
from games.realtime.socket_cap import AddressCapMixin
from games.realtime.socket_frames import FrameConsumerMixin, error_frame
from games.selectors.frames import dumps

from . import roles, selectors

db = in_thread_then_publish


class ModerationQueueConsumer(
    AddressCapMixin,
    FrameConsumerMixin,
    TranslatedConsumerMixin,
    LoopOnlyDispatchMixin,
    AsyncWebsocketConsumer,
):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if not await db(roles.is_moderator)(user):
            await self.close(code=4403)
            return
        self.user = user
        self.budget = ConnectionBudget(user.pk)
        await self.channel_layer.group_add(MODERATION_GROUP, self.channel_name)
        await self.accept()
        await self.send_queue()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "user"):
            await self.channel_layer.group_discard(MODERATION_GROUP, self.channel_name)

    async def send_queue(self) -> None:
        data = await db(selectors.queue)()
        await self.send(text_data=dumps({"type": "queue", **data}))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = await self.checked_frame(text_data)
        if frame is not None:
            await self.answering_errors(self.on_frame, frame)

    async def on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] in ("queue", "ping"):
            # A restarted Redis forgot the group: join again with every ask.
            await self.channel_layer.group_add(MODERATION_GROUP, self.channel_name)
            await self.send_queue()
        else:
            await self.send(text_data=error_frame("unknown_type", _("Expected queue or ping.")))

    async def report_changed(self, message: dict[str, Any]) -> None:
        await self.send(
            text_data=dumps(
                {"type": "report", "report": message["report"], "open": message["open"]}
            )
        )
