from django.urls import path

from games.realtime.consumers import GameConsumer, NotifyConsumer, RemisQueueConsumer
from lobby.consumers import LobbyConsumer
from moderation.consumers import ModerationQueueConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/notify/", NotifyConsumer.as_asgi()),
    path("ws/remis/", RemisQueueConsumer.as_asgi()),
    path("ws/moderation/", ModerationQueueConsumer.as_asgi()),
]
