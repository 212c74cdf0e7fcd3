"""Rating a finished game (openskill's Plackett-Luce), in the transaction that
ends it: ``events.store_event`` calls ``rate_game`` for the event that
finishes a game, whichever way it finished (a move, a resignation, a
time-out, an agreed draw, an admin's remis, a campaign's end). An abort ends
as ``aborted``, never ``finished``, so it is never rated; nor is a game with
a bot account seated, or one in which a playing seat never made a move of
its own (a resignation at move 0 farms nothing: ``ends_early`` turns such an
ending into an abort). A seat handed to a bot mid-game still belongs to the
person who left it: the game stays rated, and they rank by when they left.

Two rated games ending at once for one player both count: the players'
rating rows are created if missing (insert, ignoring a concurrent twin) and
then locked with ``select_for_update`` in user-id order, so one game's
update waits for the other's commit and reads its result; the same order
everywhere means no deadlock.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, cast

from django.utils import timezone
from django.utils.translation import gettext_noop

from moderation.internal import detection

from ...errors import GameError
from ...models import Event, Game, Rating, RatingChange, Seat
from ...rules import Ruleset, get_ruleset
from ...rules.base import Outcome
from ...selectors.ratings import (
    BASE_DISPLAY,
    BASE_MU,
    BASE_SIGMA,
    counts_as_rated,
    every_seat_moved,
    shown,
    speed_of,
)

if TYPE_CHECKING:
    from openskill.models import PlackettLuce


@cache
def _model() -> PlackettLuce:
    """OpenSkill's model, made at the first rating: a process starts without
    importing openskill (tests/test_start_cost.py)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=BASE_MU, sigma=BASE_SIGMA)


# Event items that take a seat out of the competition: its player resigned or
# ran out of time (the seat leaves, or waits for a bot), or a bot took it over.
LEAVE_EVENTS = ("resigned", "flagged", "handed_to_bot")
LEAVE_KINDS = (Event.Kind.LEAVE, Event.Kind.END, Event.Kind.HANDOVER)


def clean_rated(rated: object) -> bool | None:
    """A table's ``rated`` choice: true, false, or absent (the default)."""
    if rated is None or isinstance(rated, bool):
        return rated
    raise GameError("bad_request", gettext_noop('"rated" must be true or false.'))


def ends_early(game: Game, rs: Ruleset) -> bool:
    """Whether a game that would be rated is ending before every playing seat
    made a move of its own: such an ending is an abort (``append_event``)."""
    if game.imported:
        return False
    users = [s.user for s in Seat.objects.filter(game=game).select_related("user") if s.user_id]
    return counts_as_rated(game.rated, users) and not every_seat_moved(game, rs.is_referee)


def leaving_order(game: Game) -> list[int]:
    """The seats that left, resigned, ran out of time or were handed to a bot,
    in the order they did (each at its first such event). Few events of a
    game are of these kinds; they are read once, when it ends."""
    items = (
        Event.objects.filter(game=game, kind__in=LEAVE_KINDS)
        .order_by("version")
        .values_list("events", flat=True)
    )
    order: list[int] = []
    for events in items:
        for item in events:
            if item.get("type") in LEAVE_EVENTS and item.get("seat") not in order:
                order.append(item["seat"])
    return order


def finishing_places(
    seats: list[int], result: Outcome, events: list[dict[str, Any]], leavers: list[int]
) -> dict[int, int]:
    """Each rated seat's place (1 = first; tied seats share a place).

    ``leavers`` (in the order they left: a seat handed to a bot included)
    rank last, a later leaver above an earlier one; among the others, a
    campaign's standings (Hexenhalma: goals, then points) decide, else a draw
    ties everybody and otherwise the winners come first and the rest tie
    (Malefiz).
    """
    standings = next(
        (e["standings"] for e in events if e.get("type") == "finished" and "standings" in e), None
    )
    table = {row["seat"]: (-row["goals"], -row["points"]) for row in standings or []}
    winners = set(result.get("winners") or [])

    def key(seat: int) -> tuple:
        if seat in leavers:
            return (1, -leavers.index(seat))
        if seat in table:
            return (0, *table[seat])
        if result.get("draw"):
            return (0,)
        return (0, 0 if seat in winners else 1)

    keys = {seat: key(seat) for seat in seats}
    return {seat: 1 + sum(1 for k in keys.values() if k < keys[seat]) for seat in seats}


def _locked_ratings(user_ids: list[int], ruleset: str, speed: str) -> dict[int, Rating]:
    """The players' rating rows, created if new, locked in user-id order."""
    ids = sorted(user_ids)
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=u,
                ruleset=ruleset,
                speed=speed,
                mu=BASE_MU,
                sigma=BASE_SIGMA,
                display=BASE_DISPLAY,
            )
            for u in ids
        ],
        ignore_conflicts=True,
    )
    rows = (
        Rating.objects.select_for_update()
        .filter(user_id__in=ids, ruleset=ruleset, speed=speed)
        .order_by("user_id")
    )
    return {r.user_id: r for r in rows}


def rate_game(game: Game, event: Event) -> None:
    """Update the players' ratings if ``event`` finished a rated game."""
    if game.status != Game.Status.FINISHED or game.imported:
        return
    if not any(e.get("type") == "game_over" for e in event.events):
        return  # not the event that finished it
    rs = get_ruleset(game.ruleset)
    users = {
        s.index: s.user
        for s in Seat.objects.filter(game=game, user__isnull=False).select_related("user")
        if s.user is not None  # the query's filter: for the type checker
    }
    seated = {i: u for i, u in users.items() if not rs.is_referee(i)}  # a game master: unrated
    if len(seated) < 2 or not counts_as_rated(game.rated, users.values()):
        return
    if not every_seat_moved(game, rs.is_referee):
        return
    order = sorted(seated)
    # The event that ended the game stored its result (checked above).
    result = cast(Outcome, game.result)
    places = finishing_places(order, result, event.events, leaving_order(game))
    speed = speed_of(game.clock)
    rows = _locked_ratings([seated[s].pk for s in order], game.ruleset, speed)
    model = _model()
    teams = [
        [model.rating(mu=rows[seated[s].pk].mu, sigma=rows[seated[s].pk].sigma)] for s in order
    ]
    rated = model.rate(teams, ranks=[places[s] for s in order])
    now = timezone.now()
    changes = []
    for seat, [new] in zip(order, rated, strict=True):
        row = rows[seated[seat].pk]
        before = row.display
        row.mu, row.sigma, row.display = new.mu, new.sigma, shown(new.mu)
        row.games += 1
        row.save(update_fields=["mu", "sigma", "display", "games", "updated"])
        changes.append(
            RatingChange(
                user_id=row.user_id,
                game=game,
                ruleset=game.ruleset,
                speed=speed,
                place=places[seat],
                before=before,
                after=row.display,
                mu=row.mu,
                sigma=row.sigma,
                created=now,
            )
        )
    RatingChange.objects.bulk_create(changes)
    detection.after_rated(game, [seated[s].pk for s in order])  # boosting and the like
