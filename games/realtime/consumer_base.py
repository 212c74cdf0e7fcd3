"""What every socket of the site shares below its own handlers."""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class LoopOnlyDispatchMixin:
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
