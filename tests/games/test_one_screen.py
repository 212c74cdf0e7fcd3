"""Play at one screen: one signed-in person holds every seat a bot does not
and names its players; the holder acts for the seat to act, nobody else can,
and the screen's socket gets a seat's private view only while that seat is
to act (services, API, real websockets)."""

from __future__ import annotations

import json
import random

import pytest
from rest_framework.test import APIClient

from games.models import Game, Rating, Seat
from games.rules.hexenhalma.sample import random_orders
from games.selectors.tables import lobby_tables
from games.services.bots import play_due_bots
from games.services.play import game_act
from tests.db_threads import sync_to_async
from tests.factories import BLACK_MOVE, FIRST_MOVE, make_user
from tests.games.test_consumers import connect, receive

ONE_SCREEN = {"one_screen": True}


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def create(user, ruleset="halma", names=("Anna", "Ben"), **extra):
    return api(user).post(
        "/api/tables/",
        {"ruleset": ruleset, **ONE_SCREEN, "names": list(names), **extra},
        format="json",
    )


def version(game_id: int) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game_id)


@pytest.mark.django_db
def test_a_table_at_one_screen_starts_at_once_casual_with_its_names():
    holder = make_user()
    answer = create(holder)
    assert answer.status_code == 201, answer.content
    table = answer.json()
    assert table["status"] == "active"
    assert table["rated"] is False
    assert table["one_screen"] == ["Anna", "Ben"]
    assert table["clock"] == {"kind": "none"}
    game = Game.objects.get(pk=table["id"])
    assert game.rated is False and game.one_screen == {"names": ["Anna", "Ben"]}
    # Not in the lobby's list of live games (a family's game, named children).
    assert table["id"] not in [t["id"] for t in lobby_tables()]
    hello = api(holder).get(f"/api/games/{game.pk}/").json()
    assert hello["holds_screen"] is True and hello["seat"] == 0
    assert [s["player"] for s in hello["seats"]] == ["Anna", "Ben"]
    stranger = api(make_user()).get(f"/api/games/{game.pk}/").json()
    assert stranger["holds_screen"] is False and stranger["seat"] is None


