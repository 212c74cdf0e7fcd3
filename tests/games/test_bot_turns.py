"""A bot's turn reads as one turn (issue 29, item 4): the human-like pause is
paid once per turn, and the rest of a turn of many actions (Malefiz: a roll,
then the move) follows at once, without a pause or a poll. Before, every
action waited for the next poll and paid the pause again."""

from __future__ import annotations

import asyncio
import itertools
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from games.bots import decide
from games.bots.turns import decide_turn_or_report
from games.models import Event, Game
from games.realtime import bot_worker
from games.realtime.bot_worker import BotWorker
from games.rules import get_ruleset
from games.services import bots
from games.services.play import game_act
from lobby import services as lobby
from tests.db_threads import sync_to_async
from tests.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def malefiz_bot_to_act() -> tuple[int, bots.BotTurn]:
    """A Malefiz game against the easy bot, the person's actions played
    (randomly) until the bot is to act."""
    human = make_user()
    game = lobby.table_create(host=human, ruleset="malefiz", bot={"level": "easy"})
    rs, rng = get_ruleset("malefiz"), random.Random(7)
    while True:
        game.refresh_from_db()
        if 1 in game.to_act:
            break
        action = rs.random_action(rs.decode(game.state), 0, rng)
        game_act(game_id=game.pk, user=human, version=game.version, action=action)
    (turn,) = bots.bot_turns_due()
    return game.pk, turn


def bot_actions(game_id: int, since: int) -> list[int]:
    rows = Event.objects.filter(game_id=game_id, version__gt=since).order_by("version")
    return [seat for seat in rows.values_list("seat", flat=True)]


def bot_times(game_id: int, since: int) -> list:
    rows = Event.objects.filter(game_id=game_id, version__gt=since).order_by("version")
    return list(rows.values_list("created", flat=True))


def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


async def test_a_bot_turn_of_several_actions_pays_one_pause(settings, monkeypatch):
    settings.BOT_DELAY_MIN = settings.BOT_DELAY_MAX = 0.4
    pauses: list[int] = []
    real_pause = bot_worker.pause_for

    def counted(turn: bots.BotTurn) -> float:
        pauses.append(turn.version)
        return real_pause(turn)

    monkeypatch.setattr(bot_worker, "pause_for", counted)
    game_id, turn = await sync_to_async(malefiz_bot_to_act)()
    await asyncio.wait_for(BotWorker().take(turn), timeout=60)
    seats = await sync_to_async(bot_actions)(game_id, turn.version)
    game = await sync_to_async(game_row)(game_id)
    assert len(seats) >= 2 and set(seats) == {1}, seats  # the roll and the move (or pass)
    assert pauses == [turn.version]  # one pause for the whole turn
    times = await sync_to_async(bot_times)(game_id, turn.version)
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(times)]
    assert max(gaps) < 0.4, gaps  # no pause, no poll between a turn's actions
    assert 0 in game.to_act or game.status != Game.Status.ACTIVE  # the person's turn again


async def test_two_bots_in_a_row_pay_one_pause_each(settings, monkeypatch):
    settings.BOT_DELAY_MIN = settings.BOT_DELAY_MAX = 0.05
    seats_paused: list[int] = []
    enough = asyncio.Event()
    real_pause = bot_worker.pause_for

    def counted(turn: bots.BotTurn) -> float:
        seats_paused.append(turn.seat)
        if len(seats_paused) >= 4:  # a few turns of bots in a row
            enough.set()
        return real_pause(turn)

    monkeypatch.setattr(bot_worker, "pause_for", counted)

    def three_seats() -> bots.BotTurn:
        staff = make_user(staff=True)
        lobby.table_create(
            host=staff,
            ruleset="malefiz",
            seat_count=3,
            bot={"levels": ["easy", "medium", "strong"]},
        )
        return bots.bot_turns_due()[0]

    turn = await sync_to_async(three_seats)()
    worker = BotWorker()
    task = asyncio.ensure_future(worker.take(turn))
    await asyncio.wait_for(enough.wait(), timeout=60)
    worker.stopping.set()
    await asyncio.wait_for(task, timeout=60)
    seats = await sync_to_async(bot_actions)(turn.game_id, turn.version)
    turns = [s for i, s in enumerate(seats) if i == 0 or seats[i - 1] != s]
    assert len(seats) > len(turns)  # turns of more than one action
    assert seats_paused[: len(turns)] == turns[: len(seats_paused)]


