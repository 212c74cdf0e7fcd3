"""The environment a spawned live server starts with.

A live server (channels' ``ChannelsLiveServerTestCase``) is a spawned process:
it loads the settings afresh from its environment, so it is told there which
test database this process uses (under pytest-xdist each worker has its own)
and the settings its test class asks for.
"""

from __future__ import annotations

import os


def server_database_env() -> dict[str, str]:
    """The setting that names this process's test database, as the live
    server's settings read it (config/settings.py)."""
    from django.db import connection

    name = str(connection.settings_dict["NAME"])
    return {"SQLITE_TEST_PATH" if connection.vendor == "sqlite" else "TEST_DATABASE_NAME": name}


def set_env(values: dict[str, str]) -> dict[str, str | None]:
    """Sets ``values`` in this process's environment; returns what they replaced."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    return saved


def restore_env(saved: dict[str, str | None]) -> None:
    for name, old in saved.items():
        if old is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = old
