"""Tournaments: the event, its players and each round's pairings (games or
byes); clubs: their members and roles."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.names import MAX_LENGTH, skeleton
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
    # A club-only tournament: its club's members join, its owner and admins create it.
    club = models.ForeignKey(
        "Club",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
        db_index=False,  # tournament_club below
    )
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
    # When the stored standings (TournamentStanding) are to be computed again
    # after results; null: they are current (lobby/tournaments/standings.py).
    standings_due = models.DateTimeField(null=True, blank=True)
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
            models.Index(
                fields=["standings_due"],
                name="tournament_standings_due",
                condition=models.Q(standings_due__isnull=False),
            ),
            # A club's tournaments, the newest first.
            models.Index(
                fields=["club", "-created"],
                name="tournament_club",
                condition=models.Q(club__isnull=False),
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


class TournamentStanding(models.Model):
    """One entrant's row of the stored standings, as ``lobby.pairing.standings``
    ranked everyone when last computed (``Tournament.standings_due`` says
    whether results wait): ``place`` 1..n in the order shown, ``rank`` shared
    by ties (null: joined since), points, tie-breaks, and the entry's
    ``withdrawn`` (kept at once). Rewritten whole when computed: inserting a
    field's rows is quick, updating them one by one is not."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,  # tournament_standing_place leads with it
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveIntegerField()
    rank = models.PositiveIntegerField(null=True, blank=True)
    points = models.FloatField(default=0.0)
    tiebreaks = models.JSONField(default=list, blank=True)
    withdrawn = models.BooleanField(default=False)

    class Meta:
        constraints = [
            # The viewer's own row, by user.
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_standing_once")
        ]
        indexes = [
            # The page reads one page of the standings by place.
            models.Index(fields=["tournament", "place"], name="tournament_standing_place")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.place}. {self.user_id}"


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


class PageChatLine(models.Model):
    """A line of a page's chat (a tournament's, a club's): who wrote it
    (null once their account is gone), the text, when."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class TournamentChatMessage(PageChatLine):
    """A line of a tournament page's chat (players and spectators with an account)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chat")

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


