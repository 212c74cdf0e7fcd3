"""A bot process ends with the server process that started it.

The server's bot pool (games/realtime/bot_worker.py) runs its searches in
spawned processes. A server stopped by a signal runs no cleanup, and an idle
pool process holds both ends of its work queue, so it would wait for work for
ever: one orphan per pool process at every restart (and every test server).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from multiprocessing.connection import wait


def exit_with_parent() -> None:
    """Pool initializer: watch the parent's sentinel and end when it ends."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: nothing to watch
        return
    sentinel = parent.sentinel

    def watch() -> None:
        wait([sentinel])
        os._exit(0)  # the parent is gone: no work can come, nothing to flush

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
