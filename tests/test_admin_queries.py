"""Every registered admin's change list and change page take as many queries
with many rows as with a few (issue 47 item 11): no select of every user
per seat (``raw_id_fields``), no query per listed row (``list_select_related``).

bench/admin_pages.py times the same pages with 10,000 users and 100,000 games.
"""

from __future__ import annotations

from itertools import cycle, islice

import pytest
from django.contrib import admin
from django.contrib.admin.utils import quote
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken, User
from games.models import ChatMessage, Event, Game, Notification, OutgoingMail, RemisRequest, Seat
from lobby.models import Tournament

pytestmark = pytest.mark.django_db


def populate(n: int, tag: str) -> None:
    """``n`` rows of every model the admins list, each pointing at users."""
    users = User.objects.bulk_create(User(username=f"{tag}{i}") for i in range(n))
    pairs = list(zip(users, islice(cycle(users), 1, None), strict=False))
    games = Game.objects.bulk_create(
        Game(ruleset="halma", seat_count=2, host=a, challenged=b, version=1) for a, b in pairs
    )
    Seat.objects.bulk_create(
        Seat(game=g, index=i, user=u)
        for g, (a, b) in zip(games, pairs, strict=True)
        for i, u in enumerate((a, b))
    )
    Event.objects.bulk_create(Event(game=g, version=1, kind=Event.Kind.START) for g in games)
    ChatMessage.objects.bulk_create(
        ChatMessage(game=g, user=a, seat=0, text="hi")
        for g, (a, _b) in zip(games, pairs, strict=True)
    )
    notes = Notification.objects.bulk_create(
        Notification(user=a, kind=Notification.Kind.DECISION, game=g)
        for g, (a, _b) in zip(games, pairs, strict=True)
    )
    OutgoingMail.objects.bulk_create(OutgoingMail(notification=x) for x in notes)
    RemisRequest.objects.bulk_create(
        RemisRequest(
            game=g, seat=0, requested_by=a, decided_by=b, kind="deadlock", status="decided"
        )
        for g, (a, b) in zip(games, pairs, strict=True)
    )
    Tournament.objects.bulk_create(
        Tournament(name=f"{tag}{i}", ruleset="halma", system="swiss", creator=u)
        for i, u in enumerate(users)
    )
    ApiToken.objects.bulk_create(
        ApiToken(user=u, name="t", digest=f"{tag}{i}", prefix="p", scopes=["read"])
        for i, u in enumerate(users)
    )
    # A few groups (a user's page lists them all, as it should: they stay few).
    Group.objects.bulk_create(Group(name=f"{tag}{i}") for i in range(min(n, 3)))


def pages() -> list[str]:
    """Every registered admin's change list, and a change page where it has a row."""
    found = []
    for model, _model_admin in admin.site._registry.items():
        meta = model._meta
        found.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            found.append(
                reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[quote(first.pk)])
            )
    return found


def queries_per_page(client: Client) -> dict[str, tuple[int, int]]:
    """Each page's query count, and its size (a change page's size grows
    with a select listing every user or game)."""
    counts = {}
    for url in pages():
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200, url
        counts[url] = (len(captured), len(response.content))
    return counts


def test_no_admin_page_takes_more_queries_with_more_rows():
    staff = User.objects.create_superuser("root", password="x", last_login=timezone.now())
    client = Client()
    client.force_login(staff)
    populate(10, "a")
    few = queries_per_page(client)
    populate(150, "b")
    many = queries_per_page(client)
    assert len(few) >= 2 * 9  # every admin of the project with a row, and the libraries'
    grew = {url: (few[url][0], many[url][0]) for url in few if many[url][0] > few[url][0]}
    assert grew == {}
    # A change page shows the same row: its size stays (no <option> per user).
    changes = [url for url in few if not url.endswith("/admin/") and url.count("/") > 4]
    assert changes
    bigger = {u: (few[u][1], many[u][1]) for u in changes if many[u][1] > few[u][1] + 2000}
    assert bigger == {}
