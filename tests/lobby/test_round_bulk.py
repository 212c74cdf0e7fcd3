"""A tournament round's games are created in bulk (issue 47, item 2): the
rows are those the factory's one-game form writes (game, seats, first event, clocks,
state, vacations, notices), the games are playable, and a round of N games
costs a fixed number of statements, not a few per game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Follow
from games.models import Event, Game, Notification, Vacation
from games.services.creating import game_create, game_create_many
from games.services.play import game_act
from lobby import tournaments as svc
from lobby.models import TournamentPairing
from tests.factories import make_user

pytestmark = pytest.mark.django_db

SKIPPED = {"id", "created", "invite_code", "seed", "started", "turn_started", "deadline"}
TIMED = ("started", "turn_started", "deadline", "phase_deadline", "forced_at", "ended")


def _one_by_one(ruleset, options, clock, users) -> Game:
    """One game made by the factory's single form, started once full."""
    with transaction.atomic():
        game = game_create(
            ruleset=ruleset,
            holders=[u.pk for u in users],
            options=options,
            clock=clock,
            rated=False,
            auto_start=True,
        )
    return Game.objects.get(pk=game.pk)


def _rows(game: Game) -> dict:
    """What a game's rows hold, its times relative to its start, ids of others left out."""
    start = game.started

    def rel(value):
        return None if value is None else value - start

    fields = {
        f.attname: getattr(game, f.attname)
        for f in Game._meta.concrete_fields
        if f.attname not in SKIPPED and f.attname not in TIMED
    }
    fields["times"] = [rel(getattr(game, name, None)) for name in TIMED]
    if game.timer == "vacation":  # due when the (shared) vacation ends: an absolute time
        fields["times"][TIMED.index("deadline")] = game.deadline
    # Seated just before the start (one by one: a moment earlier; in bulk: at it).
    seats = [
        (s.index, s.user_id, timedelta(0) >= rel(s.joined) > -timedelta(seconds=1))
        for s in game.seats.order_by("index")
    ]
    events = [
        (e.version, e.seat, e.kind, e.action, e.events, rel(e.created))
        for e in Event.objects.filter(game=game).order_by("version")
    ]
    notes = sorted(
        (n.user_id, n.kind, {k: v for k, v in n.params.items() if k != "game"})
        for n in Notification.objects.filter(game=game)
    )
    return {"game": fields, "seats": seats, "events": events, "notices": notes}


@pytest.mark.parametrize(
    ("ruleset", "clock"),
    [
        ("halma", {"kind": "realtime", "minutes": 5, "increment": 3}),
        ("malefiz", {"kind": "correspondence", "days": 2, "bank": 0}),
        ("idiotenspiel", {"kind": "none"}),
    ],
)
def test_a_bulk_started_game_has_the_rows_of_one_started_alone(monkeypatch, ruleset, clock):
    from games.rules import get_ruleset

    seed = Game._meta.get_field("seed")
    # The same deal on both paths (the field keeps its default in a cached property).
    monkeypatch.setattr(seed, "_get_default", lambda: 12345, raising=False)
    alone, bulk = [make_user(), make_user()], [make_user(), make_user()]
    fan = make_user()
    for player in (alone[0], bulk[0]):  # a follower of seat 0 on each side
        Follow.objects.create(user=fan, followed=player)
    now = timezone.now()
    for player in (alone[1], bulk[1]):  # a vacation running for seat 1 on each side
        Vacation.objects.create(
            user=player, start=now - timedelta(days=1), end=now + timedelta(days=3)
        )
    options = get_ruleset(ruleset).validate_options({})
    single = _one_by_one(ruleset, options, clock, alone)
    with transaction.atomic():
        (made,) = game_create_many(
            ruleset=ruleset,
            options=options,
            clock=clock,
            rated=False,
            seatings=[[u.pk for u in bulk]],
        )
    made = Game.objects.get(pk=made.pk)
    expected, got = _rows(single), _rows(made)
    # The seats' users differ by design: compare who sits where by position.
    swap = {alone[0].pk: bulk[0].pk, alone[1].pk: bulk[1].pk}
    expected["seats"] = [(i, swap[u], t) for i, u, t in expected["seats"]]
    expected["notices"] = sorted((swap.get(u, u), k, p) for u, k, p in expected["notices"])
    names = {u.pk: u.username for u in bulk}
    expected["game"]["listed_players"] = [
        [swap[u], names[swap[u]], bot] for u, _, bot in expected["game"]["listed_players"]
    ]
    if clock["kind"] == "correspondence":
        assert made.away == {"1": {"username": bulk[1].username, "until": made.away["1"]["until"]}}
        expected["game"]["away"] = {"1": {**single.away["1"], "username": bulk[1].username}}
    for key in ("game", "seats", "events", "notices"):
        if key == "notices":  # params name the player followed; usernames differ
            strip = [(u, k, {**p, "player": None}) for u, k, p in expected[key]]
            assert strip == [(u, k, {**p, "player": None}) for u, k, p in got[key]]
        else:
            assert got[key] == expected[key], key
    assert any(k == Notification.Kind.FOLLOWED for _, k, _ in got["notices"]) == (
        clock["kind"] == "realtime"
    )
    # Playable: the first mover moves through the service.
    rs = get_ruleset(ruleset)
    import random

    seat = made.to_act[0]
    action = rs.random_action(rs.decode(made.state), seat, random.Random(1))
    version = game_act(game_id=made.pk, user=bulk[seat], version=made.version, action=action)
    assert version == 2


def _swiss(players: int):
    creator = make_user()
    t = svc.tournament_create(
        creator=creator,
        name="Bulk",
        ruleset="halma",
        system="swiss",
        rounds=3,
        clock={"kind": "realtime", "minutes": 5, "increment": 0},
    )
    users = [make_user() for _ in range(players)]
    for user in users:
        svc.tournament_join(tournament_id=t.pk, user=user)
    return t, creator, users


def _start_counted(players: int) -> int:
    t, creator, _users = _swiss(players)
    with CaptureQueriesContext(connection) as queries:
        svc.tournament_start(tournament_id=t.pk, user=creator)
    assert (
        TournamentPairing.objects.filter(tournament=t, game__isnull=False).count() == players // 2
    )
    return len(queries)


def test_a_rounds_games_cost_a_fixed_number_of_statements():
    """5 players (2 games) against 41 (20 games): the same statements."""
    assert _start_counted(41) == _start_counted(5)


def test_a_bye_is_announced_in_the_bell():
    t, creator, _users = _swiss(5)
    svc.tournament_start(tournament_id=t.pk, user=creator)
    (bye,) = TournamentPairing.objects.filter(tournament=t, bye=True)
    (note,) = Notification.objects.filter(user_id=bye.players[0], kind="round_start")
    assert note.params["bye"] is True and note.params["round"] == 1 and note.game is None
    from games.selectors.notifications import notification_text

    assert "bye" in notification_text(note.kind, note.params)
    playing = TournamentPairing.objects.filter(tournament=t, bye=False)
    for pairing in playing:
        for uid in pairing.players:
            assert not Notification.objects.filter(user_id=uid, params__bye=True).exists()
