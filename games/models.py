"""Game records: the game row (state and version), seats, the event log."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from datetime import datetime
from typing import Any, NamedTuple, NotRequired, TypedDict, cast

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .rules.base import Outcome


def new_seed() -> int:
    return secrets.randbits(62)


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


class SeatHandedOver(TypedDict):
    seat: int
    move: int  # the bot plays from this move on


class GameResult(Outcome):
    """What ``Game.result`` holds: the rules' outcome (or the platform's, for a
    resignation, a time-out, a draw or an abort), naming the seats a bot took over."""

    handovers: NotRequired[list[SeatHandedOver]]


class AsRead(NamedTuple):
    """A game row's fields as read from the database (``Game.from_db``)."""

    version: int
    state: Any
    bots: dict[str, Any]
    status: str


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
    # A deleted host leaves the game to its other players: their events, chat
    # and rating history stay (an open table of theirs goes,
    # accounts/services/deletion.py).
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_games",
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
    auto_start = models.BooleanField(default=False)  # start as soon as every seat is taken
    # Time control: {"kind": "none" | "correspondence" | "realtime", ...}.
    clock = models.JSONField(default=dict, blank=True)
    # Seconds left per seat as of turn_started: the game's (realtime) or the turn's (correspondence).
    clocks = models.JSONField(default=list, blank=True)
    turn_started = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    timer = models.CharField(max_length=8, blank=True, default="")  # clock|move|phase|work|vacation
    phase_deadline = models.DateTimeField(null=True, blank=True)
    timer_key = models.CharField(max_length=64, blank=True, default="")
    paused = models.BooleanField(default=False)
    draw_offers = models.JSONField(default=list, blank=True)
    left_seats = models.JSONField(default=list, blank=True)
    imported = models.BooleanField(default=False)  # rebuilt from an export
    # A game continued from another's position ("continue from here against
    # the computer", services/continuing.py): {"game": id, "version": n,
    # "state": the position without the dice's hidden source}; its version 1
    # is that position (rules.base.opening_state). None: the set-up.
    opening = models.JSONField(null=True, blank=True)
    # Rated (True), casual (False), or the default (None): rated between
    # people, casual when a bot sits at the table (services/internal/ratings.py).
    rated = models.BooleanField(null=True, blank=True, default=None)
    remis_pending = models.JSONField(null=True, blank=True)  # what every page shows while paused
    # Deadlock remis requests filed per seat (at most two each, RULES.md §1).
    deadlock_requests = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)
    # Seats the in-process bot worker plays, {"<seat>": level} (games/services/bots.py);
    # has_bots is its indexed flag, so the worker's poll reads only these games.
    bots = models.JSONField(default=dict, blank=True)
    has_bots = models.BooleanField(default=False)
    # The version a worker claimed to think about, and when: one process
    # thinks per bot turn; a claim older than BOT_CLAIM_SECONDS is free again.
    bot_claim = models.PositiveIntegerField(default=0)
    bot_claim_at = models.DateTimeField(null=True, blank=True)
    # Seats offered to a bot after their player timed out (3+ seats), {"<seat>":
    # {"votes": [seats], "move": None | n}}: "move" is set once every other
    # player agreed, and a bot plays the seat from move n (games/services/handover.py).
    handovers = models.JSONField(default=dict, blank=True)
    # Correspondence time banks: each seat's bank left in seconds (games/clocks.py).
    banks = models.JSONField(default=list, blank=True)
    # Seats whose player is on vacation, {"<seat>": {"username", "until"}}: their
    # correspondence clock stands still (games/services/vacation.py).
    away = models.JSONField(default=dict, blank=True)
    # Seats holding conditional moves (``ConditionalPlan``): read with the
    # row lock, so a move learns without a query whether a reply may follow.
    # Never shown to anyone: the plans are their owner's secret.
    plan_seats = models.JSONField(default=list, blank=True)
    # Seats whose player lets the site play their forced turns (Malefiz: a
    # roll with one move), and when the next such turn is due: set with every
    # event (clocks.set_forced), read by the sweeper through its index.
    autoplay = models.JSONField(default=list, blank=True)
    forced_at = models.DateTimeField(null=True, blank=True)
    # What the background loops look for, derived from the fields above on
    # every save (``mark_due``), each with a partial index holding only the
    # rows due: a bot seat is to act (the bot worker's poll), and when the
    # earliest open leave offer runs out (``handover.handover_offers_expire``).
    bot_due = models.BooleanField(default=False)
    offer_due = models.DateTimeField(null=True, blank=True)
    # A table at one screen (games/services/creating.py): the host holds every
    # seat a bot does not and names its players, {"names": [name | None per
    # seat]} (None: a bot's seat). Never rated; None for every other game.
    one_screen = models.JSONField(null=True, blank=True, default=None)
    # Its seats' holders as lists name them, one [user id, username, is bot]
    # or None (a free seat) per seat: written when the game starts (its seats
    # change no more) and None again when one of them is deleted or renamed.
    # None: not kept (an open table, a game from before it): read the seats.
    # My games reads its page's players from here, not 50 games' seats
    # (games/selectors/listed_players.py).
    listed_players = models.JSONField(null=True, blank=True, default=None)

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created"]),
            models.Index(
                fields=["status"], condition=models.Q(has_bots=True), name="game_bot_play"
            ),
            models.Index(fields=["id"], condition=models.Q(bot_due=True), name="game_bot_due"),
            models.Index(
                fields=["forced_at"],
                condition=models.Q(forced_at__isnull=False),
                name="game_forced_due",
            ),
            models.Index(
                fields=["offer_due"],
                condition=models.Q(offer_due__isnull=False),
                name="game_offer_due",
            ),
        ]

    as_read: AsRead | None = None

    def __str__(self) -> str:
        return f"{self.ruleset} #{self.pk} ({self.status})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Derive the due columns whenever what they depend on is saved."""
        fields = kwargs.get("update_fields")
        if fields is None or DUE_SOURCES.intersection(fields):
            self.mark_due()
            if fields is not None:
                kwargs["update_fields"] = {*fields, *DUE_FIELDS}
        super().save(*args, **kwargs)

    def mark_due(self) -> None:
        """Set ``bot_due`` and ``offer_due`` from the game as it is now."""
        running = self.status == self.Status.ACTIVE
        left = set(self.left_seats or [])
        self.bot_due = (
            running
            and not self.paused
            and any(str(s) in (self.bots or {}) and s not in left for s in self.to_act or [])
        )
        until = [
            offer["leave"]["until"]
            for offer in (self.handovers or {}).values()
            if offer.get("leave") and offer.get("move") is None
        ]
        self.offer_due = min(map(_parse_time, until)) if running and until else None

    @classmethod
    def from_db(
        cls, db: str | None, field_names: Collection[str], values: Collection[Any], **kwargs: Any
    ) -> Game:
        game = super().from_db(db, field_names, values, **kwargs)
        # The row as read (under the lock: the version before the next event):
        # each seat's view delta in the event frame starts from it.
        if {"version", "state", "bots", "status"} <= set(field_names):
            game.as_read = AsRead(game.version, game.state, dict(game.bots or {}), game.status)
        return game

    @property
    def started_state(self) -> dict[str, Any]:
        """The stored state of a game that has started (an open table has none yet)."""
        if self.state is None:
            raise ValueError(f"game {self.pk} has not started: it has no state")
        return cast("dict[str, Any]", self.state)

    def one_screen_seat(self) -> int | None:
        """At a table at one screen, whose turn the screen is now: the first
        named (not a bot's) seat to act in the running game; None otherwise
        (a bot's turn, a game over, any other game)."""
        names = (self.one_screen or {}).get("names") or []
        if self.status != self.Status.ACTIVE or self.paused:
            return None
        for seat in self.to_act or []:
            if seat < len(names) and names[seat] is not None and str(seat) not in self.bots:
                return int(seat)
        return None

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


