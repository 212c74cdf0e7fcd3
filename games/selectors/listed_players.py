"""How a list of games names each game's players (My games): from the
game's own ``listed_players``, kept since it started, else from its seats.

On PostgreSQL 15 each game's seats are a descent of the seats' index (and a
heap page): a page of 50 games read 100 pages for its players alone. A game's
seats change no more once it has started, so the start writes them on the game
row, which the page reads anyway."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..models import Game, Seat
from .seats import bot_level_at

# One seat as ``Game.listed_players`` keeps it: [user id, username, is bot] or None.
Listed = list[Any] | None


@dataclass(frozen=True)
class ListedSeat:
    index: int
    user_id: int | None
    username: str | None
    is_bot: bool
    bot_level: str  # the bot that plays a person's seat for them now, else ""


def players_read(game_ids: Iterable[int]) -> dict[int, list[Listed]]:
    """Each game's seats as ``listed_players`` keeps them, read from the seats
    (one statement)."""
    rows = (
        Seat.objects.filter(game_id__in=list(game_ids))
        .order_by("game_id", "index")
        .values_list("game_id", "index", "user_id", "user__username", "user__is_bot")
    )
    found: dict[int, list[Listed]] = {}
    for game_id, index, user_id, username, bot in rows:
        seats = found.setdefault(game_id, [])
        seats.extend([None] * (index + 1 - len(seats)))
        seats[index] = None if user_id is None else [user_id, username, bool(bot)]
    return found


def players_attach(games: list[Game]) -> None:
    """Give each game ``listed``: its ``ListedSeat``s in seat order, from the
    game row where it keeps them, from the seats (one read for all) where not."""
    missing = [g.pk for g in games if g.listed_players is None]
    read = players_read(missing) if missing else {}
    for game in games:
        kept = game.listed_players if game.listed_players is not None else read.get(game.pk, [])
        game.listed = [_seat(game, index, entry) for index, entry in enumerate(kept)]  # type: ignore[attr-defined]  # for the page


def _seat(game: Game, index: int, entry: Listed) -> ListedSeat:
    if entry is None:
        return ListedSeat(index, None, None, False, "")
    user_id, username, bot = entry
    return ListedSeat(index, user_id, username, bool(bot), bot_level_at(game, index, bool(bot)))
