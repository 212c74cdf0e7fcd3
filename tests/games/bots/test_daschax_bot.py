"""Daschax bots: concrete positions, determinism, legal play in every variant."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from games.bots import daschax, get_bot
from games.rules.daschax import CELLS, FACINGS, START_COUNTS, DaschaxRuleset, DaschaxState

RS = DaschaxRuleset()
SIZE = {"S": 1, "M": 2, "L": 3}
LEVELS = ("easy", "medium", "strong")


def position(pieces: list[tuple[int, int, str, int, str]], to_move: int = 0) -> DaschaxState:
    """A play-phase state with exactly ``pieces``: (col, row, size letter, seat, facing);
    the missing pieces count as captured so the counters agree with the board."""
    base = RS.setup({"formation": "SSSSSMMMLL", "move_first": "white"}, 2, 7)
    board: list[tuple[int, int, int] | None] = [None] * CELLS
    present = [[0, 0, 0], [0, 0, 0]]
    for col, row, size, seat, facing in pieces:
        board[row * 10 + col] = (seat, SIZE[size], FACINGS.index(facing))
        present[seat][SIZE[size] - 1] += 1
    lost = [tuple(START_COUNTS[i] - present[s][i] for i in range(3)) for s in (0, 1)]
    return dataclasses.replace(
        base, board=tuple(board), to_move=to_move, captured=(lost[1], lost[0])
    )


def captures_available(state: DaschaxState, seat: int) -> list[dict[str, Any]]:
    out = []
    for action in RS.legal_actions(state, seat):
        _, events = RS.apply(state, seat, action)
        if events[0]["captures"]:
            out.append(action)
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_takes_the_last_piece_and_wins(level: str) -> None:
    state = position([(4, 4, "L", 0, "N"), (0, 0, "S", 0, "N"), (4, 6, "M", 1, "NE")])
    after, _ = RS.apply(state, 0, daschax.make(level).choose(state, 0, seed=3))
    assert RS.outcome(after) == {"winners": [0], "draw": False, "reason": "all pieces captured"}


@pytest.mark.parametrize("level", LEVELS)
def test_takes_a_free_large_piece(level: str) -> None:
    state = position(
        [(4, 4, "M", 0, "N"), (0, 0, "S", 0, "N"), (4, 5, "L", 1, "SE"), (9, 9, "S", 1, "S")]
    )
    _, events = RS.apply(state, 0, daschax.make(level).choose(state, 0, seed=3))
    assert [c["size"] for c in events[0]["captures"]] == ["large"]


@pytest.mark.parametrize("level", ("medium", "strong"))
def test_moves_a_threatened_piece_out_of_reach(level: str) -> None:
    # Black's large piece two fields ahead can take White's medium one; White
    # cannot take it back in one turn, so it has to step aside.
    state = position(
        [(4, 4, "M", 0, "S"), (0, 0, "S", 0, "N"), (4, 6, "L", 1, "S"), (9, 9, "S", 1, "S")]
    )
    assert captures_available(dataclasses.replace(state, to_move=1), 1)
    safe = [
        a for a in RS.legal_actions(state, 0) if not captures_available(RS.apply(state, 0, a)[0], 1)
    ]
    assert safe
    action = daschax.make(level).choose(state, 0, seed=5)
    assert action in safe


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_action(level: str) -> None:
    state = position(
        [(c, r, "LMSMS"[c], 0, "N") for c, r in zip(range(5), (2, 1, 3, 1, 2), strict=True)]
        + [
            (c, r, "SMLMS"[c - 4], 1, "SW")
            for c, r in zip(range(4, 9), (6, 7, 5, 7, 6), strict=True)
        ]
    )
    first = daschax.make(level).choose(state, 0, seed=9)
    assert daschax.make(level).choose(state, 0, seed=9) == first
    RS.apply(state, 0, first)


OPTIONS = [
    ({}, 70),
    ({"formation": "LMSSSMSLMS", "move_on": True, "backward": True, "removal": True}, 30),
    ({"removal": True, "place_first": "black", "move_first": "white"}, 40),
]


@pytest.mark.parametrize(("options", "plies"), OPTIONS)
def test_easy_plays_legal_games_in_every_variant(options: dict[str, Any], plies: int) -> None:
    state = RS.setup(options, 2, 11)
    bots = (daschax.make("easy"), daschax.make("easy"))
    for ply in range(plies):
        if RS.outcome(state) is not None:
            break
        seat = RS.to_act(state)[0]
        state, _ = RS.apply(state, seat, bots[seat].choose(state, seat, seed=ply))
    assert not any(state.to_place[0] + state.to_place[1])


def test_unknown_level_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match="levels"):
        get_bot("daschax", "grandmaster")
    with pytest.raises(LookupError):
        daschax.make("grandmaster")
