"""Guests (issue 29, item 9): a visitor plays without an account.

A guest is a temporary account with a generated name ("guest-" and six
letters or digits; sign-ups may not take that prefix), so the mark travels
with the name to every place that shows one: seats, tables, chat, replays,
notifications. It is never rated (``selectors.ratings.counts_as_rated``),
never on a leaderboard, opens no public tables (only games against the
computer) and chats only at its own table. Signing up from the same browser
(the guest is logged in there) turns the guest into the new account: its
games, seats and notifications stay with it. After ``GUEST_IDLE_HOURS``
without a visit (``User.seen``) a guest is cleaned up: deleted when it sat
in no game, else closed (no login, no sessions) with its games kept under
its name.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Game, Seat

if TYPE_CHECKING:
    from accounts.models import User

PREFIX = "guest-"
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread
SEEN_EVERY = timedelta(minutes=10)  # how often a visit refreshes ``seen``


def _new_name() -> str:
    return PREFIX + "".join(secrets.choice(ALPHABET) for _ in range(6))


def guest_create(*, language: str = "") -> User:
    """A new guest account with a fresh generated name (the caller limits how
    many an address makes, as for sign-ups)."""
    User = get_user_model()
    for _ in range(5):
        try:
            with transaction.atomic():
                user = User(username=_new_name(), is_guest=True, seen=timezone.now())
                user.language = language
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:  # the name was taken meanwhile: draw again
            continue
    raise RuntimeError("no free guest name after 5 draws")


def guest_claim(*, user: User) -> None:
    """The guest became a real account (the sign-up form set its name and
    password): it keeps its games; rated games are ahead of it."""
    user.is_guest = False
    user.seen = None
    user.save(update_fields=["is_guest", "seen"])


def guest_seen(user: User) -> None:
    """A guest's visit: ``seen`` is renewed at most every ``SEEN_EVERY``."""
    now = timezone.now()
    if user.seen is None or user.seen < now - SEEN_EVERY:
        get_user_model().objects.filter(pk=user.pk).update(seen=now)
        user.seen = now


def guests_clean_up(limit: int = 200) -> int:
    """Guests idle for ``GUEST_IDLE_HOURS`` and in no running game: deleted
    when they sat in no game, else closed with their games kept (their name
    stays on them). Returns how many were cleaned up."""
    cutoff = timezone.now() - timedelta(hours=settings.GUEST_IDLE_HOURS)
    running = Seat.objects.filter(game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
    idle = list(
        get_user_model()
        .objects.filter(is_guest=True, is_active=True, seen__lt=cutoff)
        .exclude(pk__in=running.values("user_id"))
        .values_list("pk", flat=True)[:limit]
    )
    if not idle:
        return 0
    User = get_user_model()
    played = set(Seat.objects.filter(user_id__in=idle).values_list("user_id", flat=True))
    with transaction.atomic():
        User.objects.filter(pk__in=[pk for pk in idle if pk not in played]).delete()
        # A closed account logs in no more: Django refuses inactive users' sessions.
        User.objects.filter(pk__in=played).update(is_active=False, password="!")
    return len(idle)
