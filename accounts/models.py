from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from .names import MAX_LENGTH, skeleton


class User(AbstractUser):
    """The site's user; custom from the first migration so it can grow."""

    email_notifications = models.BooleanField(
        _("e-mail notifications"),
        default=False,
        help_text=_("Also send notifications by e-mail."),
    )
    # Set at sign-up, by the language switch and on the settings page; empty
    # for accounts from before it existed until their next login.
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        default="",
        help_text=_("Notifications and e-mails are written in this language."),
    )

    # A computer player (accounts/services/internal/bot_accounts.py): never logs in, and
    # is shown with a "bot" badge wherever its name appears.
    is_bot = models.BooleanField(_("bot"), default=False)
    # A visitor's temporary account (accounts/services/guests.py): a generated name,
    # marked "guest" wherever it appears, never rated; deleted after a day
    # idle (``seen``), its games kept; signing up from the same browser
    # turns it into a real account with its games.
    is_guest = models.BooleanField(_("guest"), default=False)
    # A person's own bot (accounts/bot_upgrade.py): also ``is_bot`` (the badge,
    # no ratings), but played by its owner's program through the API with a
    # personal token, never by the site's bot worker. Irreversible.
    plays_by_api = models.BooleanField(_("plays by the API"), default=False)
    seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    # "Tell me when someone I follow starts a live game" (games/services/internal/followers.py).
    follow_notices = models.BooleanField(
        _("notices of followed players' games"),
        default=True,
        help_text=_("Tell me when a player I follow starts a live game."),
    )
    # Each of my rated games analysed by the computer once it ends
    # (games/services/analysis.py, within the daily limit).
    analyse_rated_games = models.BooleanField(
        _("analyse my rated games"),
        default=False,
        db_default=False,  # rows written by code from before it still read False
        help_text=_("Have the computer analyse each of my rated games once it is over."),
    )

    # The name's look-alike form (accounts/names.py): a sign-up whose
    # skeleton is taken is refused (accounts/forms.py). Kept on every save.
    name_skeleton = models.CharField(max_length=MAX_LENGTH, db_index=True, editable=False)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def save(self, *args: Any, **kwargs: Any) -> None:
        fields = kwargs.get("update_fields")
        if fields is None or "username" in fields:
            self.name_skeleton = skeleton(self.username)
            if fields is not None:
                kwargs["update_fields"] = {*fields, "name_skeleton"}
        super().save(*args, **kwargs)

    def language_or_default(self) -> str:
        """The language of everything sent to this user (mail, notifications)."""
        return self.language or settings.LANGUAGE_CODE


class Block(models.Model):
    """``user`` blocked ``blocked``: no pairing either way, their chat hidden for ``user``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "blocked"], name="block_once")]

    def __str__(self) -> str:
        return f"{self.user_id} blocks {self.blocked_id}"


class Follow(models.Model):
    """``user`` follows ``followed``: the lobby lists their live games."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "followed"], name="follow_once")]

    def __str__(self) -> str:
        return f"{self.user_id} follows {self.followed_id}"


class ApiToken(models.Model):
    """A personal API token (accounts/tokens.py): only the SHA-256 of its
    secret is stored; the secret is shown once, when it is made."""

    SCOPES = ("read", "play", "challenge")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(max_length=64, unique=True)  # sha256 hex of the secret
    prefix = models.CharField(max_length=12)  # its first characters, to tell tokens apart
    scopes = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.name} ({self.prefix}…)"
