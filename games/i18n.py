"""The language of a websocket connection: cookie first, then Accept-Language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

if TYPE_CHECKING:
    # What the mixins are mixed into, for the type checker only (channels has
    # no type information: its names are Any, so the mixins' calls to the
    # consumer's own methods check).
    from channels.generic.websocket import AsyncWebsocketConsumer as SocketConsumer
else:
    SocketConsumer = object


def language_from_scope(scope: dict[str, Any]) -> str:
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [lang for lang, _ in trans_real.parse_accept_lang_header(accept)]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class TranslatedConsumerMixin(SocketConsumer):
    """Every message of a consumer is handled in its connection's language."""

    # Group messages that only forward frames built for everybody need no language.
    untranslated = frozenset({"game.watchers", "game.chat", "game.table"})

    async def dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind in self.untranslated or (
            kind in ("game.frames", "game.own_frame") and not message.get("result")
        ):
            await super().dispatch(message)
            return
        if not hasattr(self, "language"):
            self.language = language_from_scope(self.scope)
        if self.language == translation.get_language():
            # Already active: an override would leave a copy of asgiref's
            # Local storage in this connection's task for good (~0.5 kB a socket).
            await super().dispatch(message)
            return
        with translation.override(self.language):
            await super().dispatch(message)
