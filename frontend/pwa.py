"""The installable web app: its manifest, its service worker (``/sw.js``, root
scope), the page the worker shows when the network is gone, and the settings
page's push section.

Static files have content-hashed names (a manifest storage), so the worker
cannot name them itself: ``/sw.js`` is a few lines written here, naming the
shell's hashed URLs and a cache version derived from them, followed by the
worker's code (frontend/static/frontend/sw/worker.js) loaded by its hashed
URL. A deploy that changes any shell file changes these bytes, and browsers
install the new worker.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.models import Notification
from games.services import push

from .budget import write_budget
from .templatetags.importmap import module_names

SHELL_FILES = [
    "frontend/css/site.css",
    "frontend/css/panels.css",
    "frontend/favicon.svg",
    "frontend/icons/icon.svg",
    "frontend/icons/icon-192.png",
]
WORKER = "frontend/sw/worker.js"
THEME = "#2f6f4f"
BACKGROUND = "#f4f1ea"


@cache
def shell_urls() -> tuple[str, ...]:
    """The hashed URLs of what every page loads: styles, icons, the modules."""
    names = SHELL_FILES + module_names()
    return tuple(staticfiles_storage.url(name) for name in names)


@receiver(setting_changed)
def _forget(setting: str, **kwargs: object) -> None:
    if setting in {"STATIC_URL", "STATIC_ROOT", "STORAGES", "STATICFILES_DIRS", "DEBUG"}:
        shell_urls.cache_clear()


@require_GET
@never_cache
def service_worker(request):
    worker = staticfiles_storage.url(WORKER)
    shell = [*shell_urls(), reverse("offline")]
    version = hashlib.sha256(json.dumps([worker, shell]).encode()).hexdigest()[:16]
    config = {"version": version, "shell": shell, "offline": reverse("offline")}
    body = (
        "// The site's service worker: the shell to cache, then the code.\n"
        f"self.SW_CONFIG = {json.dumps(config)};\n"
        f"importScripts({json.dumps(worker)});\n"
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request):
    """The web app manifest (in the reader's language)."""
    icon = staticfiles_storage.url
    data = {
        "id": "/",
        "name": "Brettspiele",
        "short_name": "Brettspiele",
        "description": gettext("Board games to play live or by correspondence."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": icon("frontend/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": icon("frontend/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": icon("frontend/icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",  # full bleed: a round crop loses nothing
            },
            {"src": icon("frontend/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    response["Vary"] = "Accept-Language, Cookie"
    return response


@require_GET
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links (feed readers,
    bookmarks, the admin): the site's icon, not a 404 in every log."""
    response = HttpResponsePermanentRedirect(staticfiles_storage.url("frontend/favicon.svg"))
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_GET
def offline(request):
    """What the worker shows when a page cannot be loaded: nothing personal, as
    it is cached once for everyone using this browser."""
    return render(request, "frontend/offline.html")


@login_required
@require_POST
@write_budget("push")  # the API's push settings
def push_settings(request):
    """The settings page's push section: the kinds ticked are pushed, the
    others switched off (for all of the user's devices)."""
    kinds = request.POST.getlist("kinds")
    push.push_muted_set(
        user=request.user, kinds=[k for k in Notification.Kind.values if k not in kinds]
    )
    messages.success(request, gettext("Push settings saved."))
    return redirect(reverse("settings") + "#push-settings")
