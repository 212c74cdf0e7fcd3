"""Club matches (docs/protocol.md, "Club matches"): one club challenges another
to a match over N boards of one two-seat game; the challenged club's owner or
admins accept or decline; each club's owner and admins name their players;
the start pairs the boards by rating order (board 1: the strongest of each
side), colours alternating by board (the home club has seat 0 on odd
boards), its games made by the one factory (``game_create_many``) and rated
as any game of their time control; each board's end adds its points (a win
1, a draw ½) to the score; the last one finishes the match.

Each public function is one transaction; the match's row is its lock (a
game's end locks its game, then the match: nothing locks them the other way).
"""

from __future__ import annotations

import math
import operator
from datetime import timedelta
from functools import reduce
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import clocks, publish
from games.errors import GameError
from games.models import Game, Notification
from games.row_ids import row_pk
from games.rules import get_ruleset
from games.services.creating import game_create_many
from games.services.internal.notifications import notify
from games.users import is_bot, is_guest, signed_in
from lobby.models import Club, ClubMatch, ClubMatchBoard, ClubMatchPlayer, ClubMember
from lobby.selectors.club_matches import match_rulesets, ratings_of
from lobby.tournaments.internal.results import no_shows, seat_points
from moderation.standing import refuse_if_suspended

from .internal.common import (
    OPEN_MATCHES,
    STAFF_ROLES,
    call_off,
    locked_club,
    refuse_unfit,
    refuse_unless_staff,
    tell_match,
)

if TYPE_CHECKING:
    from accounts.models import User
    from games.users import Visitor

MAX_BOARDS = 20
# Challenges one club may have waiting for an answer at once.
MAX_OPEN_CHALLENGES = 5
# After a decline, the same club may challenge the same club again after this long.
REDECLINE_HOURS = 24


def club_match_challenge(
    *,
    user: Visitor | None,
    club_id: object,
    opponent: object,
    ruleset: object,
    boards: object,
    clock: object = None,
) -> ClubMatch:
    """The home club's owner or an admin challenges ``opponent`` (a club's
    id); its owner and admins are told (the bell, mail, web push). One open
    challenge between two clubs, a few waiting per club, and none again
    soon after a decline."""
    account = signed_in(user, gettext_noop("Log in to challenge a club."))
    refuse_unfit(account, gettext_noop("Sign up to challenge a club."))
    slug = _ruleset(ruleset)
    count = _boards(boards)
    time_control = clocks.clean_clock(clock)
    options = get_ruleset(slug).validate_options({})
    away_pk = row_pk(opponent)
    with publish.sending_together(), transaction.atomic():
        home = locked_club(club_id)
        refuse_unless_staff(home, account.pk)
        if away_pk == home.pk:
            raise GameError("bad_request", gettext_noop("A club cannot challenge itself."))
        away = Club.objects.filter(pk=away_pk or 0, dissolved__isnull=True).first()
        if away is None:
            raise GameError("not_found", gettext_noop("There is no such club."), status=404)
        _refuse_repeat(home, away)
        try:
            with transaction.atomic():
                match = ClubMatch.objects.create(
                    home=home,
                    away=away,
                    ruleset=slug,
                    boards=count,
                    clock=time_control,
                    options=options,
                    creator=account,
                )
        except IntegrityError:  # a racing twin: the constraint's refusal
            raise _open_already() from None
        notify(
            user_ids=_staff_ids(away, but=account.pk),
            kind=Notification.Kind.CHALLENGE,
            game=None,
            params={
                "club_match": match.pk,
                "club": home.name,
                "player": account.username,
                "title": get_ruleset(slug).title,
                "boards": count,
            },
        )
        tell_match(match)
    return match


def club_match_accept(*, user: Visitor | None, match_id: object) -> ClubMatch:
    """The challenged club's owner or an admin accepts: the lineups are named next."""
    return _answer(user, match_id, ClubMatch.Status.ACCEPTED)


