"""Hexenhalma match resolution and the order validator (RULES.md §4).

Orders are written with a tiny notation: ``"N"`` walks north, ``"N:K"`` walks
and casts a Kugelblitz, ``"N:B>2,0"`` casts a ban to [2, 0], ``"@3,2"`` flies
to [3, 2] (``"@3,2:B>1,1"`` with a spell). Side B's orders are written in
absolute board coordinates with :func:`b_side` and rotated to side A's view,
as a team would have written them.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.base import IllegalAction, draw
from games.rules.hexenhalma import (
    PRESETS,
    resolve_match,
    rotate_orders,
    validate_board,
    validate_orders,
    validate_params,
)
from games.rules.hexenhalma.sample import random_orders

ROWS, COLS = 7, 5
# A 7x5 rectangle: side A starts on [6, 1..3], its goals are [0, 1..3].
BOARD = {
    "rows": ROWS,
    "cols": COLS,
    "fields": [[r, c] for r in range(ROWS) for c in range(COLS)],
    "starts": [[6, 1], [6, 2], [6, 3]],
}


def params(**kw: Any) -> dict[str, Any]:
    base = {
        "witches": 3,
        "min_steps": 1,
        "max_steps": 20,
        "tiredness": 4,
        "spells": {"K": 5, "M": 5, "B": 5, "I": 5, "Z": 5},
    }
    base.update(kw)
    return base


def step(text: str) -> dict[str, Any]:
    move, _, spell = text.partition(":")
    out: dict[str, Any]
    out = {"fly": [int(x) for x in move[1:].split(",")]} if move.startswith("@") else {"walk": move}
    if spell:
        letter, _, ban = spell.partition(">")
        out["spell"] = letter
        if ban:
            out["ban_to"] = [int(x) for x in ban.split(",")]
    return out


def witch(start: tuple[int, int], *steps: str) -> dict[str, Any]:
    return {"start": list(start), "steps": [step(s) for s in steps]}


def b_side(
    orders: list[dict[str, Any]], rows: int = ROWS, cols: int = COLS
) -> list[dict[str, Any]]:
    """Side B's orders given in absolute coordinates, turned into side-A writing."""
    return rotate_orders(orders, rows, cols)


def fates(result: dict[str, Any]) -> list[list[tuple[str, int]]]:
    return [[(f["fate"], f["step"]) for f in side] for side in result["witches"]]


def events(result: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [
        dict(e, step=rec["step"])
        for rec in result["trace"]
        for e in rec["events"]
        if e["type"] == kind
    ]


def idle(*starts: tuple[int, int]) -> list[dict[str, Any]]:
    """Witches that take one harmless step sideways... or rather north, and starve."""
    return [witch(s, "N") for s in starts]


A_STARTS = ((6, 1), (6, 2), (6, 3))


# -- boards and params -----------------------------------------------------


def test_presets_are_valid_and_symmetric() -> None:
    for preset in PRESETS.values():
        board = validate_board(preset["board"])
        validate_params(preset["params"], board)
    assert validate_board(PRESETS["arena"]["board"])["rows"] == 30


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ({**BOARD, "fields": BOARD["fields"][1:]}, "180° rotationally symmetric"),
        ({**BOARD, "starts": [[6, 1], [0, 3]]}, "side B's start field too"),
        ({**BOARD, "starts": [[3, 2]]}, "side B's start field too"),
        ({**BOARD, "starts": [[9, 1]]}, "not a field of the board"),
        ({**BOARD, "starts": []}, "at least one start field"),
        ({**BOARD, "rows": 65}, "between 1 and 64"),
        ({**BOARD, "fields": [*BOARD["fields"], [7, 0]]}, "outside the board"),
        ({**BOARD, "fields": [[0, 0], "x"]}, "list of [row, col]"),
        ("board", "JSON object"),
    ],
)
def test_board_validation(board: Any, message: str) -> None:
    with pytest.raises(IllegalAction, match=re.escape(message)):
        validate_board(board)


def test_params_validation() -> None:
    board = validate_board(BOARD)
    assert validate_params(params(), board)["require_all_steps"] is False
    with pytest.raises(IllegalAction, match="witches must lie between 1 and 3"):
        validate_params(params(witches=4), board)
    with pytest.raises(IllegalAction, match="min_steps"):
        validate_params(params(min_steps=21), board)
    with pytest.raises(IllegalAction, match="Unknown round parameter"):
        validate_params({**params(), "bogus": 1}, board)
    with pytest.raises(IllegalAction, match="count of spell Z"):
        validate_params(params(spells={"Z": -1}), board)


