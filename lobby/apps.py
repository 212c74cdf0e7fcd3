from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A tournament game's end records its points in the ending's transaction.
        from games.hooks import game_over

        from .tournaments.rounds import on_game_over

        game_over.connect(on_game_over, dispatch_uid="lobby.tournaments.on_game_over")
