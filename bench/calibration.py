"""Bot win chances on self-play (issue 50): fit the constants, print the calibration.

  .venv/bin/python bench/calibration.py --game halma --games 30 --out /tmp/halma.jsonl
  .venv/bin/python bench/calibration.py --game halma --first 30 --games 30 --out /tmp/more.jsonl
  .venv/bin/python bench/calibration.py --fit /tmp/halma.jsonl /tmp/more.jsonl  # refit, tables

Plays self-play games (the levels per game in LEVEL_PAIRS, cycling; a few
random opening actions in some games so that the games differ) and, before
every decision a player makes, records the terms the win chances are made of
(games/bots/chance_terms.py: per seat in the race, or the chances outright
where the evaluation sees a forced end), the time ``win_chances`` took and,
once the game is over, its result as shares (a draw or a capped game: half
each). Hexenhalma records once per round (its terms change only between
rounds).

It then prints, per game, a calibration table: every (seat, chance given)
of every position (a "seat-position": a position counts once per seat in
the race) in buckets 0-10 % ... 90-100 %, with the positions, the
mean chance given and the share actually won, and the 60-80 % aggregate
(the bar: 55-85 % of those won). Two tables: with the constants in
games/bots/chances.py, and two-fold out of sample (the constants fitted on
the even games judge the odd ones and the other way round); ``--fit`` also
prints the constants fitted on all the games, to be copied into
``chances.WEIGHTS``. It measures; it never fails a test run.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import SEED, setup, step
from games.bots import SLUGS, get_bot
from games.bots.base import Bot, RandomBot
from games.bots.chances import WEIGHTS, from_terms, seat_count, shares, terms_of

# Per game, the (first seat, second seat) levels, cycling over the games.
LEVEL_PAIRS = {
    "halma": [
        ("strong", "medium"),
        ("medium", "strong"),
        ("strong", "strong"),
        ("medium", "medium"),
    ],
    "daschax": [("medium", "strong"), ("strong", "medium"), ("medium", "medium")],
    "malefiz": [("strong", "strong"), ("strong", "medium"), ("medium", "strong")],
    "idiotenspiel": [("strong", "strong"), ("strong", "medium"), ("medium", "strong")],
    "hexenhalma": [("strong", "medium"), ("medium", "strong"), ("strong", "strong")],
}
GAMES = {"halma": 30, "daschax": 20, "malefiz": 40, "idiotenspiel": 18, "hexenhalma": 12}
PLY_CAP = {"halma": 600, "daschax": 600, "malefiz": 4000, "idiotenspiel": 20000, "hexenhalma": 400}
OPENING = 6  # game i starts with i % OPENING random actions (the bots are deterministic)
GM_LEVEL = "easy"
BUCKETS = 10


def play(slug: str, index: int) -> list[dict[str, Any]]:
    """Game ``index``: one record per decision (terms, seconds), all with the result."""
    rs, state, seats = setup(slug, index)
    levels = LEVEL_PAIRS[slug][index % len(LEVEL_PAIRS[slug])]
    bots: dict[int, Bot] = {
        seat: get_bot(slug, level) for seat, level in zip(seats, levels, strict=True)
    }
    if slug == "hexenhalma":
        bots[0] = get_bot(slug, GM_LEVEL)
    opening = index % OPENING
    records: list[dict[str, Any]] = []
    last_key: Any = None
    for ply in range(PLY_CAP[slug]):
        actors = rs.to_act(state)
        seat = actors[0] if actors else seats[0]
        key = (state.round, state.phase) if slug == "hexenhalma" else ply
        if key != last_key and (slug != "hexenhalma" or state.phase == "waiting"):
            start = time.perf_counter()
            terms = terms_of(slug, state, seat)
            spent = time.perf_counter() - start
            if rs.outcome(state) is None:
                records.append({"game": index, "terms": _plain(terms), "seconds": spent})
            last_key = key
        players: dict[int, Bot] = {s: RandomBot(slug) for s in seats} if ply < opening else bots
        if slug == "hexenhalma":
            players = {**players, 0: bots[0]}
        try:
            state, _ = step(rs, state, players, ply, SEED + index)
        except StopIteration:
            break
    outcome = rs.outcome(state)
    n = seat_count(slug, state)
    result = (
        shares(outcome, n) if outcome else [1 / len(seats) if s in seats else 0.0 for s in range(n)]
    )
    for record in records:
        record["result"] = result
        record["seats"] = n
    return records


def _plain(terms: Any) -> Any:
    """Terms as JSON keeps them (a dict's seats become strings)."""
    return terms if isinstance(terms, list) else {str(s): list(t) for s, t in terms.items()}


def _terms(record: dict[str, Any]) -> Any:
    raw = record["terms"]
    return raw if isinstance(raw, list) else {int(s): tuple(t) for s, t in raw.items()}


# -- fitting: a conditional logit (softmax over the seats in the race) -----------------


RIDGE = 1.0  # keeps the weights finite where a few games separate perfectly


def fit(records: list[dict[str, Any]], size: int, rounds: int = 30) -> list[float]:
    """Weights maximising the likelihood of the results (shares as soft labels),
    less ``RIDGE`` / 2 times their squared length, by Newton's method."""
    rows = [(_terms(r), r["result"]) for r in records if isinstance(r["terms"], dict)]
    w = [0.0] * size
    for _ in range(rounds):
        grad = [RIDGE * x for x in w]
        hess = [[RIDGE * (i == j) for j in range(size)] for i in range(size)]
        for terms, result in rows:
            logits = {s: sum(a * b for a, b in zip(w, t, strict=True)) for s, t in terms.items()}
            top = max(logits.values())
            ex = {s: math.exp(v - top) for s, v in logits.items()}
            total = sum(ex.values())
            p = {s: e / total for s, e in ex.items()}
            mass = sum(result[s] for s in terms) or 1.0
            mean = [sum(p[s] * terms[s][k] for s in terms) for k in range(size)]
            for s, t in terms.items():
                y = result[s] / mass
                for i in range(size):
                    grad[i] += (p[s] - y) * t[i]
                    for j in range(size):
                        hess[i][j] += p[s] * t[i] * t[j]
            for i in range(size):
                for j in range(size):
                    hess[i][j] -= mean[i] * mean[j]
        step_ = solve(hess, grad)
        w = [a - b for a, b in zip(w, step_, strict=True)]
        if max(abs(x) for x in step_) < 1e-7:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gauss-Jordan elimination (a is small and positive definite)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


# -- the table -------------------------------------------------------------------------


def pairs(slug: str, records: list[dict[str, Any]], weights: Any) -> list[tuple[float, float]]:
    """(chance given, share won) for every seat of every position."""
    out = []
    for r in records:
        chances = from_terms(slug, _terms(r), r["seats"], weights)
        out += [(c, r["result"][s]) for s, c in enumerate(chances) if _in_race(r, s)]
    return out


def _in_race(record: dict[str, Any], seat: int) -> bool:
    terms = record["terms"]
    return isinstance(terms, list) or str(seat) in terms


def table(title: str, got: list[tuple[float, float]]) -> str:
    lines = [
        title,
        "| chance given | seat-positions | mean given | share won |",
        "|---|---|---|---|",
    ]
    for b in range(BUCKETS):
        low, high = b / BUCKETS, (b + 1) / BUCKETS
        inside = [(c, y) for c, y in got if low <= c < high or (b == BUCKETS - 1 and c == 1.0)]
        if inside:
            given = sum(c for c, _ in inside) / len(inside)
            won = sum(y for _, y in inside) / len(inside)
            lines.append(f"| {low:.0%}-{high:.0%} | {len(inside)} | {given:.1%} | {won:.1%} |")
        else:
            lines.append(f"| {low:.0%}-{high:.0%} | 0 | - | - |")
    band = [(c, y) for c, y in got if 0.6 <= c < 0.8]
    if band:
        won = sum(y for _, y in band) / len(band)
        verdict = "ok" if 0.55 <= won <= 0.85 else "OUT OF 55-85 %"
        lines.append(f"60-80 % given: {len(band)} seat-positions, {won:.1%} won ({verdict})")
    brier = sum((c - y) ** 2 for c, y in got) / max(len(got), 1)
    lines.append(f"Brier score {brier:.3f} over {len(got)} (seat, position) pairs")
    return "\n".join(lines)


def report(slug: str, records: list[dict[str, Any]]) -> None:
    games = len({r["game"] for r in records})
    size = next(
        (len(next(iter(r["terms"].values()))) for r in records if isinstance(r["terms"], dict)), 0
    )
    seconds = [r["seconds"] for r in records]
    print(f"\n## {slug}: {games} games, {len(records)} positions")
    if seconds:
        ordered = sorted(seconds)
        print(
            f"win_chances: mean {1000 * sum(seconds) / len(seconds):.1f} ms, "
            f"median {1000 * ordered[len(ordered) // 2]:.1f} ms, max {1000 * ordered[-1]:.1f} ms"
        )
    print(table(f"With chances.WEIGHTS[{slug!r}] = {WEIGHTS[slug]}", pairs(slug, records, None)))
    if size:
        folds = [[r for r in records if r["game"] % 2 == k] for k in (0, 1)]
        held: list[tuple[float, float]] = []
        for k in (0, 1):
            held += pairs(slug, folds[1 - k], fit(folds[k], size))
        print(table("Two-fold out of sample (fitted on the other half of the games)", held))
        weights = tuple(round(x, 4) for x in fit(records, size))
        print(f"Fitted on all: {slug!r}: {weights},")


def run(slug: str, first: int, games: int, workers: int) -> list[dict[str, Any]]:
    indices = range(first, first + games)
    if workers <= 1:
        return [r for i in indices for r in play(slug, i)]
    with ProcessPoolExecutor(workers) as pool:
        return [r for batch in pool.map(play, [slug] * games, indices) for r in batch]


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--game", action="append", choices=SLUGS, help="repeatable; default all")
    p.add_argument("--games", type=int, help="games per game (default: GAMES)")
    p.add_argument("--first", type=int, default=0, help="index of the first game (its seed)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", help="write the records here (JSON lines, one per position)")
    p.add_argument("--fit", nargs="+", help="read recorded files instead of playing")
    args = p.parse_args()
    if args.fit:
        records = [json.loads(line) for f in args.fit for line in Path(f).read_text().splitlines()]
        for slug in SLUGS:
            mine = [r for r in records if r.get("slug") == slug]
            if mine:
                report(slug, mine)
        return
    for slug in [s for s in SLUGS if s in (args.game or SLUGS)]:
        start = time.perf_counter()
        records = run(slug, args.first, args.games or GAMES[slug], args.workers)
        for r in records:
            r["slug"] = slug
        if args.out:
            with Path(args.out).open("a") as out:
                out.writelines(json.dumps(r) + "\n" for r in records)
        report(slug, records)
        print(f"({time.perf_counter() - start:.0f} s of play)")


if __name__ == "__main__":
    main()