# -- the validator's messages ----------------------------------------------


def check(orders: list[dict[str, Any]], message: str, **kw: Any) -> None:
    with pytest.raises(IllegalAction, match=message):
        validate_orders(BOARD, params(**kw), orders)


def test_valid_orders_are_normalised() -> None:
    orders = [
        witch((6, 1), "N:K", "N", "N", "N", "N", "N"),
        witch((6, 2), "@3,0:M", "N", "E", "E", "N", "N"),
        witch((6, 3), "N:B>3,3", "N:I"),
    ]
    normal = validate_orders(BOARD, params(), orders)
    assert normal[1]["steps"][0] == {"fly": [3, 0], "spell": "M"}
    assert normal[2]["steps"][0] == {"walk": "N", "spell": "B", "ban_to": [3, 3]}
    assert json.loads(json.dumps(normal)) == normal


@pytest.mark.parametrize(
    ("orders", "message", "kw"),
    [
        ([witch((6, 1), "N")], r"Witch 2 has no orders", {}),
        (
            [*idle(*A_STARTS), witch((6, 1), "N")],
            r"There is no witch 4: this round has 3 witches",
            {},
        ),
        (
            [witch((6, 1), "N"), *idle((6, 2), (6, 3))],
            r"Witch 1 has 1 steps: .*at least 2",
            {"min_steps": 2},
        ),
        (
            [*idle((6, 1), (6, 2)), witch((6, 3), *"NNNN")],
            r"Witch 3 has 4 steps: .*at most 3",
            {"max_steps": 3},
        ),
        (
            [*idle(*A_STARTS)],
            r"Witch 1 has 1 steps: this round requires all 3",
            {"max_steps": 3, "require_all_steps": True},
        ),
        (
            [witch((6, 1), "N:K", "N:K"), *idle((6, 2), (6, 3))],
            r"Witch 1 casts Kugelblitz 2 times: this round allows 1",
            {"spells": {"K": 1}},
        ),
        (
            [witch((6, 1), "@3,3", "@3,4"), *idle((6, 2), (6, 3))],
            r"Witch 1 casts Beelzebub 2 times",
            {"spells": {"Z": 1}},
        ),
        (
            [*idle(*A_STARTS)],
            r"Witch 1 casts Immunzauber 0 times: this round requires all 1",
            {"spells": {"I": 1}, "require_all_spells": True},
        ),
        (
            [
                {"start": [6, 1], "steps": [{"walk": "N", "spell": ["K", "M"]}]},
                *idle((6, 2), (6, 3)),
            ],
            r"Witch 1, step 1: a step carries one spell at most",
            {},
        ),
        (
            [
                {"start": [6, 1], "steps": [{"fly": [3, 3], "spell": ["K", "M"]}]},
                *idle((6, 2), (6, 3)),
            ],
            r"only a Beelzebub flight may carry one further spell",
            {},
        ),
        ([witch((6, 1), "N:Z"), *idle((6, 2), (6, 3))], r"Beelzebub is a step of its own", {}),
        ([witch((6, 1), "N:X"), *idle((6, 2), (6, 3))], r"unknown spell", {}),
        (
            [witch((6, 1), "N", "@5,1"), *idle((6, 2), (6, 3))],
            r"Witch 1, step 2: standing still is not allowed",
            {},
        ),
        (
            [*idle((6, 1), (6, 2)), witch((6, 3), "N", "E", "E")],
            r"Witch 3, step 3: this walk leaves the board",
            {},
        ),
        (
            [witch((6, 1), "S"), *idle((6, 2), (6, 3))],
            r"Witch 1, step 1: this walk leaves the board",
            {},
        ),
        (
            [witch((6, 1), "N", "E", "S"), *idle((6, 2), (6, 3))],
            r"Witch 1, step 3: \[6, 2\] is a start field",
            {},
        ),
        (
            [witch((6, 1), "N", "N", "N", "N", "N", "N", "E"), *idle((6, 2), (6, 3))],
            r"Witch 1, step 6: a goal field is entered only with the last step",
            {},
        ),
        (
            [witch((6, 1), "@2,1", "N", "N"), *idle((6, 2), (6, 3))],
            r"Witch 1, step 3: after a Beelzebub she must walk 3 steps",
            {},
        ),
        (
            [witch((6, 1), "@0,2"), *idle((6, 2), (6, 3))],
            r"Witch 1, step 1: a Beelzebub never lands on a start or goal field",
            {},
        ),
        (
            [witch((6, 1), "@6,3"), *idle((6, 2), (6, 3))],
            r"never lands on a start or goal field",
            {},
        ),
        (
            [witch((6, 1), "@7,3"), *idle((6, 2), (6, 3))],
            r"flight's target \[7, 3\] is not a field",
            {},
        ),
        (
            [{"start": [6, 1], "steps": [{"walk": "N", "spell": "B"}]}, *idle((6, 2), (6, 3))],
            r"Witch 1, step 1: a Bannzauber needs a ban target",
            {},
        ),
        (
            [
                {"start": [6, 1], "steps": [{"walk": "N", "spell": "K", "ban_to": [3, 3]}]},
                *idle((6, 2), (6, 3)),
            ],
            r"only a Bannzauber has a ban target",
            {},
        ),
        (
            [witch((6, 1), "N:B>0,1"), *idle((6, 2), (6, 3))],
            r"Witch 1, step 1: the ban target \[0, 1\] is a start or goal field",
            {},
        ),
        (
            [witch((6, 1), "N:B>6,2"), *idle((6, 2), (6, 3))],
            r"the ban target \[6, 2\] is a start or goal field",
            {},
        ),
        (
            [witch((6, 1), "N:B>9,9"), *idle((6, 2), (6, 3))],
            r"the ban target \[9, 9\] is not a field",
            {},
        ),
        (
            [witch((6, 1), *"NNNNN", "N:K"), *idle((6, 2), (6, 3))],
            r"Witch 1, step 6: no spell is cast on a start or goal field",
            {},
        ),
        (
            [witch((6, 1), "N"), witch((6, 1), "N"), witch((6, 3), "N")],
            r"Witches 1 and 2 share the start field \[6, 1\]",
            {},
        ),
        (
            [witch((5, 1), "N"), *idle((6, 2), (6, 3))],
            r"Witch 1: \[5, 1\] is not one of your start fields",
            {},
        ),
        (
            [
                witch((6, 1), "N", "E", *"NNNNN"),
                witch((6, 3), "N", "W", *"NNNNN"),
                witch((6, 2), "N"),
            ],
            r"Witches 1 and 2 both plan to finish on \[0, 2\]",
            {},
        ),
        (
            [{"start": [6, 1], "steps": [{"walk": "NE"}]}, *idle((6, 2), (6, 3))],
            r"a walk goes N, E, S or W",
            {},
        ),
        (
            [{"start": [6, 1], "steps": [{"walk": "N", "fly": [1, 1]}]}, *idle((6, 2), (6, 3))],
            r"either a walk or a Beelzebub",
            {},
        ),
        (
            [{"start": [6, 1], "steps": [{"hop": "N"}]}, *idle((6, 2), (6, 3))],
            r"unknown key hop",
            {},
        ),
        (
            [{"start": [6, 1], "steps": "NNN"}, *idle((6, 2), (6, 3))],
            r"Witch 1: steps must be a list",
            {},
        ),
        ("NNN", r"Orders must be a list", {}),
    ],
)
def test_validator_messages(orders: Any, message: str, kw: dict[str, Any]) -> None:
    check(orders, message, **kw)