def club_match_decline(*, user: Visitor | None, match_id: object) -> ClubMatch:
    """The challenged club's owner or an admin declines."""
    return _answer(user, match_id, ClubMatch.Status.DECLINED)


def club_match_cancel(*, user: Visitor | None, match_id: object) -> ClubMatch:
    """Before the start: the home club's owner or admins withdraw the
    challenge; once accepted, either club's may call the match off."""
    account = signed_in(user)
    with publish.sending_together(), transaction.atomic():
        match = _locked(match_id)
        if match.status not in OPEN_MATCHES:
            raise _not_open()
        clubs = [match.home_id]
        if match.status == ClubMatch.Status.ACCEPTED:
            clubs.append(match.away_id)
        if not _is_staff(clubs, account.pk):
            raise _forbidden()
        call_off(match)
    return match


def club_match_players_set(
    *, user: Visitor | None, match_id: object, players: object, club: object = None
) -> ClubMatch:
    """A club's owner or an admin names its players (usernames, up to the
    number of boards; a member once), replacing its lineup; changes until the
    start. ``club``: which side, needed only by someone who runs both."""
    account = signed_in(user)
    names = _names(players)
    with publish.sending_together(), transaction.atomic():
        match = _locked(match_id)
        if match.status not in OPEN_MATCHES:
            raise GameError("not_open", gettext_noop("Lineups change only until the match starts."))
        side = _side(match, account.pk, club)
        if len(names) > match.boards:
            raise GameError(
                "too_many_players",
                gettext_noop("This match has %(n)s boards: name at most %(n)s players."),
                n=match.boards,
            )
        members = _members(side, names)
        others = set(
            ClubMatchPlayer.objects.filter(match=match)
            .exclude(club_id=side)
            .values_list("user_id", flat=True)
        )
        for member in members:
            if member.pk in others:
                raise GameError(
                    "other_lineup",
                    gettext_noop("%(name)s already plays for the other club in this match."),
                    status=409,
                    name=member.username,
                )
        ClubMatchPlayer.objects.filter(match=match, club_id=side).delete()
        ClubMatchPlayer.objects.bulk_create(
            ClubMatchPlayer(match=match, club_id=side, user=member, order=n)
            for n, member in enumerate(members, start=1)
        )
        tell_match(match)
    return match


def club_match_start(*, user: Visitor | None, match_id: object) -> ClubMatch:
    """Either club's owner or an admin starts an accepted match whose two
    lineups are full: the boards are paired by rating order and their games
    started, rated as any game of the match's time control."""
    account = signed_in(user)
    with publish.sending_together(), transaction.atomic():
        match = _locked(match_id)
        if match.status != ClubMatch.Status.ACCEPTED:
            if match.status == ClubMatch.Status.PROPOSED:
                raise GameError(
                    "not_accepted", gettext_noop("The challenged club has not accepted yet.")
                )
            raise _not_open()
        if not _is_staff([match.home_id, match.away_id], account.pk):
            raise _forbidden()
        home, away = _ranked(match, match.home_id), _ranked(match, match.away_id)
        if len(home) != match.boards or len(away) != match.boards:
            raise GameError(
                "lineup_incomplete",
                gettext_noop("Each club names %(n)s players before the match starts."),
                n=match.boards,
            )
        pairs = []
        for number, (h, a) in enumerate(zip(home, away, strict=True), start=1):
            home_seat = 0 if number % 2 else 1  # colours alternate by board
            pairs.append((number, home_seat, [h, a] if home_seat == 0 else [a, h]))

        def link(games: list[Game]) -> None:
            ClubMatchBoard.objects.bulk_create(
                ClubMatchBoard(
                    match=match, number=number, game=game, players=seats, home_seat=home_seat
                )
                for (number, home_seat, seats), game in zip(pairs, games, strict=True)
            )

        game_create_many(
            ruleset=match.ruleset,
            options=match.options,
            clock=match.clock,
            rated=True,
            seatings=[seats for _, _, seats in pairs],
            link=link,
        )
        match.status, match.started = ClubMatch.Status.RUNNING, timezone.now()
        match.save(update_fields=["status", "started"])
        tell_match(match)
    return match