# The fields ``Game.mark_due`` reads, and those it writes.
DUE_SOURCES = frozenset(("status", "to_act", "bots", "left_seats", "paused", "handovers"))
DUE_FIELDS = ("bot_due", "offer_due")


def _parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


class ConditionalPlan(models.Model):
    """A seat's conditional moves (services/conditional.py): lines of
    normalised actions, the opponent's first, then the reply, and so on.
    Their owner's secret; never part of the game's state or its log."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="plans")
    seat = models.PositiveSmallIntegerField()
    lines = models.JSONField(default=list)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="plan_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"plan of seat {self.seat} in game {self.game_id}"


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
    # The game has ended (finished or aborted): set in the ending's
    # transaction (``seats_ended``), never unset, as an ended game never runs
    # again. The completion rate counts a player's ended games from the index
    # below alone instead of reading 500 games by key.
    game_ended = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["index"]
        # A player's games, newest first (the player page, My games, the
        # completion rate), each with whether it ended: from the index alone.
        indexes = [
            models.Index(
                fields=["user", "-game"], include=["game_ended"], name="seat_user_newest_ended"
            )
        ]
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


def seats_ended(game_id: int) -> None:
    """Mark the seats of a game that just ended (``Seat.game_ended``), in the
    ending's transaction."""
    Seat.objects.filter(game_id=game_id, game_ended=False).update(game_ended=True)


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
        REMIS = "remis", _("remis request")  # filed or decided; the state is unchanged
        HANDOVER = "handover", _("seat handed to a bot")  # a vote; the state is unchanged
        VACATION = "vacation", _("vacation")  # a player's vacation began or ended; clocks only

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
        FOLLOWED = "followed_start", _("a followed player's game")
        ROUND_START = "round_start", _("a tournament round began")

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
        indexes = [
            models.Index(fields=["user", "read", "-created"]),
            # The bell's list and newest id: newest first from the index.
            models.Index(fields=["user", "-created", "-id"], name="notification_user_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class OutgoingMail(models.Model):
    """A notification's e-mail waiting to go out (the outbox, see games/services/mail.py).

    Written in the notifying transaction, so a rolled-back change sends
    nothing and a process dying after the commit loses nothing; a row is
    deleted once sent.
    """

    notification = models.OneToOneField(Notification, on_delete=models.CASCADE, related_name="mail")
    # When to try (next); None: given up after too many failures.
    due = models.DateTimeField(null=True, blank=True, default=timezone.now, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    # A turn notice: gathered into the recipient's hourly digest (services/mail.py).
    digest = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"mail for notification {self.notification_id}"


class DigestSent(models.Model):
    """When a user's last turn digest went out: at most one an hour."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    sent = models.DateTimeField()

    def __str__(self) -> str:
        return f"digest for {self.user_id} at {self.sent}"


class Vacation(models.Model):
    """A player's vacation, from ``start`` to ``end`` (set to the moment it
    was ended, if ended early): their correspondence clocks stop meanwhile."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    start = models.DateTimeField()
    end = models.DateTimeField()

    class Meta:
        ordering = ["start"]
        indexes = [models.Index(fields=["user", "end"])]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} {self.start:%Y-%m-%d}..{self.end:%Y-%m-%d}"


BULKY_RECORD_KEYS = {"trace", "board", "params"}


def record_summary(data: dict) -> dict:
    """A long work record without its bulky parts (traces, boards), for listings."""
    return {k: v for k, v in data.items() if k not in BULKY_RECORD_KEYS}


class MatchRecord(models.Model):
    """Long work's results kept outside the state (Hexenhalma match traces)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="records")
    version = models.PositiveIntegerField()  # the work event that produced it
    index = models.PositiveSmallIntegerField()
    data = models.JSONField()
    # ``data`` without its bulky parts (traces, boards): what listings read.
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["version", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version", "index"], name="record_unique")
        ]

    def __str__(self) -> str:
        return f"record {self.index} of game {self.game_id} v{self.version}"


class ReplayCheckpoint(models.Model):
    """The encoded state after one version, so a replay page starts close by
    instead of replaying the game from its start (games/services/internal/replay_checkpoints.py).
    Server-only, like the state itself: it can hold secrets (orders)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checkpoints")
    version = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="checkpoint_unique_version")
        ]

    def __str__(self) -> str:
        return f"checkpoint of game {self.game_id} at v{self.version}"


