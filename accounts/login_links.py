"""One-time log-in links (issue 47): how an owner gets in while many
addresses' failures have the account locked (accounts/spread.py).

A link carries a signed, timestamped value (``django.core.signing``) naming
the account and a fingerprint of its password hash and last login: it
expires after ``LOGIN_LINK_MINUTES``, and logging in with it changes the last
login, so it works once. It is sent only to the account's own e-mail address,
at most once per ``LOGIN_LINK_MINUTES`` per account and ``LOGIN_LINKS_PER_HOUR``
per asking address, so nobody can use it to flood a mailbox. Whoever asks is
told the same whatever the name: it reveals neither accounts nor addresses.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from games import ratelimit

from .models import User

SALT = "accounts.login_links"


def _fingerprint(user: User) -> str:
    state = f"{user.pk}|{user.password}|{user.last_login}"
    return salted_hmac(SALT, state).hexdigest()[:32]


def link_token(user: User) -> str:
    return signing.dumps({"u": user.pk, "f": _fingerprint(user)}, salt=SALT)


def link_user(token: str) -> User | None:
    """The account a link logs in to; None when forged, expired or used."""
    try:
        found = signing.loads(token, salt=SALT, max_age=settings.LOGIN_LINK_MINUTES * 60)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    if not isinstance(found, dict) or not isinstance(found.get("u"), int):
        return None
    user = get_user_model().objects.filter(pk=found["u"], is_active=True).first()
    if user is None or user.is_bot or user.is_guest:
        return None
    if not constant_time_compare(str(found.get("f", "")), _fingerprint(user)):
        return None
    return user


def address_wait(address: str) -> int | None:
    """Seconds this address must wait before asking for another link."""
    return ratelimit.hit(f"login-link-from:{address}", settings.LOGIN_LINKS_PER_HOUR, 3600)


def link_send(*, username: str) -> None:
    """Mail a link to ``username``'s address, if it has one and had no link lately."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None or not user.email or user.is_bot or user.is_guest:
        return
    account = hashlib.sha256(str(user.pk).encode()).hexdigest()[:16]
    if ratelimit.hit(f"login-link-to:{account}", 1, settings.LOGIN_LINK_MINUTES * 60):
        return
    url = settings.SITE_URL.rstrip("/") + reverse("login-link", args=[link_token(user)])
    with translation.override(user.language_or_default()):
        subject = _("Your log-in link")
        body = _(
            "Someone asked for a one-time log-in link for %(name)s. It works once, "
            "for %(n)s minutes:\n\n%(url)s\n\nIf it was not you, ignore this mail: "
            "your password stays as it is."
        ) % {"name": user.username, "n": settings.LOGIN_LINK_MINUTES, "url": url}
    send_mail(subject, body, None, [user.email])