@pytest.mark.django_db
def test_the_holder_acts_for_each_named_seat_and_a_stranger_cannot():
    holder, stranger = make_user(), make_user()
    game_id = create(holder).json()["id"]
    for user, move, code in ((stranger, FIRST_MOVE, "not_seated"),):
        refused = api(user).post(
            f"/api/games/{game_id}/act/",
            {"version": version(game_id), "action": move},
            format="json",
        )
        assert refused.status_code == 403 and refused.json()["code"] == code
    # Seat 0 (Anna), then seat 1 (Ben): the same account acts for both.
    game_act(game_id=game_id, user=holder, version=version(game_id), action=FIRST_MOVE)
    assert api(holder).get(f"/api/games/{game_id}/").json()["seat"] == 1
    game_act(game_id=game_id, user=holder, version=version(game_id), action=BLACK_MOVE)
    refused = api(stranger).post(
        f"/api/games/{game_id}/act/",
        {"version": version(game_id), "action": FIRST_MOVE},
        format="json",
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"
    assert version(game_id) == 3  # start, Anna's move, Ben's move
    # Only this game: the holder is a stranger at another table.
    other = api(make_user()).post(
        "/api/tables/", {"ruleset": "halma", "auto_start": False}, format="json"
    )
    assert other.status_code == 201
    # Resigning speaks for the seat to act (Anna's, now): the game ends, unrated.
    assert api(holder).post(f"/api/games/{game_id}/resign/").status_code == 200
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [1]
    assert not Rating.objects.filter(user=holder).exists()
    refused = api(holder).post(f"/api/games/{game_id}/rematch/")
    assert refused.status_code == 400 and refused.json()["code"] == "one_screen"


@pytest.mark.django_db
def test_bots_fill_seats_and_the_holder_never_acts_for_them():
    holder = make_user()
    answer = create(
        holder, ruleset="malefiz", names=["Anna", {"bot": "easy"}, "Ben", {"bot": "medium"}]
    )
    assert answer.status_code == 201, answer.content
    table = answer.json()
    assert table["one_screen"] == ["Anna", None, "Ben", None]
    assert table["bots"] == [1, 3] and table["rated"] is False
    game = Game.objects.get(pk=table["id"])
    assert game.bots == {"1": "easy", "3": "medium"}
    seats = dict(Seat.objects.filter(game=game).values_list("index", "user_id"))
    assert seats[0] == holder.pk and seats[2] is None
    # Play until a bot is to act: the holder is refused then, the bot moves.
    for _ in range(40):
        game.refresh_from_db()
        if any(str(s) in game.bots for s in game.to_act):
            break
        seat = game.one_screen_seat()
        assert seat in (0, 2)
        from games.rules import get_ruleset

        rs = get_ruleset("malefiz")
        action = rs.random_action(rs.decode(game.state), seat, random.Random(1))
        game_act(game_id=game.pk, user=holder, version=game.version, action=action)
    game.refresh_from_db()
    assert game.one_screen_seat() is None
    refused = api(holder).post(
        f"/api/games/{game.pk}/act/",
        {"version": game.version, "action": {"type": "roll"}},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "not_your_turn"
    assert play_due_bots() >= 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"names": ["Anna"]}, 400, "bad_request"),  # two named players at least
        ({"names": ["Anna", "anna"]}, 400, "bad_name"),
        ({"names": ["Anna", ""]}, 400, "bad_name"),
        ({"names": ["Anna", "x" * 21]}, 400, "bad_name"),
        ({"names": ["Anna", 7]}, 400, "bad_name"),
        ({"names": "Anna,Ben"}, 400, "bad_request"),
        ({"names": ["Anna", "Ben", "Cleo"]}, 400, "bad_request"),  # Halma: two seats
        ({"names": ["Anna", "Ben"], "seat_count": 3}, 400, "bad_request"),
        ({"names": ["Anna", "Ben"], "rated": True}, 400, "bad_request"),
        ({"names": ["Anna", "Ben"], "bot": {"level": "easy"}}, 400, "bad_request"),
        ({"names": ["Anna", "Ben"], "clock": {"kind": "realtime", "base": 60}}, 400, "bad_clock"),
        ({"names": ["Anna", {"bot": "godlike"}, "Ben"], "ruleset": "malefiz"}, 400, "bad_bot"),
        ({"names": ["Anna", "Ben"], "one_screen": "yes"}, 400, "bad_request"),
    ],
)
def test_bad_tables_at_one_screen_are_refused_and_change_nothing(body, status, code):
    holder = make_user()
    answer = api(holder).post(
        "/api/tables/", {"ruleset": "halma", **ONE_SCREEN, **body}, format="json"
    )
    assert answer.status_code == status, answer.content
    assert answer.json()["code"] == code
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_guests_and_visitors_cannot_hold_a_screen():
    assert create(None).status_code in (401, 403)
    guest = api()
    assert guest.post("/accounts/guest/", {"next": "/"}).status_code == 302
    answer = guest.post(
        "/api/tables/", {"ruleset": "halma", **ONE_SCREEN, "names": ["A", "B"]}, format="json"
    )
    assert answer.status_code == 403 and answer.json()["code"] == "guest"
    assert not Game.objects.exists()


# -- the socket path --------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_the_holder_plays_both_seats_over_one_socket_and_a_stranger_is_refused():
    holder, stranger = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    game_id = (await sync_to_async(create)(holder)).json()["id"]
    path = f"/ws/game/{game_id}/"
    sock, other = await connect(path, holder), await connect(path, stranger)
    hello = await receive(sock, "hello")
    assert hello["seat"] == 0 and hello["holds_screen"] is True
    assert (await receive(other, "hello"))["seat"] is None
    await sock.send_to(
        text_data=json.dumps({"type": "act", "game": game_id, "version": 1, "action": FIRST_MOVE})
    )
    # The turn passed to Ben: the screen starts afresh as seat 1.
    hello = await receive(sock, "hello")
    assert hello["seat"] == 1 and hello["state"]["version"] == 2
    assert hello["state"]["legal"], "Ben's legal moves come with his seat"
    await other.send_to(
        text_data=json.dumps({"type": "act", "game": game_id, "version": 2, "action": BLACK_MOVE})
    )
    refused = await receive(other, "error")
    assert refused["code"] == "not_seated"
    await sock.send_to(
        text_data=json.dumps({"type": "act", "game": game_id, "version": 2, "action": BLACK_MOVE})
    )
    hello = await receive(sock, "hello")
    assert hello["seat"] == 0 and hello["state"]["version"] == 3
    assert await sync_to_async(version)(game_id) == 3
    await sock.disconnect()
    await other.disconnect()


# -- hidden information -----------------------------------------------------


def _hexenhalma(holder) -> int:
    answer = create(
        holder, ruleset="hexenhalma", names=[{"bot": "easy"}, "Anna", "Ben"], options={"rounds": 1}
    )
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    assert play_due_bots() >= 1  # the game master (a bot) opens the round
    game = Game.objects.get(pk=game_id)
    assert game.to_act == [1, 2] and game.one_screen_seat() == 1
    return game_id


