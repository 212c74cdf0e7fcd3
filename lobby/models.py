"""Tournaments: the event, its players and each round's pairings (games or byes)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Tournament(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class System(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin")

    name = models.CharField(max_length=80)
    ruleset = models.CharField(max_length=32)
    system = models.CharField(max_length=12, choices=System.choices)
    seat_count = models.PositiveSmallIntegerField(default=2)
    rounds = models.PositiveSmallIntegerField(default=0)  # Swiss; round robin: from the field
    double = models.BooleanField(default=False)  # round robin twice, seats swapped
    clock = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=False)
    options = models.JSONField(default=dict, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    round_pause_seconds = models.PositiveIntegerField(default=0)
    # Correspondence: each round ends this many days after it is paired; its
    # unfinished games are adjudicated then (docs/tournaments.md). null: none.
    round_days = models.PositiveSmallIntegerField(null=True, blank=True)
    round_deadline = models.DateTimeField(null=True, blank=True)
    featured = models.BooleanField(default=False)  # staff's: listed first
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    current_round = models.PositiveSmallIntegerField(default=0)
    # Entry conditions, checked at joining and again at start; null: none.
    min_rating = models.PositiveIntegerField(null=True, blank=True)
    min_games = models.PositiveIntegerField(null=True, blank=True)
    # When the sweeper has work here (a start or the next round); null: none.
    due = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            # The lists: featured first, then the newest (per status, and all).
            models.Index(
                fields=["status", "-featured", "-created"], name="tournament_status_listed"
            ),
            models.Index(fields=["-featured", "-created"], name="tournament_listed"),
            models.Index(
                fields=["due"], name="tournament_due", condition=models.Q(due__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TournamentPlayer(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    joined = models.DateTimeField(auto_now_add=True)
    withdrawn = models.BooleanField(default=False)
    # Starting rank, fixed at the start by rating (late joiners after); null before.
    seed = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_player_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class TournamentPairing(models.Model):
    """One game (or bye) of a round; ``players`` are user ids in seat order,
    ``points`` user id (as text) -> points once decided."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_pairing"
    )
    players = models.JSONField(default=list)
    bye = models.BooleanField(default=False)
    points = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["round", "board"]
        constraints = [
            # Backs "paired once": a second pairing of a round cannot commit.
            models.UniqueConstraint(
                fields=["tournament", "round", "board"], name="tournament_pairing_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: round {self.round}, board {self.board}"


class TournamentChatMessage(models.Model):
    """A line of a tournament page's chat (players and spectators with an account)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            # The page reads the newest lines of one tournament from the index.
            models.Index(fields=["tournament", "-created", "-id"], name="tournament_chat_newest")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.text[:30]}"


class TournamentBan(models.Model):
    """No-shows: each one bans tournament joins for 1 day, doubling, at most 30."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_ban"
    )
    no_shows = models.PositiveIntegerField(default=0)
    until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.no_shows} no-shows"
