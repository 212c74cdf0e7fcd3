"""Reads of tournaments: the API's shapes, standings, and the pairing module's input."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, F, QuerySet
from django.utils import timezone

from lobby.models import Tournament, TournamentChatMessage, TournamentPairing, TournamentPlayer
from lobby.pairing import Entrant, Result, standings
from lobby.pairing.tiebreaks import Standing

from .page_chat import newest_lines

LIST_LIMIT = 100


def tournament_group(tournament_id: int) -> str:
    """The channel group of one tournament's open pages (its chat)."""
    return f"tournament-{tournament_id}"


def chat_lines(tournament: Tournament) -> list[dict[str, Any]]:
    """The newest ``CHAT_LINES`` lines, oldest first (one index walk)."""
    return newest_lines(TournamentChatMessage.objects.filter(tournament=tournament))


# Starting-rank order: the seed given at the start (by rating), late joiners
# after; before the start, join order.
STARTING_RANK = (F("seed").asc(nulls_last=True), "joined", "pk")


def players_in_order(tournament: Tournament) -> list[TournamentPlayer]:
    """Everyone who joined, in starting-rank order."""
    return list(TournamentPlayer.objects.filter(tournament=tournament).order_by(*STARTING_RANK))


def active_ids(tournament: Tournament) -> list[int]:
    return [p.user_id for p in players_in_order(tournament) if not p.withdrawn]


def pairings(tournament: Tournament) -> QuerySet[TournamentPairing]:
    return TournamentPairing.objects.filter(tournament=tournament).order_by("round", "board")


def decided_results(tournament: Tournament) -> list[Result]:
    """Every decided pairing's points (values only, from the pairing index):
    what the standings are computed from."""
    done = TournamentPairing.objects.filter(tournament=tournament, points__isnull=False)
    return [
        Result({int(uid): float(points) for uid, points in scored.items()})
        for scored in done.values_list("points", flat=True)
        if scored is not None
    ]


def results(items: list[TournamentPairing]) -> list[Result]:
    return [
        Result({int(uid): float(points) for uid, points in p.points.items()})
        for p in items
        if p.points is not None
    ]


def entrants(
    tournament: Tournament, ids: list[int], before_round: int | None = None
) -> list[Entrant]:
    """What the next round's pairing needs to know of each player in ``ids``
    (in starting-rank order): score, opponents, bye, seats so far (in the
    rounds before ``before_round``, if given)."""
    score = dict.fromkeys(ids, 0.0)
    met: dict[int, set[int]] = {i: set() for i in ids}
    bye: set[int] = set()
    seats: dict[int, list[int]] = {i: [] for i in ids}
    played = pairings(tournament)
    if before_round is not None:
        played = played.filter(round__lt=before_round)
    for p in played:
        for seat, uid in enumerate(p.players):
            if uid not in score:
                continue
            score[uid] += float((p.points or {}).get(str(uid), 0.0))
            if p.bye:
                bye.add(uid)
                continue
            met[uid].update(o for o in p.players if o != uid)
            seats[uid].append(seat)
    return [
        Entrant(
            id=uid,
            score=score[uid],
            rank=rank,
            opponents=frozenset(met[uid]),
            had_bye=uid in bye,
            seats=tuple(seats[uid]),
        )
        for rank, uid in enumerate(ids)
    ]


def names(user_ids: set[int]) -> dict[int, str]:
    found = get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username")
    return dict(found)


def ranked(
    tournament: Tournament, players: list[TournamentPlayer], items: list[TournamentPairing]
) -> list[Standing]:
    return standings([p.user_id for p in players], results(items), tables=tournament.seat_count > 2)


def summary(
    tournament: Tournament,
    players: list[TournamentPlayer] | None = None,
    who: dict[int, str] | None = None,
) -> dict[str, Any]:
    """A tournament without its rounds and standings, with its players' names;
    ``who`` names the players and the creator when the caller read them."""
    players = players if players is not None else players_in_order(tournament)
    if who is None:
        who = names({p.user_id for p in players} | {tournament.creator_id or 0})
    return {
        **tournament_fields(tournament, who.get(tournament.creator_id or 0), len(players)),
        "players": [who.get(p.user_id, "?") for p in players],
    }


def tournament_fields(tournament: Tournament, creator: str | None, count: int) -> dict[str, Any]:
    """What the list and the page both show of a tournament."""
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "ruleset": tournament.ruleset,
        "system": tournament.system,
        "seat_count": tournament.seat_count,
        "rounds_planned": tournament.rounds,
        "status": tournament.status,
        "current_round": tournament.current_round,
        # The sweeper pairs it now: a big field's start (or a round) under way.
        "pairing": tournament.status != Tournament.Status.FINISHED
        and tournament.due is not None
        and tournament.due <= timezone.now(),
        "rated": tournament.rated,
        "clock": tournament.clock,
        "starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None,
        "round_pause_seconds": tournament.round_pause_seconds,
        "creator": creator,
        "player_count": count,
        "round_days": tournament.round_days,
        "round_deadline": tournament.round_deadline.isoformat()
        if tournament.round_deadline
        else None,
        "featured": tournament.featured,
        "club": tournament.club_id,  # a club-only tournament's club, else null
    }


def detail(tournament: Tournament, only_round: int | None = None) -> dict[str, Any]:
    """The tournament as ``GET /api/tournaments/<id>/`` shows it; with
    ``only_round``, ``rounds`` holds that round alone (the standings still
    count every result)."""
    players = players_in_order(tournament)
    items = list(pairings(tournament))
    listed = items if only_round is None else [p for p in items if p.round == only_round]
    who = names({p.user_id for p in players} | {u for i in listed for u in i.players})
    if tournament.creator_id:
        who.update(names({tournament.creator_id}))
    withdrawn = {p.user_id for p in players if p.withdrawn}
    rounds: dict[int, list[dict[str, Any]]] = {}
    for p in listed:
        rounds.setdefault(p.round, []).append(
            {
                "game": p.game_id,
                "players": [who.get(u, "?") for u in p.players],
                "bye": p.bye,
                "points": None
                if p.points is None
                else {who.get(int(u), "?"): v for u, v in p.points.items()},
            }
        )
    return {
        **summary(tournament, players, who),
        "rounds": [{"number": n, "pairings": games} for n, games in sorted(rounds.items())],
        "standings": [
            {
                "rank": row.rank,
                "username": who.get(row.id, "?"),
                "points": row.points,
                "tiebreaks": list(row.tiebreaks),
                "withdrawn": row.id in withdrawn,
            }
            for row in ranked(tournament, players, items)
        ],
    }


def listing(status: str | None, limit: int = LIST_LIMIT) -> list[dict[str, Any]]:
    """The newest tournaments of a status (all statuses: None), featured
    ones first, at most ``limit``, each with its number of players (not
    their names: a list of 100 fields of 1,000 players sent them all): two
    statements however many are listed and however big their fields."""
    found = Tournament.objects.order_by("-featured", "-created", "-pk")
    if status is not None:
        found = found.filter(status=status)
    named = found.annotate(creator_name=F("creator__username"))
    listed = list(named[: min(limit, LIST_LIMIT)])
    entries = (
        TournamentPlayer.objects.filter(tournament__in=[t.pk for t in listed])
        .values("tournament_id")
        .annotate(n=Count("pk"))
        .values_list("tournament_id", "n")
    )  # the entries' index only, of the listed tournaments only
    counts = dict(entries)
    return [tournament_fields(t, t.creator_name, counts.get(t.pk, 0)) for t in listed]
