"""``/ws/moderation/``: the moderators' live queue, as ``/ws/remis/`` is the
arbiters'. Anyone else is closed with 4403 before anything is sent."""

from __future__ import annotations

from typing import Any

from games.publish import MODERATION_GROUP
from games.realtime.staff_queue import StaffQueueConsumer, db
from games.selectors.frames import dumps

from . import roles, selectors


class ModerationQueueConsumer(StaffQueueConsumer):
    group = MODERATION_GROUP
    holds_role = staticmethod(roles.is_moderator)

    async def send_queue(self, frame: dict[str, Any]) -> None:
        data = await db(selectors.queue)()
        await self.send(text_data=dumps({"type": "queue", **data}))

    async def report_changed(self, message: dict[str, Any]) -> None:
        await self.send(
            text_data=dumps(
                {"type": "report", "report": message["report"], "open": message["open"]}
            )
        )
