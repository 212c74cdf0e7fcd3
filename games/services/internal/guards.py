"""The checks every game service makes first: a game id, a locked row, a seat;
and those several services share: a chat's rate, a block between two players."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar, cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError
from django.utils.translation import gettext_noop

from ... import plain_json, ratelimit
from ...errors import GameError, no_such_game
from ...models import Event, Game
from ...rules import Ruleset, get_ruleset
from ...selectors.relations import block_between
from ...store import rows
from ...store.constraints import broke
from ...store.rows import LockedGame
from ...users import is_bot

if TYPE_CHECKING:
    from ...users import Visitor

log = logging.getLogger(__name__)
Service = TypeVar("Service", bound=Callable[..., object])


def parse_game_id(value: object) -> int:
    """A game id from a client, or the error saying there is no such game."""
    try:
        game_id = int(value)  # type: ignore[call-overload]  # anything a client sent
    except (TypeError, ValueError):
        raise GameError("bad_request", gettext_noop("The game id must be a number.")) from None
    if not 0 < game_id < 2**63:
        raise no_such_game()
    return game_id


def locked_game(game_id: object, user: Visitor | None = None) -> LockedGame:
    """The game row, locked; with ``user`` also their seat, in the same query."""
    locked = rows.lock_game(parse_game_id(game_id), user_id_of(user))
    if locked is None:
        raise no_such_game()
    return locked


def user_id_of(user: Visitor | None) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def require_json_object(action: object) -> dict[str, Any]:
    """An action must be a plain JSON object (no NaN, nothing a database refuses)."""
    if not isinstance(action, dict):
        raise GameError("bad_request", gettext_noop("The action must be a JSON object."))
    try:
        json.dumps(action, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise GameError("bad_request", gettext_noop("The action must be plain JSON.")) from None
    found = plain_json.problem(action)
    if found:
        raise GameError("bad_request", found)
    return action


def conflicts_are_stale(service: Service) -> Service:
    """The unique (game, version) constraint is the last line of defence: a
    conflict there means someone else moved first, never a server error. Any
    other constraint is no stale version: a clear "conflict", and logged."""

    @wraps(service)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return service(*args, **kwargs)
        except IntegrityError as exc:
            if not broke(exc, Event, "event_unique_version"):
                log.exception("%s: a constraint other than the version's", service.__name__)
                raise GameError(
                    "conflict",
                    gettext_noop("That clashed with another change made at the same moment."),
                    status=409,
                ) from None
            current = Game.objects.filter(pk=kwargs.get("game_id", 0)).values_list(
                "version", flat=True
            )
            raise GameError(
                "stale_version",
                gettext_noop("Someone else moved first; your view was out of date."),
                version=current.first(),
            ) from None

    return cast("Service", wrapper)


def clean_seat_count(rs: Ruleset, seat_count: object) -> int:
    """A table size a client asked for (None: the ruleset's smallest), or the error."""
    if seat_count is None:
        return rs.min_seats
    if isinstance(seat_count, bool) or not isinstance(seat_count, int):
        raise GameError("bad_request", gettext_noop("The number of seats must be a whole number."))
    if not rs.min_seats <= seat_count <= rs.max_seats:
        raise GameError(
            "bad_request",
            gettext_noop("This game is played by %(lo)s to %(hi)s players."),
            lo=rs.min_seats,
            hi=rs.max_seats,
        )
    return seat_count


def refuse_rated_options(rs: Ruleset, options: dict[str, Any]) -> None:
    """A rated table plays the options a ruleset fixes for rated games
    (``rated_options``: the Daschax house rule's 150 turns); another value
    is for casual tables only, so every rated game is played alike."""
    for name, value in getattr(rs, "rated_options", {}).items():
        if options.get(name, value) != value:
            raise GameError(
                "bad_options",
                gettext_noop(
                    "Rated tables play option %(name)s at %(value)s; "
                    "make the table casual (not rated) to change it."
                ),
                name=name,
                value=value,
            )


def require_active(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise GameError(
            "not_started", gettext_noop("This game has not started yet."), version=game.version
        )
    if game.is_over:
        raise GameError("game_over", gettext_noop("This game is over."), version=game.version)


def require_seat(locked: LockedGame, user: Visitor | None) -> int:
    """The seat ``user`` holds in the locked game (read with its lock), if it may act."""
    game, seat = locked.game, locked.seat
    if user is None or not user.is_authenticated:
        raise GameError(
            "login_required", gettext_noop("Log in to play."), status=403, version=game.version
        )
    if game.one_screen is not None and game.host_id == user.pk:
        seat = _screen_seat(game)
    # A leaver whose seat waits for (or went to) a bot acts no more (services/handover.py).
    if seat is None or seat in game.left_seats or "leave" in game.handovers.get(str(seat), {}):
        raise GameError(
            "not_seated",
            gettext_noop("You do not hold a seat in this game; spectators cannot act."),
            status=403,
            version=game.version,
        )
    return seat


def _screen_seat(game: Game) -> int:
    """At a table at one screen, the seat its holder acts for: the named seat
    to act now (``Game.one_screen_seat``), for this game only; none while a
    bot is to act or the game is not running."""
    require_active(game)
    seat = game.one_screen_seat()
    if seat is None:
        raise GameError(
            "not_your_turn",
            gettext_noop("It is not a named player's turn: a bot is to act."),
            version=game.version,
        )
    return seat


def game_act_input_check(*, version: object, action: object) -> tuple[int, dict[str, Any]]:
    """What an act frame must carry before any game is read: the version and action, checked."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise GameError("bad_request", gettext_noop("The version must be a whole number."))
    return version, require_json_object(action)


def locked_seat(game_id: object, user: Visitor | None) -> tuple[Game, int]:
    """The running game's row, locked, and the caller's seat in it: what every
    seat's own command (resign, draw offers, abort, remis) checks first."""
    locked = locked_game(game_id, user)
    seat = require_seat(locked, user)
    require_active(locked.game)
    return locked.game, seat


def locked_player_seat(game_id: object, user: Visitor | None) -> tuple[Game, int]:
    """``locked_seat`` for the commands only players have (resign, draws,
    abort): a seat that runs the game (a game master) is refused."""
    game, seat = locked_seat(game_id, user)
    if get_ruleset(game.ruleset).is_referee(seat):
        raise GameError(
            "referee",
            gettext_noop(
                "As the game master you run the campaign: resigning, draws and aborting"
                " are for the players. End the campaign instead."
            ),
            status=403,
            version=game.version,
        )
    if str(seat) in game.bots and not is_bot(user):
        # Handed to a bot (services/handover.py): the bot plays it to the end.
        raise GameError(
            "handed_over",
            gettext_noop("A bot plays this seat now."),
            status=403,
            version=game.version,
        )
    return game, seat


def lock_user(user_id: int) -> None:
    """Serialise one user's work (vacations, digests, open tables) on their
    row, inside the caller's transaction. FOR NO KEY UPDATE, not FOR UPDATE:
    a move's rows that refer to the user (a notification) take KEY SHARE on it
    at commit, and FOR UPDATE would deadlock with them."""
    get_user_model().objects.select_for_update(no_key=True).filter(pk=user_id).first()


def check_chat_rate(key: str) -> None:
    """CHAT_RATE per ``key`` (a user in one chat), counted atomically in the
    shared cache: a count of stored rows let racing lines (other threads,
    other processes) all pass."""
    count, seconds = settings.CHAT_RATE
    wait = ratelimit.hit(key, count, seconds)
    if wait is not None:
        raise GameError(
            "rate_limited",
            gettext_noop(
                "Slow down: at most %(n)s messages in %(s)s seconds; try again in %(wait)s seconds."
            ),
            status=429,
            retry_after=wait,
            n=count,
            s=seconds,
            wait=wait,
        )


def refuse_if_blocked(user_id: int, others: list[int | None]) -> None:
    """The clear refusal every pairing (join, challenge, quick play, rematch) gives."""
    if block_between(user_id, others):
        raise GameError(
            "blocked",
            gettext_noop("You cannot play this player: one of you has blocked the other."),
            status=403,
        )
