"""Reads of clubs: the API's shapes (fixed in the design card), bounded
however big a club grows: its members and its members' running games come
page by page from indexes, with counts (docs/clubs.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.utils.translation import gettext_noop

from accounts.names import skeleton
from games.errors import GameError
from games.models import Rating, Seat
from games.row_ids import row_pk
from lobby.models import ROLE_NAMES, Club, ClubGame, ClubMember, Tournament

if TYPE_CHECKING:
    from games.users import Visitor

MEMBERS_PAGE = 50  # members per page of a club's answer
GAMES_PAGE = 50  # members' running games per page
TOURNAMENTS_SHOWN = 50  # a club's newest tournaments
LIST_PAGE = 30  # clubs per page of the list
MY_CLUBS = 100  # a player's clubs listed (CLUB_MEMBERSHIPS_PER_USER keeps them fewer)
# Counting a club's members' running games stops here ("1000+"): the count
# is the one read that walks every match.
GAMES_COUNT_CAP = 1000
QUERY_MAX = 50


def club_group(club_id: int) -> str:
    """The channel group of one club's open pages."""
    return f"club-{club_id}"


def club_named(name: str) -> int | None:
    """The id of the live club of that name (names are unique ignoring case), else None."""
    return (
        Club.objects.filter(name__iexact=name.strip(), dissolved__isnull=True)
        .values_list("pk", flat=True)
        .first()
    )


def club_or_404(club_id: object) -> Club:
    """The live (not dissolved) club of ``club_id``."""
    pk = row_pk(club_id)
    club = None if pk is None else Club.objects.filter(pk=pk, dissolved__isnull=True).first()
    if club is None:
        raise GameError("not_found", gettext_noop("There is no such club."), status=404)
    return club