def test_validator_accepts_the_rules_edges() -> None:
    # Beelzebub then exactly three walks, the third into the goal; a Beelzebub
    # carrying one further spell; the order need not reach the goal.
    orders = [
        witch((6, 1), "@3,1:K", "N", "N", "N"),
        witch((6, 2), "N:I", "N:B>3,0"),
        witch((6, 3), "N"),
    ]
    assert len(validate_orders(BOARD, params(spells={"K": 1, "I": 1, "B": 1, "Z": 1}), orders)) == 3


# -- the resolution, rule by rule ------------------------------------------


def run(
    a: list[dict[str, Any]] | None, b_abs: list[dict[str, Any]] | None, seed: int = 1, **kw: Any
) -> dict[str, Any]:
    return resolve_match(BOARD, params(**kw), a, None if b_abs is None else b_side(b_abs), seed)


def test_kugelblitz_hits_both_teams() -> None:
    a = [witch((6, 1), "N:K"), witch((6, 2), "N", "W", "N"), witch((6, 3), "N")]
    b = [witch((0, 1), "S", "S", "S", "S", "S"), witch((0, 2), "S"), witch((0, 3), "S")]
    result = run(a, b)
    assert fates(result)[0] == [("starved", 1), ("burst", 2), ("starved", 1)]
    assert fates(result)[1][0] == ("burst", 5)
    hit = events(result, "hit")[0]
    assert hit == {
        "type": "hit",
        "side": 0,
        "witch": 1,
        "spell": "K",
        "at": [5, 1],
        "by": [0, 0],
        "cast": 1,
        "step": 2,
    }


