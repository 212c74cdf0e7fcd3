"""Bot strength and speed (issue 18): every level against random play, the greedy
reference and the level below, checked against the bars.

  .venv/bin/python bench/bots.py                      # all: 40 games a pairing (Idiotenspiel 24)
  .venv/bin/python bench/bots.py --game halma --pairing strong-easy --games 10
  .venv/bin/python bench/bots.py --quick              # reduced budget, see below
  .venv/bin/python bench/bots.py --timing [--positions 24]
  .venv/bin/python bench/bots.py --sheriff             # strong's Sheriff, Rettet Maid Marian!

Game i of a pairing always has the same seed (every pairing plays the same
seeds), and sides alternate: the first player named takes the first seat in
even games, the second seat in odd ones. Games are spread over --workers
processes (2). Win rates carry Wilson 95% intervals; the Elo difference comes
from the score (a draw counts half), its interval from the score's Wilson
interval. A bar is checked on the win rate (draws are no wins); every game
also bars the score (a draw counting half) of strong against medium and of
medium against easy (at least 60 %, issue 50), and no game of those two
pairings may reach the action cap; Idiotenspiel also bars the draws of strong
against greedy (at most 15 %). A game that
passes its ply cap counts as a draw (the line says how many were capped, and
for Daschax what each left and its last captures: the action, who took, what
was left; a Daschax draw, by the house rule, says what was left too); the
seconds at the end of a line are the pairing's games' summed wall time. The
second line of a pairing gives the average length and each player's thinking:
mean ms per decision (with the median and 95th percentile over all its
decisions) and the most seconds spent in one game.

Hexenhalma is scored per match: a game is a campaign of four rounds whose game
master seat (0) is played by get_bot("hexenhalma", GM_LEVEL); the first team
"wins" a match when it brings more witches home. A third line per Hexenhalma
pairing counts the campaigns the first team is ahead in: witches home, then
rival witches put out, then steps sooner to bring every witch home. Idiotenspiel cycles through
Grundspiel on both maps and Rettet Maid Marian!, each played from both sides.
Timers are not simulated: a bot ends its own phases (--timing checks that a
movement phase fits). A seat that only ``may_act`` is asked only when nobody
is in ``to_act`` and no background work is due.

Reduced budget (--quick): 10 games a pairing (Idiotenspiel 6), only the
pairings that have a bar. With the full budget and real bots at their time
budgets expect hours; --quick is what fits in a coffee break.

--sheriff plays strong as the Sheriff in "Rettet Maid Marian!" against the
bench's greedy and against medium (8 games each, the bench's Marian seeds
with strong in the Sheriff's seat: game indices 5, 11, 17, ...): the bar is
wins and draws together at least half (issue 50), no game capped.

--timing plays seeded games of the easy bot against random play, samples
--positions decision points per game spread over the whole game (every phase),
and times get_bot(slug, level).choose on each: median and max per level against
the budgets (median easy 50 ms, medium 300 ms, strong 1 s; max 3 s), and for
Idiotenspiel whole movement phases played by the bot (at most 10 s).

It measures; it never fails a test run (the exit code is 0 either way).
"""

from __future__ import annotations

import argparse
import importlib
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import LEVELS, SLUGS, get_bot
from games.bots.base import Bot, RandomBot
from games.rules import get_ruleset
from games.rules.base import LongWork

PAIRINGS = [
    "easy-random",
    "medium-random",
    "strong-random",
    "strong-greedy",
    "medium-easy",
    "strong-medium",
    "strong-easy",
]
GREEDY_BAR = {"halma": 0.80, "daschax": 0.80, "idiotenspiel": 0.75, "malefiz": 0.65}
GAMES = {"idiotenspiel": 24}  # per pairing (both sides of every scenario, 4 times); others 40
QUICK_GAMES = {"idiotenspiel": 6}  # others 10
# Actions (background work not counted) before a game is called a draw.
PLY_CAP = {"halma": 1000, "daschax": 1200, "malefiz": 20000, "hexenhalma": 400}
PLY_CAP_DEFAULT = 20000
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "hexenhalma": [{"rounds": 4}],
    "idiotenspiel": [{}, {"map": "die_huegelkette"}, {"scenario": "marian"}],
}
GM_LEVEL = "easy"
SEED = 1_000_003
MEDIAN_BUDGET = {"easy": 0.05, "medium": 0.3, "strong": 1.0}
MAX_BUDGET = 3.0
PHASE_BUDGET = 10.0  # one Idiotenspiel movement phase
# Idiotenspiel (issue 30): draws at most this share against greedy, a strong
# score (a draw counts half) of at least this much against medium.
MAX_DRAWS = {("idiotenspiel", "strong-greedy"): 0.15}
# Issue 50: the levels in order in every game, by score (a draw counts half),
# and none of these games may reach the action cap.
SCORE_BAR = {
    (slug, pairing): 0.60 for slug in SLUGS for pairing in ("strong-medium", "medium-easy")
}
NO_CAP = frozenset(SCORE_BAR)
SHERIFF_GAMES = 8  # per opponent
SHERIFF_BAR = 0.5  # wins and draws of strong's Sheriff