class Club(models.Model):
    """A home for a group of players (docs/clubs.md): its members and their
    roles are ``ClubMember`` rows (the owner is the member whose role is
    owner). A club whose last member leaves is dissolved, not deleted: its
    tournaments keep their club, its name is free again, nobody can join it."""

    name = models.CharField(max_length=50)
    # The name's look-alike form (accounts/names.py), kept on every save: two
    # live clubs never share one.
    name_skeleton = models.CharField(max_length=MAX_LENGTH, editable=False)
    description = models.CharField(max_length=1000, blank=True, default="")
    open = models.BooleanField(default=True)
    # A closed club is joined with this code (owners and admins see, renew
    # and revoke it); empty: no code (the API says null).
    invite = models.CharField(max_length=32, blank=True, default="")
    # Who created it (the per-user limit counts these); the owner is a member's role.
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    dissolved = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("name"), condition=models.Q(dissolved__isnull=True), name="club_name_once"
            ),
            models.UniqueConstraint(
                fields=["name_skeleton"],
                condition=models.Q(dissolved__isnull=True),
                name="club_skeleton_once",
            ),
        ]
        indexes = [
            # The list: the newest live clubs first.
            models.Index(
                fields=["-created", "-id"],
                condition=models.Q(dissolved__isnull=True),
                name="club_listed",
            ),
            models.Index(fields=["creator"], name="club_creator"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        fields = kwargs.get("update_fields")
        if fields is None or "name" in fields:
            self.name_skeleton = skeleton(self.name)
            if fields is not None:
                kwargs["update_fields"] = {*fields, "name_skeleton"}
        super().save(*args, **kwargs)


class ClubMember(models.Model):
    """A member of a club and their role (the API names it: owner, admin, member)."""

    class Role(models.IntegerChoices):
        # Numbers sort the members' list: the owner first, then admins.
        OWNER = 0, _("owner")
        ADMIN = 1, _("admin")
        MEMBER = 2, _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.PositiveSmallIntegerField(choices=Role.choices, default=Role.MEMBER)
    joined = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_member_once"),
            # Backs "one owner": a second owner of a club cannot commit.
            models.UniqueConstraint(
                fields=["club"], condition=models.Q(role=0), name="club_one_owner"
            ),
        ]
        indexes = [
            # A club's members page by page: by role, the longest-standing first.
            models.Index(fields=["club", "role", "joined", "id"], name="club_member_ranked"),
            # A player's clubs.
            models.Index(fields=["user", "joined"], name="club_member_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id}"


ROLE_NAMES = {
    ClubMember.Role.OWNER: "owner",
    ClubMember.Role.ADMIN: "admin",
    ClubMember.Role.MEMBER: "member",
}


class ClubRemoval(models.Model):
    """An owner or admin removed ``user``: they come back only with the
    club's invite code (an open club no longer lets them in by itself)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="club_removal_once")]

    def __str__(self) -> str:
        return f"{self.user_id} removed from {self.club_id}"


class ClubChatMessage(PageChatLine):
    """A line of a club page's chat: members write; whoever may see the club
    reads (an open club: everyone; a closed one: its members and moderators)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="chat")

    class Meta:
        indexes = [
            # The page reads the newest lines of one club from the index.
            models.Index(fields=["club", "-created", "-id"], name="club_chat_newest")
        ]

    def __str__(self) -> str:
        return f"{self.club_id}: {self.text[:30]}"


class ClubGame(models.Model):
    """A running game one of the club's members plays (lobby/clubs/live_games.py
    keeps these: a game's start and end, a member joining or leaving): the
    club's answer pages its members' running games from this index, however
    many games the site runs and however long its members' histories."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)

    class Meta:
        # Its index also pages a club's games, the newest first (read backwards).
        constraints = [models.UniqueConstraint(fields=["club", "game"], name="club_game_once")]
        # A game's end removes its rows.
        indexes = [models.Index(fields=["game"], name="club_game_game")]

    def __str__(self) -> str:
        return f"{self.game_id} of {self.club_id}"


class ClubMatch(models.Model):
    """One club challenges another to a match over ``boards`` boards of one
    two-seat game (docs/protocol.md, "Club matches"): each club's owner and admins
    name their players, board 1 pairs the strongest of each side, colours
    alternate by board, the score is the sum of the boards."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("proposed")
        ACCEPTED = "accepted", _("accepted")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")

    home = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="home_matches")
    away = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="away_matches")
    ruleset = models.CharField(max_length=32)
    boards = models.PositiveSmallIntegerField()
    clock = models.JSONField(default=dict, blank=True)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The sum of the boards' points (a win 1, a draw ½), kept as each board ends.
    home_score = models.FloatField(default=0)
    away_score = models.FloatField(default=0)
    created = models.DateTimeField(default=timezone.now)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One open challenge (proposed, accepted) between the two clubs, each way.
            models.UniqueConstraint(
                fields=["home", "away"],
                condition=models.Q(status__in=["proposed", "accepted"]),
                name="club_match_open_once",
            ),
        ]
        indexes = [
            # A club's matches, newest first (home and away).
            models.Index(fields=["home", "-created"], name="club_match_home"),
            models.Index(fields=["away", "-created"], name="club_match_away"),
        ]

    def __str__(self) -> str:
        return f"{self.home_id} v {self.away_id} ({self.ruleset})"


class ClubMatchPlayer(models.Model):
    """A player a club named for a match; ``order``: as named (1 first)."""

    match = models.ForeignKey(ClubMatch, on_delete=models.CASCADE, related_name="players")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    order = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="club_match_player_once"),
        ]
        indexes = [models.Index(fields=["match", "club", "order"], name="club_match_lineup")]

    def __str__(self) -> str:
        return f"{self.user_id} for {self.club_id} in {self.match_id}"


class ClubMatchBoard(models.Model):
    """One board of a running match: its game (seat 0 and 1 as ``players``:
    user ids), who plays for the home club, and its points once it ended."""

    match = models.ForeignKey(ClubMatch, on_delete=models.CASCADE, related_name="board_rows")
    number = models.PositiveSmallIntegerField()  # 1 first: the strongest players
    game = models.OneToOneField(
        Game, null=True, on_delete=models.SET_NULL, related_name="club_match_board"
    )
    players = models.JSONField(default=list)  # user ids by seat
    home_seat = models.PositiveSmallIntegerField()
    # Each club's points on this board once its game ended; null: still played.
    home_points = models.FloatField(null=True, blank=True)
    away_points = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="club_match_board_once"),
        ]

    def __str__(self) -> str:
        return f"board {self.number} of {self.match_id}"