class RemisRequest(models.Model):
    """A Halma remis claim waiting for (or decided by) an admin."""

    class Kind(models.TextChoices):
        REPETITION = "repetition", _("repetition")
        DEADLOCK = "deadlock", _("deadlock")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")
        CLOSED = "closed", _("closed")  # the game ended while it waited

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="remis_requests")
    seat = models.SmallIntegerField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,  # the game's record outlives the account
        related_name="remis_requests",
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    action = models.JSONField(null=True, blank=True)  # the move not played (repetition)
    move_numbers = models.JSONField(default=list, blank=True)
    reason = models.TextField(blank=True)
    evidence = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # The game's clock kind, copied when filed (it never changes): the queue
    # shows realtime games first and reads that order from an index.
    realtime = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="remis_decisions",
    )
    decided = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["created", "pk"]
        indexes = [
            models.Index(fields=["status", "created"]),
            # The queue's order, a page at a time (keyset, issue 31).
            models.Index(
                fields=["realtime", "created", "id"],
                condition=models.Q(status="pending"),
                name="remis_queue_order",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status="pending"),
                name="one_pending_remis_per_game",
            )
        ]

    def __str__(self) -> str:
        return f"remis {self.kind} in game {self.game_id} ({self.status})"


# Fewer rated games than this: the rating is marked provisional ("?") and
# ranked after every established one.
PROVISIONAL_GAMES = 10


