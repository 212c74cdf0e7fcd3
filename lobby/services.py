"""Tables before the game starts: create, join, leave, start, quick play, challenges."""

from __future__ import annotations

import hashlib
import json
import secrets
from functools import partial
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.services.internal import bot_accounts
from games import clocks, publish
from games.errors import GameError
from games.models import Game, Notification, Seat, seats_ended
from games.reasons import REASON_CLOSED, REASON_DECLINED
from games.rules import RULESETS, InvalidOptions, Ruleset, get_ruleset
from games.selectors.relations import block_between
from games.selectors.seats import game_with_seats, table_by_invite
from games.services.creating import game_create
from games.services.internal import notifications, ratings
from games.services.internal.guards import (
    clean_seat_count,
    lock_user,
    refuse_if_blocked,
    refuse_rated_options,
)
from games.services.play import game_start
from games.users import is_bot, is_guest, signed_in
from moderation.standing import refuse_if_playbanned, refuse_if_suspended

if TYPE_CHECKING:
    from games.users import Visitor

MAX_OPEN_TABLES_PER_USER = 10


def _publish_after_commit(game_id: int) -> None:
    publish.after_commit(partial(_publish, game_id))


def _publish(game_id: int) -> None:
    publish.publish_table(game_with_seats(game_id))


def _check_ruleset(slug: object) -> Ruleset:
    if not isinstance(slug, str) or slug not in RULESETS:
        raise GameError("bad_request", gettext_noop("Unknown game: %(slug)s."), slug=str(slug)[:40])
    return get_ruleset(slug)


def _clean_options(rs: Ruleset, options: Any) -> dict[str, Any]:
    try:
        return rs.validate_options(options if options is not None else {})
    except InvalidOptions as exc:
        raise GameError("bad_options", exc.template, **exc.params) from None


def _refuse_guest(user: Any) -> None:
    """Guests play the computer or take a seat they were invited to; public
    tables and quick play are for accounts."""
    if is_guest(user):
        raise GameError(
            "guest",
            gettext_noop("Guests play the computer or join by invitation. Sign up to open tables."),
            status=403,
        )


def _locked_open_table(game_id: Any) -> Game:
    try:
        game = Game.objects.select_for_update().get(pk=int(game_id))
    except (TypeError, ValueError, Game.DoesNotExist):
        raise GameError("not_found", gettext_noop("There is no such table."), status=404) from None
    if game.status != Game.Status.OPEN:
        raise GameError("not_open", gettext_noop("This table has already started or closed."))
    return game


