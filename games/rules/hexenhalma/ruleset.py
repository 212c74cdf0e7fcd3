"""The Hexenhalma campaign on the ruleset contract (RULES.md §4).

Seat 0 is the game master (GM); seats 1..n-1 are teams. The GM opens a
round (board, params, deadline); teams submit secret orders, revisable until
they lock; the platform resolves the round in a background worker with
:meth:`HexenhalmaRuleset.resolve_round` once :meth:`round_ready` says so (or
the deadline passed). The state keeps results and standings only; match
traces are handed to the platform to store.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, ClassVar, TypeVar

from ..base import (
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    LongWork,
    OptionField,
    Options,
    Outcome,
    PhaseDeadline,
    Record,
    Ruleset,
    draw,
    gettext_noop,
)
from .board import canonical, compile_board, goals_of, is_int, validate_board, validate_params
from .orders import Plan, compile_plans, parse_orders, validate_orders_compiled
from .presets import PRESETS
from .resolve import run_match
from .sample import random_orders

MAX_TEAMS = 20
MAX_ROUNDS = 100
# Random play (random_action): how often the game master finishes a campaign
# after a round, closes an open round early, and a team locks orders it wrote.
RANDOM_FINISH = 1 / 3
RANDOM_CLOSE = 1 / 20
RANDOM_LOCK = 1 / 2
REASON_FINISHED = gettext_noop("the game master ended the campaign; most witches in goal wins")
REASON_ROUNDS = gettext_noop("all rounds are played; most witches in goal wins")

T = TypeVar("T")
Match = tuple[int, int, int, int]  # seat playing side A, seat playing side B, goals A, goals B


@dataclass(frozen=True)
class HexenhalmaState:
    seats: int
    seed: int
    counter: int = 0
    rounds: int = 0  # the table's round limit; 0 = the GM finishes by hand
    round: int = 0  # the current (or last) round's number; 0 before the first
    phase: str = "waiting"  # "waiting" (for the GM) | "orders" | "finished"
    board: str | None = None  # canonical JSON of the current round's board
    params: str | None = None
    deadline: str | None = None
    orders: tuple[str | None, ...] = ()  # per team (seat - 1): canonical JSON or None
    locked: tuple[bool, ...] = ()
    gone: tuple[bool, ...] = ()
    results: tuple[tuple[Match, ...], ...] = ()  # one tuple of matches per resolved round
    finished_by_gm: bool = False

    @property
    def teams(self) -> range:
        return range(1, self.seats)


def pairings(teams: list[int]) -> list[tuple[int, int]]:
    """The round robin as (side A, side B) seats.

    For the pair i < j the lower seat plays A when i + j is odd, else the
    higher one: every team plays A in about half its matches. (The board is
    symmetric and orders are always written as side A, so sides are fair.)
    """
    out = []
    for x, i in enumerate(teams):
        for j in teams[x + 1 :]:
            out.append((i, j) if (i + j) % 2 else (j, i))
    return out


def standings(state: HexenhalmaState) -> list[dict[str, int]]:
    """Teams ranked by total witches in goal, then match points (win 2, draw 1)."""
    rows = {
        s: {"seat": s, "goals": 0, "points": 0, "played": 0, "won": 0, "drawn": 0, "lost": 0}
        for s in state.teams
    }
    for matches in state.results:
        for a, b, ga, gb in matches:
            for me, mine, theirs in ((a, ga, gb), (b, gb, ga)):
                row = rows[me]
                row["goals"] += mine
                row["played"] += 1
                if mine > theirs:
                    row["won"] += 1
                    row["points"] += 2
                elif mine == theirs:
                    row["drawn"] += 1
                    row["points"] += 1
                else:
                    row["lost"] += 1
    ranked = sorted(rows.values(), key=lambda r: (-r["goals"], -r["points"], r["seat"]))
    for n, row in enumerate(ranked):
        same = n and (row["goals"], row["points"]) == (
            ranked[n - 1]["goals"],
            ranked[n - 1]["points"],
        )
        row["rank"] = ranked[n - 1]["rank"] if same else n + 1
    return ranked


def _put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of ``values`` with one entry replaced (states are immutable)."""
    return (*values[:index], value, *values[index + 1 :])