def test_spells_live_for_exactly_five_steps() -> None:
    a = [witch((6, 1), "N:K"), *idle((6, 2), (6, 3))]
    b = [
        witch((0, 1), "S", "S", "S", "W", "S", "S", "E"),  # reaches [5, 1] in step 7 = t+6
        witch((0, 2), "S", "S", "S", "S", "W", "S"),  # reaches [5, 1] in step 6 = t+5
        witch((0, 3), "S"),
    ]
    result = run(a, b)
    assert fates(result)[1][:2] == [("starved", 7), ("burst", 6)]
    expired = events(result, "expire")
    assert expired == [{"type": "expire", "at": [5, 1], "spell": "K", "by": [0, 0], "step": 6}]


def test_newer_spell_replaces_older() -> None:
    # A2 is immune in step 2, so she survives A1's Kugelblitz and lays a Müdezauber over it.
    a = [witch((6, 1), "N:K"), witch((6, 2), "N:I", "W:M"), witch((6, 3), "N")]
    b = [witch((0, 1), "S"), witch((0, 2), "S", "S", "S", "S", "W", "S", "E"), witch((0, 3), "S")]
    result = run(a, b)
    casts = events(result, "cast")
    assert casts[-1]["replaces"] == {"spell": "K", "by": [0, 0]}
    assert fates(result)[1][1] == ("starved", 7)  # B2 reached [5, 1] in step 6: tired, not burst
    hit = events(result, "hit")[0]
    assert (hit["spell"], hit["tiredness"], hit["step"]) == ("M", 4, 6)
    # The Kugelblitz never expires (it was replaced); the Müdezauber expires after step 7.
    assert [(e["spell"], e["step"]) for e in events(result, "expire")] == [("M", 7)]


def lottery_orders() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    a = [witch((6, 1), "N", "N:K"), witch((6, 2), "N", "@4,1:M"), witch((6, 3), "N")]
    b = [witch((0, 1), "S", "S", "S", "S"), witch((0, 2), "S"), witch((0, 3), "S")]
    return a, b


def test_lottery_decides_same_step_casts_from_the_seed() -> None:
    a, b = lottery_orders()
    seeds = {draw(s, 0, 2): s for s in range(20)}
    assert set(seeds) == {0, 1}
    k_wins = run(a, b, seed=seeds[0])
    m_wins = run(a, b, seed=seeds[1])
    lottery = events(k_wins, "lottery")[0]
    assert lottery["entrants"] == [[0, 0, "K"], [0, 1, "M"]]
    assert (lottery["winner"], lottery["at"], lottery["draw"]) == (0, [4, 1], 0)
    assert fates(k_wins)[1][0] == ("burst", 4)  # B1 walks into the winning Kugelblitz
    assert fates(m_wins)[1][0] == ("starved", 4)
    assert events(m_wins, "hit")[0]["spell"] == "M"
    assert run(a, b, seed=seeds[0]) == k_wins  # reproducible


def test_immunity_covers_the_three_steps_after_casting() -> None:
    a = [
        witch((6, 1), "N:I", "N", "N", "N", "N"),
        witch((6, 2), "N:I", "N", "N", "N", "N", "N"),
        witch((6, 3), "N"),
    ]
    b = [witch((0, 1), "S:K"), witch((0, 2), "S", "S:K"), witch((0, 3), "S")]
    result = run(a, b)
    # A1 steps onto B1's Kugelblitz in step 5 = t+4: burst. A2 meets B2's in step 4 = t+3: immune.
    assert fates(result)[0][:2] == [("burst", 5), ("goal", 6)]
    immune = events(result, "immune")[0]
    assert (immune["side"], immune["witch"], immune["spell"], immune["step"]) == (0, 1, "K", 4)
    assert events(result, "immunity")[0]["until"] == 4