def table_create(
    *,
    host: Visitor,
    ruleset: str,
    options: dict[str, Any] | None = None,
    seat_count: int | None = None,
    host_seat: int | str = 0,
    challenge: str | None = None,
    quickplay: bool = False,
    clock: dict[str, Any] | None = None,
    auto_start: bool = False,
    bot: dict[str, Any] | None = None,
    rated: bool | None = None,
    for_bot: bool = False,
    one_screen: bool = False,
    names: object = None,
) -> Game:
    """Open a table with the host seated; optionally reserved for a challenged user.

    ``one_screen``: a table at one screen (``_one_screen_table``), its
    players named by ``names``, one per seat (a name, or ``{"bot": level}``).

    ``bot``: ``{"level": ...}`` seats that bot too (the table starts once
    full, at once with two seats); ``{"levels": [...]}`` (staff) seats one bot
    per level and no host: a bot-against-bot game, started at once.
    ``for_bot``: the caller seats a bot next (as ``bot`` does here): no
    guest refusal and no rated-options check. The game itself is made, and
    told to the lobby once, by ``creating.game_create``.
    """
    host = signed_in(host)
    refuse_if_suspended(host)
    rated = ratings.clean_rated(rated)
    rs = _check_ruleset(ruleset)
    if one_screen is not False or names is not None:
        if one_screen is not True:
            raise GameError("bad_request", gettext_noop("one_screen must be true or false."))
        extra = {"challenge": challenge, "bot": bot, "quickplay": quickplay or None}
        if any(extra.values()) or rated:
            raise GameError(
                "bad_request",
                gettext_noop(
                    "A game at one screen is casual, with its own players and bots:"
                    " no challenge, quick play, rating or bot option."
                ),
            )
        return _one_screen_table(host, rs, names, seat_count, options, clock)
    if is_guest(host) and not for_bot and bot is None:
        _refuse_guest(host)  # a guest's table is the guest against the computer (full at once)
    level = _bot_level(bot, challenge, rated)
    if isinstance(bot, dict) and "levels" in bot:
        return _bot_match(host, rs, bot["levels"], options, clock)
    if level is not None:
        host_seat = _playing_seat(rs, seat_count, host_seat)
    clean = _clean_options(rs, options)
    seats = clean_seat_count(rs, seat_count)
    if host_seat == "random":
        host_seat = secrets.randbelow(seats)
    if isinstance(host_seat, bool) or not isinstance(host_seat, int) or not 0 <= host_seat < seats:
        raise GameError("bad_request", gettext_noop("Choose one of the table's seats."))
    opponent = _challenged_user(host, challenge)
    if is_bot(host) or is_bot(opponent):
        _refuse_rated_bot(rated)
    elif rated is not False and not for_bot and level is None:  # people only: rated unless casual
        refuse_rated_options(rs, clean)
    time_control = clocks.clean_clock(clock)
    refuse_if_playbanned(host, time_control)
    with transaction.atomic():
        # One host's tables one at a time: two at once would both count ten.
        lock_user(host.pk)
        open_count = Game.objects.filter(host=host, status=Game.Status.OPEN).count()
        if open_count >= MAX_OPEN_TABLES_PER_USER:
            raise GameError(
                "too_many_tables",
                gettext_noop("You already have %(n)s open tables; close one first."),
                n=open_count,
            )
        game = game_create(
            ruleset=rs.slug,
            holders=[host.pk if i == host_seat else None for i in range(seats)],
            bots=_bot_seats(rs, seats, host_seat, level) if level is not None else None,
            options=clean,
            clock=time_control,
            rated=False if is_guest(host) else rated,  # a guest is never rated
            host=host.pk,
            challenged=opponent.pk if opponent is not None else None,
            quickplay=quickplay,
            auto_start=bool(auto_start) or quickplay or level is not None,
        )
        if is_guest(host) and game.status == Game.Status.OPEN:
            _refuse_guest(host)  # a seat left for strangers: rolled back
        if opponent is not None:
            notifications.notify(
                user_ids=[opponent.pk],
                kind=Notification.Kind.CHALLENGE,
                game=game,
                params={"game": game.pk, "title": rs.title, "player": host.username},
            )
            publish.after_commit(partial(_notify_challenge, game.pk, opponent.pk, host.username))
    return game


MAX_ONE_SCREEN_GAMES_PER_USER = 10  # running at once
ONE_SCREEN_NAME_MAX = 20


def _one_screen_table(
    host: Any, rs: Ruleset, names: Any, seat_count: Any, options: Any, clock: Any
) -> Game:
    """A table at one screen (a family at a tablet): the host holds every seat
    a bot does not and names its players; it starts at once, with no clock,
    and is never rated. Guests are refused (an account holds the game)."""
    if is_guest(host):
        raise GameError(
            "guest",
            gettext_noop("Sign up to play at one screen: the game is kept in your account."),
            status=403,
        )
    if clock not in (None, {}) and clocks.clean_clock(clock) != {"kind": "none"}:
        raise GameError(
            "bad_clock", gettext_noop("A game at one screen has no clock: leave the clock out.")
        )
    players, bots = _one_screen_names(names)
    if seat_count is not None and seat_count != len(players):
        raise GameError(
            "bad_request", gettext_noop("Name one player (or a bot) for each seat of the table.")
        )
    seats = clean_seat_count(rs, len(players))
    clean = _clean_options(rs, options)
    first = next(i for i, name in enumerate(players) if name is not None)
    with transaction.atomic():
        lock_user(host.pk)
        running = Game.objects.filter(
            host=host, status=Game.Status.ACTIVE, one_screen__isnull=False
        ).count()
        if running >= MAX_ONE_SCREEN_GAMES_PER_USER:
            raise GameError(
                "too_many_tables",
                gettext_noop("You already play %(n)s games at one screen; finish one first."),
                n=running,
            )
        return game_create(
            ruleset=rs.slug,
            holders=[host.pk if i == first else None for i in range(seats)],
            bots=bots,
            options=clean,
            rated=False,
            host=host.pk,
            auto_start=True,
            one_screen=players,
        )


