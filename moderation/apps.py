from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"
    verbose_name = "Fair play and moderation"

    def ready(self) -> None:
        from . import sightings  # noqa: F401  (records logins' address and device)
