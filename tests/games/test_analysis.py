"""Analysis by the computer (ARCHITECTURE.md, "Analysis"): the judgements on
scripted games, the API's shapes, the 409, the daily limit, tokens, the
worker's fair queue, its hand-over after a process died, and what it pushes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import publish
from games.bots import get_bot
from games.bots import halma as hbot
from games.bots.analysis import analyse_ply, judgement, severity, summary
from games.bots.base import RandomBot
from games.models import Analysis, AnalysisRequest, Event, Game, RatingChange
from games.rules import get_ruleset
from games.services import analysis
from tests.accounts.test_api_tokens import bearer, new_token
from tests.factories import (
    client_for,
    every_seat_moves,
    make_user,
    random_plies_then_resign,
    started_game,
)
from tests.games.bots.test_daschax_bot import RS as DASCHAX
from tests.games.bots.test_daschax_bot import position

PLY_KEYS = {"version", "seat", "action", "eval", "best", "loss", "judgement", "luck"}
BAD = {"mistake", "blunder"}


# -- judgements on scripted games (pure) ---------------------------------------


def halma_backwards_game() -> list[dict]:
    """Halma: both sides race forwards (the medium bot) for ten plies, then
    Black walks backwards twice (its move that raises its distance most)."""
    rs, bot = get_ruleset("halma"), get_bot("halma", "medium")
    state = rs.setup(rs.default_options(), 2, 1)
    plies = []
    for ply in range(14):
        seat = state.to_move
        encoded = rs.encode(state)
        if seat == 1 and ply in (11, 13):
            action = max(
                rs.legal_actions(state, 1),
                key=lambda a: hbot.Position(rs.apply(rs.decode(encoded), 1, a)[0]).cost[1],
            )
        else:
            action = bot.choose(state, seat, seed=ply)
        thought = analyse_ply("halma", "strong", encoded, seat, action, 0)
        plies.append({"version": ply + 2, "seat": seat, "action": action, **thought})
        state, _ = rs.apply(state, seat, action)
    return plies


def test_walking_backwards_in_halma_is_a_mistake_and_racing_forwards_is_not():
    plies = halma_backwards_game()
    assert all(set(p) == PLY_KEYS for p in plies)
    backwards = [plies[11], plies[13]]
    # Every step back is a mistake or a blunder, the second too, although
    # by then the mover had only about 0.1 left to give away (judged by the
    # drop of the evaluation, games/bots/analysis.py).
    assert plies[12]["eval"][1] < 0.15, plies[12]
    assert all(p["judgement"] in BAD for p in backwards), backwards
    assert all(p["best"] != p["action"] for p in backwards)
    white = [p for p in plies if p["seat"] == 0]
    assert not [p for p in white if p["judgement"] in BAD]
    assert not [p for p in plies if p["judgement"] and p not in backwards]
    rows = summary(plies, 2)
    assert rows[0]["accuracy"] > rows[1]["accuracy"]
    assert rows[1]["inaccuracies"] + rows[1]["mistakes"] + rows[1]["blunders"] >= 2
    assert rows[0]["luck"] is None  # no dice in Halma


def test_a_judgement_is_by_the_drop_of_evaluation_not_only_of_win_chance():
    """From an even position the thresholds are the win chance lost (0.05 /
    0.10 / 0.20); the same drop of log-odds from a low chance is judged the
    same, although it loses less win chance; a ply that still wins clearly,
    or gives away less than 0.02, is not judged."""
    assert severity(0.5, 0.3) == pytest.approx(0.2)
    assert judgement(0.5, 0.44) == "inaccuracy"
    assert judgement(0.5, 0.39) == "mistake"
    assert judgement(0.5, 0.29) == "blunder"
    assert judgement(0.61, 0.4) == "blunder"  # never less than the win chance lost
    # 0.5 -> 0.16 and 0.1 -> 0.02 are about the same drop of the evaluation.
    assert severity(0.1, 0.02) == pytest.approx(severity(0.5, 0.16), abs=0.02)
    assert judgement(0.1, 0.02) == "blunder"
    assert judgement(0.9, 0.8) == "mistake"
    assert judgement(0.995, 0.975) is None  # still clearly winning
    assert judgement(0.012, 0.001) is None  # nothing much left to give away
    assert judgement(0.5, 0.5) is None


def test_a_daschax_piece_left_to_be_captured_for_nothing_is_a_blunder():
    state = position(
        [
            (4, 4, "M", 0, "S"),
            (0, 0, "S", 0, "N"),
            (1, 1, "L", 0, "N"),
            (2, 0, "S", 0, "N"),
            (4, 6, "L", 1, "S"),
            (9, 9, "S", 1, "S"),
            (8, 8, "M", 1, "S"),
        ]
    )
    encoded = DASCHAX.encode(state)
    # Black's large piece can take White's medium one: stepping it aside is
    # right, turning a small piece in the corner leaves it to be taken.
    careless = analyse_ply(
        "daschax", "strong", encoded, 0, {"type": "turn", "at": [0, 0], "steps": ["F"]}, 0
    )
    assert careless["judgement"] == "blunder"
    aside = {"type": "turn", "at": [4, 4], "steps": ["R", "F"]}
    assert analyse_ply("daschax", "strong", encoded, 0, aside, 0)["judgement"] is None


def test_a_roll_is_luck_not_a_decision():
    rs = get_ruleset("malefiz")
    state = rs.setup(rs.default_options(), 2, 3)
    seat = rs.to_act(state)[0]
    action = rs.legal_actions(state, seat)[0]
    assert action["type"] == "roll"
    thought = analyse_ply("malefiz", "strong", rs.encode(state), seat, action, 0)
    assert thought["best"] is None and thought["loss"] == 0 and thought["judgement"] is None
    assert isinstance(thought["luck"], float)


def strong_against_random(slug: str, plies_a_game: int) -> int:
    """Of 40 games of the strong bot against random play (seats alternating,
    fixed seeds), each game's first ``plies_a_game`` plies analysed at the
    strong level: in how many the strong side is the more accurate."""
    rs, strong, rnd = get_ruleset(slug), get_bot(slug, "strong"), RandomBot(slug)
    better = 0
    for game in range(40):
        state, plies, mine = rs.setup(rs.default_options(), 2, game), [], game % 2
        while len(plies) < plies_a_game and rs.outcome(state) is None:
            seat = rs.to_act(state)[0]
            action = (strong if seat == mine else rnd).choose(
                state, seat, seed=game * 100 + len(plies)
            )
            thought = analyse_ply(slug, "strong", rs.encode(state), seat, action, 0)
            plies.append({"seat": seat, **thought})
            state, _ = rs.apply(state, seat, action)
        rows = summary(plies, 2)
        better += rows[mine]["accuracy"] > rows[1 - mine]["accuracy"]
    return better


def test_the_strong_side_is_the_more_accurate_against_random_play_in_95_of_40_halma_games():
    """The issue's bar, on Halma: each game's first 8 plies (four moves a
    side; about 9 s of CPU in all). 40 of 40 when this was written."""
    assert strong_against_random("halma", 8) >= 38


# -- the service, the worker and the API ---------------------------------------

pytestmark_db = pytest.mark.django_db


def finished_game(moves: int = 4) -> Game:
    """A Halma game of ``moves`` random plies (at least each side's first), then White resigned."""
    game = every_seat_moves(started_game("halma"))
    return random_plies_then_resign(game, moves - 2, seed=game.pk)


def acts(game: Game) -> int:
    return Event.objects.filter(game=game, kind__in=("act", "timeout")).count()


@pytestmark_db
def test_asking_queues_once_the_worker_answers_and_everyone_shares_it():
    game = finished_game()
    asker, other = make_user(), make_user()
    first = client_for(asker).post(f"/api/games/{game.pk}/analysis/")
    assert first.status_code == 202
    assert first.json()["status"] == "queued" and first.json()["progress"] == 0
    assert client_for(other).post(f"/api/games/{game.pk}/analysis/").status_code == 202
    assert Analysis.objects.filter(game=game).count() == 1
    assert analysis.analyses_run() == 1
    done = APIClient().get(f"/api/games/{game.pk}/analysis/").json()
    assert done["status"] == "done" and done["progress"] == 1
    assert len(done["plies"]) == acts(game) and done["done"] == done["total"] == acts(game)
    assert all(set(p) == PLY_KEYS for p in done["plies"])
    assert all(len(p["eval"]) == 2 and 0 <= p["loss"] <= 1 for p in done["plies"])
    names = {s.user.username for s in game.seats.all()}
    assert set(done["summary"]) == names
    for row in done["summary"].values():
        assert set(row) >= {"accuracy", "inaccuracies", "mistakes", "blunders"}
        assert 0 <= row["accuracy"] <= 100
    again = client_for(make_user()).post(f"/api/games/{game.pk}/analysis/")
    assert again.status_code == 200 and again.json()["status"] == "done"
    assert analysis.analyses_run() == 0  # stored once: nothing queued again


@pytestmark_db
def test_nothing_asked_for_is_status_none():
    game = finished_game(2)
    answer = APIClient().get(f"/api/games/{game.pk}/analysis/").json()
    assert answer["status"] == "none" and answer["plies"] == [] and answer["summary"] == {}


@pytestmark_db
def test_a_running_game_is_409_and_nothing_is_queued():
    game = started_game("halma")
    answer = client_for(game.seats.get(index=1).user).post(f"/api/games/{game.pk}/analysis/")
    assert answer.status_code == 409 and answer.json()["code"] == "game_running"
    assert not Analysis.objects.exists()


@pytestmark_db
def test_no_game_is_404_and_a_visitor_may_not_ask():
    assert client_for(make_user()).post("/api/games/999999/analysis/").status_code == 404
    game = finished_game(2)
    assert APIClient().post(f"/api/games/{game.pk}/analysis/").status_code in (401, 403)
    assert not Analysis.objects.exists()


@pytestmark_db
def test_bad_asks_are_a_clear_4xx_and_change_nothing():
    """Probes of the endpoint: a 3 MB body, a NUL in the path, wrong methods,
    no login, a token without the read scope, a running game, no game."""
    game, running = finished_game(2), started_game("halma")
    user = make_user()
    me = client_for(user)
    url = f"/api/games/{game.pk}/analysis/"
    big = me.post(url, "x" * (3 * 1024 * 1024), content_type="application/json")
    assert big.status_code == 413 and big.json()["code"] == "bad_request"
    assert me.post(f"/api/games/{game.pk}%00/analysis/").status_code == 404
    assert me.post(f"/api/games/{game.pk}/analysis/%00").status_code == 404
    assert me.get("/api/games/%00/analysis/").status_code == 404
    for method in (me.put, me.patch, me.delete):
        wrong = method(url)
        assert wrong.status_code == 405 and wrong.json()["code"], wrong.content
    anonymous = APIClient().post(url)
    assert anonymous.status_code in (401, 403) and anonymous.json()["code"]
    chat_only = bearer(new_token(user, ["play", "challenge"])["token"])
    refused = chat_only.post(url)
    assert refused.status_code == 403 and refused.json()["code"] == "scope"
    assert chat_only.get(url).status_code == 403
    busy = me.post(f"/api/games/{running.pk}/analysis/")
    assert busy.status_code == 409 and busy.json()["code"] == "game_running"
    gone = me.post("/api/games/999999/analysis/")
    assert gone.status_code == 404 and gone.json()["code"] == "not_found"
    assert me.get("/api/games/999999/analysis/").status_code == 404
    assert not Analysis.objects.exists() and not AnalysisRequest.objects.exists()


@pytestmark_db
def test_each_user_asks_for_a_bounded_number_a_day(settings):
    settings.ANALYSIS_PER_DAY = 1
    user = make_user()
    first, second = finished_game(2), finished_game(2)
    assert client_for(user).post(f"/api/games/{first.pk}/analysis/").status_code == 202
    refused = client_for(user).post(f"/api/games/{second.pk}/analysis/")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert not Analysis.objects.filter(game=second).exists()
    # Joining an analysis someone else asked for costs nothing.
    assert client_for(make_user()).post(f"/api/games/{second.pk}/analysis/").status_code == 202
    assert client_for(user).post(f"/api/games/{second.pk}/analysis/").status_code == 202


@pytestmark_db
def test_a_read_token_asks_and_reads_a_play_token_does_not():
    game, user = finished_game(2), make_user()
    reader = bearer(new_token(user, ["read"])["token"])
    assert reader.post(f"/api/games/{game.pk}/analysis/").status_code == 202
    assert reader.get(f"/api/games/{game.pk}/analysis/").json()["status"] == "queued"
    player = bearer(new_token(user, ["play"], name="p")["token"])
    assert player.post(f"/api/games/{game.pk}/analysis/").status_code == 403


@pytestmark_db
def test_the_queue_serves_everyone_s_first_before_anyone_s_second():
    eager, patient = make_user(), make_user()
    games = [finished_game(2) for _ in range(3)]
    for game in games[:2]:
        client_for(eager).post(f"/api/games/{game.pk}/analysis/")
    client_for(patient).post(f"/api/games/{games[2].pk}/analysis/")
    order = []
    while analysis.analyses_run():
        order.append(Analysis.objects.filter(finished__isnull=False).latest("finished").game_id)
    assert order == [games[0].pk, games[2].pk, games[1].pk]


@pytestmark_db
def test_a_worker_that_died_leaves_the_rest_to_another():
    game = finished_game()
    client_for(make_user()).post(f"/api/games/{game.pk}/analysis/")
    calls = []

    def dies_after_two(*args):
        if len(calls) == 2:
            raise KeyboardInterrupt  # the process dies: nothing of it runs on
        calls.append(args)
        return analyse_ply(*args)

    with pytest.raises(KeyboardInterrupt):
        analysis.analysis_run(game_id=game.pk, think=dies_after_two)
    row = Analysis.objects.get(game=game)
    assert row.status == "running" and len(row.plies) == 2
    assert analysis.analyses_run() == 0  # its lease still holds
    Analysis.objects.filter(pk=row.pk).update(due=timezone.now() - timedelta(seconds=1))
    thought = []
    assert analysis.analyses_run(think=lambda *a: thought.append(a) or analyse_ply(*a)) == 1
    row.refresh_from_db()
    assert row.status == "done" and len(thought) == acts(game) - 2
    versions = [p["version"] for p in row.plies]
    assert versions == sorted(set(versions)) and len(versions) == acts(game)


@pytestmark_db
def test_progress_goes_to_the_game_and_the_end_to_the_askers_stream():
    game = finished_game(2)
    asker = make_user()
    client_for(asker).post(f"/api/games/{game.pk}/analysis/")
    sent: list[tuple[str, dict]] = []
    with publish.sending_with(lambda group, message: sent.append((group, message))):
        assert analysis.analyses_run() == 1
    steps = [m["analysis"] for g, m in sent if m["type"] == "game.analysis"]
    assert all(g == publish.game_group(game.pk) for g, m in sent if m["type"] == "game.analysis")
    assert [s["done"] for s in steps] == [*range(1, acts(game) + 1), acts(game)]
    assert steps[0]["ply"]["version"] and steps[-1]["status"] == "done"
    told = [(g, m) for g, m in sent if m["type"] == "account.analysis"]
    assert told == [
        (publish.account_group(asker.pk), {"type": "account.analysis", "game": {"id": game.pk}})
    ]


@pytestmark_db
def test_players_who_opted_in_have_their_rated_games_analysed(monkeypatch):
    game = finished_game()
    changes = RatingChange.objects.filter(game=game)
    assert changes.count() == 2  # rated: each player's rating changed
    keen = changes.get(user__seats__game=game, user__seats__index=1).user
    keen.analyse_rated_games = True
    keen.save(update_fields=["analyse_rated_games"])
    monkeypatch.setattr(analysis, "_auto_checked", [])
    assert analysis.analyses_run() == 1  # queued for the keen player, then run
    row = Analysis.objects.get(game=game)
    assert row.status == "done"
    assert list(row.requests.values_list("user", flat=True)) == [keen.pk]
    assert analysis.analyses_queue_rated(since=timezone.now() - timedelta(hours=1)) == 0


@pytestmark_db
def test_nobody_opted_in_nothing_is_queued(monkeypatch):
    finished_game()
    monkeypatch.setattr(analysis, "_auto_checked", [])
    assert analysis.analyses_run() == 0
    assert not Analysis.objects.exists()