def _one_screen_names(names: Any) -> tuple[list[str | None], dict[int, str]]:
    """Each seat's player (None at a bot's seat) and the bots' levels, checked:
    two named players at least, each name 1 to 20 characters, no two alike."""
    if not isinstance(names, list) or not names or len(names) > 64:
        raise GameError(
            "bad_request",
            gettext_noop('Name the players, one per seat: "names": ["Anna", "Ben"].'),
        )
    players: list[str | None] = []
    bots: dict[int, str] = {}
    for seat, entry in enumerate(names):
        if isinstance(entry, dict) and set(entry) == {"bot"}:
            bots[seat] = bot_accounts.clean_level(entry["bot"])
            players.append(None)
            continue
        name = " ".join(entry.split()) if isinstance(entry, str) else ""
        if not name or len(name) > ONE_SCREEN_NAME_MAX or not name.isprintable():
            raise GameError(
                "bad_name",
                gettext_noop(
                    'Seat %(n)s: a player\'s name has 1 to %(max)s characters (or {"bot": level}).'
                ),
                n=seat + 1,
                max=ONE_SCREEN_NAME_MAX,
            )
        players.append(name)
    named = [name.casefold() for name in players if name is not None]
    if len(named) < 2:
        raise GameError(
            "bad_request",
            gettext_noop("Name two players at least; to play alone, play the computer."),
        )
    if len(set(named)) != len(named):
        raise GameError("bad_name", gettext_noop("Give each player a name of their own."))
    return players, bots


def _challenged_user(host: Any, name: Any) -> Any:
    if name in (None, ""):
        return None
    if not isinstance(name, str):
        raise GameError("bad_request", gettext_noop("Name the user to challenge."))
    user = get_user_model().objects.filter(username__iexact=name.strip()).first()
    if user is None:
        raise GameError(
            "no_such_user", gettext_noop("There is no user called %(name)s."), name=name[:40]
        )
    if user.pk == host.pk:
        raise GameError("bad_request", gettext_noop("You cannot challenge yourself."))
    refuse_if_blocked(host.pk, [user.pk])
    return user


def _notify_challenge(game_id: int, user_id: int, host_name: str) -> None:
    publish.publish_to_user(user_id, {"kind": "challenge", "game": game_id, "from": host_name})


def _close_table(game: Game, reason: str, user: Visitor) -> None:
    """An open table that will never start (host left, challenge declined);
    the result says who closed it and why, so the host's page can tell."""
    game.status = Game.Status.ABORTED
    game.ended = timezone.now()
    game.result = {
        "winners": [],
        "draw": False,
        "reason": reason,
        "reason_params": {"player": user.username},
    }
    game.save(update_fields=["status", "ended", "result"])
    seats_ended(game.pk)


def table_join(*, game_id: int, user: Visitor, seat: int | None = None) -> Game:
    """Take a free seat (the first one unless ``seat`` names one)."""
    user = signed_in(user)
    refuse_if_suspended(user)
    with transaction.atomic():
        game = _locked_open_table(game_id)
        refuse_if_playbanned(user, game.clock)
        if is_bot(user):
            _refuse_rated_bot(game.rated)
        seats = list(Seat.objects.filter(game=game).order_by("index"))
        if any(s.user_id == user.pk for s in seats):
            raise GameError("already_seated", gettext_noop("You already sit at this table."))
        if game.challenged_id and user.pk not in (game.challenged_id, game.host_id):
            raise GameError(
                "reserved",
                gettext_noop("This table is reserved for the challenged player."),
                status=403,
            )
        refuse_if_blocked(user.pk, [s.user_id for s in seats])
        free = [s for s in seats if s.user_id is None]
        if seat is not None:
            free = [s for s in free if s.index == seat]
            if not free:
                raise GameError("seat_taken", gettext_noop("That seat is taken."))
        if not free:
            raise GameError("table_full", gettext_noop("This table is full."))
        chosen = free[0]
        chosen.user = user
        chosen.joined = timezone.now()
        chosen.save(update_fields=["user", "joined"])
        _casual_with_guest(game, user)
        _seat_taken(game, full=len(free) == 1)
    return game


def _seat_taken(game: Game, *, full: bool) -> None:
    """One lobby frame per change: a table that starts now is told by its
    start event (``game_start``), a table still open here."""
    if game.auto_start and full:
        game_start(game=game)
    else:
        _publish_after_commit(game.pk)


def _casual_with_guest(game: Game, user: Visitor) -> None:
    """A guest is never rated: the table is stored casual from the moment one
    sits, so it stays casual when the guest signs up mid-game (the label and
    the ratings read ``rated``)."""
    if is_guest(user) and game.rated is not False:
        game.rated = False
        game.save(update_fields=["rated"])


def table_leave(*, game_id: int, user: Visitor) -> Game:
    """Leave an open table; when the host leaves, the table closes."""
    user = signed_in(user)
    with transaction.atomic():
        game = _locked_open_table(game_id)
        seat = Seat.objects.filter(game=game, user=user).first()
        if seat is None:
            raise GameError("not_seated", gettext_noop("You do not sit at this table."))
        if game.host_id == user.pk:
            _close_table(game, REASON_CLOSED, user)
        else:
            seat.user = None
            seat.joined = None
            seat.save(update_fields=["user", "joined"])
        _publish_after_commit(game.pk)
    return game


