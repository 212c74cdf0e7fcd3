"""Personal API tokens: made, listed, revoked, and looked up by their secret.

A token is ``bsp_`` and 43 random URL-safe characters (256 bits): a hash of
that much entropy needs no salt or slow hash, so the database stores its
SHA-256 and a lookup is one indexed read. The secret is shown once.
Revoking deletes the row (the next request fails at once) and tells the
token's open streams, which end (``token_group``).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop
from rest_framework.authtoken.models import Token

from games import plain_json, publish
from games.errors import GameError
from games.users import signed_in

from .models import ApiToken, User

if TYPE_CHECKING:
    from games.users import Visitor

PREFIX = "bsp_"
MAX_TOKENS_PER_USER = 10
NAME_LENGTH = 60
# last_used is written at most this often per token (not on every request).
TOUCH_EVERY = timedelta(minutes=1)


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def token_group(token_id: int) -> str:
    """Every open stream of one token: told when the token is revoked."""
    return f"apitoken-{token_id}"


def as_dict(token: ApiToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "name": token.name,
        "scopes": list(token.scopes),
        "prefix": token.prefix,
        "created": token.created.isoformat(),
        "last_used": token.last_used.isoformat() if token.last_used else None,
    }


def clean_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
        raise GameError(
            "bad_request",
            gettext_noop("Name the token (1 to %(n)s characters)."),
            n=NAME_LENGTH,
        )
    found = plain_json.problem(name)
    if found:
        raise GameError("bad_request", found)
    return name.strip()


def clean_scopes(scopes: object) -> list[str]:
    if (
        not isinstance(scopes, list)
        or not scopes
        or any(not isinstance(s, str) or s not in ApiToken.SCOPES for s in scopes)
    ):
        raise GameError(
            "bad_request",
            gettext_noop("Choose the token's scopes among: %(scopes)s."),
            scopes=", ".join(ApiToken.SCOPES),
        )
    return [s for s in ApiToken.SCOPES if s in scopes]


def token_create(*, user: Visitor, name: object, scopes: object) -> tuple[ApiToken, str]:
    """A new token of ``user``'s and its secret (the only time it is known)."""
    account = signed_in(user, gettext_noop("Log in first."))
    if account.is_guest:
        # A guest's account may become someone else's (sign-up in a shared
        # browser claims it): nothing that outlives the guest is handed out.
        raise GameError("guest", gettext_noop("Sign up to make API tokens."), status=403)
    clean, chosen = clean_name(name), clean_scopes(scopes)
    with transaction.atomic():
        # One user's tokens one at a time: two at once would both count the cap.
        get_user_model().objects.select_for_update(no_key=True).filter(pk=account.pk).first()
        if ApiToken.objects.filter(user=account).count() >= MAX_TOKENS_PER_USER:
            raise GameError(
                "too_many_tokens",
                gettext_noop("You already have %(n)s tokens; revoke one first."),
                n=MAX_TOKENS_PER_USER,
            )
        secret = PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=account, name=clean, scopes=chosen, digest=digest_of(secret), prefix=secret[:8]
        )
    return token, secret


def token_list(*, user: Visitor) -> list[dict[str, Any]]:
    return [
        as_dict(t)
        for t in ApiToken.objects.filter(user=signed_in(user, gettext_noop("Log in first.")))
    ]


def token_revoke(*, user: Visitor, token_id: object) -> None:
    """Delete one of ``user``'s tokens; its open streams end after the commit."""
    account = signed_in(user, gettext_noop("Log in first."))
    if not isinstance(token_id, int) or isinstance(token_id, bool):
        raise no_such_token()
    with transaction.atomic():
        deleted, _ = ApiToken.objects.filter(user=account, pk=token_id).delete()
        if not deleted:
            raise no_such_token()
        _tell_streams(token_id)


def tokens_revoke_all(*, user: User) -> None:
    """Every personal token of ``user`` and its account ``Token`` deleted,
    their open streams ended (a guest claimed by a sign-up: whoever was the
    guest keeps nothing that reads or plays for the new account)."""
    with transaction.atomic():
        ids = list(ApiToken.objects.filter(user=user).values_list("pk", flat=True))
        ApiToken.objects.filter(pk__in=ids).delete()
        Token.objects.filter(user=user).delete()
        for token_id in ids:
            _tell_streams(token_id)


def no_such_token() -> GameError:
    return GameError("not_found", gettext_noop("There is no such token."), status=404)


def _tell_streams(token_id: int) -> None:
    """After the commit, best effort: the row is gone whatever the layer does."""
    publish.send(token_group(token_id), {"type": "token.revoked"})


def token_holder(secret: str) -> tuple[User, ApiToken] | None:
    """The active user holding ``secret`` and the token; None if unknown or
    revoked. Notes the use (at most once per ``TOUCH_EVERY``)."""
    if not secret.startswith(PREFIX) or len(secret) > 100:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest_of(secret)).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used > TOUCH_EVERY:
        token.last_used = now
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    return token.user, token


def token_alive(token_id: int) -> bool:
    return ApiToken.objects.filter(pk=token_id, user__is_active=True).exists()
