"""Errors the services raise; every one becomes a clear message for the user."""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError
from django.utils.translation import gettext, gettext_noop
from psycopg import Error as PsycopgError


class GameError(Exception):
    """A refused request. ``code`` is stable for clients, the message translated.

    ``template`` is an English msgid (translated when shown), ``params`` fill
    it, ``version`` is the game's current version where that helps the client,
    ``retry_after`` the seconds a rate-limited client should wait.
    """

    status = 400

    def __init__(
        self,
        code: str,
        template: str,
        *,
        version: int | None = None,
        status: int | None = None,
        retry_after: int | None = None,
        **params: Any,
    ) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.version = version
        self.retry_after = retry_after
        if status is not None:
            self.status = status
        super().__init__(template % params if params else template)

    @property
    def message(self) -> str:
        text = gettext(self.template)
        return text % self.params if self.params else text

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.version is not None:
            data["version"] = self.version
        if self.retry_after is not None:
            data["retry_after"] = self.retry_after
        return data


def rules_message(exc: Any) -> str:
    """Translate a ruleset's IllegalAction/InvalidOptions (template + params)."""
    text = gettext(exc.template)
    return text % exc.params if exc.params else text


def no_such_game() -> GameError:
    return GameError("not_found", gettext_noop("There is no such game."), status=404)


def over_budget(wait: int) -> GameError:
    """A user over their budget across sockets (and processes): when to go on."""
    return GameError(
        "rate_limited",
        gettext_noop("Too many moves or chat lines from your account; try again in %(n)s seconds."),
        status=429,
        retry_after=wait,
        n=wait,
    )


def unexpected(exc: Exception) -> GameError:
    """What a client is told when a request failed for a reason of the server's:
    a clear error, never a traceback or a dropped socket."""
    if isinstance(exc, DatabaseError | PsycopgError):
        return GameError(
            "unavailable",
            gettext_noop("The server could not reach its database; try again in a moment."),
            status=503,
        )
    return GameError(
        "server_error",
        gettext_noop("Something went wrong on the server; try again in a moment."),
        status=500,
    )