def table_decline(*, game_id: int, user: Visitor) -> Game:
    """The challenged player says no: the table closes."""
    user = signed_in(user)
    with transaction.atomic():
        game = _locked_open_table(game_id)
        if game.challenged_id != user.pk:
            raise GameError(
                "forbidden", gettext_noop("Only the challenged player can decline."), status=403
            )
        _close_table(game, REASON_DECLINED, user)
        _publish_after_commit(game.pk)
        if game.host_id is not None:  # an open table's host (SET_NULL only once deleted)
            publish.after_commit(
                partial(
                    publish.publish_to_user,
                    game.host_id,
                    {"kind": "declined", "game": game.pk, "from": user.username},
                )
            )
    return game


def table_start(*, game_id: int, user: Visitor) -> Game:
    """The host starts the game once every seat is taken."""
    user = signed_in(user)
    with transaction.atomic():
        game = _locked_open_table(game_id)
        if game.host_id != user.pk:
            raise GameError(
                "forbidden", gettext_noop("Only the host can start the game."), status=403
            )
        if Seat.objects.filter(game=game, user__isnull=True).exists():
            raise GameError("seats_free", gettext_noop("Wait until every seat is taken."))
        game_start(game=game)
    return game


def table_join_by_invite(*, code: str, user: Visitor) -> Game:
    """Take a seat through an invite link (the page's Join button posts here).

    A visitor already seated just goes to the game; a table that started or
    closed meanwhile is refused like any join.
    """
    user = signed_in(user)
    game = table_by_invite(code)
    if Seat.objects.filter(game=game, user=user).exists():
        return game
    return table_join(game_id=game.pk, user=user)


def table_quickplay(
    *,
    user: Visitor,
    ruleset: str,
    options: dict[str, Any] | None = None,
    seat_count: int | None = None,
    clock: dict[str, Any] | None = None,
) -> Game:
    """Pair with the oldest matching seek, or leave one in the lobby.

    Finding and creating are one transaction, taken one at a time per kind of
    seek (``_serialise_seeks``): two players seeking the same game at the same
    instant end at one table, never at two open seeks side by side.
    """
    user = signed_in(user)
    _refuse_guest(user)
    if is_bot(user):
        raise GameError(
            "bot_account",
            gettext_noop("Bot accounts do not enter quick play: accept challenges instead."),
            status=403,
        )
    rs = _check_ruleset(ruleset)
    clean = _clean_options(rs, options)
    refuse_rated_options(rs, clean)  # a quick play game is rated
    seats = clean_seat_count(rs, seat_count)
    time_control = clocks.clean_clock(clock)
    refuse_if_suspended(user)
    refuse_if_playbanned(user, time_control)
    with transaction.atomic():
        _serialise_seeks(rs.slug, seats, clean, time_control)
        candidates = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(
                ruleset=rs.slug,
                seat_count=seats,
                status=Game.Status.OPEN,
                is_quickplay=True,
                challenged__isnull=True,
            )
            .order_by("created")
        )
        mine = None
        for game in candidates:
            if game.options != clean or game.clock != time_control:
                continue
            seated = list(Seat.objects.filter(game=game).values_list("user_id", flat=True))
            if user.pk in seated:
                mine = mine or game
                continue
            if block_between(user.pk, seated):
                continue  # never paired with someone blocked, either way
            return table_join(game_id=game.pk, user=user)
        if mine is not None:
            return mine
        return table_create(
            host=user,
            ruleset=rs.slug,
            options=clean,
            seat_count=seats,
            quickplay=True,
            clock=time_control,
        )


def _serialise_seeks(slug: str, seats: int, options: dict, clock: dict) -> None:
    """Make the caller's transaction the only quick play of this kind until it ends.

    PostgreSQL: a transaction-level advisory lock keyed by what the seek is
    for (seekers of other kinds do not wait). SQLite: nothing to do, the
    transaction began IMMEDIATE and so holds the database's write lock.
    """
    if connection.vendor != "postgresql":
        return
    kind = json.dumps(["quickplay", slug, seats, options, clock], sort_keys=True)
    key = int.from_bytes(hashlib.blake2b(kind.encode(), digest_size=8).digest(), "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s::bigint)", [key])


# --- bots at tables -------------------------------------------------------------


