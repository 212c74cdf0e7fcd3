"""A tournament's page is bounded however big the field (issue 54 item 2):
one page of the stored standings and one page of one round's boards, the
same statements and about the same bytes with 200 or 1,000 players and with
1 or 4 rounds decided, none reading another round's pairings; the API keeps
the whole shape and answers one round on ``?round=``."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from lobby.models import Tournament, TournamentPairing, TournamentPlayer
from lobby.selectors import tournaments as read
from lobby.selectors.tournament_page import BOARDS_PAGE, STANDINGS_PAGE
from lobby.tournaments.standings import tournament_standings_store_due

pytestmark = pytest.mark.django_db

VS = " \N{EN DASH} "  # between a board's players on the page


def running(field: int, decided: int = 1) -> tuple[Tournament, list]:
    """A Swiss of ``field`` players in round ``decided`` + 1: the rounds
    before decided (the lower seed won each board), that one being played;
    its standings stored as the sweeper's thread stores them."""
    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"entrant{n:04}", password="!") for n in range(field)
    )
    t = Tournament.objects.create(
        name="Cup",
        ruleset="halma",
        system="swiss",
        rounds=decided + 2,
        status="running",
        current_round=decided + 1,
    )
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=t, user=u, seed=n) for n, u in enumerate(users)
    )
    ids = [u.pk for u in users]
    boards = []
    for number in range(1, decided + 2):
        for board in range(field // 2):
            a, b = ids[2 * board], ids[2 * board + 1]
            points = {str(a): 1.0, str(b): 0.0} if number <= decided else None
            boards.append(
                TournamentPairing(
                    tournament=t, round=number, board=board + 1, players=[a, b], points=points
                )
            )
    TournamentPairing.objects.bulk_create(boards)
    Tournament.objects.filter(pk=t.pk).update(standings_due=timezone.now())
    assert tournament_standings_store_due() == 1
    t.refresh_from_db()
    return t, users


def statements_of(t: Tournament, query: str = "") -> list[str]:
    with CaptureQueriesContext(connection) as seen:
        assert Client().get(f"/tournaments/{t.pk}/{query}").status_code == 200
    return [q["sql"] for q in seen.captured_queries]


def empty() -> None:
    TournamentPairing.objects.all().delete()
    TournamentPlayer.objects.all().delete()
    Tournament.objects.all().delete()
    get_user_model().objects.filter(username__startswith="entrant").delete()


def page(t: Tournament, query: str = "", user=None) -> tuple[int, str]:
    client = Client()
    if user is not None:
        client.force_login(user)
    with CaptureQueriesContext(connection) as seen:
        answer = client.get(f"/tournaments/{t.pk}/{query}")
    assert answer.status_code == 200
    return len(seen), answer.content.decode()


def test_the_page_is_the_same_size_with_200_or_1000_players():
    small_t, _ = running(200)
    small_statements, small = page(small_t)
    empty()
    big_t, _ = running(1000)
    big_statements, big = page(big_t)
    assert big_statements == small_statements
    assert big.count('class="player-link"') == STANDINGS_PAGE
    assert big.count('data-testid="pairing-game"') == 0  # no games in this field
    assert big.count("entrant") < 3 * (STANDINGS_PAGE + 2 * BOARDS_PAGE)
    # Only the pagers' links grow: 20 pages of standings and 10 of boards against 4 and 2.
    assert len(big) - len(small) < 6_000, (len(small), len(big))


def test_the_page_reads_no_more_with_four_rounds_decided_than_with_one():
    one = statements_of(running(200, decided=1)[0])
    empty()
    t, _ = running(200, decided=4)
    four = statements_of(t)
    assert len(four) == len(one)
    pairings = [sql for sql in four if '"lobby_tournamentpairing"' in sql]
    # One round's boards only: no statement reads every decided pairing.
    assert pairings and all('"round" = ' in sql for sql in pairings), pairings
    rows = read.detail(t)["standings"]
    _, shown = page(t)
    assert f'href="/players/{rows[0]["username"]}/"' in shown
    assert '<td data-label="Points">4</td>' in shown  # four rounds won


def test_while_results_wait_the_page_shows_the_stored_standings_and_says_so():
    t, _ = running(20)
    Tournament.objects.filter(pk=t.pk).update(standings_due=timezone.now())
    _, waiting = page(t)
    assert 'data-testid="standings-due"' in waiting
    assert tournament_standings_store_due() == 1
    _, current = page(t)
    assert 'data-testid="standings-due"' not in current


def test_pages_of_the_standings_and_of_a_round():
    t, users = running(200)
    _, second = page(t, "?standings=2")
    assert 'href="/players/entrant0001/"' not in second  # rank 1 is on page 1
    assert second.count('class="player-link"') == STANDINGS_PAGE
    _, boards = page(t, "?round=1&boards=2")
    assert 'data-testid="round-1"' in boards
    assert f"entrant{2 * BOARDS_PAGE:04}{VS}entrant{2 * BOARDS_PAGE + 1:04}" in boards
    assert f"entrant0000{VS}entrant0001" not in boards
    _, mine = page(t, "", users[-1])
    assert 'data-testid="my-place"' in mine and 'data-testid="my-board"' in mine
    assert f"entrant0198{VS}entrant0199" in mine  # the viewer's own board, on page 4
    for junk in ("?round=x", "?standings=-1", "?boards=99999999", "?round=7"):
        assert page(t, junk)[0] > 0  # unreadable or out of range: the default, no error


def test_the_api_keeps_every_round_and_answers_one_on_request():
    t, _ = running(20)
    whole = Client().get(f"/api/tournaments/{t.pk}/").json()
    assert [r["number"] for r in whole["rounds"]] == [1, 2]
    assert len(whole["players"]) == 20 and len(whole["standings"]) == 20
    one = Client().get(f"/api/tournaments/{t.pk}/?round=1").json()
    assert [r["number"] for r in one["rounds"]] == [1] and one["standings"] == whole["standings"]
    assert Client().get(f"/api/tournaments/{t.pk}/?round=x").status_code == 400
