"""Continue from here against the computer (issue 51): a casual game from a
position of a finished game, made by the one factory, the person in the
mover's seat (or the one chosen) and bots in the others; nothing of the old
game's dice carries over; bad asks are a clear 4xx and change nothing."""

from __future__ import annotations

import random

import pytest
from django.test import override_settings

from games.models import Event, Game
from games.rules import get_ruleset
from games.rules.base import SECRET_KEYS
from games.selectors.walk import step
from games.services.analysis import analysis_run
from games.services.bots import play_due_bots
from games.services.endings import game_resign
from games.services.play import game_act
from tests.accounts.test_api_tokens import bearer, new_token
from tests.factories import client_for, make_user, random_plies_then_resign, started_game

pytestmark = pytest.mark.django_db


def played(ruleset: str, plies: int, **options) -> Game:
    """A game of ``plies`` random actions, then seat 0 resigned: finished."""
    return random_plies_then_resign(started_game(ruleset, **options), plies, seed=7)


def state_after(game: Game, version: int):
    rs = get_ruleset(game.ruleset)
    state = rs.setup(game.options, game.seat_count, game.seed)
    for kind, seat, action in (
        Event.objects.filter(game=game, version__lte=version)
        .order_by("version")
        .values_list("kind", "seat", "action")
    ):
        state = step(rs, state, kind, seat, action)
    return state


def public(encoded: dict) -> dict:
    return {k: v for k, v in encoded.items() if k not in SECRET_KEYS}


