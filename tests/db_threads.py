"""ORM work of an async test, in a thread, with its connection handed back
after each call (games/threads.py says why channels' own helper does not)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async as asgiref_sync_to_async

from games.threads import closing_connections


def sync_to_async(func: Callable[..., Any], *, thread_sensitive: bool = True) -> Any:
    return asgiref_sync_to_async(closing_connections(func), thread_sensitive=thread_sensitive)
