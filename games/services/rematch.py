"""Rematch: once a game is finished, its players agree to play it again.

Every change happens under the finished game's row lock, so two players
accepting at the same instant open exactly one new game. Bots accept at once.
The new game has the same ruleset, options, seats and clock, with the seats
rotated by one (two seats: the colours swap), and starts at once.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_noop

from moderation.standing import refuse_if_playbanned, refuse_if_suspended

from .. import publish
from ..errors import GameError
from ..models import Game, Notification, Rematch
from ..rules import get_ruleset
from ..selectors.rematch import rematch_summary
from ..store.rows import LockedGame
from ..users import signed_in
from .creating import game_create
from .internal import notifications
from .internal.guards import locked_game, refuse_if_blocked

if TYPE_CHECKING:
    from accounts.models import User

    from ..users import Visitor


def rematch_offer(*, game_id: object, user: Visitor) -> dict[str, Any]:
    """Offer a rematch, or accept the one offered; the last yes opens the new game.

    Saying yes twice changes nothing; after a decline a new offer starts over.
    """
    user = signed_in(user)
    with transaction.atomic():
        locked, seat = _locked_finished(game_id, user)
        game, holders = locked.game, locked.holders
        rematch, _ = Rematch.objects.get_or_create(game=game)
        if rematch.new_game_id is not None or seat in rematch.accepted:
            return rematch_summary(rematch) or {}
        # A rematch is a new table: a suspension or a realtime play-ban holds here too.
        refuse_if_suspended(user)
        refuse_if_playbanned(user, game.clock)
        refuse_if_blocked(user.pk, list(holders.values()))
        if any(uid is None for uid in holders.values()):
            raise GameError(
                "seat_empty", gettext_noop("A player of this game has left the site: no rematch.")
            )
        fresh = not rematch.accepted
        bots = _bot_seats(holders)
        rematch.accepted = sorted({*rematch.accepted, seat, *bots})
        rematch.declined_by = None
        if set(rematch.accepted) == set(holders):
            rematch.new_game = _open_new_game(game, holders, bots)
        rematch.save()
        if rematch.new_game is not None:
            _notify_begun(rematch.new_game, holders, user, old=game.pk)
        elif fresh:
            _notify_offer(game, holders, rematch.accepted, user.username)
        return _published(rematch)


def rematch_decline(*, game_id: object, user: Visitor) -> dict[str, Any]:
    """Decline the offer (or withdraw one's own): the offer ends for everyone."""
    user = signed_in(user)
    with transaction.atomic():
        locked, seat = _locked_finished(game_id, user)
        rematch = Rematch.objects.filter(game=locked.game).first()
        if rematch is None or rematch.new_game_id is not None or not rematch.accepted:
            raise GameError("no_rematch", gettext_noop("There is no rematch offer to decline."))
        rematch.accepted = []
        rematch.declined_by = seat
        rematch.save()
        return _published(rematch)


def _locked_finished(game_id: object, user: User) -> tuple[LockedGame, int]:
    """The finished game's row, locked (with its seats' holders), and the caller's seat in it."""
    locked = locked_game(game_id, user)
    game, seat = locked.game, locked.seat
    if seat is None:
        raise GameError(
            "not_seated",
            gettext_noop("Only the players of this game can ask for a rematch."),
            status=403,
        )
    if game.one_screen is not None:
        raise GameError(
            "one_screen",
            gettext_noop("A game at one screen has no rematch: start a new one from the lobby."),
        )
    if game.status == Game.Status.ABORTED:
        raise GameError(
            "aborted",
            gettext_noop("This game was aborted: open a new table instead of a rematch."),
        )
    if game.status != Game.Status.FINISHED:
        raise GameError(
            "not_finished", gettext_noop("A rematch can be offered once the game is over.")
        )
    return locked, seat


def _bot_seats(holders: dict[int, int | None]) -> list[int]:
    bots = set(
        get_user_model()
        # A person's bot (plays_by_api) answers for itself, through the API.
        .objects.filter(pk__in=[u for u in holders.values() if u], is_bot=True, plays_by_api=False)
        .values_list("pk", flat=True)
    )
    return [seat for seat, uid in holders.items() if uid in bots]


def _seat_rotation(ruleset: str, seat_count: int) -> dict[int, int]:
    """Where each seat's player sits in the rematch: one seat on among the
    playing seats (two seats: the colours swap); a referee seat (Hexenhalma's
    game master) keeps its player."""
    rs = get_ruleset(ruleset)
    playing = [s for s in range(seat_count) if not rs.is_referee(s)]
    moved = {s: playing[(i + 1) % len(playing)] for i, s in enumerate(playing)}
    return {s: moved.get(s, s) for s in range(seat_count)}


def _open_new_game(old: Game, holders: dict[int, int | None], bot_seats: list[int]) -> Game:
    """The same game again, each player moved one seat on (``_seat_rotation``).
    Bots play only their own seats: a person's seat that a bot took over in the
    old game (services/handover.py) is the person's again."""
    new_seat = _seat_rotation(old.ruleset, old.seat_count)
    seated = {new_seat[s]: uid for s, uid in holders.items()}
    return game_create(
        ruleset=old.ruleset,
        holders=[seated[s] for s in range(old.seat_count)],
        bots={new_seat[int(s)]: level for s, level in old.bots.items() if int(s) in bot_seats},
        options=old.options,
        clock=old.clock,
        rated=old.rated,  # rated or casual as the first game was
        # The old host, or (their account deleted) the first player back.
        host=old.host_id or next((uid for uid in holders.values() if uid), None),
        auto_start=True,  # every seat held: it starts now
    )


def _notify_offer(
    game: Game, holders: dict[int, int | None], accepted: list[int], name: str
) -> None:
    """The others hear of the offer in their notifications (a challenge),
    so that it waits for them when they have left the page; once per game
    (an offer withdrawn and made again renews that notification)."""
    others = [uid for seat, uid in holders.items() if seat not in accepted and uid is not None]
    notifications.notify_once(
        user_ids=others,
        kind=Notification.Kind.CHALLENGE,
        game=game,
        same={"rematch": True},
        params={
            "game": game.pk,
            "title": get_ruleset(game.ruleset).title,
            "player": name,
            "rematch": True,
        },
    )


def _notify_begun(new: Game, holders: dict[int, int | None], accepter: Any, old: int) -> None:
    """Those who said yes earlier may have left the page: the new game waits in
    their notifications too."""
    notifications.notify(
        user_ids=[uid for uid in holders.values() if uid is not None and uid != accepter.pk],
        kind=Notification.Kind.CHALLENGE,
        game=new,
        params={
            "game": new.pk,
            "title": get_ruleset(new.ruleset).title,
            "player": accepter.username,
            "rematch_of": old,
        },
    )


def _published(rematch: Rematch) -> dict[str, Any]:
    summary = rematch_summary(rematch)
    assert summary is not None
    publish.after_commit(partial(publish.publish_rematch, rematch.game_id, summary))
    return summary