def _action_type(action: Any) -> str:
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str):
        raise IllegalAction(gettext_noop('An action is a JSON object with a "type".'))
    return kind


def _deadline(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and len(value) <= 40:
        try:
            datetime.fromisoformat(value)
            return value
        except ValueError:
            pass
    raise IllegalAction(gettext_noop("The deadline must be an ISO date-time or null."))


def _round_settings(action: Action) -> tuple[dict[str, Any], dict[str, Any]]:
    """An ``open_round`` action's board and params, validated (a preset's name allowed)."""
    board = action.get("board")
    params = action.get("params")
    if isinstance(board, str):
        preset = PRESETS.get(board)
        if preset is None:
            raise IllegalAction(gettext_noop("Unknown preset board: %(name)s."), name=board[:30])
        board = preset["board"]
        if params is None:
            params = preset["params"]
    norm_board = validate_board(board)
    return norm_board, validate_params(params, norm_board)


class HexenhalmaRuleset(
    Ruleset[HexenhalmaState], LongWork[HexenhalmaState], PhaseDeadline[HexenhalmaState]
):
    slug: ClassVar[str] = "hexenhalma"
    title: ClassVar[str] = gettext_noop("Hexenhalma")
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = MAX_TEAMS + 1
    action_keys: ClassVar[dict[str, frozenset[str]]] = {
        "open_round": frozenset({"type", "board", "params", "deadline"}),
        "close": frozenset({"type"}),
        "finish": frozenset({"type"}),
        "orders": frozenset({"type", "orders"}),
        "lock": frozenset({"type"}),
    }

    # -- options ---------------------------------------------------------
    def option_fields(self) -> list[OptionField]:
        return [
            {
                "name": "rounds",
                "kind": "int",
                "label": gettext_noop("Rounds (0: the game master ends the campaign)"),
                "default": 0,
                "min": 0,
                "max": MAX_ROUNDS,
            }
        ]

    def seat_names(self, seats: int) -> list[str]:
        names = [gettext_noop("Game master")]
        names += [gettext_noop("Team %(n)s") % {"n": i} for i in range(1, seats)]
        return names

    # -- the game --------------------------------------------------------
    def setup(self, options: Options, seats: int, seed: int) -> HexenhalmaState:
        clean = self.validate_options(options)
        if not is_int(seats) or not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions(
                gettext_noop("Hexenhalma needs a game master and 2 to %(max)s teams."),
                max=MAX_TEAMS,
            )
        teams = seats - 1
        return HexenhalmaState(
            seats=seats,
            seed=seed,
            rounds=clean["rounds"],
            orders=(None,) * teams,
            locked=(False,) * teams,
            gone=(False,) * teams,
        )

    def to_act(self, state: HexenhalmaState) -> list[int]:
        if state.phase == "waiting":
            return [0]
        if state.phase == "orders":
            return [s for s in state.teams if not state.locked[s - 1]]
        return []

    def may_act(self, state: HexenhalmaState, seat: int) -> bool:
        """The GM may close an open round early (teams that have not locked starve)."""
        return seat == 0 and state.phase == "orders"

    def is_referee(self, seat: int) -> bool:
        """Seat 0 is the game master: it runs the campaign, it does not play it."""
        return seat == 0

    def phase_deadline(self, state: HexenhalmaState) -> str | None:
        """The GM's round deadline, enforced by the platform (it locks every team)."""
        return state.deadline if state.phase == "orders" else None

    def work_due(self, state: HexenhalmaState) -> bool:
        """The platform's worker resolves the round once every team has locked."""
        return self.round_ready(state)

    def do_work(self, state: HexenhalmaState) -> tuple[HexenhalmaState, list[Event], list[Record]]:
        return self.resolve_round(state)

    def round_ready(self, state: HexenhalmaState) -> bool:
        """True when every team has locked: the platform should resolve now."""
        return state.phase == "orders" and all(state.locked)

    def legal_actions(self, state: HexenhalmaState, seat: int) -> list[Action] | None:
        # Orders and boards are not enumerable; the order editor uses the validator.
        return None if seat in self.to_act(state) else []

    def random_action(self, state: HexenhalmaState, seat: int, rng: random.Random) -> Action | None:
        """Random but valid play, since orders and boards do not enumerate.

        The game master opens rounds on preset boards and closes an open round
        early now and then; a campaign with a round limit ends by itself, one
        without may be finished once a round has been played. A team writes
        random valid orders (:func:`random_orders`), rewrites them now and
        then, and locks them.
        """
        if seat == 0:
            if state.phase == "waiting":
                if state.round and not state.rounds and rng.random() < RANDOM_FINISH:
                    return {"type": "finish"}
                board = rng.choice(sorted(PRESETS))
                return {"type": "open_round", "board": board, "deadline": None}
            if self.may_act(state, seat) and not all(state.locked):
                return {"type": "close"} if rng.random() < RANDOM_CLOSE else None
            return None
        if seat not in self.to_act(state):
            return None
        if state.orders[seat - 1] is not None and rng.random() < RANDOM_LOCK:
            return {"type": "lock"}
        board, params = json.loads(state.board or "{}"), json.loads(state.params or "{}")
        return {"type": "orders", "orders": random_orders(board, params, rng)}

    def apply(
        self, state: HexenhalmaState, seat: int, action: Action
    ) -> tuple[HexenhalmaState, list[Event]]:
        kind = _action_type(action)
        if state.phase == "finished":
            raise IllegalAction(gettext_noop("The campaign is over."))
        if not is_int(seat) or not 0 <= seat < state.seats:
            raise IllegalAction(gettext_noop("There is no seat %(seat)s."), seat=str(seat)[:10])
        if seat == 0:
            return self._gm(state, kind, action)
        return self._team(state, seat, kind, action)

    def _gm(
        self, state: HexenhalmaState, kind: str, action: Action
    ) -> tuple[HexenhalmaState, list[Event]]:
        if kind == "open_round":
            if state.phase != "waiting":
                raise IllegalAction(gettext_noop("A round is already open."))
            return self._open_round(state, action)
        if kind == "close":
            if state.phase != "orders":
                raise IllegalAction(gettext_noop("No round is open."))
            if all(state.locked):
                raise IllegalAction(
                    gettext_noop("Every team has locked: the round is being resolved.")
                )
            new = replace(state, locked=(True,) * (state.seats - 1))
            return new, [{"type": "round_closed", "round": state.round}]
        if kind == "finish":
            if state.phase != "waiting":
                raise IllegalAction(
                    gettext_noop("A round is open: close it and let it resolve before finishing.")
                )
            new = replace(state, phase="finished", finished_by_gm=True)
            return new, [self._finished_event(new)]
        if kind in ("orders", "lock"):
            raise IllegalAction(gettext_noop("The game master writes no orders."))
        raise IllegalAction(gettext_noop("Unknown action type: %(type)s."), type=kind[:30])

    def _open_round(
        self, state: HexenhalmaState, action: Action
    ) -> tuple[HexenhalmaState, list[Event]]:
        norm_board, norm_params = _round_settings(action)
        deadline = _deadline(action.get("deadline"))
        number = state.round + 1
        new = replace(
            state,
            round=number,
            phase="orders",
            board=canonical(norm_board),
            params=canonical(norm_params),
            deadline=deadline,
            orders=(None,) * (state.seats - 1),
            locked=state.gone,
        )
        event = {
            "type": "round_opened",
            "round": number,
            "board": norm_board,
            "params": norm_params,
            "deadline": deadline,
        }
        return new, [event]

    def _team(
        self, state: HexenhalmaState, seat: int, kind: str, action: Action
    ) -> tuple[HexenhalmaState, list[Event]]:
        if kind not in ("orders", "lock"):
            if kind in ("open_round", "close", "finish"):
                raise IllegalAction(gettext_noop("Only the game master may do that."))
            raise IllegalAction(gettext_noop("Unknown action type: %(type)s."), type=kind[:30])
        if state.phase != "orders":
            raise IllegalAction(gettext_noop("No round is open for orders."))
        team = seat - 1
        if state.locked[team]:
            raise IllegalAction(gettext_noop("Your orders are locked for this round."))
        if kind == "lock":
            locked = _put(state.locked, team, True)
            return replace(state, locked=locked), [
                {"type": "locked", "seat": seat, "round": state.round}
            ]
        board, params = json.loads(state.board or "{}"), json.loads(state.params or "{}")
        normal = validate_orders_compiled(compile_board(board), params, action.get("orders"))
        orders = _put(state.orders, team, canonical(normal))
        event = {"type": "orders", "seat": seat, "round": state.round, "orders": normal}
        return replace(state, orders=orders), [event]

    def normalize_action(self, state: HexenhalmaState, seat: int, action: Action) -> Action:
        """Besides the top-level keys, boards, params and orders as validated:
        what a client nests inside them beyond the rules is not kept either."""
        sent: object = action  # a client's junk, not even an object, comes back as sent
        if not isinstance(sent, dict):
            return action  # apply refuses it
        clean = super().normalize_action(state, seat, action)
        kind = clean.get("type")
        if kind == "open_round" and seat == 0 and state.phase == "waiting":
            board, params = _round_settings(clean)
            named = isinstance(clean.get("board"), str) and clean.get("params") is None
            clean = {
                "type": kind,
                "board": clean["board"] if named else board,
                "params": None if named else params,
                "deadline": _deadline(clean.get("deadline")),
            }
        elif kind == "orders" and seat in self.to_act(state) and state.phase == "orders":
            board, params = json.loads(state.board or "{}"), json.loads(state.params or "{}")
            orders = validate_orders_compiled(compile_board(board), params, clean.get("orders"))
            clean = {"type": kind, "orders": orders}
        return clean

    def leave(self, state: HexenhalmaState, seat: int) -> tuple[HexenhalmaState, list[Event]]:
        """A team may leave: from now on its witches starve. The GM cannot leave."""
        if not is_int(seat) or not 1 <= seat < state.seats or state.phase == "finished":
            return super().leave(state, seat)
        team = seat - 1
        gone = _put(state.gone, team, True)
        new = replace(state, gone=gone)
        if state.phase == "orders":
            new = replace(
                new,
                locked=_put(state.locked, team, True),
                orders=_put(state.orders, team, None),
            )
        return new, [{"type": "left", "seat": seat}]

    # -- resolution (called by the platform's worker) ----------------------
    def resolve_round(
        self, state: HexenhalmaState
    ) -> tuple[HexenhalmaState, list[Event], list[Record]]:
        """Play every match of the open round; unlocked teams count as locked.

        Returns the new state, the events (``round_resolved``, maybe
        ``finished``) and one trace record per match for the platform to store.
        """
        if state.phase != "orders" or state.board is None or state.params is None:
            raise IllegalAction(gettext_noop("No round is open."))
        board, params = json.loads(state.board), json.loads(state.params)
        cb = compile_board(board)
        witches = params["witches"]
        plans: dict[int, tuple[list[Plan] | None, list[Plan] | None]] = {}
        for seat in state.teams:
            text = state.orders[seat - 1]
            if text is None:
                plans[seat] = (None, None)
            else:
                parsed = parse_orders(json.loads(text), witches)
                plans[seat] = (compile_plans(cb, parsed, 0), compile_plans(cb, parsed, 1))
        matches: list[Match] = []
        records: list[Record] = []
        summary: list[dict[str, Any]] = []
        pairs = pairings(list(state.teams))
        for m, (a, b) in enumerate(pairs):
            seed = draw(state.seed, state.counter + m, 1 << 62)
            result = run_match(
                cb,
                params["max_steps"],
                params["tiredness"],
                witches,
                plans[a][0],
                plans[b][1],
                seed,
            )
            fates = result["witches"]
            score = [sum(f["fate"] == "goal" for f in side) for side in fates]
            matches.append((a, b, score[0], score[1]))
            points = [2, 0] if score[0] > score[1] else [0, 2] if score[0] < score[1] else [1, 1]
            summary.append(
                {"match": m, "teams": [a, b], "score": score, "points": points, "fates": fates}
            )
            records.append(
                {
                    "round": state.round,
                    "match": m,
                    "teams": [a, b],
                    "score": score,
                    "fates": fates,
                    "board": board,
                    "params": params,
                    "trace": result["trace"],
                }
            )
        done = state.rounds > 0 and state.round >= state.rounds
        new = replace(
            state,
            counter=state.counter + len(pairs),
            phase="finished" if done else "waiting",
            orders=(None,) * (state.seats - 1),
            locked=(False,) * (state.seats - 1),
            results=(*state.results, tuple(matches)),
        )
        events: list[Event] = [
            {
                "type": "round_resolved",
                "round": state.round,
                "matches": summary,
                "standings": standings(new),
            }
        ]
        if done:
            events.append(self._finished_event(new))
        return new, events, records

    # -- reading ---------------------------------------------------------
    def outcome(self, state: HexenhalmaState) -> Outcome | None:
        if state.phase != "finished":
            return None
        table = standings(state)
        best = (table[0]["goals"], table[0]["points"])
        winners = sorted(r["seat"] for r in table if (r["goals"], r["points"]) == best)
        reason = REASON_FINISHED if state.finished_by_gm else REASON_ROUNDS
        return {"winners": winners, "draw": len(winners) > 1, "reason": reason}

    def _finished_event(self, state: HexenhalmaState) -> Event:
        result: Outcome | dict[str, Any] = self.outcome(state) or {}
        return {"type": "finished", **result, "standings": standings(state)}

    def view(self, state: HexenhalmaState, seat: int | None) -> dict[str, Any]:
        board = json.loads(state.board) if state.board else None
        if board is not None:
            board["goals"] = goals_of(board)
        phase = state.phase
        if phase == "orders" and all(state.locked):
            phase = "resolving"
        out: dict[str, Any] = {
            "seat": seat,
            "seat_names": self.seat_names(state.seats),
            "teams": list(state.teams),
            "phase": phase,
            "round": state.round,
            "rounds": state.rounds,
            "board": board,
            "params": json.loads(state.params) if state.params else None,
            "deadline": state.deadline,
            "to_act": self.to_act(state),
            "locked": [s for s in state.teams if state.locked[s - 1]]
            if state.phase == "orders"
            else [],
            "gone": [s for s in state.teams if state.gone[s - 1]],
            "results": [
                {
                    "round": n,
                    "matches": [{"teams": [a, b], "score": [ga, gb]} for a, b, ga, gb in matches],
                }
                for n, matches in enumerate(state.results, 1)
            ],
            "standings": standings(state),
            "outcome": self.outcome(state),
        }
        if seat == 0:
            out["submitted"] = [s for s in state.teams if state.orders[s - 1] is not None]
        elif is_int(seat) and 1 <= seat < state.seats:
            text = state.orders[seat - 1]
            out["my_orders"] = json.loads(text) if text else None
            out["my_locked"] = state.phase == "orders" and state.locked[seat - 1]
        return out

    def view_event(self, event: Event, seat: int | None) -> Event | None:
        """Orders stay with their team; others learn only that it submitted."""
        if event.get("type") != "orders":
            return event
        if seat is not None and seat == event.get("seat"):
            return event
        if seat is None:
            return None
        return {"type": "orders_submitted", "seat": event.get("seat"), "round": event.get("round")}

    def timeout_action(self, state: HexenhalmaState, seat: int) -> Action | None:
        """A team out of time locks what it has (no orders: its witches starve)."""
        if state.phase == "orders" and seat in self.to_act(state):
            return {"type": "lock"}
        return None

    def position_key(self, state: HexenhalmaState) -> str:
        return canonical(self.encode(state))

    def encode(self, state: HexenhalmaState) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "seed": state.seed,
            "counter": state.counter,
            "rounds": state.rounds,
            "round": state.round,
            "phase": state.phase,
            "board": state.board,
            "params": state.params,
            "deadline": state.deadline,
            "orders": list(state.orders),
            "locked": list(state.locked),
            "gone": list(state.gone),
            "results": [[list(m) for m in matches] for matches in state.results],
            "finished_by_gm": state.finished_by_gm,
        }

    def decode(self, data: dict[str, Any]) -> HexenhalmaState:
        return HexenhalmaState(
            seats=data["seats"],
            seed=data["seed"],
            counter=data["counter"],
            rounds=data["rounds"],
            round=data["round"],
            phase=data["phase"],
            board=data["board"],
            params=data["params"],
            deadline=data["deadline"],
            orders=tuple(data["orders"]),
            locked=tuple(data["locked"]),
            gone=tuple(data["gone"]),
            results=tuple(
                tuple((m[0], m[1], m[2], m[3]) for m in matches) for matches in data["results"]
            ),
            finished_by_gm=data["finished_by_gm"],
        )
