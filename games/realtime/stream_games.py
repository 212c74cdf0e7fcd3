"""``GET /api/stream/games/<id>/``: one game for one token's account, as NDJSON.

The first line after the empty one is ``{"type": "full", ...}`` with the
socket hello's state for the caller's seat (``frames.hello_frame``: a person
without a seat, on any game, gets the spectators' view and nothing more);
then each event frame exactly as the game socket gets it for that seat (the
game's group carries only what every member may see, a seat's own frame
comes to its holder's group), chat lines and rematch offers; the stream
ends after the frame that ends the game (a finished game: the ``full`` line,
then the end). A frame older than the ``full`` line is dropped; a version
skipped (the channel layer is at most once) is answered with a new ``full``
line, so the client's state is never built on a lost frame.
"""

from __future__ import annotations

from typing import Any

import ujson

from ..errors import no_such_game
from ..publish import game_group, player_group
from ..selectors import frames
from ..selectors import relations as relation_reads
from ..selectors.frames import SPECTATOR, dumps
from .sending import in_thread_then_publish
from .stream_base import NdjsonStream

db = in_thread_then_publish

OVER = ("finished", "aborted")


def full_line(hello: dict[str, Any]) -> dict[str, Any]:
    state = hello["state"]
    return {
        "type": "full",
        "game": hello["game"],
        "ruleset": hello["ruleset"],
        "version": state["version"],
        "seat": hello["seat"],
        "seats": hello["seats"],
        "state": state,
    }


class GameStream(NdjsonStream):
    def stream_groups(self) -> list[str]:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        return [game_group(self.game_id), player_group(self.game_id, self.user.pk)]

    async def prepare(self) -> None:
        self.hello = await db(frames.hello_frame)(self.game_id, self.user, 0)
        if self.hello is None:
            raise self.refused(no_such_game())
        self.hidden = frozenset(await db(relation_reads.blocked_names)(self.user))

    async def begin(self) -> None:
        await self.send_full(self.hello)
        del self.hello

    async def send_full(self, hello: dict[str, Any]) -> None:
        self.seat, self.version = hello["seat"], hello["state"]["version"]
        self.holds_screen = hello["holds_screen"]
        await self.write(full_line(hello))
        if hello["state"]["status"] in OVER:
            await self.finish()

    async def refresh(self) -> None:
        """Start afresh from what this seat may see now (a seat changed, a frame lost)."""
        hello = await db(frames.hello_frame)(self.game_id, self.user, 0)
        if hello is None:
            await self.finish()
        await self.send_full(hello)

    # -- from the groups (the handlers the game socket has) -----------------
    async def game_frames(self, message: dict[str, Any]) -> None:
        if self.holds_screen and message.get("one_screen", self.seat) != self.seat:
            await self.refresh()  # at one screen the turn passed to another seat
            return
        found = message.get("frames")
        if found is not None:  # nothing secret: every seat's frame is here
            key = SPECTATOR if self.seat is None else str(self.seat)
            await self.forward(found[key], message, message["version"])
        elif self.seat is None or self.seat not in message["own"]:
            await self.forward(message["frame"], message, message["version"])

    async def game_own_frame(self, message: dict[str, Any]) -> None:
        if message["seat"] != self.seat:
            await self.refresh()
            return
        await self.forward(message["frame"], message, None)

    async def forward(self, text: str, message: dict[str, Any], version: int | None) -> None:
        frame = None
        if version is None or message.get("result"):
            frame = ujson.loads(text)
            version = frame["version"]
        if version <= self.version:
            return  # the full line already holds it
        if version > self.version + 1:
            await self.refresh()  # a frame was lost: the full state instead
            return
        self.version = version
        if message.get("result") and frame is not None:
            frame["state"]["result_text"] = frames.result_text(message["result"])
            text = dumps(frame)
        await self.write_line(text)
        if message.get("result"):
            await self.finish()

    async def game_chat(self, message: dict[str, Any]) -> None:
        if message["message"].get("user") not in self.hidden:
            await self.write({"type": "chat", "message": message["message"]})

    async def game_rematch(self, message: dict[str, Any]) -> None:
        await self.write({"type": "rematch", "rematch": message["rematch"]})

    async def game_analysis(self, message: dict[str, Any]) -> None:
        """Not a line of this stream (a finished game's pages follow it)."""

    async def game_table(self, message: dict[str, Any]) -> None:
        if self.holds_screen:
            return  # at one screen the seat follows the turn, not the table
        names = message["table"]["seats"]
        seat = names.index(self.user.username) if self.user.username in names else None
        if seat != self.seat:
            await self.refresh()

    async def game_sanction(self, message: dict[str, Any]) -> None:
        await self.write({"type": "sanction", "code": message["code"]})
