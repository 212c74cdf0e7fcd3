"""Daschax bots: concrete positions, determinism, legal play in every variant."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from typing import Any

import pytest

from games.bots import daschax, get_bot
from games.rules.daschax import CELLS, FACINGS, START_COUNTS, DaschaxRuleset, DaschaxState
from games.rules.daschax.state import board_digest

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


# Won endgames (issue 30): five pieces against a lone large one that flees. The
# strong bot used to follow it round the board without ever closing the net
# (the first position ran 200 plies and more without an end).
ENDGAMES = [
    [
        (7, 1, "L", 0, "S"),
        (6, 5, "M", 0, "NE"),
        (1, 7, "S", 0, "S"),
        (8, 3, "S", 0, "SE"),
        (1, 6, "S", 0, "SW"),
        (2, 6, "L", 1, "NW"),
    ],
    [
        (3, 6, "L", 0, "SE"),
        (3, 2, "M", 0, "NW"),
        (1, 7, "S", 0, "N"),
        (7, 2, "S", 0, "S"),
        (1, 4, "S", 0, "SE"),
        (7, 3, "L", 1, "SE"),
    ],
]


@pytest.mark.parametrize("pieces", ENDGAMES)
def test_strong_converts_a_won_endgame_against_medium(pieces: list[Any]) -> None:
    # A fresh bot for every decision, as the site makes them.
    state = position(pieces)
    levels = ("strong", "medium")
    for ply in range(60):  # 30 turns each
        if RS.outcome(state) is not None:
            break
        seat = state.to_move
        action = get_bot("daschax", levels[seat]).choose(state, seat, seed=ply)
        state, _ = RS.apply(state, seat, action)
    assert RS.outcome(state) == {"winners": [0], "draw": False, "reason": "all pieces captured"}


@pytest.mark.parametrize("seat", [0, 1])
def test_a_bot_keeps_nothing_between_decisions(seat: int) -> None:
    # The site makes a fresh bot per decision: a bot that remembered its
    # moves would play differently there than in one long-lived object.
    state = position([*ENDGAMES[0][:5], (2, 9, "L", 1, "N")], to_move=seat)
    bot = daschax.DaschaxBot("strong")
    first = bot.choose(state, seat, seed=4)
    assert bot.choose(state, seat, seed=4) == first
    assert daschax.DaschaxBot("strong").choose(state, seat, seed=4) == first


def after(state: DaschaxState, seat: int, action: dict[str, Any]) -> DaschaxState:
    return RS.apply(state, seat, action)[0]


def test_strong_ahead_does_not_remake_a_recent_board() -> None:
    # The view's recent boards (the ruleset keeps them) are all a fresh bot
    # knows of the game's past: a move that remakes one is marked down.
    state = position([*ENDGAMES[0][:5], (2, 9, "L", 1, "N")])
    first = get_bot("daschax", "strong").choose(state, 0, seed=4)
    made = after(state, 0, first).board
    seen = dataclasses.replace(state, recent=(board_digest(made),) * 2)
    other = get_bot("daschax", "strong").choose(seen, 0, seed=4)
    assert other != first
    assert get_bot("daschax", "strong").choose(seen, 0, seed=4) == other


def test_a_bot_behind_is_glad_of_a_repetition() -> None:
    state = position([*ENDGAMES[0][:5], (2, 9, "L", 1, "N")], to_move=1)
    first = get_bot("daschax", "strong").choose(state, 1, seed=4)
    seen = dataclasses.replace(state, recent=(board_digest(after(state, 1, first).board),) * 2)
    assert get_bot("daschax", "strong").choose(seen, 1, seed=4) == first


# A dead ending (issue 30): at most two pieces a side of the same sizes. Neither
# side can force a capture and the rules give it no end. White's large piece
# could take Black's, but Black's medium piece takes it back: medium and small
# against medium and small. The old strong bot made that trade; a quiet move
# keeps the three pieces a side and leaves Black nothing to take.
TRADE_INTO_DEAD = [
    (7, 1, "L", 0, "SW"),
    (7, 7, "M", 0, "NE"),
    (1, 9, "S", 0, "N"),
    (5, 2, "L", 1, "SE"),
    (4, 3, "M", 1, "SE"),
    (5, 5, "S", 1, "NW"),
]


def sizes_left(state: DaschaxState) -> list[list[int]]:
    return [sorted(p[1] for p in state.board if p is not None and p[0] == s) for s in (0, 1)]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_strong_keeps_a_live_game_rather_than_trade_into_a_dead_ending(seed: int) -> None:
    state = position(TRADE_INTO_DEAD)
    trade = {"type": "turn", "at": [7, 1], "steps": ["R", "F", "F"]}
    taken = after(state, 0, trade)
    recaptured = [after(taken, 1, a) for a in captures_available(taken, 1)]
    assert recaptured
    assert all(sizes_left(s) == [[1, 2], [1, 2]] for s in recaptured)
    action = get_bot("daschax", "strong").choose(state, 0, seed=seed)
    assert not captures_available(after(state, 0, action), 1)
    assert sizes_left(after(state, 0, action)) == sizes_left(state)


def test_a_dead_ending_is_even_less_the_contempt() -> None:
    state = position([(2, 2, "M", 0, "N"), (7, 7, "M", 1, "S")])
    search = daschax.Search(state, daschax.LEVELS["strong"], 0)
    contempt = daschax.LEVELS["strong"].contempt
    assert contempt > 0
    assert abs(search.evaluate(0) + contempt) < contempt // 2
    assert abs(search.evaluate(1) - contempt) < contempt // 2
    live = daschax.Search(
        position([(2, 2, "M", 0, "N"), (7, 7, "L", 1, "S")]), daschax.LEVELS["strong"], 0
    )
    assert not live.dead(*live.split())


# Determinism harness: the search's decisions, node counts, evaluations and
# capture orders on fixed positions, digested. A change meant to make the
# search faster must keep all of them; a change meant to make it play
# differently updates the digests (print them with ``harness_digests()``).
HARNESS_OPTIONS = [{}, {"move_on": True, "backward": True}, {"backward": True}, {"move_on": True}]
# Pieces kept per side (White, Black) when a random position is thinned out.
THIN = [(10, 10), (6, 5), (3, 3), (2, 1), (2, 2), (1, 1)]


def harness_positions() -> list[DaschaxState]:
    """Random-play positions of every variant, thinned out to all kinds of
    piece counts (threats, endgames, dead endings), and the hand-made ones."""
    out = []
    for index, options in enumerate(HARNESS_OPTIONS):
        rng = random.Random(index)
        state = RS.setup(options, 2, index)
        for ply in range(120):
            state, _ = RS.apply(
                state, state.to_move, rng.choice(RS.legal_actions(state, state.to_move))
            )
            if ply < 30 or ply % 15:
                continue
            keep = THIN[(ply // 15 + index) % len(THIN)]
            board: list[tuple[int, int, int] | None] = list(state.board)
            for seat in (0, 1):
                cells = [c for c, p in enumerate(board) if p is not None and p[0] == seat]
                for cell in rng.sample(cells, max(0, len(cells) - keep[seat])):
                    board[cell] = None
            out.append(dataclasses.replace(state, board=tuple(board), to_move=ply // 15 % 2))
    out += [position(p) for p in ENDGAMES] + [position(TRADE_INTO_DEAD)]
    # A side ahead with recent boards: the root marks down repetitions.
    ahead = position([*ENDGAMES[0][:5], (2, 9, "L", 1, "N")])
    made = [after(ahead, 0, a).board for a in RS.legal_actions(ahead, 0)[::7]]
    out.append(dataclasses.replace(ahead, recent=tuple(board_digest(b) for b in made)))
    return out


def harness_digests() -> tuple[str, str]:
    """(decisions: move and nodes per position and level; evaluations: both
    sides' scores and the replier's captures (quiescence tries them in that
    order) after every other move, per level)."""
    decisions: list[str] = []
    evaluations: list[str] = []
    for index, state in enumerate(harness_positions()):
        me = state.to_move
        for name in LEVELS:
            level = daschax.LEVELS[name]
            search = daschax.Search(state, level, me)
            move = search.root(random.Random(index), state.recent)
            decisions.append(f"{index} {name} {move} {search.nodes}")
            search = daschax.Search(state, level, me)
            evaluations.append(f"{index} {name} {search.captures(0)} {search.captures(1)}")
            for m in search.moves(me)[::2]:
                changed = search.play(me, m)
                scores = search.evaluate(0), search.evaluate(1)
                evaluations.append(f"{m} {scores} {search.captures(1 - me)}")
                search.undo(me, changed)
    return digest(decisions), digest(evaluations)


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:24]


def test_search_decisions_and_evaluations_are_unchanged() -> None:
    assert harness_digests() == ("f1fa3b50173232aea29a3ca5", "66abb448f658e44359eb0845")
