from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from .devices import count_failure
        from .language import fill_in_at_login

        user_logged_in.connect(fill_in_at_login, dispatch_uid="accounts.fill_in_language")
        user_login_failed.connect(count_failure, dispatch_uid="accounts.device_failures")
