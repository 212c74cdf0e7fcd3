from django.urls import path

from games.realtime.consumers import GameConsumer, NotifyConsumer, RemisQueueConsumer
from games.realtime.stream_events import EventStream
from games.realtime.stream_games import GameStream
from lobby.consumers import LobbyConsumer
from moderation.consumers import ModerationQueueConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/notify/", NotifyConsumer.as_asgi()),
    path("ws/remis/", RemisQueueConsumer.as_asgi()),
    path("ws/moderation/", ModerationQueueConsumer.as_asgi()),
]

# NDJSON streams for API clients (docs/api.md); HTTP, served on the event loop.
STREAM_PREFIX = "/api/stream/"
stream_urlpatterns = [
    path("api/stream/events/", EventStream.as_asgi()),
    path("api/stream/games/<int:game_id>/", GameStream.as_asgi()),
]
