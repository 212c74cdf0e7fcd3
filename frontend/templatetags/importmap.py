"""``{% import_map %}``: the browser modules' import map.

Static files are served under content-hashed names (a manifest storage), but the
modules import each other by their plain names (``./socket.js``,
``./boards/${ruleset}.js``). The map sends every module's plain URL to its hashed
one, so static and dynamic imports alike load the hashed file. Django's own
rewriting of imports (``support_js_module_import_aggregation``) stays off: it
cannot rewrite the dynamic imports of board modules.
"""

from __future__ import annotations

import json
import posixpath
from functools import cache
from urllib.parse import urljoin

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.encoding import filepath_to_uri
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()

MODULES = "frontend/js/"
# What a JSON text may not contain inside a <script> element.
_SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}


def module_names() -> list[str]:
    """Every browser module that the staticfiles finders know, as a static path."""
    names: set[str] = set()
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            name = posixpath.join(getattr(storage, "prefix", None) or "", path.replace("\\", "/"))
            if name.startswith(MODULES) and name.endswith(".js"):
                names.add(name)
    return sorted(names)


@cache
def imports() -> dict[str, str]:
    """Plain static URL -> hashed static URL, for every module (cached per process:
    the manifest is read once too). Under DEBUG the storage hashes nothing and the
    map is empty."""
    out = {}
    for name in module_names():
        plain = urljoin(settings.STATIC_URL, filepath_to_uri(name))
        hashed = staticfiles_storage.url(name)
        if hashed != plain:
            out[plain] = hashed
    return out


@receiver(setting_changed)
def _forget(setting: str, **kwargs) -> None:
    if setting in {"STATIC_URL", "STATIC_ROOT", "STORAGES", "STATICFILES_DIRS", "DEBUG"}:
        imports.cache_clear()


@register.simple_tag(takes_context=True)
def import_map(context: template.Context) -> str:
    """The map as an inline script with the request's CSP nonce (django-csp):
    the one inline script the Content-Security-Policy lets run."""
    payload = json.dumps({"imports": imports()}, sort_keys=True)
    request = context.get("request")
    nonce = getattr(request, "csp_nonce", "") if request is not None else ""
    return format_html(
        '<script type="importmap" nonce="{}">{}</script>',
        nonce,
        mark_safe(payload.translate(_SCRIPT_ESCAPES)),
    )
