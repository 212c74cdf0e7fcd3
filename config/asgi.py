"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.realtime.sweeper import StartSweeper  # noqa: E402

from .routing import websocket_urlpatterns  # noqa: E402
from .visitors import VisitorMiddleware  # noqa: E402

application = StartSweeper(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                VisitorMiddleware(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)


# Measured (bench/ws_load.py, paced load): full garbage collections over the
# long-lived objects of hundreds of open sockets stalled every frame for
# 70-140 ms every few seconds. Keep what exists at start-up out of collection
# and collect the young generation less eagerly.
gc.freeze()
gc.set_threshold(50_000, 20, 100)
