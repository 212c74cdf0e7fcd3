"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.realtime.sweeper import StartSweeper  # noqa: E402

from .drain import Gate, install_under_daphne  # noqa: E402
from .health import health_app  # noqa: E402
from .routing import STREAM_PREFIX, stream_urlpatterns, websocket_urlpatterns  # noqa: E402
from .visitors import VisitorMiddleware  # noqa: E402


class StreamsFirst:
    """HTTP: the API's streams to their consumers, everything else (an unknown
    stream address too: a JSON 404) to Django."""

    def __init__(self, django_app) -> None:
        self.django = django_app
        self.streams = URLRouter([*stream_urlpatterns, re_path(r"", django_app)])

    _asgi_single_callable = True

    def __call__(self, scope, receive, send):
        # The app's coroutine itself (no frame of this router stays alive per request).
        app = self.streams if scope["path"].startswith(STREAM_PREFIX) else self.django
        return app(scope, receive, send)


application = Gate(
    StartSweeper(
        ProtocolTypeRouter(
            {
                "http": StreamsFirst(django_asgi_app),
                "websocket": AllowedHostsOriginValidator(
                    VisitorMiddleware(URLRouter(websocket_urlpatterns))
                ),
            }
        )
    ),
    health=health_app,
    started_health=StartSweeper(health_app),
)
install_under_daphne()  # SIGTERM drains (config/drain.py)


# Measured (bench/ws_load.py, paced load): full garbage collections over the
# long-lived objects of hundreds of open sockets stalled every frame for
# 70-140 ms every few seconds. Keep what exists at start-up out of collection
# and collect the young generation less eagerly.
gc.freeze()
gc.set_threshold(50_000, 20, 100)
