"""What every socket of the site shares below its own handlers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from channels.consumer import get_handler_name

if TYPE_CHECKING:
    # What the mixins are mixed into, for the type checker only (channels has
    # no type information: its names are Any, so the mixins' calls to the
    # consumer's own methods check).
    from channels.generic.websocket import AsyncWebsocketConsumer as SocketConsumer
else:
    SocketConsumer = object


class LoopOnlyDispatchMixin(SocketConsumer):
    """Dispatch a message straight to its handler, on the event loop.

    channels' own ``dispatch`` first hops to the sync thread to close stale ORM
    connections, for every message: each frame from the client and each group
    message. These consumers never use the ORM on the loop; their database
    work runs in threads (``sending.in_thread_then_publish``), which close stale
    connections in its own thread. Measured (bench/relay.py): the hop doubled
    the server CPU per relayed frame.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