def test_immunity_not_on_the_field_of_casting() -> None:
    a = [witch((6, 1), "N:K"), witch((6, 2), "N", "W:I"), witch((6, 3), "N")]
    result = run(a, None)
    assert fates(result)[0][1] == ("burst", 2)
    assert events(result, "immunity") == []


def mude_orders(max_steps: int) -> dict[str, Any]:
    rows, cols = 12, 3
    board = {
        "rows": rows,
        "cols": cols,
        "fields": [[r, c] for r in range(rows) for c in range(cols)],
        "starts": [[11, 1]],
    }
    # B1 walks south through column 1 and lays Müdezauber on [3, 1] and [4, 1]; A1 walks
    # north through column 1 and meets them in steps 8 and 7: tiredness 2 x 4 = 8.
    a = [witch((11, 1), *"N" * 11)]
    b = [witch((0, 1), "S", "S", "S:M", "S:M", *"S" * 7)]
    p = {"witches": 1, "min_steps": 1, "max_steps": max_steps, "tiredness": 4, "spells": {"M": 2}}
    validate_orders(board, p, a)
    return resolve_match(board, p, a, rotate_orders(b, rows, cols), 7)


def test_mudezauber_adds_up_and_arriving_in_time_is_enough() -> None:
    # The seed's case: twice "minus four", 11 steps needed, at most 20 allowed: she arrives.
    result = mude_orders(20)
    assert fates(result) == [[("goal", 11)], [("goal", 11)]]
    assert [e["tiredness"] for e in events(result, "hit")] == [4, 8]
    # With at most 19 she may make 11 steps: still in goal in step 11.
    assert fates(mude_orders(19))[0] == [("goal", 11)]
    # With at most 18 only 10: she falls asleep in step 10.
    result = mude_orders(18)
    assert fates(result)[0] == [("asleep", 10)]
    assert events(result, "fate")[0]["tiredness"] == 8


def test_asleep_witch_casts_nothing_and_immunity_does_not_heal() -> None:
    rows, cols = 12, 3
    board = {
        "rows": rows,
        "cols": cols,
        "fields": [[r, c] for r in range(rows) for c in range(cols)],
        "starts": [[11, 1]],
    }
    a = [witch((11, 1), "N", "N", "N", "N", "N", "N", "N:I", "N", "N:K", "N")]
    b = [witch((0, 1), "S", "S", "S:M", "S:M", *"S" * 7)]
    p = {
        "witches": 1,
        "min_steps": 1,
        "max_steps": 17,
        "tiredness": 4,
        "spells": {"M": 2, "K": 1, "I": 1},
    }
    result = resolve_match(board, p, a, rotate_orders(b, rows, cols), 7)
    # Tiredness 4 after step 7; immune in steps 8..10 (no second Müdezauber), asleep at 17 - 4 = 13?
    # No: she meets the first Müdezauber in step 7 (tiredness 4), the second in step 8 while immune.
    assert [e["tiredness"] for e in events(result, "hit")] == [4]
    assert events(result, "immune")[0]["step"] == 8
    assert fates(result)[0] == [("starved", 10)]
    p2 = dict(p, max_steps=13)  # now she falls asleep in step 9, the step of her Kugelblitz
    result = resolve_match(board, p2, a, rotate_orders(b, rows, cols), 7)
    assert fates(result)[0] == [("asleep", 9)]
    assert [e for e in events(result, "cast") if e["side"] == 0] == []


def test_ban_keeps_directions_and_can_walk_off_the_board() -> None:
    a = [
        witch((6, 1), "N", "N", "N", "W", "N", "N", "E", "N"),  # banned in step 3, then W: off
        witch((6, 2), "N", "N", "W", "N", "N", "N", "E", "N"),  # banned in step 4, then N N E
        witch((6, 3), "N"),
    ]
    b = [witch((0, 1), "@3,1:B>2,0"), witch((0, 2), "S"), witch((0, 3), "S")]
    result = run(a, b)
    got = fates(result)[0]
    assert got[0] == ("out", 4)
    # A2 lands on [2, 0], walks N N to [0, 0] and E into [0, 1]: a free goal ends her path.
    assert got[1] == ("goal", 7)
    out = next(e for e in events(result, "fate") if e["fate"] == "out")
    assert (out["reason"], out["target"], out["at"]) == ("off_board", [2, -1], None)
    bans = [e for e in events(result, "hit") if e["spell"] == "B"]
    assert [(e["witch"], e["step"], e["to"]) for e in bans] == [(0, 3, [2, 0]), (1, 4, [2, 0])]
    # Positions: the ban moves her at once, in the step she was hit.
    assert result["trace"][3]["positions"][0][0] == [2, 0]


