"""Telling followers that a player they follow started a live game (issue 29,
item 8): one notice per follower and game, however many of the game's
players they follow; none for followers who muted these notices
(``User.follow_notices``), for anyone a player at the table has blocked, or
for the game's own players."""

from __future__ import annotations

from collections import defaultdict

from accounts.models import Block, Follow

from ...models import Game, Notification, Seat
from ...rules import get_ruleset
from .notifications import notify_each


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
    return followers_told_many([(game, players)])


def followers_told_many(tables: list[tuple[Game, dict[int, str]]]) -> int:
    """``followers_told`` for many games starting at once (a tournament's
    round), each with its players (user id: username): the same notices in a
    fixed number of queries."""
    tables = [(game, players) for game, players in tables if _live(game) and players]
    everyone = {uid for _, players in tables for uid in players}
    if not everyone:
        return 0
    blocks: dict[int, set[int]] = defaultdict(set)
    for user_id, blocked in Block.objects.filter(user_id__in=everyone).values_list(
        "user_id", "blocked_id"
    ):
        blocks[user_id].add(blocked)
    follows = list(
        Follow.objects.filter(followed_id__in=everyone, user__follow_notices=True)
        .exclude(user__is_bot=True)
        .values_list("user_id", "followed_id")
    )
    notes = [note for game, players in tables for note in _notes(game, players, blocks, follows)]
    if notes:
        notify_each(notes=notes, mail=False)
    return len(notes)


def _notes(
    game: Game,
    players: dict[int, str],
    blocks: dict[int, set[int]],
    follows: list[tuple[int, int]],
) -> list[Notification]:
    """One notice per follower of ``game``'s players, naming the first of
    them by username; not to the table's players or anyone they blocked."""
    blocked = {b for uid in players for b in blocks.get(uid, ())}
    first: dict[int, int] = {}  # follower: the first followed player at the table
    for follower, followed in sorted(
        ((f, p) for f, p in follows if p in players),
        key=lambda pair: (pair[0], players[pair[1]]),
    ):
        if follower not in players and follower not in blocked:
            first.setdefault(follower, followed)
    title = get_ruleset(game.ruleset).title
    return [
        Notification(
            user_id=follower,
            kind=Notification.Kind.FOLLOWED,
            game=game,
            params={"game": game.pk, "title": title, "player": players[followed]},
        )
        for follower, followed in first.items()
    ]
