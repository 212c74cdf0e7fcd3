"""A new round's notice to each player whose game waits, and to each player
with a bye: the bell, mail and web push through the games' notifications
(stored in the pairing's transaction, sent after its commit by their outboxes)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.models import Game, Notification
from games.rules import RULESETS
from games.services.internal.notifications import notify_each
from lobby.models import Tournament


def round_started(
    tournament: Tournament,
    number: int,
    games: list[Game],
    seated: list[list[int]],
    byes: list[int] | None = None,
) -> None:
    """One notice per player and game (``seated``: each game's user ids), and
    one per player with a bye that scores (``byes``). It runs once per round:
    pairing a round happens once (the tournament's row lock and the unique
    pairing constraint), and a game is in one round."""
    title = RULESETS[tournament.ruleset].title if tournament.ruleset in RULESETS else ""
    byes = byes or []
    everyone = {uid for users in seated for uid in users} | set(byes)
    people = set(
        get_user_model().objects.filter(pk__in=everyone, is_bot=False).values_list("pk", flat=True)
    )
    about = {"tournament": tournament.name, "tournament_id": tournament.pk, "round": number}
    bye_notes = [
        Notification(user_id=uid, kind=Notification.Kind.ROUND_START, params={**about, "bye": True})
        for uid in byes
        if uid in people
    ]
    notify_each(
        notes=bye_notes
        + [
            Notification(
                user_id=uid,
                kind=Notification.Kind.ROUND_START,
                game=game,
                params={
                    "tournament": tournament.name,
                    "tournament_id": tournament.pk,
                    "round": number,
                    "game": game.pk,
                    "title": title,
                },
            )
            for game, users in zip(games, seated, strict=True)
            for uid in users
            if uid in people
        ]
    )
