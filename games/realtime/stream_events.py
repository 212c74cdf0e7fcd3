"""``GET /api/stream/events/``: what one account must answer, as NDJSON.

A member of two groups of this account's own, so it wakes for nobody
else's tables: the account's streams' group (``publish.account_group``: its
challenges, its games' starts and ends, its tournament rounds) and its user
group (notifications: rematch offers, declined challenges, sanctions). It
reads once, after joining: the challenges waiting and the running games;
after that it only relays pushes, no query.

Lines: ``{"type": "challenge", "table": summary}``,
``{"type": "challenge_canceled", "table": summary}``,
``{"type": "challenge_declined", "game": {"id"}, "by": name}``,
``{"type": "game_start", "game": {"id", "ruleset", "seat"}}``,
``{"type": "game_finish", "game": {"id", "status"}}``,
``{"type": "tournament_round", "tournament": {"id", "name", "round", "rounds"},
"game": {"id", "ruleset", "seat"}}`` (a round started with a game waiting for the account),
``{"type": "rematch", "game": {"id"}, "text": ...}`` (an offer in a finished game),
``{"type": "sanction", "code": ...}``,
``{"type": "analysis_done", "game": {"id"}}`` (an analysis the account asked for).
"""

from __future__ import annotations

from typing import Any

from ..publish import account_group, user_group
from ..selectors.account_events import account_start
from .sending import in_thread_then_publish
from .stream_base import NdjsonStream

db = in_thread_then_publish


class EventStream(NdjsonStream):
    def stream_groups(self) -> list[str]:
        self.challenges: set[int] = set()  # told, still open
        self.games: set[int] = set()  # told of their start, not of their end
        return [account_group(self.user.pk), user_group(self.user.pk)]

    async def begin(self) -> None:
        challenges, games = await db(account_start)(self.user)
        for table in challenges:
            await self.challenge(table)
        for game in games:
            await self.game_start(game)

    async def challenge(self, table: dict[str, Any]) -> None:
        if table["id"] not in self.challenges:
            self.challenges.add(table["id"])
            await self.write({"type": "challenge", "table": table})

    async def game_start(self, game: dict[str, Any]) -> None:
        if game["id"] not in self.games:
            self.games.add(game["id"])
            self.challenges.discard(game["id"])
            await self.write({"type": "game_start", "game": game})

    # -- from the groups --------------------------------------------------
    async def account_table(self, message: dict[str, Any]) -> None:
        table, me = message["table"], self.user.username
        status, seats = table["status"], table["seats"]
        if status == "open" and table.get("challenged") == me:
            await self.challenge(table)
        elif status == "active" and me in seats:
            game = {"id": table["id"], "ruleset": table["ruleset"], "seat": seats.index(me)}
            await self.game_start(game)
        elif status in ("finished", "aborted"):
            if table["id"] in self.challenges:
                self.challenges.discard(table["id"])
                await self.write({"type": "challenge_canceled", "table": table})
            elif table["id"] in self.games or (me in seats and table.get("started")):
                self.games.discard(table["id"])
                await self.write(
                    {"type": "game_finish", "game": {"id": table["id"], "status": status}}
                )

    async def account_analysis(self, message: dict[str, Any]) -> None:
        await self.write({"type": "analysis_done", "game": message["game"]})

    async def account_round(self, message: dict[str, Any]) -> None:
        line = {"tournament": message["tournament"], "game": message["game"]}
        await self.write({"type": "tournament_round", **line})

    async def user_notify(self, message: dict[str, Any]) -> None:
        payload = message["payload"]
        kind = payload.get("kind")
        if kind == "declined":
            line = {"type": "challenge_declined", "game": {"id": payload["game"]}}
            await self.write({**line, "by": payload.get("from")})
        elif kind == "sanction":
            await self.write({"type": "sanction", "code": payload["code"]})
        elif kind == "notification":
            note = payload["notification"]
            told = self.challenges | self.games
            if note["kind"] == "challenge" and note["game"] not in told:
                # A challenge in a game that is over: its rematch offer.
                line = {"type": "rematch", "game": {"id": note["game"]}, "text": note["text"]}
                await self.write(line)
