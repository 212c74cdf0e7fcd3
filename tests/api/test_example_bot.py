"""docs/api_example_bot.py, the client docs/api.md shows, plays a whole game
of Halma against the site's easy bot through a live Daphne: its own event
stream hears the game start, its game stream carries every move, its moves
go in by POST, and the game ends.

Run: .venv/bin/pytest tests/api/test_example_bot.py
"""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path

import pytest
from django.conf import settings

from games.models import Game

from .live import LiveApiTestCase

pytestmark = [pytest.mark.live]


def example_bot():
    """The documented file itself, imported (it is no package of the site)."""
    path = Path(settings.BASE_DIR) / "docs" / "api_example_bot.py"
    spec = importlib.util.spec_from_file_location("api_example_bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ExampleBotTests(LiveApiTestCase):
    def test_the_documented_bot_finishes_a_game_against_the_easy_bot(self):
        bot = example_bot()
        user, secret = self.person("halmabot", scopes=["read", "play"], bot=True)
        site = bot.Site(self.live_server_url, secret)
        outcome: list = []
        player = threading.Thread(
            target=lambda: outcome.extend(bot.run(site, versus="easy", games=1, seed=7)),
            daemon=True,
        )
        player.start()
        player.join(timeout=300)
        assert not player.is_alive(), "the game did not end in five minutes"
        [(game_id, state)] = outcome
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.FINISHED and state["status"] == "finished"
        assert game.bots == {"1": "easy"} and game.seats.get(index=0).user == user
        moves = game.events.filter(kind="act")
        assert moves.filter(seat=0).count() >= 10 and moves.filter(seat=1).count() >= 10
        print(f"game {game_id}: {game.version} versions, result {game.result}")
