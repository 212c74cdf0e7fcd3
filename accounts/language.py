"""A user's stored language: what every language choice of theirs sets it to.

Everything sent to a user outside their own request (e-mail, pushed
notifications) is written in it, not in the language of whoever caused it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils import translation


def supported(code: Any) -> str | None:
    """``code`` as one of the site's languages (``de-at`` is ``de``), or None."""
    if not isinstance(code, str) or not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def remember_language(user: Any, code: Any) -> None:
    """Store ``code`` as the user's language, when it is one the site speaks."""
    code = supported(code)
    if code is None or user is None or not user.is_authenticated or user.language == code:
        return
    get_user_model().objects.filter(pk=user.pk).update(language=code)
    user.language = code


def fill_in_at_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """An account without a stored language takes the one its login came in."""
    if not user.language:
        remember_language(user, getattr(request, "LANGUAGE_CODE", None))