def _bot_level(bot: Any, challenge: Any, rated: bool | None) -> str | None:
    """The level of the bot a new table seats (None: no bot, or a staff bot
    match, whose levels ``_bot_match`` checks); bad input is refused here."""
    if bot is None:
        return None
    if not isinstance(bot, dict):
        raise GameError("bad_bot", gettext_noop('Name the bot as {"level": "easy"}.'))
    if challenge:
        raise GameError("bad_bot", gettext_noop("Play a bot or challenge a user, not both."))
    _refuse_rated_bot(rated)
    if "levels" in bot:
        return None
    return bot_accounts.clean_level(bot.get("level"))


def _playing_seat(rs: Any, seat_count: Any, host_seat: Any) -> Any:
    """Playing the computer, "random" means a random side: never the seat that
    runs the game (a Hexenhalma game master), which a bot takes instead."""
    if host_seat != "random":
        return host_seat
    seats = clean_seat_count(rs, seat_count)
    players = [i for i in range(seats) if not rs.is_referee(i)]
    return players[secrets.randbelow(len(players))]


def _bot_seats(rs: Any, seats: int, host_seat: int, level: str) -> dict[int, str]:
    """Playing the computer: ``level``'s bot takes the first free playing
    seat. A free seat that runs the game gets a bot too, so one person can
    play the computer at Hexenhalma (a game master and two teams); its level
    does not change how it runs rounds: it is another level's bot because
    one bot account sits at a table once. Other seats stay free."""
    free = [i for i in range(seats) if i != host_seat]
    master = next(lv for lv in bot_accounts.LEVELS if lv != level)
    bots = {i: master for i in free if rs.is_referee(i)}
    playing = [i for i in free if i not in bots]
    if not playing:
        raise GameError("table_full", gettext_noop("This table is full."))
    return {**bots, playing[0]: level}


def _bot_match(host: Any, rs: Any, levels: Any, options: Any, clock: Any) -> Game:
    """Staff only: bots in every seat, no host seated, started at once."""
    if not getattr(host, "is_staff", False):
        raise GameError(
            "forbidden", gettext_noop("Only staff can open bot-against-bot tables."), status=403
        )
    if not isinstance(levels, list) or not levels:
        raise GameError("bad_bot", gettext_noop("Give one bot level per seat."))
    clean_levels = [bot_accounts.clean_level(level) for level in levels]
    if len(set(clean_levels)) != len(clean_levels):
        raise GameError(
            "bad_bot",
            gettext_noop("A bot holds one seat at a table: give each seat a different level."),
        )
    seats = clean_seat_count(rs, len(clean_levels))
    with transaction.atomic():
        return game_create(
            ruleset=rs.slug,
            holders=[None] * seats,
            bots=dict(enumerate(clean_levels)),
            options=_clean_options(rs, options),
            clock=clocks.clean_clock(clock),
            host=host.pk,
            auto_start=True,
        )


def _refuse_rated_bot(rated: bool | None) -> None:
    """Ratings are between people: a bot account never sits at a rated table."""
    if rated:
        raise GameError(
            "bad_request", gettext_noop("A rated table cannot seat a bot; make it casual.")
        )


def _seat_bot(game: Game, level: str, index: int | None = None) -> Game:
    """Seat ``level``'s bot at the locked open ``game``; start it once full."""
    _refuse_rated_bot(game.rated)
    user = bot_accounts.bot_user(game.ruleset, level)
    seats = list(Seat.objects.filter(game=game).order_by("index"))
    if any(s.user_id == user.pk for s in seats):
        raise GameError(
            "bot_seated",
            gettext_noop("This bot already sits at this table; choose another level."),
        )
    free = [s for s in seats if s.user_id is None]
    chosen = [s for s in free if index is None or s.index == index]
    if not chosen:
        raise GameError(
            "seat_taken" if free else "table_full",
            gettext_noop("That seat is taken.") if free else gettext_noop("This table is full."),
        )
    seat = chosen[0]
    seat.user, seat.joined = user, timezone.now()
    seat.save(update_fields=["user", "joined"])
    game.bots = {**game.bots, str(seat.index): level}
    game.has_bots = True
    game.save(update_fields=["bots", "has_bots"])
    _seat_taken(game, full=len(free) == 1)  # the bot took the last seat: play
    return game


def table_invite_bot(
    *, game_id: int, user: Visitor, level: object, seat: int | None = None
) -> Game:
    """The host seats a bot at an open seat of their open table."""
    user = signed_in(user)
    clean = bot_accounts.clean_level(level)
    with transaction.atomic():
        game = _locked_open_table(game_id)
        if game.host_id != user.pk:
            raise GameError(
                "forbidden", gettext_noop("Only the host can invite a bot."), status=403
            )
        return _seat_bot(game, clean, seat)