class Rating(models.Model):
    """A player's skill in one game at one speed (openskill's Plackett-Luce).

    The row is the lock for updating it: a game's end locks its players' rows
    (``services/internal/ratings.py``), so two games ending at once both count.
    """

    class Speed(models.TextChoices):
        REALTIME = "realtime", _("realtime")
        CORRESPONDENCE = "correspondence", _("correspondence")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    ruleset = models.CharField(max_length=32)
    speed = models.CharField(max_length=16, choices=Speed.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()  # the shown figure (about 1500 for a newcomer)
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset", "speed"], name="rating_unique")
        ]
        indexes = [
            # The leaderboard's order, covering what it shows of a rating (games,
            # whose name): PostgreSQL reads the page from the index alone, not
            # from a heap page per row scattered by rating (include is
            # PostgreSQL's; elsewhere this is the plain index).
            models.Index(
                fields=["ruleset", "speed", "-display"],
                include=["games", "user"],
                name="rating_board",
            ),
            # The established players' page (``games >= 10``, ranked first), from
            # an index of them alone: where most rated players are still
            # provisional, walking ``rating_board`` read thousands of rows to
            # find 100 established ones (docs/performance.md).
            models.Index(
                fields=["ruleset", "speed", "-display", "-games"],
                include=["user"],
                condition=models.Q(games__gte=PROVISIONAL_GAMES),
                name="rating_board_established",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.ruleset}/{self.speed}: {self.display}"


class RatingChange(models.Model):
    """One rated game's effect on one player: the history chart's points."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    ruleset = models.CharField(max_length=32)
    speed = models.CharField(max_length=16, choices=Rating.Speed.choices)
    place = models.PositiveSmallIntegerField()  # 1 = first; tied players share a place
    before = models.IntegerField()
    after = models.IntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_change_once")]
        indexes = [
            models.Index(fields=["user", "ruleset", "speed", "created"]),
            # The rating chart: a player's newest changes first, paged back.
            models.Index(fields=["user", "-created", "-id"], name="rating_change_user_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in game {self.game_id}: {self.before} -> {self.after}"


class Rematch(models.Model):
    """The offer to play a finished game again (games/services/rematch.py).

    One row per finished game, changed under that game's row lock: ``accepted``
    lists the seats (of the old game) that said yes, bots' at once; when it holds
    every seat, ``new_game`` is opened and the offer is done. A decline or a
    withdrawal ends the offer (``declined_by``) until someone offers again.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    accepted = models.JSONField(default=list, blank=True)
    declined_by = models.SmallIntegerField(null=True, blank=True)  # a seat of the old game
    new_game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"rematch of game {self.game_id}"


class PushSubscription(models.Model):
    """One device's Push API subscription (a browser profile on one machine).

    The endpoint is the push service's address for that device: unique, so a
    device that signs in as someone else moves to that account. Removed when
    the push service answers 404 or 410 (the subscription is gone).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the device's public key, base64url
    auth = models.CharField(max_length=40)  # its authentication secret, base64url
    created = models.DateTimeField(auto_now_add=True)
    last_success = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class PushSettings(models.Model):
    """Which notification kinds a user does not want pushed (none by default)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_settings"
    )
    muted = models.JSONField(default=list, blank=True)  # Notification.Kind values

    def __str__(self) -> str:
        return f"push settings of {self.user_id}"


