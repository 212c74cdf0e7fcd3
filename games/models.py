"""Game records: the game row (state and version), seats, the event log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_seed() -> int:
    return secrets.randbits(62)


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


class Game(models.Model):
    """One table and, once started, its game. The row is the lock for acts."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACTIVE = "active", _("running")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    ruleset = models.CharField(_("game"), max_length=32)
    options = models.JSONField(default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField(default=2)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    seed = models.BigIntegerField(default=new_seed)
    to_act = models.JSONField(default=list, blank=True)
    result = models.JSONField(null=True, blank=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_games"
    )
    invite_code = models.CharField(max_length=16, unique=True, default=new_invite_code)
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="challenges",
    )
    is_quickplay = models.BooleanField(default=False)
    # Time control: {"kind": "none" | "correspondence" | "realtime", ...}.
    clock = models.JSONField(default=dict, blank=True)
    clocks = models.JSONField(default=list, blank=True)  # realtime: seconds left per seat
    turn_started = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    timer = models.CharField(max_length=8, blank=True, default="")  # clock|move|phase|work
    phase_deadline = models.DateTimeField(null=True, blank=True)
    timer_key = models.CharField(max_length=64, blank=True, default="")
    paused = models.BooleanField(default=False)
    draw_offers = models.JSONField(default=list, blank=True)
    left_seats = models.JSONField(default=list, blank=True)
    imported = models.BooleanField(default=False)  # rebuilt from an export
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created"])]

    def __str__(self) -> str:
        return f"{self.ruleset} #{self.pk} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    joined = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of game {self.game_id}"


class Event(models.Model):
    """Append-only log; (game, version) is unique so nothing is applied twice."""

    class Kind(models.TextChoices):
        START = "start", _("start")
        ACT = "act", _("move")  # ruleset.apply(seat, action)
        TIMEOUT = "timeout", _("timeout")  # ruleset.apply of timeout_action
        LEAVE = "leave", _("leave")  # ruleset.leave(seat): resigned or out of time
        END = "end", _("end")  # the platform ended it: resign, flag, draw, abort
        DRAW_OFFER = "draw_offer", _("draw offer")
        DRAW_DECLINE = "draw_decline", _("draw declined")
        WORK = "work", _("background work")  # e.g. resolving a Hexenhalma round

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # The raw action is server-only while the game runs (it can be a secret).
    action = models.JSONField(null=True, blank=True)
    events = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="event_unique_version")
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} v{self.version} {self.kind}"


class Presence(models.Model):
    """An open game socket, so pages can show how many watch."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="presences")
    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    seat = models.SmallIntegerField(null=True, blank=True)
    last_seen = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "last_seen"])]

    def __str__(self) -> str:
        return f"socket {self.channel_name} on game {self.game_id}"


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    seat = models.SmallIntegerField(null=True, blank=True)  # None: a spectator
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        indexes = [models.Index(fields=["game", "created"])]

    def __str__(self) -> str:
        return f"chat {self.pk} in game {self.game_id}"


class Notification(models.Model):
    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("your turn")
        DRAW_OFFER = "draw_offer", _("draw offer")
        CHALLENGE = "challenge", _("challenge")
        GAME_OVER = "game_over", _("game over")
        DECISION = "decision", _("admin decision")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE)
    params = models.JSONField(default=dict, blank=True)
    read = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["user", "read", "-created"])]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class MatchRecord(models.Model):
    """Long work's results kept outside the state (Hexenhalma match traces)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="records")
    version = models.PositiveIntegerField()  # the work event that produced it
    index = models.PositiveSmallIntegerField()
    data = models.JSONField()

    class Meta:
        ordering = ["version", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version", "index"], name="record_unique")
        ]

    def __str__(self) -> str:
        return f"record {self.index} of game {self.game_id} v{self.version}"
