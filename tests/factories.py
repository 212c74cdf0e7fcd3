"""Small builders for users and games, used across the suite."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import Game
from lobby import services as lobby
from moderation import roles

_names = itertools.count(1)


def make_user(name: str | None = None, *, staff: bool = False, moderator: bool = False):
    """``staff``: a remis arbiter; ``moderator``: a moderator (separate roles)."""
    name = name or f"user{next(_names)}"
    user = get_user_model().objects.create_user(
        username=name, password="pw-123456789", is_staff=staff or moderator
    )
    if staff:
        roles.grant(user, roles.ARBITERS)
    if moderator:
        roles.grant(user, roles.MODERATORS)
    return user


def client_for(user) -> APIClient:
    """An API client logged in as ``user``."""
    client = APIClient()
    client.force_authenticate(user)
    return client


def started_game(
    ruleset: str = "halma", players: list | None = None, clock: dict | None = None, **options
) -> Game:
    """A running game with every seat taken (host at seat 0); ``clock`` as the
    lobby takes it (default: correspondence)."""
    players = players or [make_user(), make_user()]
    game = lobby.table_create(
        host=players[0], ruleset=ruleset, options=options, seat_count=len(players), clock=clock
    )
    for user in players[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=players[0])
    game.refresh_from_db()
    return game


FIRST_MOVE = {"type": "move", "path": [[5, 9], [4, 9]]}  # White (seat 0) steps up
BLACK_MOVE = {"type": "move", "path": [[4, 0], [5, 0]]}  # Black (seat 1) steps down


def hexenhalma_campaign(
    *, rounds: int, teams: int = 2, board: str = "rectangle", seed: int | None = None
) -> Game:
    """A finished Hexenhalma campaign: every round opened on a preset board,
    random valid orders locked by every team, resolved by the sweeper."""
    import random

    from games.realtime.sweeper import sweep_once
    from games.rules.hexenhalma import PRESETS
    from games.rules.hexenhalma.sample import random_orders
    from games.services.play import game_act

    users = [make_user() for _ in range(teams + 1)]
    game = lobby.table_create(
        host=users[0],
        ruleset="hexenhalma",
        options={"rounds": rounds},
        seat_count=teams + 1,
        clock={"kind": "none"},
    )
    for user in users[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=users[0])
    preset, rng = PRESETS[board], random.Random(rounds if seed is None else seed)

    def act(user, action) -> None:
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        game_act(game_id=game.pk, user=user, version=version, action=action)

    for _ in range(rounds):
        act(users[0], {"type": "open_round", "board": board, "deadline": None})
        for user in users[1:]:
            act(
                user,
                {"type": "orders", "orders": random_orders(preset["board"], preset["params"], rng)},
            )
            act(user, {"type": "lock"})
        assert sweep_once() == 1
    game.refresh_from_db()
    return game


def import_export(client: APIClient, data) -> dict:
    """POST an export as ``client``, let the import worker decide it (as the
    sweeper's import thread does) and return the import's last answer."""
    from games.services.import_jobs import imports_run

    queued = client.post("/api/games/import/", data, format="json")
    assert queued.status_code == 202, queued.content[:300]
    assert queued.json()["status"] == "pending"
    while imports_run():
        pass
    return client.get(queued["Location"]).json()


def every_seat_moves(game: Game, *, seed: int = 0, limit: int = 200) -> Game:
    """Random legal moves through ``game_act`` until every seat to play made a
    move of its own (a game ending earlier is an abort, never rated)."""
    import random

    from games.rules import get_ruleset
    from games.selectors.ratings import own_movers
    from games.services.play import game_act

    rs, rng = get_ruleset(game.ruleset), random.Random(seed)
    playing = {s for s in range(game.seat_count) if not rs.is_referee(s)}
    for _ in range(limit):
        game.refresh_from_db()
        moved = own_movers(game)
        if playing <= moved:
            return game
        seat = next((s for s in game.to_act if s not in moved), game.to_act[0])
        user = game.seats.get(index=seat).user
        action = rs.random_action(rs.decode(game.state), seat, rng)
        game_act(game_id=game.pk, user=user, version=game.version, action=action)
    raise AssertionError("some seat never got to move")


def random_plies_then_resign(game: Game, plies: int, *, seed: int) -> Game:
    """``plies`` random legal moves through ``game_act``, then seat 0 resigns:
    a finished game with a record to replay or analyse."""
    import random

    from games.rules import get_ruleset
    from games.services.endings import game_resign
    from games.services.play import game_act

    rs, rng = get_ruleset(game.ruleset), random.Random(seed)
    for _ in range(plies):
        game.refresh_from_db()
        seat = game.to_act[0]
        action = rs.random_action(rs.decode(game.state), seat, rng)
        user = game.seats.get(index=seat).user
        game_act(game_id=game.pk, user=user, version=game.version, action=action)
    game_resign(game_id=game.pk, user=game.seats.get(index=0).user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def hourly_rating_changes(user, games, before, after) -> None:
    """A Halma correspondence rating change per game, an hour apart from 1000
    days ago; ``before(n)`` and ``after(n)`` give the n-th change's ratings."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import RatingChange

    start = timezone.now() - timedelta(days=1000)
    RatingChange.objects.bulk_create(
        RatingChange(
            user=user,
            game=g,
            ruleset="halma",
            speed="correspondence",
            place=1,
            before=before(n),
            after=after(n),
            mu=25,
            sigma=8,
            created=start + timedelta(hours=n),
        )
        for n, g in enumerate(games)
    )