def on_game_over(sender: object, game: Game, **kwargs: object) -> None:
    """A game ended (inside its transaction): a match board's points are
    added to the score; the last board finishes the match."""
    found = ClubMatchBoard.objects.filter(game_id=game.pk).only("match_id").first()
    if found is None:
        return
    match = ClubMatch.objects.select_for_update().get(pk=found.match_id)
    board = ClubMatchBoard.objects.get(pk=found.pk)
    if board.home_points is not None:
        return
    points = seat_points(game, no_shows(game))
    board.home_points = points[board.home_seat]
    board.away_points = points[1 - board.home_seat]
    board.save(update_fields=["home_points", "away_points"])
    match.home_score += board.home_points
    match.away_score += board.away_points
    fields = ["home_score", "away_score"]
    if not ClubMatchBoard.objects.filter(match=match, home_points__isnull=True).exists():
        match.status, match.ended = ClubMatch.Status.FINISHED, timezone.now()
        fields += ["status", "ended"]
    match.save(update_fields=fields)
    tell_match(match)


# --- helpers ------------------------------------------------------------------------


def _answer(user: Visitor | None, match_id: object, status: str) -> ClubMatch:
    account = signed_in(user)
    with publish.sending_together(), transaction.atomic():
        match = _locked(match_id)
        if match.status != ClubMatch.Status.PROPOSED:
            raise GameError(
                "not_proposed", gettext_noop("This challenge has been answered already.")
            )
        if not _is_staff([match.away_id], account.pk):
            raise GameError(
                "forbidden",
                gettext_noop("Only the challenged club's owner and admins answer a challenge."),
                status=403,
            )
        match.status = status
        fields = ["status"]
        if status == ClubMatch.Status.DECLINED:
            match.ended = timezone.now()
            fields.append("ended")
        match.save(update_fields=fields)
        tell_match(match)
    return match


def _locked(match_id: object) -> ClubMatch:
    pk = row_pk(match_id)
    match = None if pk is None else ClubMatch.objects.select_for_update().filter(pk=pk).first()
    if match is None:
        raise GameError("not_found", gettext_noop("There is no such club match."), status=404)
    return match


def _is_staff(club_ids: list[int], user_id: int) -> bool:
    return ClubMember.objects.filter(
        club_id__in=club_ids, user_id=user_id, role__in=STAFF_ROLES
    ).exists()


def _side(match: ClubMatch, user_id: int, club: object) -> int:
    """The club whose lineup the caller names: the one they run (``club``
    chooses when they run both)."""
    mine = set(
        ClubMember.objects.filter(
            club_id__in=[match.home_id, match.away_id], user_id=user_id, role__in=STAFF_ROLES
        ).values_list("club_id", flat=True)
    )
    if club is not None:
        wanted = row_pk(club)
        if wanted not in (match.home_id, match.away_id):
            raise GameError("bad_request", gettext_noop('"club" must be one of the two clubs.'))
        mine &= {wanted}
    if not mine:
        raise GameError(
            "forbidden",
            gettext_noop("Only a club's owner and admins name its players."),
            status=403,
        )
    if len(mine) > 1:
        raise GameError("bad_request", gettext_noop('You run both clubs: say which with "club".'))
    return mine.pop()


def _names(players: object) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise GameError("bad_request", gettext_noop('"players" must be a list of usernames.'))
    names = [p.strip() for p in players]
    if len({n.lower() for n in names}) != len(names):
        raise GameError("bad_request", gettext_noop("Name each player once."))
    return names


