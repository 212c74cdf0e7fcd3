"""Rating refunds after a booster or sandbagger is marked: every opponent who
lost rating to them in a rated game gets the loss back, once per opponent
and game (``Refund`` is unique on both).

The loss is openskill's: the opponent's ``mu`` after the game less their
``mu`` before it (their previous change in that game and speed, or the
starting value). The refund adds it to their current ``mu`` (``sigma`` is
left alone: the games were played) and shows the figure anew, so a refund
never undoes what the opponent won or lost elsewhere since.
"""

from __future__ import annotations

from typing import Any

from games.models import Rating, RatingChange
from games.selectors.ratings import BASE_MU, shown

from ..models import Refund


def _mu_before(change: RatingChange) -> float:
    earlier = (
        RatingChange.objects.filter(
            user_id=change.user_id, ruleset=change.ruleset, speed=change.speed
        )
        .filter(created__lte=change.created)
        .exclude(pk=change.pk)
        .exclude(created=change.created, pk__gt=change.pk)
        .order_by("-created", "-pk")
        .values_list("mu", flat=True)
        .first()
    )
    return BASE_MU if earlier is None else earlier


def _losses_to(user_id: int) -> list[RatingChange]:
    """The opponents' rating changes in ``user_id``'s rated games."""
    games = RatingChange.objects.filter(user_id=user_id).values("game_id")
    return list(
        RatingChange.objects.filter(game_id__in=games)
        .exclude(user_id=user_id)
        .order_by("user_id", "created", "pk")
    )


def refund_victims(user_id: int) -> list[dict[str, Any]]:
    """Give back what the opponents lost; the caller holds a transaction."""
    done: list[dict[str, Any]] = []
    for change in _losses_to(user_id):
        lost = _mu_before(change) - change.mu
        if lost <= 0:
            continue
        if Refund.objects.filter(user_id=change.user_id, game_id=change.game_id).exists():
            continue
        row = (
            Rating.objects.select_for_update()
            .filter(user_id=change.user_id, ruleset=change.ruleset, speed=change.speed)
            .first()
        )
        if row is None:
            continue
        before = row.display
        row.mu += lost
        row.display = shown(row.mu)
        row.save(update_fields=["mu", "display", "updated"])
        Refund.objects.create(user_id=change.user_id, game_id=change.game_id, mu=lost)
        done.append(
            {"user": change.user_id, "game": change.game_id, "points": row.display - before}
        )
    return done
