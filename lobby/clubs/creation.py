"""Creating a club: its name checked like a user's (look-alikes), a per-user limit."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from accounts.names import is_reserved, skeleton
from games.errors import GameError
from games.services.internal.guards import lock_user
from games.users import is_bot, signed_in
from lobby.models import Club, ClubMember

from .internal.common import new_invite, refuse_unfit

if TYPE_CHECKING:
    from games.users import Visitor

NAME_MIN, NAME_MAX = 3, 50
DESCRIPTION_MAX = 1000
SPACES = re.compile(r"\s+")


def club_create(
    *, creator: Visitor | None, name: object, description: object = "", open: object = True
) -> Club:
    """A new club with ``creator`` as its owner. A closed club gets an invite
    code at once (its owner hands it out); an open one none until an admin
    asks for one."""
    account = signed_in(creator, gettext_noop("Log in to create a club."))
    refuse_unfit(account, gettext_noop("Sign up to create a club."))
    if is_bot(account):
        raise GameError(
            "bot_account", gettext_noop("Bot accounts cannot create clubs."), status=403
        )
    clean_name = _name(name)
    text = _description(description)
    is_open = _flag("open", open)
    shape = skeleton(clean_name)
    with transaction.atomic():
        lock_user(account.pk)  # two creations at once count each other
        mine = Club.objects.filter(creator=account, dissolved__isnull=True).count()
        if mine >= settings.CLUBS_PER_USER:
            raise GameError(
                "too_many_clubs",
                gettext_noop("You have created %(n)s clubs, the most one player may."),
                status=403,
                n=mine,
            )
        _refuse_taken(shape)
        try:
            with transaction.atomic():  # a racing twin's name: the constraint's refusal
                club = Club.objects.create(
                    name=clean_name,
                    description=text,
                    open=is_open,
                    invite="" if is_open else new_invite(),
                    creator=account,
                )
        except IntegrityError:
            raise _taken() from None
        ClubMember.objects.create(club=club, user=account, role=ClubMember.Role.OWNER)
    return club


def _name(value: object) -> str:
    """NFKC-normalised (as user names are), runs of spaces as one, no control
    characters, 3 to 50 characters, not a staff title nor a generated name."""
    if not isinstance(value, str):
        raise _bad_name()
    name = SPACES.sub(" ", unicodedata.normalize("NFKC", value)).strip()
    if not NAME_MIN <= len(name) <= NAME_MAX or not skeleton(name):
        raise _bad_name()
    if any(unicodedata.category(c) in {"Cc", "Cf", "Co", "Cs", "Cn"} for c in name):
        raise GameError("bad_name", gettext_noop("A club's name holds letters, digits and marks."))
    if is_reserved(name):
        raise GameError("bad_name", gettext_noop("This name is kept for the site's staff."))
    return name


def _bad_name() -> GameError:
    return GameError(
        "bad_name",
        gettext_noop("Give the club a name of %(lo)s to %(hi)s characters."),
        lo=NAME_MIN,
        hi=NAME_MAX,
    )


def _refuse_taken(shape: str) -> None:
    if Club.objects.filter(name_skeleton=shape, dissolved__isnull=True).exists():
        raise _taken()


def _taken() -> GameError:
    return GameError(
        "name_taken",
        gettext_noop("This name is taken, or looks too much like a club's; choose another."),
        status=409,
    )


def _description(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        value = value.replace("\r\n", "\n")
    if (
        not isinstance(value, str)
        or len(value) > DESCRIPTION_MAX
        or any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in value)
    ):
        raise GameError(
            "bad_request",
            gettext_noop('"description" must be a text of at most %(n)s characters.'),
            n=DESCRIPTION_MAX,
        )
    return value.strip()


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise GameError("bad_request", gettext_noop('"%(name)s" must be true or false.'), name=name)
    return value