def _members(club_id: int, names: list[str]) -> list[User]:
    """The accounts of ``names``, in order: members of the club, people (not
    guests nor bots), not suspended."""
    if not names:
        return []
    found = {
        u.username.lower(): u
        for u in get_user_model().objects.filter(
            reduce(operator.or_, (Q(username__iexact=n) for n in names))
        )
    }
    members = set(
        ClubMember.objects.filter(club_id=club_id, user__in=found.values()).values_list(
            "user_id", flat=True
        )
    )
    chosen = []
    for name in names:
        account = found.get(name.lower())
        if account is None or account.pk not in members:
            raise GameError(
                "not_member",
                gettext_noop("%(name)s is no member of this club."),
                name=name[:40],
            )
        if is_guest(account) or is_bot(account):
            raise GameError(
                "bad_request",
                gettext_noop("%(name)s cannot play a club match."),
                name=account.username,
            )
        refuse_if_suspended(account)
        chosen.append(account)
    return chosen


def _ranked(match: ClubMatch, club_id: int) -> list[int]:
    """A club's players by rating in the match's game and speed, the highest
    first; players without a rating after, in the order they were named."""
    named = list(
        ClubMatchPlayer.objects.filter(match=match, club_id=club_id)
        .order_by("order")
        .values_list("user_id", flat=True)
    )
    ratings = ratings_of(match, named)
    ordered = sorted(
        enumerate(named),
        key=lambda item: (item[1] not in ratings, -ratings.get(item[1], 0), item[0]),
    )
    return [uid for _, uid in ordered]


def _staff_ids(club: Club, *, but: int) -> list[int]:
    return list(
        ClubMember.objects.filter(club=club, role__in=STAFF_ROLES)
        .exclude(user_id=but)
        .values_list("user_id", flat=True)
    )


def _refuse_repeat(home: Club, away: Club) -> None:
    pair = Q(home=home, away=away) | Q(home=away, away=home)
    if ClubMatch.objects.filter(pair, status__in=OPEN_MATCHES).exists():
        raise _open_already()
    waiting = ClubMatch.objects.filter(home=home, status=ClubMatch.Status.PROPOSED).count()
    if waiting >= MAX_OPEN_CHALLENGES:
        raise GameError(
            "too_many_challenges",
            gettext_noop("Your club has %(n)s challenges waiting for an answer already."),
            status=429,
            n=waiting,
        )
    since = timezone.now() - timedelta(hours=REDECLINE_HOURS)
    declined = (
        ClubMatch.objects.filter(
            home=home, away=away, status=ClubMatch.Status.DECLINED, ended__gt=since
        )
        .order_by("-ended")
        .values_list("ended", flat=True)
        .first()
    )
    if declined is not None:
        wait = declined + timedelta(hours=REDECLINE_HOURS) - timezone.now()
        raise GameError(
            "declined_recently",
            gettext_noop("This club declined your challenge; challenge it again later."),
            status=429,
            retry_after=max(1, math.ceil(wait.total_seconds())),
        )


def _open_already() -> GameError:
    return GameError(
        "match_open",
        gettext_noop("These clubs have an open challenge already."),
        status=409,
    )


def _not_open() -> GameError:
    return GameError("not_open", gettext_noop("This match has started or ended."))


def _forbidden() -> GameError:
    return GameError(
        "forbidden", gettext_noop("Only the clubs' owners and admins may do this."), status=403
    )


def _ruleset(value: object) -> str:
    if not isinstance(value, str) or value not in match_rulesets():
        raise GameError(
            "bad_request",
            gettext_noop("Club matches are played in a game of two: %(games)s."),
            games=", ".join(match_rulesets()),
        )
    return value


def _boards(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_BOARDS:
        raise GameError(
            "bad_request",
            gettext_noop('"boards" must be a whole number from 1 to %(n)s.'),
            n=MAX_BOARDS,
        )
    return value
