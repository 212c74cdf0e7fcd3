"""A club's members' running games, through the real paths: a game's start
lists it, its end drops it; a member joining brings their running games, a
member leaving (removed, deleted) takes theirs unless another member plays."""

from __future__ import annotations

import pytest

from games.services.endings import game_resign
from lobby.clubs import club_create, club_join, club_leave, club_set_role
from lobby.models import Club
from lobby.selectors.clubs import club_detail
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db


def listed(club: Club) -> list[int]:
    return [g["id"] for g in club_detail(club, None)["games"]]


def test_a_games_start_lists_it_and_its_end_drops_it():
    owner, ben, outsider = make_user("own"), make_user("ben"), make_user("out")
    club = club_create(creator=owner, name="Spielkreis")
    club_join(club_id=club.pk, user=ben)
    inside = started_game(players=[owner, ben])
    half = started_game(players=[outsider, ben])
    started_game(players=[outsider, make_user()])  # nobody of the club
    answer = club_detail(club, None)
    assert [g["id"] for g in answer["games"]] == [half.pk, inside.pk]
    assert answer["games"][0] == {"id": half.pk, "ruleset": "halma", "players": ["out", "ben"]}
    assert answer["games_count"] == 2
    game_resign(game_id=inside.pk, user=owner)
    assert listed(club) == [half.pk]


def test_members_bring_and_take_their_running_games():
    owner, ben, cleo = make_user("own"), make_user("ben"), make_user("cleo")
    club = club_create(creator=owner, name="Spielkreis")
    bens = started_game(players=[ben, make_user()])
    shared = started_game(players=[ben, cleo])
    club_join(club_id=club.pk, user=ben)
    club_join(club_id=club.pk, user=cleo)
    assert listed(club) == [shared.pk, bens.pk]
    club_leave(club_id=club.pk, user=ben)
    assert listed(club) == [shared.pk]  # cleo still plays it
    club_set_role(club_id=club.pk, user=owner, username="cleo", role="removed")
    assert listed(club) == []
    club_join(club_id=club.pk, user=ben)
    assert listed(club) == [shared.pk, bens.pk]
    ben.delete()
    assert listed(club) == []


def test_a_dissolved_club_lists_nothing_and_the_table_stays_small():
    owner = make_user()
    club = club_create(creator=owner, name="Spielkreis")
    started_game(players=[owner, make_user()])
    club_leave(club_id=club.pk, user=owner)
    from lobby.models import ClubGame

    assert not ClubGame.objects.exists()
