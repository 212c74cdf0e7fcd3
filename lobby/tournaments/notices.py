"""A new round's notice to each player whose game waits: the bell, mail and
web push through the games' notifications (stored in the pairing's
transaction, sent after its commit by their outboxes)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.models import Game, Notification
from games.rules import RULESETS
from games.services.notifications import notify_each
from lobby.models import Tournament


def round_started(
    tournament: Tournament, number: int, games: list[Game], seated: list[list[int]]
) -> None:
    """One notice per player and game (``seated``: each game's user ids). It
    runs once per round: pairing a round happens once (the tournament's row
    lock and the unique pairing constraint), and a game is in one round."""
    title = RULESETS[tournament.ruleset].title if tournament.ruleset in RULESETS else ""
    everyone = {uid for users in seated for uid in users}
    people = set(
        get_user_model().objects.filter(pk__in=everyone, is_bot=False).values_list("pk", flat=True)
    )
    notify_each(
        notes=[
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
