"""Automatic signals into the moderators' queue (never sanctions): checked in
the transaction that rates a two-player game, a few indexed reads each.

- boosting: the pair played at least ``BOOSTING_GAMES`` rated games within
  its days and one side won at least ``BOOSTING_SHARE`` of them; the
  winner's account gets a ``boosting`` report naming the pair;
- rating jump: a player gained ``RATING_JUMP`` points in one game and speed
  within 24 hours (``rating_jump``);
- shared device: the two accounts were seen logging in with one device
  cookie and just played each other rated (``shared_device``).

The site files at most one open signal of a kind per account (a unique
constraint), so a farming pair fills no queue (``file_signal``; services.py
files the many-reports signal with it). ``announce`` tells the staff pages of
a new report, the site's or a person's.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils import timezone

from games import publish
from games.models import Game, RatingChange

from .. import selectors
from ..models import Report, Sighting


def after_rated(game: Game, user_ids: list[int]) -> None:
    for user_id in user_ids:
        _check_rating_jump(user_id)
    if len(user_ids) != 2 or game.seat_count != 2:
        return
    a, b = sorted(user_ids)
    _check_boosting(a, b)
    _check_shared_device(game, a, b)


def _pair_results(a: int, b: int, days: int) -> list[tuple[int, int]]:
    """(a's place, b's place) of each rated two-player game of the pair lately."""
    since = timezone.now() - timedelta(days=days)
    rows = RatingChange.objects.filter(
        user_id__in=[a, b], created__gte=since, game__seat_count=2, game__seats__user_id=b
    ).values_list("game_id", "user_id", "place")
    places: dict[int, dict[int, int]] = {}
    for game_id, user_id, place in rows:
        places.setdefault(game_id, {})[user_id] = place
    return [(p[a], p[b]) for p in places.values() if a in p and b in p]


def _check_boosting(a: int, b: int) -> bool:
    count, days = settings.BOOSTING_GAMES
    results = _pair_results(a, b, days)
    if len(results) < count:
        return False
    wins = {a: sum(pa < pb for pa, pb in results), b: sum(pb < pa for pa, pb in results)}
    winner = max(wins, key=lambda u: wins[u])
    if wins[winner] < settings.BOOSTING_SHARE * len(results):
        return False
    loser = b if winner == a else a
    names = dict(selectors.usernames([a, b]))
    evidence: dict[str, Any] = {
        "pairs": [
            {
                "winner": names.get(winner),
                "loser": names.get(loser),
                "won": wins[winner],
                "games": len(results),
                "days": days,
            }
        ],
        "pair_games": selectors.pair_games(winner, loser),
    }
    return file_signal(target_id=winner, reason=Report.Reason.BOOSTING, evidence=evidence)


def _check_rating_jump(user_id: int) -> bool:
    """A day's rating gains (in one game and speed) far beyond what honest
    play brings: ``RATING_JUMP`` shown points within 24 hours."""
    since = timezone.now() - timedelta(hours=24)
    gains = (
        RatingChange.objects.filter(user_id=user_id, created__gte=since)
        .values("ruleset", "speed")
        .annotate(gain=Sum(F("after") - F("before")))
        .order_by()
    )
    jumps = [g for g in gains if g["gain"] >= settings.RATING_JUMP]
    if not jumps:
        return False
    return file_signal(
        target_id=user_id, reason=Report.Reason.RATING_JUMP, evidence={"jumps": jumps}
    )


def _check_shared_device(game: Game, a: int, b: int) -> bool:
    devices = Sighting.objects.filter(user_id=a).exclude(device="").values("device")
    if not Sighting.objects.filter(user_id=b, device__in=devices).exists():
        return False
    evidence = {"game": selectors.game_record(game)}
    filed = False
    for user_id in (a, b):
        filed |= file_signal(
            target_id=user_id, reason=Report.Reason.SHARED_DEVICE, evidence=evidence
        )
    return filed


def announce(report_id: int) -> None:
    """Tell the staff pages of a new report (after the commit that filed it)."""
    report = Report.objects.select_related("target", "reporter").get(pk=report_id)
    publish.publish_report(selectors.report_summary(report), selectors.open_count())


def file_signal(*, target_id: int, reason: str, evidence: dict[str, Any], text: str = "") -> bool:
    """The site's own report (no reporter): at most one open per account and kind."""
    try:
        with transaction.atomic():
            report = Report.objects.create(
                reporter=None, target_id=target_id, reason=reason, text=text, evidence=evidence
            )
            publish.after_commit(partial(announce, report.pk))
    except IntegrityError:
        return False
    return True