def bar(slug: str, pairing: str) -> float | None:
    """The win rate the first player must reach, or None (printed only)."""
    if slug == "hexenhalma" and pairing in ("easy-random", "strong-easy"):
        return 0.75
    bars = {
        "easy-random": 0.90,
        "strong-greedy": GREEDY_BAR.get(slug),
        "strong-easy": 0.60 if slug == "malefiz" else 0.75,
        "medium-easy": 0.60,
    }
    return bars.get(pairing)


def greedy_missing(slug: str) -> str | None:
    """Why bench.greedy.<slug> cannot be used, or None when it can."""
    try:
        importlib.import_module(f"bench.greedy.{slug}").Greedy  # noqa: B018
    except ModuleNotFoundError as exc:
        if exc.name in (f"bench.greedy.{slug}", "bench.greedy"):
            return f"bench/greedy/{slug}.py is not there yet"
        return f"bench/greedy/{slug}.py does not import: {exc}"
    except Exception as exc:
        return f"bench/greedy/{slug}.py does not import: {exc!r}"
    return None


def player(slug: str, name: str) -> Bot:
    if name == "random":
        return RandomBot(slug)
    if name == "greedy":
        greedy: Bot = importlib.import_module(f"bench.greedy.{slug}").Greedy()
        return greedy
    return get_bot(slug, name)