class CountingPool(ThreadPoolExecutor):
    """The bot processes, stood in for by a thread: counts the round trips."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.round_trips = 0

    def submit(self, *args, **kwargs):  # type: ignore[override]
        self.round_trips += 1
        return super().submit(*args, **kwargs)


def idiotenspiel_bot_to_move() -> bots.BotTurn:
    """An Idiotenspiel game against the easy bot (no sandglass), played (the
    person randomly, the bot action by action) until the bot's movement turn."""
    human = make_user()
    game = lobby.table_create(
        host=human, ruleset="idiotenspiel", options={"sandglass": 0}, bot={"level": "easy"}
    )
    rs, rng = get_ruleset("idiotenspiel"), random.Random(3)
    while True:
        game.refresh_from_db()
        state = rs.decode(game.state)
        if 1 in game.to_act and state.phase == "move":
            (turn,) = bots.bot_turns_due()
            return turn
        if 1 in game.to_act:
            bots.play_due_bots()
            continue
        action = rs.random_action(state, 0, rng)
        game_act(game_id=game.pk, user=human, version=game.version, action=action)


async def test_an_idiotenspiel_turn_is_one_pause_and_one_round_trip(settings, monkeypatch):
    """A movement turn of many unit moves: one pause and one round trip to the
    bot processes (before: one round trip per action, each with a claim and a
    look-up of its own, 39 s for a turn on a busy machine)."""
    settings.BOT_DELAY_MIN = settings.BOT_DELAY_MAX = 0.05
    pauses: list[int] = []
    real_pause = bot_worker.pause_for

    def counted(turn: bots.BotTurn) -> float:
        pauses.append(turn.version)
        return real_pause(turn)

    monkeypatch.setattr(bot_worker, "pause_for", counted)
    pool = CountingPool()
    monkeypatch.setattr(bot_worker.thinkers, "pool", pool)
    turn = await sync_to_async(idiotenspiel_bot_to_move)()
    try:
        await asyncio.wait_for(BotWorker().take(turn), timeout=60)
    finally:
        pool.shutdown()
    seats = await sync_to_async(bot_actions)(turn.game_id, turn.version)
    first_run = list(itertools.takewhile(lambda s: s == 1, seats))
    assert len(first_run) >= 5, seats  # a turn of many unit moves
    assert pauses == [turn.version]
    assert pool.round_trips == 1


def test_a_turn_thought_in_one_go_is_the_same_as_action_by_action():
    """The bot processes' whole-turn answer holds the very actions the bot
    chooses when asked once per action (same blinded state, same seeds)."""
    rs = get_ruleset("idiotenspiel")
    state = rs.setup(rs.validate_options({}), 2, 11)
    rng, checked = random.Random(2), 0
    while rs.outcome(state) is None and checked < 3:
        seat = rs.to_act(state)[0]
        if seat == 0 or state.phase != "move":
            action = rs.random_action(state, seat, rng) if seat == 0 else None
            if action is None:
                action = decide("idiotenspiel", "strong", rs.encode(state), seat, 5)
            state, _ = rs.apply(state, seat, action)
            continue
        version = 100 + checked
        answer = decide_turn_or_report(
            "idiotenspiel", "strong", rs.encode(state), seat, 42, version, 1e9
        )
        one_by_one, s = [], state
        for k, _ in enumerate(answer["actions"]):
            seed = bots.bot_turn_seed(42, version=version + k, seat=seat)
            one_by_one.append(decide("idiotenspiel", "strong", rs.encode(s), seat, seed))
            s, _ = rs.apply(s, seat, one_by_one[-1])
        assert answer["actions"] == one_by_one
        assert rs.to_act(s) != [seat] or rs.outcome(s) is not None  # the whole turn
        state, checked = s, checked + 1
    assert checked == 3