def test_flights_stay_absolute_after_a_ban() -> None:
    a = [witch((6, 1), "N", "N", "@3,3", "N", "N", "N"), *idle((6, 2), (6, 3))]
    b = [witch((0, 1), "@4,1:B>1,0"), witch((0, 2), "S"), witch((0, 3), "S")]
    result = run(a, b)
    assert result["trace"][3]["positions"][0][0] == [3, 3]
    assert fates(result)[0][0] == ("goal", 6)


def ban_lock(
    b_orders: list[dict[str, Any]] | None, a0: dict[str, Any], a1_steps: tuple[str, ...]
) -> dict[str, Any]:
    a = [a0, witch((6, 2), *a1_steps), witch((6, 3), "N")]
    return run(a, b_orders)


def test_own_ban_locks_the_goal_until_the_third_step_after() -> None:
    a0 = witch((6, 1), "@3,2:B>1,1")
    # Banned by her own team in step 3 onto [1, 1]; step 4 N into the goal: too early.
    result = ban_lock(None, a0, ("N",) * 6)
    assert fates(result)[0][1] == ("out", 4)
    assert [e["reason"] for e in events(result, "fate") if e["fate"] == "out"] == ["goal_locked"]
    # The third step after the ban (step 6) may enter; she casts her step-3 Kugelblitz on [1, 1].
    result = ban_lock(None, a0, ("N", "N", "N:K", "E", "E", "N"))
    assert fates(result)[0][1] == ("goal", 6)
    assert [e["at"] for e in events(result, "cast") if e["spell"] == "K"] == [[1, 1]]


def test_opponents_ban_does_not_lock_the_goal() -> None:
    b = [witch((0, 1), "@3,2:B>1,1"), witch((0, 2), "S"), witch((0, 3), "S")]
    result = ban_lock(b, witch((6, 1), "N"), ("N",) * 6)
    assert fates(result)[0][1] == ("goal", 4)


def test_spells_on_the_ban_target_apply_except_bans() -> None:
    b = [witch((0, 1), "@3,2:B>2,1"), witch((0, 2), "@2,1:K"), witch((0, 3), "S")]
    result = ban_lock(b, witch((6, 1), "N"), ("N",) * 6)
    assert fates(result)[0][1] == ("burst", 3)
    hit_k = next(e for e in events(result, "hit") if e["spell"] == "K")
    assert hit_k["at"] == [2, 1]
    b = [witch((0, 1), "@3,2:B>2,1"), witch((0, 2), "@2,1:B>5,4"), witch((0, 3), "S")]
    result = ban_lock(b, witch((6, 1), "N"), ("N",) * 6)
    assert result["trace"][3]["positions"][0][1] == [2, 1]  # the second ban does nothing
    assert fates(result)[0][1] == ("goal", 5)


def test_goal_takes_one_witch_per_team_lower_number_first() -> None:
    a = [
        witch((6, 1), "N", "E", "N", "N", "N", "N", "N"),
        witch((6, 3), "N", "W", "N", "N", "N", "N", "N"),
        witch((6, 2), "N", "N", "N", "N", "N", "E", "W", "N"),
    ]
    result = run(a, None)
    assert fates(result)[0] == [("goal", 7), ("out", 7), ("out", 8)]
    assert [e["reason"] for e in events(result, "fate") if e["fate"] == "out"] == ["goal_taken"] * 2


def test_beelzebub_lock_and_forbidden_fields_in_unchecked_orders() -> None:
    a = [witch((6, 1), "@1,1", "N"), witch((6, 2), "@1,2", "E", "W", "N"), witch((6, 3), "@0,3")]
    result = run(a, None)
    assert fates(result)[0] == [("out", 2), ("goal", 4), ("out", 1)]
    reasons = [e["reason"] for e in events(result, "fate") if e["fate"] == "out"]
    assert reasons == ["start_or_goal", "goal_locked"]
    result = run([witch((6, 1), "N", "S"), *idle((6, 2), (6, 3))], None)
    assert fates(result)[0][0] == ("out", 2)
    assert [e["reason"] for e in events(result, "fate") if e["fate"] == "out"] == ["start_field"]


