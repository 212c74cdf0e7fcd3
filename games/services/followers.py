"""Telling followers that a player they follow started a live game (issue 29,
item 8): one notice per follower and game, however many of the game's
players they follow; none for followers who muted these notices
(``User.follow_notices``), for anyone a player at the table has blocked, or
for the game's own players."""

from __future__ import annotations

from collections import defaultdict

from accounts.models import Block, Follow

from ..models import Game, Notification, Seat
from ..rules import get_ruleset
from .notifications import notify


def _live(game: Game) -> bool:
    """A game to watch now: a realtime clock (a correspondence game is not)."""
    return game.clock.get("kind") == "realtime"


def followers_told(game: Game) -> int:
    """Notify the followers of ``game``'s players that it started (in the
    caller's transaction, sent after its commit); how many were told."""
    if not _live(game):
        return 0
    players = dict(
        Seat.objects.filter(game=game, user__isnull=False).values_list("user_id", "user__username")
    )
    if not players:
        return 0
    blocked = Block.objects.filter(user_id__in=players).values("blocked_id")
    rows = (
        Follow.objects.filter(followed_id__in=players, user__follow_notices=True)
        .exclude(user_id__in=players)
        .exclude(user_id__in=blocked)
        .exclude(user__is_bot=True)
        .order_by("user_id", "followed__username")
        .values_list("user_id", "followed_id")
    )
    first: dict[int, int] = {}  # follower: the first followed player at the table
    for follower, followed in rows:
        first.setdefault(follower, followed)
    by_player: dict[int, list[int]] = defaultdict(list)
    for follower, followed in first.items():
        by_player[followed].append(follower)
    title = get_ruleset(game.ruleset).title
    for followed, followers in by_player.items():
        params = {"game": game.pk, "title": title, "player": players[followed]}
        notify(
            user_ids=followers,
            kind=Notification.Kind.FOLLOWED,
            game=game,
            params=params,
            mail=False,
        )
    return len(first)
