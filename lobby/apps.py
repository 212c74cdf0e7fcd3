from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_save, pre_delete


class LobbyConfig(AppConfig):
    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A tournament game's end records its points in the ending's transaction.
        from games.hooks import game_over, seat_no_show

        from .tournaments.entry import on_seat_no_show
        from .tournaments.rounds import on_game_over

        game_over.connect(on_game_over, dispatch_uid="lobby.tournaments.on_game_over")
        # A club match's board: its points count to the match's score.
        from .clubs.matches import on_game_over as on_match_game_over

        game_over.connect(on_match_game_over, dispatch_uid="lobby.clubs.matches.on_game_over")
        # A table's no-show: its seat goes to a bot, the player is out and banned.
        seat_no_show.connect(on_seat_no_show, dispatch_uid="lobby.tournaments.on_seat_no_show")
        # A club lists its members' running games: kept as games start and end.
        from games.hooks import games_started

        from .clubs import live_games

        games_started.connect(
            live_games.on_games_started, dispatch_uid="lobby.clubs.on_games_started"
        )
        game_over.connect(live_games.on_game_over, dispatch_uid="lobby.clubs.on_game_over")
        # A deleted account leaves its clubs (an owner's club to an admin).
        from .clubs.deletion import on_account_deleted

        pre_delete.connect(
            on_account_deleted,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="lobby.clubs.on_account_deleted",
        )
        # A start, round, deadline or standings newly due wakes the sweep that runs it.
        post_save.connect(
            on_tournament_saved, sender="lobby.Tournament", dispatch_uid="lobby.tournament_due"
        )


def on_tournament_saved(instance: Any, **kwargs: Any) -> None:
    from games import wakeups

    dues = [d for d in (instance.due, instance.standings_due) if d is not None]
    if dues:
        wakeups.wake_after_commit("tournaments", at=min(dues))