def _orders(game_id: int) -> dict:
    """Random valid orders for team 1 on the board the game master opened."""
    from games.rules import get_ruleset

    rs = get_ruleset("hexenhalma")
    state = rs.decode(Game.objects.get(pk=game_id).state)
    board, params = json.loads(state.board), json.loads(state.params)
    return {"type": "orders", "orders": random_orders(board, params, random.Random(7))}


@pytest.mark.django_db(transaction=True)
async def test_a_teams_orders_never_reach_the_screen_once_the_next_team_is_to_act():
    holder = await sync_to_async(make_user)()
    game_id = await sync_to_async(_hexenhalma)(holder)
    sock = await connect(f"/ws/game/{game_id}/", holder)
    hello = await receive(sock, "hello")
    assert hello["seat"] == 1
    orders = await sync_to_async(_orders)(game_id)
    v = hello["state"]["version"]
    await sock.send_to(
        text_data=json.dumps({"type": "act", "game": game_id, "version": v, "action": orders})
    )
    assert (await receive(sock, "ack"))["version"] == v + 1
    mine = await receive(sock, "event")  # Anna sees her own orders while she is to act
    secret = json.dumps(orders["orders"][0]["steps"])
    assert secret in json.dumps(mine), "the check below would see them"
    await sock.send_to(
        text_data=json.dumps(
            {"type": "act", "game": game_id, "version": v, "action": {"type": "lock"}}
        )
    )
    refused = await receive(sock, "error")  # a move sent twice: stale, never Ben's
    assert refused["code"] == "stale_version"
    await sock.send_to(
        text_data=json.dumps(
            {"type": "act", "game": game_id, "version": v + 1, "action": {"type": "lock"}}
        )
    )
    # Everything the screen gets from now on is Ben's, and holds nothing of Anna's orders.
    frames = []
    while True:
        frame = json.loads(await sock.receive_from(timeout=3))
        frames.append(frame)
        if frame["type"] == "hello":
            break
    assert frames[-1]["seat"] == 2
    for frame in frames:
        assert secret not in json.dumps(frame), frame["type"]
    await sock.disconnect()


@pytest.mark.django_db
def test_left_out_of_tv_player_pages_and_finished_games_counts(settings):
    from games.selectors import players, tv
    from lobby.models import Tournament
    from lobby.tournaments.creation import _refuse_without_games
    from lobby.tournaments.internal.eligibility import ineligible

    holder, watcher = make_user(), make_user()
    running = create(holder).json()["id"]
    assert running not in [c.game_id for c in tv.candidates(None)]
    finished = create(holder).json()["id"]
    assert api(holder).post(f"/api/games/{finished}/resign/").status_code == 200
    assert Game.objects.get(pk=finished).status == Game.Status.FINISHED
    assert players.recent_games(holder) == []
    assert api(watcher).get(f"/api/players/{holder.username}/").json()["recent_games"] == []
    tournament = Tournament(ruleset="halma", min_games=1)
    assert ineligible(tournament, holder.pk).code == "entry_condition"
    settings.TOURNAMENT_CREATOR_MIN_GAMES = 1
    with pytest.raises(Exception, match="Finish"):
        _refuse_without_games(holder)
    # The holder's own list (My games) keeps it.
    page = api(holder).get("/my/games/")
    assert page.status_code == 200 and f"/g/{finished}/" in page.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "names"),
    [
        ("halma", ["Anna", "Ben"]),
        ("malefiz", ["Anna", "Ben", {"bot": "easy"}, "Cleo"]),
        ("daschax", ["Anna", "Ben"]),
        ("hexenhalma", [{"bot": "medium"}, "Anna", "Ben"]),
        ("idiotenspiel", ["Anna", "Ben"]),
    ],
)
def test_every_game_plays_at_one_screen_with_the_view_of_the_seat_to_act(ruleset, names):
    from games.rules import get_ruleset

    holder = make_user()
    answer = create(holder, ruleset=ruleset, names=names)
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    rs, rng, acted = get_ruleset(ruleset), random.Random(3), 0
    for _ in range(30):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.one_screen_seat()
        hello = api(holder).get(f"/api/games/{game_id}/").json()
        state = rs.decode(game.state)
        assert hello["seat"] == seat
        assert hello["state"]["view"] == json.loads(json.dumps(rs.view(state, seat)))
        if seat is None:
            if not play_due_bots():
                break  # platform work (a Hexenhalma round resolving): not ours
            continue
        action = rs.random_action(state, seat, rng)
        game_act(game_id=game_id, user=holder, version=game.version, action=action)
        acted += 1
    assert acted >= 3