@pytest.mark.parametrize("ruleset", ["halma", "daschax", "malefiz"])
def test_a_position_goes_on_against_the_computer_in_the_mover_s_seat(ruleset):
    old = played(ruleset, 24)
    person = make_user()
    version = old.version - 5
    rs = get_ruleset(ruleset)
    there = state_after(old, version)
    mover = rs.to_act(there)[0]
    answer = client_for(person).post(
        f"/api/games/{old.pk}/continue/", {"version": version}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    new = Game.objects.get(pk=answer.json()["id"])
    assert new.status == Game.Status.ACTIVE and new.rated is False and new.pk != old.pk
    assert new.seats.get(index=mover).user == person
    assert new.bots == {str(s): "strong" for s in range(new.seat_count) if s != mover}
    assert new.opening["game"] == old.pk and new.opening["version"] == version
    assert new.to_act == rs.to_act(there)
    # The position is the old one; the dice are the new game's own.
    assert public(new.state) == public(rs.encode(there))
    assert not set(new.opening["state"]) & SECRET_KEYS
    if set(rs.encode(there)) & SECRET_KEYS:
        assert new.state["seed"] == new.seed != old.seed
    # The new game replays from that position and goes on when played.
    replay = client_for(person).get(f"/api/games/{new.pk}/replay/?from=1&limit=5")
    assert replay.status_code == 200 and replay.json()["frames"][0]["version"] == 1
    action = rs.random_action(rs.decode(new.state), mover, random.Random(1))
    game_act(game_id=new.pk, user=person, version=new.version, action=action)
    assert Game.objects.get(pk=new.pk).version == new.version + 1


def test_the_person_may_choose_the_other_seat_and_the_level():
    old = played("halma", 10)
    person = make_user()
    version = old.version - 1
    mover = get_ruleset("halma").to_act(state_after(old, version))[0]
    answer = client_for(person).post(
        f"/api/games/{old.pk}/continue/",
        {"version": version, "seat": 1 - mover, "level": "easy"},
        format="json",
    )
    assert answer.status_code == 201
    new = Game.objects.get(pk=answer.json()["id"])
    assert new.seats.get(index=1 - mover).user == person
    assert new.bots == {str(mover): "easy"}


def test_a_continued_game_can_be_continued_again_and_exported_but_not_imported():
    old = played("halma", 10)
    person = make_user()
    first = client_for(person).post(f"/api/games/{old.pk}/continue/", {"version": 6}, format="json")
    new = Game.objects.get(pk=first.json()["id"])
    rs = get_ruleset("halma")
    action = rs.random_action(rs.decode(new.state), new.to_act[0], random.Random(3))
    game_act(game_id=new.pk, user=person, version=new.version, action=action)
    assert play_due_bots() == 1  # the bot answers: each side moved, resigning ends it
    game_resign(game_id=new.pk, user=person)
    new.refresh_from_db()
    assert new.status == Game.Status.FINISHED
    again = client_for(person).post(f"/api/games/{new.pk}/continue/", {"version": 1}, format="json")
    assert again.status_code == 201
    newer = Game.objects.get(pk=again.json()["id"])
    assert public(newer.state) == public(new.opening["state"])
    export = client_for(person).get(f"/api/games/{new.pk}/export/").json()
    assert export["opening"]["game"] == old.pk
    refused = client_for(person).post("/api/games/import/", export, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_export"
    # Its analysis starts from the position it was continued from.
    assert client_for(person).post(f"/api/games/{new.pk}/analysis/").status_code == 202
    assert analysis_run(game_id=new.pk)
    done = client_for(person).get(f"/api/games/{new.pk}/analysis/").json()
    assert done["status"] == "done" and len(done["plies"]) == 2


def count() -> int:
    return Game.objects.count()


def test_bad_asks_are_clear_and_change_nothing():
    old = played("halma", 6)
    running = started_game("halma")
    person = client_for(make_user())
    before = count()
    url = f"/api/games/{old.pk}/continue/"
    cases = [
        (person.post(f"/api/games/{running.pk}/continue/", {"version": 1}, format="json"), 409),
        (person.post("/api/games/999999/continue/", {"version": 1}, format="json"), 404),
        (person.post(url, {"version": 0}, format="json"), 400),
        (person.post(url, {"version": old.version + 1}, format="json"), 400),
        (person.post(url, {"version": "2"}, format="json"), 201),  # a number as text is one
        (person.post(url, {"version": True}, format="json"), 400),
        (person.post(url, {}, format="json"), 400),
        (person.post(url, {"version": 2, "seat": 2}, format="json"), 400),
        (person.post(url, {"version": 2, "seat": -1}, format="json"), 400),
        (person.post(url, {"version": 2, "level": "god"}, format="json"), 400),
        (person.post(url, "x" * (3 * 1024 * 1024), content_type="application/json"), 413),
        (person.get(url), 405),
        (person.put(url, {"version": 2}, format="json"), 405),
        (person.delete(url), 405),
        (client_for(make_user()).post(url, "{bad json", content_type="application/json"), 400),
    ]
    codes = [(r.status_code, want) for r, want in cases]
    assert [c for c, _ in codes] == [w for _, w in codes], [r.content[:200] for r, _ in cases]
    assert cases[0][0].json()["code"] == "game_running"
    assert count() == before + 1  # only the one good ask made a game
    from rest_framework.test import APIClient

    anonymous = APIClient().post(url, {"version": 2}, format="json")
    assert anonymous.status_code in (401, 403)
    reader = bearer(new_token(make_user(), ["read", "challenge"])["token"])
    refused = reader.post(url, {"version": 2}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "scope"
    assert count() == before + 1


def test_a_play_token_goes_on_from_a_position_as_it_opens_a_table():
    old = played("halma", 6)
    holder = make_user()
    player = bearer(new_token(holder, ["play"])["token"])
    answer = player.post(f"/api/games/{old.pk}/continue/", {"version": 3}, format="json")
    assert answer.status_code == 201, answer.json()
    new = Game.objects.get(pk=answer.json()["id"])
    assert new.opening["game"] == old.pk and holder in {s.user for s in new.seats.all()}


def test_games_that_cannot_go_on_from_a_position_say_so():
    person = client_for(make_user())
    aborted = started_game("halma")
    Game.objects.filter(pk=aborted.pk).update(status=Game.Status.ABORTED)
    answer = person.post(f"/api/games/{aborted.pk}/continue/", {"version": 1}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "not_finished"
    # A position where the game was already over (a Halma win written in).
    old = played("halma", 4)
    rs = get_ruleset("halma")
    won = rs.decode(old.state)
    houses = rs.view(won, None)["board"]["houses"]
    won = rs.decode({**rs.encode(won), "pieces": [houses[1], houses[0]]})
    assert rs.outcome(won) is not None
    Game.objects.filter(pk=old.pk).update(
        opening={"game": 0, "version": 1, "state": rs.encode(won)}
    )
    first = Event.objects.filter(game=old).order_by("version").first()
    assert first.kind == Event.Kind.START
    answer = person.post(f"/api/games/{old.pk}/continue/", {"version": 1}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "position_over"


def test_it_is_throttled_as_a_new_table_is(settings):
    old = played("halma", 4)
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "tables": "2/min"}
    with override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    ):
        person = client_for(make_user())
        codes = [
            person.post(f"/api/games/{old.pk}/continue/", {"version": 2}, format="json").status_code
            for _ in range(3)
        ]
    assert codes == [201, 201, 429]
    assert Game.objects.filter(opening__game=old.pk).count() == 2