class OutgoingPush(models.Model):
    """A notification waiting to be pushed to one device (the push outbox,
    drained like ``OutgoingMail`` by games/services/push.py): written in the
    notifying transaction, deleted once the push service took it."""

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="pushes")
    subscription = models.ForeignKey(PushSubscription, on_delete=models.CASCADE)
    # When to try (next); None: given up after too many failures.
    due = models.DateTimeField(null=True, blank=True, default=timezone.now, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push of notification {self.notification_id} to {self.subscription_id}"


class ImportJob(models.Model):
    """An uploaded export waiting for its replay (services/internal/game_import.py).

    The request only stores it; a worker of the sweeper claims it by moving
    ``due`` to a lease (as the mail outbox does), so a job survives a restart
    and a claim whose worker died expires. ``data`` is dropped once decided.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    data = models.JSONField(null=True, blank=True)
    # When a worker may take it (next); None once decided.
    due = models.DateTimeField(null=True, blank=True, default=timezone.now, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL)
    # Why it failed: {"code", "template", "params"}, translated when read.
    error = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    decided = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"import {self.pk} ({self.status})"


class Analysis(models.Model):
    """The computer's analysis of one finished game (games/services/analysis.py),
    stored once and shared by everyone who asks.

    Queued work is leased like an ``ImportJob``: a worker claims it by moving
    ``due`` to its lease and renews the lease after each ply; a worker that
    died leaves it to the next claim once the lease runs out, which goes on
    from the plies already stored. ``turn`` orders the queue fairly: a
    user's first waiting analysis before anyone's second."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    level = models.CharField(max_length=8, default="strong")
    total = models.PositiveIntegerField(default=0)  # plies to analyse (0: not counted yet)
    plies = models.JSONField(default=list, blank=True)
    summary = models.JSONField(default=dict, blank=True)
    turn = models.PositiveIntegerField(default=0)
    due = models.DateTimeField(null=True, blank=True, default=timezone.now, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status})"


class AnalysisRequest(models.Model):
    """Who asked for an analysis and when: the daily limit counts these, and
    each asker hears once that it is done (the events stream)."""

    analysis = models.ForeignKey(Analysis, on_delete=models.CASCADE, related_name="requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="analysis_requests"
    )
    created = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["analysis", "user"], name="analysis_request_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} asked for analysis {self.analysis_id}"
