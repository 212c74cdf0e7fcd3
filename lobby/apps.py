from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A tournament game's end records its points in the ending's transaction.
        from games.hooks import game_over, seat_no_show

        from .tournaments.entry import on_seat_no_show
        from .tournaments.rounds import on_game_over

        game_over.connect(on_game_over, dispatch_uid="lobby.tournaments.on_game_over")
        # A table's no-show: its seat goes to a bot, the player is out and banned.
        seat_no_show.connect(on_seat_no_show, dispatch_uid="lobby.tournaments.on_seat_no_show")
