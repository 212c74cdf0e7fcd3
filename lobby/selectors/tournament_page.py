"""A tournament's page, bounded however big the field: one page of the
standings and one page of one round's boards, each with the names it shows
only. The API's detail (``tournaments.detail``) keeps the whole shape.

The standings are computed from every result (the players and points of each
finished pairing, values only, on the tournament's pairing index); names,
links and rows are read and sent for the shown rows alone."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from lobby.models import Tournament, TournamentPairing, TournamentPlayer
from lobby.pairing import Result, standings

from .tournaments import STARTING_RANK, names, tournament_fields

STANDINGS_PAGE = 50
BOARDS_PAGE = 50


@dataclass(frozen=True)
class Asked:
    """What the page's query string asks for (1-based pages; None: the default)."""

    round: int | None = None
    standings_page: int | None = None
    boards_page: int | None = None


def page_data(tournament: Tournament, asked: Asked, me: int | None) -> dict[str, Any]:
    entries = list(
        TournamentPlayer.objects.filter(tournament=tournament)
        .order_by(*STARTING_RANK)
        .values_list("user_id", "withdrawn")
    )
    withdrawn = {uid for uid, gone in entries if gone}
    rows = standings(
        [uid for uid, _ in entries], _results(tournament), tables=tournament.seat_count > 2
    )
    mine = next((row for row in rows if row.id == me), None)
    standing_page, standing_pages = _page(asked.standings_page, len(rows), STANDINGS_PAGE)
    shown = rows[(standing_page - 1) * STANDINGS_PAGE : standing_page * STANDINGS_PAGE]
    round_number, boards = _round(tournament, asked.round)
    mine_board = next((b for b in boards if me is not None and me in b[1]), None)
    board_page, board_pages = _page(asked.boards_page, len(boards), BOARDS_PAGE)
    shown_boards = boards[(board_page - 1) * BOARDS_PAGE : board_page * BOARDS_PAGE]
    ids = {row.id for row in shown} | {u for b in shown_boards for u in b[1]}
    ids |= set(mine_board[1]) if mine_board else set()
    who = names(ids | {tournament.creator_id or 0, me or 0})
    playing = {uid for uid, _ in entries} - withdrawn
    return {
        "t": tournament_fields(tournament, who.get(tournament.creator_id or 0), len(entries)),
        "standings": [_standing(row, who, withdrawn) for row in shown],
        "standings_page": standing_page,
        "standings_pages": standing_pages,
        "standings_page_numbers": range(1, standing_pages + 1),
        "mine": None if mine is None else _standing(mine, who, withdrawn),
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


def _results(tournament: Tournament) -> list[Result]:
    done = TournamentPairing.objects.filter(tournament=tournament, points__isnull=False)
    return [
        Result({int(uid): float(points) for uid, points in scored.items()})
        for scored in done.values_list("points", flat=True)
        if scored is not None
    ]


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


def _standing(row: Any, who: dict[int, str], withdrawn: set[int]) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "username": who.get(row.id, "?"),
        "points": row.points,
        "tiebreaks": list(row.tiebreaks),
        "withdrawn": row.id in withdrawn,
    }


def _board(board: tuple, who: dict[int, str]) -> dict[str, Any]:
    _number, players, bye, points, game = board
    return {
        "game": game,
        "players": [who.get(u, "?") for u in players],
        "bye": bye,
        "points": None if points is None else {who.get(int(u), "?"): v for u, v in points.items()},
    }