def setup(slug: str, index: int) -> tuple[Any, Any, list[int]]:
    """Game ``index``'s ruleset, opening state and the players' seats (first, second)."""
    rs = get_ruleset(slug)
    variants = OPTIONS.get(slug, [{}])
    options = rs.validate_options(variants[(index // 2) % len(variants)])
    state = rs.setup(options, rs.min_seats, SEED + index)
    seats = [1, 2] if slug == "hexenhalma" else [0, 1]
    return rs, state, seats if index % 2 == 0 else seats[::-1]


def step(rs: Any, state: Any, bots: dict[int, Bot], ply: int, seed: int) -> tuple[Any, list[Any]]:
    """One action (or the platform's background work); returns the state and its records.

    Raises StopIteration when nobody can act. In a simultaneous phase the seats
    take turns (each bot sees only its own view, so the order is fair).
    """
    if isinstance(rs, LongWork) and rs.work_due(state):
        state, _events, records = rs.do_work(state)
        return state, records
    seats = rs.to_act(state) or [s for s in sorted(bots) if rs.may_act(state, s)]
    if not seats:
        raise StopIteration
    seat = seats[ply % len(seats)]
    action = bots[seat].choose(state, seat, seed=seed + ply)
    return rs.apply(state, seat, action)[0], []


class Clocked:
    """A player that sums its own thinking time (the figures per game).

    It makes a fresh bot for every decision, as the site does
    (games/services/bots.py): a bot that kept anything between decisions
    would play better here than it does there."""

    def __init__(self, slug: str, name: str) -> None:
        self.slug, self.name, self.seconds, self.decisions = slug, name, 0.0, 0
        self.times: list[float] = []  # seconds per decision

    def choose(self, state: Any, seat: int, *, seed: int) -> dict[str, Any]:
        start = time.perf_counter()
        try:
            return player(self.slug, self.name).choose(state, seat, seed=seed)
        finally:
            spent = time.perf_counter() - start
            self.seconds += spent
            self.decisions += 1
            self.times.append(spent)


def play(slug: str, pairing: str, index: int) -> dict[str, Any]:
    """Game ``index`` of ``pairing``: ``scores``, the first player's score per unit
    (a game, or a Hexenhalma match): 1 won, 0.5 drawn, 0 lost, None capped (a
    draw); ``actions`` (background work not counted), ``turns`` (Idiotenspiel's
    movement turns, else actions) and each player's thinking (seconds, decisions)."""
    rs, state, seats = setup(slug, index)
    names = pairing.split("-")
    clocks = [Clocked(slug, name) for name in names]
    bots: dict[int, Bot] = dict(zip(seats, clocks, strict=True))
    if slug == "hexenhalma":
        bots[0] = get_bot(slug, GM_LEVEL)
    records: list[Any] = []
    trades: list[tuple[int, str, str]] = []  # Daschax captures: action, left before, after
    ply = 0
    while ply < PLY_CAP.get(slug, PLY_CAP_DEFAULT):
        left = _left(slug, state, seats)
        try:
            state, new = step(rs, state, bots, ply, SEED + index)
        except StopIteration:
            break
        if _left(slug, state, seats) != left:
            trades.append((ply, left, _left(slug, state, seats)))
        records += new
        ply += not new
    game = {
        "actions": ply,
        "turns": getattr(state, "turn", ply),
        "thinking": [(c.seconds, c.decisions) for c in clocks],
        "times": [c.times for c in clocks],
    }
    if slug == "hexenhalma":
        scores = [_match_score(r, seats[0]) for r in records]
        return {**game, "scores": scores, "campaign": _campaign(records, seats[0])}
    out = rs.outcome(state)
    if out is None:
        game["left"] = _left(slug, state, seats) + _last_trades(trades, names)
        score: float | None = None
    elif out["draw"]:
        score = 0.5
        if slug == "daschax":  # a house-rule draw: what was left
            game["drawn"] = _left(slug, state, seats)
    else:
        score = 1.0 if seats[0] in out["winners"] else 0.0
    return {**game, "scores": [score]}


def _left(slug: str, state: Any, seats: list[int]) -> str:
    """What a capped game left on the board, the first player's side first
    (Daschax: piece sizes; others: nothing)."""
    if slug != "daschax":
        return ""
    sides = [
        "".join(sorted("SML"[p[1] - 1] for p in state.board if p is not None and p[0] == seat))
        for seat in seats
    ]
    return f"{sides[0] or '-'} vs {sides[1] or '-'}"


def _last_trades(trades: list[tuple[int, str, str]], names: list[str], count: int = 4) -> str:
    """A capped game's last captures: the action, who took, and what was left."""
    out = []
    for ply, before, after in trades[-count:]:
        lost = [
            len(x.strip("-")) - len(y.strip("-"))
            for x, y in zip(before.split(" vs "), after.split(" vs "), strict=True)
        ]
        taker = names[0] if lost[1] else names[1]
        out.append(f"{ply} {taker} -> {after}")
    return f" (captures: {'; '.join(out)})" if out else ""


def _match_score(record: dict[str, Any], seat: int) -> float:
    goals = dict(zip(record["teams"], record["score"], strict=True))
    mine, theirs = goals.pop(seat), next(iter(goals.values()))
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def _campaign(records: list[dict[str, Any]], seat: int) -> dict[str, int]:
    """The first team's campaign against the second (issue 30): its lead in
    witches home, in rival witches put out (banished off the board), and the
    steps the second team needed beyond it to bring every witch home (a round
    a team does not bring all home costs it the round's ``max_steps``); and
    ``ahead``: 1, 0 or -1 on those three in that order."""
    home = out = steps = 0
    for record in records:
        mine = record["teams"].index(seat)
        sides = record["fates"][mine], record["fates"][1 - mine]
        home += sum(f["fate"] == "goal" for f in sides[0]) - sum(
            f["fate"] == "goal" for f in sides[1]
        )
        out += sum(f["fate"] == "out" for f in sides[1]) - sum(f["fate"] == "out" for f in sides[0])
        limit = record["params"]["max_steps"]
        done = [
            max(f["step"] for f in side) if all(f["fate"] == "goal" for f in side) else limit
            for side in sides
        ]
        steps += done[1] - done[0]
    lead = (home, out, steps)
    return {
        "home": home,
        "out": out,
        "steps": steps,
        "ahead": (lead > (0, 0, 0)) - (lead < (0, 0, 0)),
    }


# -- statistics ---------------------------------------------------------------


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def verdict_of(
    slug: str, pairing: str, n: int, won: int, drawn: int, capped: int = 0
) -> tuple[str, bool | None]:
    """The bars of ``pairing``: the win rate, the score (draw half) of the levels
    against the one below and no capped game there, and for Idiotenspiel the
    draws against greedy."""
    checks: list[tuple[str, bool]] = []
    need = bar(slug, pairing)
    if need is not None:
        checks.append((f"win >= {need:.0%}", n > 0 and won / n >= need))
    most = MAX_DRAWS.get((slug, pairing))
    if most is not None:
        checks.append((f"draws <= {most:.0%}", n > 0 and drawn / n <= most))
    least = SCORE_BAR.get((slug, pairing))
    if least is not None:
        checks.append((f"score >= {least:.0%}", n > 0 and (won + drawn / 2) / n >= least))
    if (slug, pairing) in NO_CAP:
        checks.append(("0 capped", capped == 0))
    if not checks:
        return "", None
    ok = all(passed for _, passed in checks)
    return f"  bar {', '.join(c for c, _ in checks)}: {'PASS' if ok else 'FAIL'}", ok


def summary(slug: str, pairing: str, games: list[dict[str, Any]]) -> tuple[str, bool | None]:
    units = [u for g in games for u in g["scores"]]
    n, capped = len(units), units.count(None)
    won, drawn = units.count(1.0), units.count(0.5) + capped
    rate = won / n if n else 0.0
    lo, hi = wilson(won, n)
    score = (won + drawn / 2) / n if n else 0.5
    elo_lo, elo_hi = (elo(x) for x in wilson(won + drawn / 2, n))
    check, verdict = verdict_of(slug, pairing, n, won, drawn, capped)
    first, second = pairing.split("-")
    line = (
        f"{slug:<13}{first:>6} vs {second:<7}{n:>4} {'matches' if slug == 'hexenhalma' else 'games  '}"
        f"  won {won:>3} drawn {drawn:>3} lost {n - won - drawn:>3}"
        f"  win {rate:6.1%} [{lo:5.1%}, {hi:5.1%}]"
        f"  Elo {elo(score):+5.0f} [{elo_lo:+5.0f}, {elo_hi:+5.0f}]"
        f"{check}  ({sum(g['seconds'] for g in games):.0f} s{f', {capped} capped' if capped else ''})"
        f"\n{'':13}{_lengths(slug, games)}{_campaigns(games)}{_capped(games)}"
    )
    return line, verdict


def _capped(games: list[dict[str, Any]]) -> str:
    """Which games were capped and what they left (the first player's side first)."""
    left = [f"#{i} {g['left']}".rstrip() for i, g in enumerate(games) if g.get("left") is not None]
    drawn = [f"#{i} {g['drawn']}" for i, g in enumerate(games) if g.get("drawn")]
    return (f"\n{'':13}capped: {', '.join(left)}" if left else "") + (
        f"\n{'':13}drawn: {', '.join(drawn)}" if drawn else ""
    )


def _campaigns(games: list[dict[str, Any]]) -> str:
    """Hexenhalma: how often the first team is ahead over a whole campaign
    (witches home, then rival witches put out, then steps to bring all home)."""
    runs = [g["campaign"] for g in games if "campaign" in g]
    if not runs:
        return ""
    ahead = sum(r["ahead"] > 0 for r in runs)
    behind = sum(r["ahead"] < 0 for r in runs)
    n = len(runs)
    return (
        f"\n{'':13}campaigns ahead {ahead}/{n} ({ahead / n:.0%}), behind {behind};"
        f" per campaign {sum(r['home'] for r in runs) / n:+.1f} witches home,"
        f" {sum(r['out'] for r in runs) / n:+.1f} rival witches put out,"
        f" {sum(r['steps'] for r in runs) / n:+.1f} steps sooner all home"
    )


def _lengths(slug: str, games: list[dict[str, Any]]) -> str:
    """Average length, and each side's thinking: ms per decision and the most
    seconds in one game (the first player named first)."""
    n = max(len(games), 1)
    turns = f", {sum(g['turns'] for g in games) / n:.0f} turns" if slug == "idiotenspiel" else ""
    sides = []
    for k in (0, 1):
        spent = [g["thinking"][k] for g in games]
        secs, decisions = sum(s for s, _ in spent), sum(d for _, d in spent)
        per = 1000 * secs / decisions if decisions else 0.0
        times = sorted(t for g in games for t in g.get("times", [[], []])[k])
        pct = (
            f" (median {1000 * times[len(times) // 2]:.1f}, p95"
            f" {1000 * times[min(len(times) - 1, 95 * len(times) // 100)]:.0f} ms)"
            if times
            else ""
        )
        sides.append(
            f"{per:.1f} ms/decision{pct}, at most"
            f" {max((s for s, _ in spent), default=0):.1f} s a game"
        )
    return (
        f"length {sum(g['actions'] for g in games) / n:.0f} actions{turns};"
        f" thinking {sides[0]} (vs {sides[1]})"
    )


# -- strength -----------------------------------------------------------------


def _timed_play(slug: str, pairing: str, index: int) -> dict[str, Any]:
    start = time.perf_counter()
    game = play(slug, pairing, index)
    return {**game, "seconds": time.perf_counter() - start}


def strength(slugs: list[str], pairings: list[str], games: dict[str, int], workers: int) -> None:
    runs = []
    for slug in slugs:
        for pairing in pairings:
            why = greedy_missing(slug) if "greedy" in pairing else None
            if slug == "hexenhalma" and "greedy" in pairing:
                why = "no greedy reference for Hexenhalma"
            if why:
                print(f"{slug:<13}{pairing:>15}  skipped: {why}", flush=True)
            else:
                runs.append((slug, pairing))
    verdicts: list[tuple[str, str, bool]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {
            run: [pool.submit(_timed_play, *run, i) for i in range(games[run[0]])] for run in runs
        }
        for (slug, pairing), jobs in futures.items():
            line, verdict = summary(slug, pairing, [job.result() for job in jobs])
            print(line, flush=True)
            if verdict is not None:
                verdicts.append((slug, pairing, verdict))
    failed = [f"{s} {p}" for s, p, ok in verdicts if not ok]
    print(f"\nbars: {len(verdicts) - len(failed)} PASS, {len(failed)} FAIL", end="")
    print(f" ({', '.join(failed)})" if failed else "")


# -- the Sheriff of "Rettet Maid Marian!" (issue 50) ---------------------------


def sheriff_indices(games: int) -> list[int]:
    """Bench game indices of Rettet Maid Marian! with the first player (strong)
    in the Sheriff's seat: the third scenario (index // 2 % 3 == 2), odd index."""
    variants = len(OPTIONS["idiotenspiel"])
    return [2 * (variants * k + 2) + 1 for k in range(games)]


def sheriff(workers: int, games: int = SHERIFF_GAMES) -> None:
    verdicts = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        jobs = {
            rival: [
                pool.submit(_timed_play, "idiotenspiel", f"strong-{rival}", i)
                for i in sheriff_indices(games)
            ]
            for rival in ("greedy", "medium")
        }
        for rival, futures in jobs.items():
            results = [job.result() for job in futures]
            units = [g["scores"][0] for g in results]
            won, capped = units.count(1.0), units.count(None)
            held = won + units.count(0.5) + capped
            lo, hi = wilson(held, len(units))
            ok = held / len(units) >= SHERIFF_BAR and capped == 0
            verdicts.append(ok)
            print(
                f"sheriff strong vs {rival:<7}{len(units):>3} games  won {won:>2}"
                f" drawn {held - won:>2} lost {len(units) - held:>2}"
                f"  won or drawn {held / len(units):6.1%} [{lo:5.1%}, {hi:5.1%}]"
                f"  bar won or drawn >= {SHERIFF_BAR:.0%}, 0 capped: {'PASS' if ok else 'FAIL'}"
                f"{f' ({capped} capped)' if capped else ''}"
                f"\n{'':13}{_lengths('idiotenspiel', results)}",
                flush=True,
            )
    print(f"\nbars: {sum(verdicts)} PASS, {len(verdicts) - sum(verdicts)} FAIL")


# -- timing -------------------------------------------------------------------


def sample(slug: str, per_game: int, games: int = 2) -> list[tuple[dict[str, Any], int, bool]]:
    """Decision points (encoded state, seat, whether it opens a movement phase) of
    seeded games of the easy bot against random play, spread evenly over each
    game; Idiotenspiel adds a few movement-phase openings to time whole phases."""
    out = []
    for index in range(games):
        rs, state, seats = setup(slug, index)
        bots: dict[int, Bot] = {seats[0]: get_bot(slug, "easy"), seats[1]: RandomBot(slug)}
        if slug == "hexenhalma":
            bots[0] = get_bot(slug, GM_LEVEL)
        seen, starts, ply, before = [], [], 0, None
        while ply < PLY_CAP.get(slug, PLY_CAP_DEFAULT):
            for seat in rs.to_act(state):
                seen.append((state, seat))
                now = _phase(rs, state, seat)
                if now is not None and now[0] == "move" and now != before:
                    starts.append((state, seat))
                before = now
            try:
                state, new = step(rs, state, bots, ply, SEED + index)
            except StopIteration:
                break
            ply += not new
        out += [(*p, False) for p in _spread(seen, per_game)]
        out += [(*p, True) for p in _spread(starts, max(2, per_game // 8))]
    return [(get_ruleset(slug).encode(state), seat, opens) for state, seat, opens in out]


def _spread(items: list[Any], count: int) -> list[Any]:
    """``count`` items evenly spread over ``items`` (all of them when fewer)."""
    if len(items) <= count:
        return items
    return [items[k * len(items) // count] for k in range(count)]


def _phase(rs: Any, state: Any, seat: int) -> tuple[str, int] | None:
    """Idiotenspiel's phase and turn (a movement phase is timed whole); None elsewhere."""
    if rs.slug != "idiotenspiel":
        return None
    view = rs.view(state, seat)
    return view["phase"], view["turn"]


def time_level(slug: str, level: str, positions: list[Any]) -> tuple[list[float], list[float]]:
    """Seconds per decision over ``positions``; for Idiotenspiel also per whole
    movement phase (the bot moves until the phase is over)."""
    rs, bot = get_ruleset(slug), get_bot(slug, level)
    decisions, phases = [], []
    for n, (data, seat, opens_phase) in enumerate(positions):
        state = rs.decode(data)
        if opens_phase:
            phases.append(_movement_phase(rs, bot, state, seat, n))
            continue
        start = time.perf_counter()
        bot.choose(state, seat, seed=n)
        decisions.append(time.perf_counter() - start)
    return decisions, phases


def _movement_phase(rs: Any, bot: Bot, state: Any, seat: int, seed: int) -> float:
    turn, spent = rs.view(state, seat)["turn"], 0.0
    for ply in range(500):
        view = rs.view(state, seat)
        if view["phase"] not in ("move", "grace") or view["turn"] != turn:
            break
        start = time.perf_counter()
        action = bot.choose(state, seat, seed=seed + ply)
        spent += time.perf_counter() - start
        state = rs.apply(state, seat, action)[0]
    return spent


def timing(slugs: list[str], per_game: int, workers: int) -> None:
    positions = {slug: sample(slug, per_game) for slug in slugs}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        jobs = {
            (slug, level): pool.submit(time_level, slug, level, positions[slug])
            for slug in slugs
            for level in LEVELS
        }
        for (slug, level), job in jobs.items():
            decisions, phases = job.result()
            med, top = statistics.median(decisions), max(decisions)
            ok = med <= MEDIAN_BUDGET[level] and top <= MAX_BUDGET
            print(
                f"{slug:<13}{level:<7} median {med * 1000:8.1f} ms  max {top * 1000:8.1f} ms"
                f"  ({len(decisions)} positions)  budget {MEDIAN_BUDGET[level] * 1000:.0f} ms"
                f" / {MAX_BUDGET:.0f} s: {'PASS' if ok else 'FAIL'}",
                flush=True,
            )
            if phases:
                worst = max(phases)
                print(
                    f"{slug:<13}{level:<7} movement phase median {statistics.median(phases):.2f} s"
                    f"  max {worst:.2f} s  ({len(phases)} phases)  budget {PHASE_BUDGET:.0f} s:"
                    f" {'PASS' if worst <= PHASE_BUDGET else 'FAIL'}",
                    flush=True,
                )


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--game", action="append", choices=SLUGS, help="repeatable; default all")
    p.add_argument("--pairing", action="append", choices=PAIRINGS, help="repeatable; default all")
    p.add_argument("--games", type=int, help="games per pairing (default 40, Idiotenspiel 24)")
    p.add_argument("--quick", action="store_true", help="reduced budget (see the module doc)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--timing", action="store_true", help="time decisions instead")
    p.add_argument("--positions", type=int, default=24, help="--timing: positions per game")
    p.add_argument("--sheriff", action="store_true", help="strong's Sheriff (Maid Marian)")
    args = p.parse_args()
    if args.sheriff:
        sheriff(args.workers, args.games or SHERIFF_GAMES)
        return
    slugs = [s for s in SLUGS if s in (args.game or SLUGS)]
    if args.timing:
        timing(slugs, args.positions, args.workers)
        return
    pairings = [x for x in PAIRINGS if x in (args.pairing or PAIRINGS)]
    if args.quick and not args.pairing:
        pairings = [
            x for x in PAIRINGS if any(bar(s, x) is not None or (s, x) in SCORE_BAR for s in slugs)
        ]
    table = QUICK_GAMES if args.quick else GAMES
    default = 10 if args.quick else 40
    games = {s: args.games or table.get(s, default) for s in slugs}
    strength(slugs, pairings, games, args.workers)


if __name__ == "__main__":
    main()
