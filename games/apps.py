from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.services import deletion  # noqa: F401  (connects its signal)

        from .services.internal import listed_players  # noqa: F401  (connects its signals)
