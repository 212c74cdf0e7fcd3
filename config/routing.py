from django.urls import path

from games.consumers import GameConsumer
from lobby.consumers import LobbyConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi()),
]