def test_no_orders_starve_and_sides_are_rotated() -> None:
    a = [witch((6, 1), *"NNNNNN"), *idle((6, 2), (6, 3))]
    result = run(a, a and [witch((0, 3), *"SSSSSS"), witch((0, 2), "S"), witch((0, 1), "S")])
    assert fates(result) == [[("goal", 6), ("starved", 1), ("starved", 1)]] * 2
    assert result["trace"][6]["positions"][1][0] == [6, 3]
    nothing = run(a, None)
    assert fates(nothing)[1] == [("starved", 0)] * 3
    assert nothing["trace"][0]["positions"][1] == [None, None, None]


def test_seed_example_section_e() -> None:
    """The seed's example, on a 5x6 rectangle: side A starts [4, 1], [4, 2]; goals [0, 4], [0, 3]."""
    board = {
        "rows": 5,
        "cols": 6,
        "fields": [[r, c] for r in range(5) for c in range(6)],
        "starts": [[4, 1], [4, 2]],
    }
    p = {
        "witches": 2,
        "min_steps": 1,
        "max_steps": 12,
        "tiredness": 4,
        "spells": {"K": 2, "M": 2, "B": 1, "I": 2, "Z": 1},
    }
    # Witch 1: two Müdezauber, a Kugelblitz, a ban into the bottom-left corner, then into the goal.
    w1 = witch((4, 1), "N:M", "N:M", "N:K", "N:B>4,0", "E", "E")
    # Witch 2: two Kugelblitze, immune, Beelzebub into the top-left corner (immune there and on
    # the next two fields: witch 1's ban and Kugelblitz bounce off), immune again for the last
    # three steps, a Müdezauber, into the goal.
    w2 = witch((4, 2), "N:K", "N:K", "E:I", "@0,0", "E", "S", "E:I", "E", "E:M", "N")
    orders = validate_orders(board, p, [w1, w2])
    result = resolve_match(board, p, orders, None, 3)
    assert fates(result)[0] == [("goal", 6), ("goal", 10)]
    assert [(e["spell"], e["at"], e["by"], e["step"]) for e in events(result, "immune")] == [
        ("B", [0, 1], [0, 0], 5),
        ("K", [1, 1], [0, 0], 6),
    ]
    assert [(e["witch"], e["spell"], e["at"]) for e in events(result, "cast")] == [
        (0, "M", [3, 1]),
        (1, "K", [3, 2]),
        (0, "M", [2, 1]),
        (1, "K", [2, 2]),
        (0, "K", [1, 1]),
        (0, "B", [0, 1]),
        (1, "M", [1, 4]),
    ]
    assert events(result, "fly")[0]["to"] == [0, 0]
    # Without her first immunity witch 2 is banned by her own team in step 5 onto [4, 0],
    # then walks S off the board in step 6.
    w2_careless = witch((4, 2), "N:K", "N:K", "E", "@0,0", "E", "S", "E:I", "E", "E:M", "N")
    result = resolve_match(board, p, validate_orders(board, p, [w1, w2_careless]), None, 3)
    assert fates(result)[0] == [("goal", 6), ("out", 6)]


# -- random orders ----------------------------------------------------------


def check_consistent(result: dict[str, Any], board: dict[str, Any], p: dict[str, Any]) -> None:
    n = p["witches"]
    rows, cols = board["rows"], board["cols"]
    goals = [
        {(rows - 1 - r, cols - 1 - c) for r, c in board["starts"]},
        {(r, c) for r, c in board["starts"]},
    ]
    trace = result["trace"]
    assert [rec["step"] for rec in trace] == list(range(len(trace)))
    assert len(trace) - 1 <= p["max_steps"]
    ended: dict[tuple[int, int], int] = {}
    for rec in trace:
        for e in rec["events"]:
            if e["type"] == "fate":
                key = (e["side"], e["witch"])
                assert key not in ended
                ended[key] = rec["step"]
                assert result["witches"][e["side"]][e["witch"]] == {
                    "fate": e["fate"],
                    "step": rec["step"],
                }
    assert len(ended) == 2 * n
    last = len(trace) - 1
    assert last == max(ended.values())
    for side in (0, 1):
        held = set()
        for w, f in enumerate(result["witches"][side]):
            assert f["fate"] in {"goal", "burst", "asleep", "out", "starved"}
            assert 0 <= f["step"] <= p["max_steps"]
            where = trace[f["step"]]["positions"][side][w]
            for rec in trace[f["step"] :]:  # nobody moves after her end
                assert rec["positions"][side][w] == where
            if f["fate"] == "goal":
                assert tuple(where) in goals[side] and tuple(where) not in held
                held.add(tuple(where))
            elif f["fate"] == "out":
                assert where is None
    json.dumps(result)


