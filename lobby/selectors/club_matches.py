"""Reads of club matches (docs/protocol.md, "Club matches"): a match as the API
and its page show it, and a club's newest matches for the club page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_noop

from games.errors import GameError
from games.models import Game, Rating
from games.row_ids import row_pk
from games.rules import RULESETS
from games.selectors.ratings import speed_of
from lobby.models import ClubMatch, ClubMatchBoard, ClubMatchPlayer

CLUB_MATCHES_SHOWN = 10  # a club page's newest matches


def match_rulesets() -> list[str]:
    """The games a club match is played in: those of two seats (a board is one against one)."""
    return sorted(slug for slug, rs in RULESETS.items() if rs.min_seats <= 2 <= rs.max_seats)


def club_match_group(match_id: int) -> str:
    """The channel group of one match's open pages (the lobby socket's ``?club_match=``)."""
    return f"club-match-{match_id}"


def club_match_or_404(match_id: object) -> ClubMatch:
    pk = row_pk(match_id)
    found = (
        None
        if pk is None
        else ClubMatch.objects.select_related("home", "away").filter(pk=pk).first()
    )
    if found is None:
        raise GameError("not_found", gettext_noop("There is no such club match."), status=404)
    return found


def ratings_of(match: ClubMatch, user_ids: list[int]) -> dict[int, int]:
    """Each player's shown rating in the match's game at its speed (none: unrated)."""
    return dict(
        Rating.objects.filter(
            user_id__in=user_ids, ruleset=match.ruleset, speed=speed_of(match.clock)
        ).values_list("user_id", "display")
    )


def _score(value: float) -> float | int:
    return int(value) if value == int(value) else value


def club_match_detail(match: ClubMatch) -> dict[str, Any]:
    """``{"id", "home": {"id", "name"}, "away", "ruleset", "title", "boards", "clock",
    "status", "score": {"home", "away"}, "players": {"home": [..], "away": [..]},
    "board_list": [{"number", "game", "white", "home_seat", "players", "result"}]}``:
    a fixed number of queries, however many boards (at most ``MAX_BOARDS``)."""
    lineup = list(
        ClubMatchPlayer.objects.filter(match=match)
        .order_by("club_id", "order")
        .values_list("club_id", "user_id", "order")
    )
    boards = list(ClubMatchBoard.objects.filter(match=match).order_by("number"))
    ids = {uid for _, uid, _ in lineup} | {uid for b in boards for uid in b.players}
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    ratings = ratings_of(match, list(ids))
    status = dict(
        Game.objects.filter(pk__in=[b.game_id for b in boards if b.game_id]).values_list(
            "pk", "status"
        )
    )

    def player(uid: int) -> dict[str, Any]:
        return {"username": names.get(uid), "rating": ratings.get(uid)}

    def side(club_id: int) -> list[dict[str, Any]]:
        return [player(uid) for cid, uid, _ in lineup if cid == club_id]

    board_list = []
    for b in boards:
        home_uid = b.players[b.home_seat]
        away_uid = b.players[1 - b.home_seat]
        board_list.append(
            {
                "number": b.number,
                "game": b.game_id,
                "game_status": status.get(b.game_id) if b.game_id else None,
                "home_seat": b.home_seat,
                "home": player(home_uid),
                "away": player(away_uid),
                "seats": [names.get(uid) for uid in b.players],
                "points": None
                if b.home_points is None
                else {"home": _score(b.home_points), "away": _score(b.away_points or 0)},
            }
        )
    title = RULESETS[match.ruleset].title if match.ruleset in RULESETS else match.ruleset
    return {
        "id": match.pk,
        "home": {"id": match.home_id, "name": match.home.name},
        "away": {"id": match.away_id, "name": match.away.name},
        "ruleset": match.ruleset,
        "title": title,
        "boards": match.boards,
        "clock": match.clock,
        "status": match.status,
        "created": match.created.isoformat(),
        "started": match.started.isoformat() if match.started else None,
        "ended": match.ended.isoformat() if match.ended else None,
        "score": {"home": _score(match.home_score), "away": _score(match.away_score)},
        "players": {"home": side(match.home_id), "away": side(match.away_id)},
        "board_list": board_list,
    }


def club_matches_of(club_id: int, limit: int = CLUB_MATCHES_SHOWN) -> list[dict[str, Any]]:
    """A club's newest matches (home and away), for its page and its API
    answer: ``{"id", "home", "away", "ruleset", "title", "boards", "status", "score"}``."""
    rows = list(
        ClubMatch.objects.filter(Q(home_id=club_id) | Q(away_id=club_id))
        .select_related("home", "away")
        .order_by("-created", "-id")[:limit]
    )
    return [
        {
            "id": m.pk,
            "home": {"id": m.home_id, "name": m.home.name},
            "away": {"id": m.away_id, "name": m.away.name},
            "ruleset": m.ruleset,
            "title": RULESETS[m.ruleset].title if m.ruleset in RULESETS else m.ruleset,
            "boards": m.boards,
            "status": m.status,
            "score": {"home": _score(m.home_score), "away": _score(m.away_score)},
        }
        for m in rows
    ]
