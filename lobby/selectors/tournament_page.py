"""A tournament's page, bounded however big the field: one page of the
standings and one page of one round's boards, each with the names it shows
only. The API's detail (``tournaments.detail``) keeps the whole shape.

The standings are the stored ones (``TournamentStanding``,
lobby/tournaments/internal/standings.py: computed once per change of the
results, not per view): one page of rows read by place from the
(tournament, place) index, the viewer's own row and the organiser's by
user; ``standings_due`` says results wait to be counted. Names, links and
rows are read and sent for the shown rows alone."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from lobby.models import Tournament, TournamentPairing, TournamentStanding

from .tournaments import names, tournament_fields

STANDINGS_PAGE = 50
BOARDS_PAGE = 50


@dataclass(frozen=True)
class Asked:
    """What the page's query string asks for (1-based pages; None: the default)."""

    round: int | None = None
    standings_page: int | None = None
    boards_page: int | None = None


@dataclass(frozen=True)
class Row:
    """One stored standing: the user, rank (None: joined since they were
    stored), points, tie-breaks and whether they withdrew."""

    id: int
    rank: int | None
    points: float
    tiebreaks: list[float]
    withdrawn: bool


ROW = ("user_id", "rank", "points", "tiebreaks", "withdrawn")


def page_data(tournament: Tournament, asked: Asked, me: int | None) -> dict[str, Any]:
    entries = TournamentStanding.objects.filter(tournament=tournament)
    # Places run 1..n: the last is the count, one descent of the place index.
    count = entries.aggregate(last=Max("place"))["last"] or 0
    standing_page, standing_pages = _page(asked.standings_page, count, STANDINGS_PAGE)
    first = (standing_page - 1) * STANDINGS_PAGE
    shown = [
        Row(*row)
        for row in entries.filter(place__gt=first, place__lte=first + STANDINGS_PAGE)
        .order_by("place")
        .values_list(*ROW)
    ]
    known = [uid for uid in (me, tournament.creator_id) if uid is not None]
    own = {row[0]: Row(*row) for row in entries.filter(user_id__in=known).values_list(*ROW)}
    mine = own.get(me) if me is not None else None
    round_number, boards = _round(tournament, asked.round)
    mine_board = next((b for b in boards if me is not None and me in b[1]), None)
    board_page, board_pages = _page(asked.boards_page, len(boards), BOARDS_PAGE)
    shown_boards = boards[(board_page - 1) * BOARDS_PAGE : board_page * BOARDS_PAGE]
    ids = {row.id for row in shown} | {u for b in shown_boards for u in b[1]}
    ids |= set(mine_board[1]) if mine_board else set()
    who = names(ids | {tournament.creator_id or 0, me or 0})
    playing = {uid for uid, row in own.items() if not row.withdrawn}
    return {
        "t": tournament_fields(tournament, who.get(tournament.creator_id or 0), count),
        "standings": [_standing(row, who) for row in shown],
        "standings_due": tournament.standings_due is not None,
        "standings_page": standing_page,
        "standings_pages": standing_pages,
        "standings_page_numbers": range(1, standing_pages + 1),
        "mine": None if mine is None else _standing(mine, who),
        "round": round_number,
        "round_numbers": list(range(1, _last_round(tournament) + 1)),
        "boards": [_board(b, who) for b in shown_boards],
        "my_board": None if mine_board is None else _board(mine_board, who),
        "boards_page": board_page,
        "boards_pages": board_pages,
        "boards_page_numbers": range(1, board_pages + 1),
        "playing": me in playing,
        "organiser_plays": tournament.creator_id in playing,
    }


def _last_round(tournament: Tournament) -> int:
    return tournament.current_round or 0


def _round(tournament: Tournament, asked: int | None) -> tuple[int, list[tuple]]:
    """The round shown (the asked one, else the current) and its boards:
    (board, players, bye, points, game id), from the (tournament, round) index."""
    last = _last_round(tournament)
    number = asked if asked is not None and 1 <= asked <= last else last
    if number == 0:
        return 0, []
    boards = (
        TournamentPairing.objects.filter(tournament=tournament, round=number)
        .order_by("board")
        .values_list("board", "players", "bye", "points", "game_id")
    )
    return number, [tuple(b) for b in boards]


def _page(asked: int | None, total: int, size: int) -> tuple[int, int]:
    """The page shown (the asked one, within range; else the first) and how many there are."""
    pages = max(1, math.ceil(total / size))
    return min(max(1, asked or 1), pages), pages


def _standing(row: Row, who: dict[int, str]) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "username": who.get(row.id, "?"),
        "points": row.points,
        "tiebreaks": list(row.tiebreaks),
        "withdrawn": row.withdrawn,
    }


def _board(board: tuple, who: dict[int, str]) -> dict[str, Any]:
    _number, players, bye, points, game = board
    return {
        "game": game,
        "players": [who.get(u, "?") for u in players],
        "bye": bye,
        "points": None if points is None else {who.get(int(u), "?"): v for u, v in points.items()},
    }