def role_of(club_id: int, user: Visitor | None) -> str | None:
    """``user``'s role in the club ("owner", "admin", "member"), None: not a member."""
    if user is None or not user.is_authenticated:
        return None
    role = (
        ClubMember.objects.filter(club_id=club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )
    return None if role is None else ROLE_NAMES[ClubMember.Role(role)]


def club_summary(club: Club, member_count: int) -> dict[str, Any]:
    """A club as the list shows it (no members, games or code)."""
    return {
        "id": club.pk,
        "name": club.name,
        "description": club.description,
        "open": club.open,
        "created": club.created.isoformat(),
        "member_count": member_count,
    }


def club_detail(
    club: Club, viewer: Visitor | None, *, members_page: int = 1, games_page: int = 1
) -> dict[str, Any]:
    """``GET /api/clubs/<id>/``: the fixed shape, its lists one page each
    (``members_page``, ``games_page`` from 1), with their counts. The invite
    code only for the club's owner and admins."""
    my_role = role_of(club.pk, viewer)
    member_count = ClubMember.objects.filter(club=club).count()
    games, games_count = members_games(club, games_page)
    answer = {
        **club_summary(club, member_count),
        "members": members(club, members_page),
        "members_page": members_page,
        "page_size": MEMBERS_PAGE,
        "games": games,
        "games_page": games_page,
        "games_count": min(games_count, GAMES_COUNT_CAP),
        "games_capped": games_count > GAMES_COUNT_CAP,
        "tournaments": list(
            Tournament.objects.filter(club=club)
            .order_by("-created")
            .values_list("pk", flat=True)[:TOURNAMENTS_SHOWN]
        ),
        "my_role": my_role,
    }
    if my_role in ("owner", "admin"):
        answer["invite"] = club.invite or None
    return answer


def members(club: Club, page: int = 1) -> list[dict[str, Any]]:
    """One page of the members: the owner, the admins, then the members,
    each the longest-standing first (the index ``club_member_ranked``), with
    their ratings per game (the speed they played most)."""
    start = (page - 1) * MEMBERS_PAGE
    rows = list(
        ClubMember.objects.filter(club=club)
        .order_by("role", "joined", "id")
        .values_list("user_id", "user__username", "role", "joined")[start : start + MEMBERS_PAGE]
    )
    ratings: dict[int, dict[str, tuple[int, int]]] = {}
    found = Rating.objects.filter(user_id__in=[r[0] for r in rows]).values_list(
        "user_id", "ruleset", "display", "games"
    )
    for user_id, ruleset, display, played in found:
        mine = ratings.setdefault(user_id, {})
        if ruleset not in mine or played > mine[ruleset][1]:
            mine[ruleset] = (display, played)
    return [
        {
            "username": name,
            "role": ROLE_NAMES[ClubMember.Role(role)],
            "joined": joined.isoformat(),
            "ratings": {rs: shown for rs, (shown, _) in sorted(ratings.get(uid, {}).items())},
        }
        for uid, name, role, joined in rows
    ]


def members_games(club: Club, page: int = 1) -> tuple[list[dict[str, Any]], int]:
    """One page of the running games a member plays in, the newest first
    (``ClubGame``'s index), and how many there are (counted up to
    ``GAMES_COUNT_CAP`` + 1)."""
    listed = ClubGame.objects.filter(club=club)
    start = (page - 1) * GAMES_PAGE
    rows = list(
        listed.order_by("-game_id").values_list("game_id", "game__ruleset")[
            start : start + GAMES_PAGE
        ]
    )
    players: dict[int, list[str | None]] = {pk: [] for pk, _ in rows}
    for game_id, name in (
        Seat.objects.filter(game_id__in=players)
        .order_by("game_id", "index")
        .values_list("game_id", "user__username")
    ):
        players[game_id].append(name)
    if start == 0 and len(rows) < GAMES_PAGE:
        count = len(rows)
    else:
        count = listed.values("pk")[: GAMES_COUNT_CAP + 1].count()
    return [{"id": pk, "ruleset": rs, "players": players[pk]} for pk, rs in rows], count


def club_listing(query: str = "", page: int = 1) -> dict[str, Any]:
    """``GET /api/clubs/``: live clubs, the newest first, a page of
    ``LIST_PAGE``; ``query`` finds names holding it (or its look-alike form)."""
    clubs = Club.objects.filter(dissolved__isnull=True)
    query = query.strip()[:QUERY_MAX]
    if query:
        shape = skeleton(query)
        found = Q(name__icontains=query)
        if shape:
            found |= Q(name_skeleton__contains=shape)
        clubs = clubs.filter(found)
    start = (page - 1) * LIST_PAGE
    rows = list(clubs.order_by("-created", "-id")[start : start + LIST_PAGE + 1])
    more = len(rows) > LIST_PAGE
    rows = rows[:LIST_PAGE]
    counts = dict(
        ClubMember.objects.filter(club__in=rows)
        .values("club_id")
        .annotate(n=Count("id"))
        .values_list("club_id", "n")
    )
    return {
        "items": [club_summary(c, counts.get(c.pk, 0)) for c in rows],
        "page": page,
        "more": more,
    }


def clubs_of_player(username: str) -> list[dict[str, Any]]:
    """The clubs of the player named ``username`` (their profile lists them)."""
    user_id = (
        get_user_model().objects.filter(username=username).values_list("pk", flat=True).first()
    )
    return [] if user_id is None else clubs_of(user_id)


def clubs_of(user_id: int) -> list[dict[str, Any]]:
    """A player's clubs, in the order they joined (``club_member_user``)."""
    rows = (
        ClubMember.objects.filter(user_id=user_id, club__dissolved__isnull=True)
        .order_by("joined", "id")
        .values_list("club_id", "club__name", "role")[:MY_CLUBS]
    )
    return [
        {"id": pk, "name": name, "role": ROLE_NAMES[ClubMember.Role(role)]}
        for pk, name, role in rows
    ]


def is_member(club_id: int, user_id: int) -> bool:
    return ClubMember.objects.filter(club_id=club_id, user_id=user_id).exists()


def is_staff_of(club_id: int, user_id: int) -> bool:
    """Whether the user is the club's owner or an admin."""
    return ClubMember.objects.filter(
        club_id=club_id,
        user_id=user_id,
        role__in=[ClubMember.Role.OWNER, ClubMember.Role.ADMIN],
    ).exists()
