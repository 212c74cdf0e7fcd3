"""A staff role's live queue over a socket (``/ws/remis/``, ``/ws/moderation/``):
members of one group, refused with 4403 before anything is sent to anyone
without the role; ``queue`` and ``ping`` ask for the queue again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ..i18n import TranslatedConsumerMixin
from ..ratelimit import ConnectionBudget
from .consumer_base import LoopOnlyDispatchMixin
from .draining import DrainsSocketMixin
from .sending import in_thread_then_publish
from .socket_cap import AddressCapMixin
from .socket_frames import FrameConsumerMixin, error_frame

db = in_thread_then_publish


class StaffQueueConsumer(
    DrainsSocketMixin,
    AddressCapMixin,
    FrameConsumerMixin,
    TranslatedConsumerMixin,
    LoopOnlyDispatchMixin,
    AsyncWebsocketConsumer,
):
    group: str
    holds_role: Callable[[Any], bool]  # a staticmethod: may this user see the queue?
    expected = gettext_noop("Expected queue or ping.")

    async def connect(self) -> None:
        user = self.scope.get("user")
        if not await db(type(self).holds_role)(user):
            await self.close(code=4403)
            return
        self.user = user
        self.budget = ConnectionBudget(user.pk)  # commands spend the API's write budget
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_queue({})

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "user"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = await self.checked_frame(text_data)
        if frame is not None:
            await self.answering_errors(self.on_frame, frame)

    async def on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] in ("queue", "ping"):
            # A restarted Redis forgot the group: join again with every ask.
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.send_queue(frame)
        elif not await self.on_command(frame):
            await self.send(text_data=error_frame("unknown_type", _(self.expected)))

    async def send_queue(self, frame: dict[str, Any]) -> None:
        raise NotImplementedError

    async def on_command(self, frame: dict[str, Any]) -> bool:
        """Handle a queue's own command; False when ``frame`` is none of them."""
        return False