@given(
    st.integers(0, 2**32), st.sampled_from(["rectangle", "diamond", "cross"]), st.floats(0.0, 1.0)
)
def test_random_valid_orders_resolve_consistently(seed: int, name: str, greed: float) -> None:
    preset = PRESETS[name]
    board, p = preset["board"], preset["params"]
    rng = random.Random(seed)
    a = random_orders(board, p, rng, spell_rate=0.5, greed=greed)
    b = random_orders(board, p, rng, spell_rate=0.5, greed=greed)
    result = resolve_match(board, p, a, b, seed)
    check_consistent(result, board, p)
    # The same orders on both sides play out symmetrically unless a lottery was drawn.
    twin = resolve_match(board, p, a, a, seed)
    check_consistent(twin, board, p)
    if not any(e["type"] == "lottery" for rec in twin["trace"] for e in rec["events"]):
        assert twin["witches"][0] == twin["witches"][1]


SMALL = {
    "rows": 4,
    "cols": 4,
    "fields": [[r, c] for r in range(4) for c in range(4) if (r, c) not in {(1, 1), (2, 2)}],
    "starts": [[3, 0], [3, 1]],
}
SMALL_PARAMS = {
    "witches": 2,
    "min_steps": 1,
    "max_steps": 12,
    "tiredness": 3,
    "spells": {"K": 9, "M": 9, "B": 9, "I": 9, "Z": 9},
}
coords = st.lists(st.integers(-1, 4), min_size=2, max_size=2)
any_move = st.one_of(
    st.fixed_dictionaries({"walk": st.sampled_from("NESW")}),
    st.fixed_dictionaries({"fly": coords}),
)
any_spell = st.one_of(
    st.just({}),
    st.fixed_dictionaries({"spell": st.sampled_from("KMI")}),
    st.fixed_dictionaries({"spell": st.just("B"), "ban_to": coords}),
)
any_step = st.builds(lambda move, spell: {**move, **spell}, any_move, any_spell)
any_orders = st.permutations([[3, 0], [3, 1]]).flatmap(
    lambda starts: st.tuples(
        *[
            st.lists(any_step, max_size=14).map(lambda steps, s=s: {"start": s, "steps": steps})
            for s in starts
        ]
    ).map(list)
)


@given(any_orders, st.one_of(st.none(), any_orders), st.integers(0, 2**40))
def test_unchecked_orders_never_crash(
    a: list[dict[str, Any]], b: list[dict[str, Any]] | None, seed: int
) -> None:
    result = resolve_match(SMALL, SMALL_PARAMS, a, b, seed)
    check_consistent(result, SMALL, SMALL_PARAMS)


def test_malformed_orders_raise_illegal_action() -> None:
    for junk in (
        5,
        [5, 5],
        [{"start": [3, 0]}, {"start": [3, 0], "steps": []}],
        [{"start": [0, 0], "steps": []}] * 2,
    ):
        with pytest.raises(IllegalAction):
            resolve_match(SMALL, SMALL_PARAMS, junk, None, 1)


junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.sampled_from(["N", "K", "B", "Z", "x"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["start", "steps", "walk", "fly", "spell", "ban_to"]), inner, max_size=4
        )
    ),
    max_leaves=14,
)


@given(junk)
def test_junk_orders_raise_illegal_action_only(orders: Any) -> None:
    for call in (
        lambda: resolve_match(SMALL, SMALL_PARAMS, orders, orders, 1),
        lambda: validate_orders(SMALL, SMALL_PARAMS, orders),
    ):
        with contextlib.suppress(IllegalAction):
            call()
