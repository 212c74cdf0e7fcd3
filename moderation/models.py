"""Fair play: reports, the staff's actions on accounts, their effects, and
play-bans for leavers (docs/architecture.md, "Fair play and moderation")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game

USER = settings.AUTH_USER_MODEL


class Report(models.Model):
    """A player's report about another account, or a signal the site filed."""

    class Reason(models.TextChoices):
        CHEATING = "cheating", _("cheating")
        ABUSE = "abuse", _("abuse")
        STALLING = "stalling", _("stalling")
        OTHER = "other", _("other")
        # Filed by the site itself (reporter empty): never by a person.
        BOOSTING = "boosting", _("boosting")
        RATING_JUMP = "rating_jump", _("rating jump")
        SHARED_DEVICE = "shared_device", _("shared device")
        MANY_REPORTS = "many_reports", _("many reports")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACTED = "acted", _("acted on")
        CLEARED = "cleared", _("cleared")

    reporter = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    target = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="reports_against")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    text = models.CharField(max_length=1000, blank=True)
    # Attached by the server when filed: the game's record, chat lines, the pair's games.
    evidence = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(default=timezone.now)
    closed = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created", "-pk"]
        # Two staff roles, given through groups (migration 0001 makes them).
        permissions = [
            ("moderate", "Can settle reports and sanction accounts"),
            ("arbitrate_remis", "Can decide remis requests"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "target"],
                condition=Q(status="open"),
                name="report_open_once",
            ),
            # The site files one open signal of a kind per account.
            models.UniqueConstraint(
                fields=["target", "reason"],
                condition=Q(status="open", reporter__isnull=True),
                name="signal_open_once",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "created"]),
            models.Index(fields=["target", "status"]),
        ]

    def __str__(self) -> str:
        return f"report {self.pk} on {self.target_id} ({self.reason})"


class Standing(models.Model):
    """An account's sanctions in force; no row: none."""

    user = models.OneToOneField(
        USER, primary_key=True, on_delete=models.CASCADE, related_name="standing"
    )
    muted_until = models.DateTimeField(null=True, blank=True)
    suspended_until = models.DateTimeField(null=True, blank=True)
    closed = models.BooleanField(default=False)
    booster = models.BooleanField(default=False)  # marked once: its victims were refunded

    def __str__(self) -> str:
        return f"standing of {self.user_id}"


class Sanction(models.Model):
    """One staff action on an account, with who and why: the log."""

    class Action(models.TextChoices):
        WARN = "warn", _("warn")
        MUTE = "mute", _("mute")
        SUSPEND = "suspend", _("suspend")
        CLOSE = "close", _("close")
        BOOSTER = "booster", _("booster")
        CLEAR = "clear", _("clear")

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="sanctions")
    moderator = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=8, choices=Action.choices)
    days = models.PositiveSmallIntegerField(null=True, blank=True)
    note = models.CharField(max_length=1000, blank=True)
    # What the action did, for the log (refunds: games and points).
    detail = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.action} on {self.user_id}"


class Refund(models.Model):
    """A rating loss given back to a booster's opponent: once per player and game."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="refund_once")]

    def __str__(self) -> str:
        return f"refund of {self.mu:.2f} to {self.user_id} for game {self.game_id}"


class Offence(models.Model):
    """An abort, a leave or a clock run out: what play-bans count."""

    class Kind(models.TextChoices):
        ABORT = "abort", _("aborted a game")
        LEAVE = "leave", _("left a game")
        FLAG = "flag", _("let the clock run out")

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, null=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    correspondence = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "correspondence", "created"])]

    def __str__(self) -> str:
        return f"{self.kind} by {self.user_id}"


class PlayBan(models.Model):
    """No new realtime tables or quick play until ``until``."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    minutes = models.PositiveIntegerField()
    reason = models.CharField(max_length=8, choices=Offence.Kind.choices)
    created = models.DateTimeField(default=timezone.now)
    until = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "until"])]

    def __str__(self) -> str:
        return f"play-ban of {self.user_id} until {self.until}"


class Sighting(models.Model):
    """An account seen logging in from an address and a device cookie (staff only)."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    address = models.CharField(max_length=64, blank=True)
    device = models.CharField(max_length=64, blank=True)
    last = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "address", "device"], name="sighting_once")
        ]
        indexes = [models.Index(fields=["address"]), models.Index(fields=["device"])]

    def __str__(self) -> str:
        return f"{self.user_id} seen at {self.address} / {self.device}"
