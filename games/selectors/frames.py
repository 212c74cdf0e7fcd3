"""The uniform serializer: one frame shape (hello, sync, event) for every ruleset.

What a seat, or a spectator (seat None), may see of a game: each ruleset's
``view``/``view_event`` output inside the same envelope, never raw actions.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypedDict

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext

from ..clocks import clock_view
from ..models import Event, Game
from ..plain_json import dumps
from ..rules import Ruleset, get_ruleset
from . import delta
from .chat import chat_history
from .relations import blocked_names, without_blocked
from .rematch import rematch_of
from .remis import remis_allowed
from .seats import game_with_seats, holds_screen, seat_list, seat_of
from .tables import table_summary

SPECTATOR = "s"


def result_text(result: Any) -> str:
    """A game's result in the reader's language; never raises, whatever is stored."""
    if not isinstance(result, dict):
        return ""
    return " ".join(t for t in (reason_text(result), handover_text(result)) if t)


def handover_text(result: dict[str, Any]) -> str:
    """The seats a bot took over (games/services/handover.py), as sentences."""
    taken = result.get("handovers")
    if not isinstance(taken, list):
        return ""
    template = gettext("Seat %(seat)s was played by the bot from move %(move)s.")
    return " ".join(
        template % {"seat": item["seat"] + 1, "move": item["move"]}
        for item in taken
        if isinstance(item, dict)
        and isinstance(item.get("seat"), int)
        and isinstance(item.get("move"), int)
    )


def reason_text(result: dict[str, Any]) -> str:
    reason, params = result.get("reason"), result.get("reason_params")
    if not isinstance(reason, str) or not reason:
        return ""
    text = gettext(reason)
    if not isinstance(params, dict) or not params:
        return text
    try:
        return text % params
    except (KeyError, TypeError, ValueError):  # a template its params do not fit
        return text


def viewing_seat(game: Game, seat: int | None) -> int | None:
    """Whose view the holder of ``seat`` gets now. A seat a bot plays in a
    running game (a bot's own, or a person's handed to it:
    services/handover.py) is seen as spectators see it: its legal actions and
    secrets (a Hexenhalma team's orders) are the bot's, and neither the person
    who held it before nor anyone else gets them. Decided for each frame as it
    is built, so a socket opened before the seat changed hands follows."""
    if seat is not None and str(seat) in game.bots and game.status == Game.Status.ACTIVE:
        return None
    return seat


def snapshot(
    game: Game,
    rs: Ruleset,
    state: Any,
    seat: int | None,
    clock: dict[str, Any] | None = None,
    view: Any = None,
) -> dict[str, Any]:
    """The uniform game state for one seat: one shape for every ruleset
    (``view``: the seat's view, if already at hand)."""
    active = game.status == Game.Status.ACTIVE and state is not None
    to_act = list(game.to_act) if active else []
    acts = active and seat in to_act and not game.paused
    legal = rs.legal_actions(state, seat) if acts and seat is not None else None
    return {
        "version": game.version,
        "status": game.status,
        "to_act": to_act,
        "result": game.result,
        "result_text": result_text(game.result),
        "view": view if view is not None or state is None else rs.view(state, seat),
        "legal": legal or [],
        "clock": clock if clock is not None else clock_view(game, timezone.now()),
        "draw_offers": list(game.draw_offers),
        "left": list(game.left_seats),
        "paused": game.paused,
        "remis": game.remis_pending,
        "remis_allowed": remis_allowed(game, rs, state, seat, timezone.now()),
        "handover": game.handovers,
        "vacation": vacation_list(game),
    }


def vacation_list(game: Game) -> list[dict[str, Any]]:
    """The seats whose player is on vacation (their clock stands still)."""
    away = game.away or {}
    return [
        {"seat": int(seat), "username": entry.get("username", ""), "until": entry.get("until")}
        for seat, entry in sorted(away.items(), key=lambda item: int(item[0]))
    ]


def client_event(rs: Ruleset, event: Event, seat: int | None) -> dict[str, Any]:
    """One stored event as ``seat`` may see it (raw actions never leave)."""
    visible = []
    for item in event.events:
        shown = rs.view_event(item, seat)
        if shown is not None:
            visible.append(shown)
    # An event another seat may see nothing of (a Hexenhalma team writing its
    # secret orders) does not say whose it was: only that the version moved.
    actor = event.seat if visible or seat == event.seat or not event.events else None
    return {
        "version": event.version,
        "seat": actor,
        "kind": event.kind,
        "events": visible,
        "time": event.created.isoformat(),
    }


# The most events a first hello carries: the latest ones. Older events come
# from the replay API's pages (``/api/games/<id>/replay/?views=0``) as the
# move list is scrolled.
EVENTS_TAIL = 30
# The most a client that says what it has (a sync, a reconnect's hello) gets:
# a page behind by a burst keeps its move list whole; one further behind
# starts its list there, and each request still costs a bounded amount.
SYNC_TAIL = 100


def events_since(
    game: Game, version: int, seat: int | None, tail: int = EVENTS_TAIL
) -> list[dict[str, Any]]:
    """Events after ``version`` up to the state read in ``game`` (never ahead
    of it, even when a move commits between the two reads: a client taking the
    events would otherwise hold a state older than its version), at most the
    last ``tail``."""
    if version >= game.version:
        return []  # a page back from a restart, caught up: nothing to read
    rs = get_ruleset(game.ruleset)
    first = max(version, game.version - tail, 0)
    rows = Event.objects.filter(game=game, version__gt=first, version__lte=game.version).order_by(
        "version"
    )
    return [client_event(rs, row, seat) for row in rows]


def opening(game_id: int, user: Any, since: int) -> tuple[dict[str, Any], list[str]] | None:
    """A game socket's opening in one trip to a thread: the hello and the
    names the user blocked (which the socket keeps), read once for both."""
    blocked = blocked_names(user)
    hello = hello_frame(game_id, user, since, blocked=blocked)
    return None if hello is None else (hello, blocked)


def hello_frame(
    game_id: int, user: Any, since: int = 0, *, blocked: list[str] | None = None
) -> dict[str, Any] | None:
    """Everything a freshly connected page needs; None if the game does not
    exist (``blocked``: the user's blocked names, if read already)."""
    try:
        game = game_with_seats(game_id)
    except Game.DoesNotExist:
        return None
    rs = get_ruleset(game.ruleset)
    seat = seat_of(game, user)
    eye = viewing_seat(game, seat)
    state = rs.decode(game.state) if game.state is not None else None
    since = since if 0 <= since <= game.version else 0
    return {
        "type": "hello",
        "game": game.pk,
        "ruleset": game.ruleset,
        "seat": seat,
        "seats": seat_list(game),
        "table": table_summary(game),
        "state": snapshot(game, rs, state, eye),
        "chat": without_blocked(
            chat_history(game.pk), blocked_names(user) if blocked is None else blocked
        ),
        "since": since,
        # A fresh page gets hello's short tail; one back from a lost
        # connection, what it missed (as a sync would give it).
        "events": events_since(game, since, eye, SYNC_TAIL if since else EVENTS_TAIL),
        "rematch": rematch_of(game),
        # The holder of a table at one screen: its seat follows the turn.
        "holds_screen": holds_screen(game, getattr(user, "pk", None)),
    }


def sync_frame(game_id: int, user: Any, version: int) -> tuple[dict[str, Any], int | None]:
    """Events after ``version`` and the current state; also the caller's seat."""
    game = game_with_seats(game_id)
    rs = get_ruleset(game.ruleset)
    seat = seat_of(game, user)
    eye = viewing_seat(game, seat)
    state = rs.decode(game.state) if game.state is not None else None
    if version > game.version:
        version = 0
    frame = {
        "type": "sync",
        "game": game.pk,
        "version": game.version,
        "seat": seat,
        "seats": seat_list(game),
        "table": table_summary(game),
        "events": events_since(game, version, eye, SYNC_TAIL),
        "state": snapshot(game, rs, state, eye),
        "rematch": rematch_of(game),
    }
    return frame, seat


def current_version(game_id: int) -> int | None:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


def ping_states(game_ids: list[int]) -> dict[int, dict[str, Any]]:
    """``ping_state`` for many games in one query (a process's batched check)."""
    rows = (
        Game.objects.filter(pk__in=game_ids)
        .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False)))
        .values("pk", "version", "status", "taken")
    )
    return {
        row["pk"]: {"version": row["version"], "status": row["status"], "taken": row["taken"]}
        for row in rows
    }


class PingState(TypedDict):
    version: int
    status: str
    taken: int  # seats taken


def ping_state(game_id: int) -> PingState | None:
    """What a pong tells: the version, and for a table still filling up its
    status and seats taken (joins and leaves move no version), so a page that
    missed a push catches up at its next ping."""
    return (
        Game.objects.filter(pk=game_id)
        .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False)))
        .values("version", "status", "taken")
        .first()
    )


def event_frames(game: Game, rs: Ruleset, state: Any, event: Event) -> dict[str, str]:
    """Each seat's (and the spectators') frame of ``event``: the state without
    its view, and the view as a patch from the one the seat had (its own two
    views, so nothing hidden from it leaks), or whole where no patch can be
    made (the row's earlier state unknown, or whose eyes the seat sees with
    changed: a bot took the seat over or gave it back, the game ended)."""
    frames: dict[str, str] = {}
    clock = clock_view(game, timezone.now())  # the same for every seat
    views: dict[int | None, Any] = {}
    earlier = _earlier_views(game, rs, event)
    for seat in [*range(game.seat_count), None]:
        eye = viewing_seat(game, seat)  # a seat a bot plays: the spectators' frame
        if eye not in views:
            views[eye] = rs.view(state, eye) if state is not None else None
        snap = snapshot(game, rs, state, eye, clock=clock, view=views[eye])
        frame = {
            "type": "event",
            "game": game.pk,
            "version": event.version,
            "event": client_event(rs, event, eye),
            "state": snap,
        }
        before = earlier(seat, eye)
        if before is not None and snap["view"] is not None:
            frame["view_patch"] = delta.diff(before, snap.pop("view"))
        frames[SPECTATOR if seat is None else str(seat)] = dumps(frame)
    # The next event's patches start here; the frames' length weighs the views.
    _recent.put(game.pk, (event.version, game.state), views, sum(map(len, frames.values())))
    return frames


class _Recent:
    """The views this process published last, for as many games as
    ``budget`` allows: the next event's patches start from them (a view is a
    function of the state at its version, so whoever built it, it is the
    same). Each game's views weigh what its frames' text weighs (measured:
    Halma's three views take 4.4 kB of memory, its frames 4.5 kB), so few
    big views (an Idiotenspiel map) or many small ones; the least recently
    published go first.

    Views are held under their version and the stored state they were made
    from: a move that a conditional reply answers has its frames built
    before the commit (``events.change_publish_prepared``), and a commit that
    fails leaves views of a version then made again elsewhere, which the
    state the next lock reads tells apart."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.weight = 0
        self.views: OrderedDict[int, tuple[Any, dict[int | None, Any], int]] = OrderedDict()
        self.lock = threading.Lock()  # publishers run in the thread pool too

    def put(self, game_id: int, made_from: Any, views: dict[int | None, Any], weight: int) -> None:
        """Hold ``views`` of ``game_id``, ``made_from`` its (version, stored state)."""
        with self.lock:
            held = self.views.pop(game_id, None)
            self.weight += weight - (held[2] if held is not None else 0)
            self.views[game_id] = (made_from, views, weight)
            while self.weight > self.budget and self.views:
                self.weight -= self.views.popitem(last=False)[1][2]

    def get(self, game_id: int, made_from: Any) -> dict[int | None, Any]:
        with self.lock:
            held = self.views.get(game_id)
        return dict(held[1]) if held is not None and held[0] == made_from else {}


# Measured (200 Halma games paced on one process): with room for 64 games,
# every event rebuilt the views before it from the stored state (frames
# built in 0.36 ms at the median, 0.33 ms with the views held). 8 MB of
# frames' text: about 1,800 Halma games' views, or 650 Idiotenspiel maps.
RECENT_VIEWS_BYTES = 8_000_000
_recent = _Recent(RECENT_VIEWS_BYTES)


def _earlier_views(
    game: Game, rs: Ruleset, event: Event
) -> Callable[[int | None, int | None], Any]:
    """The view each seat had at the version before ``event``, as the row read
    under its lock held it (``Game.as_read``); None where unknown."""
    read = game.as_read
    if read is None or read.version != event.version - 1 or read.state is None:
        return lambda seat, eye: None
    earlier = _recent.get(game.pk, (read.version, read.state))  # published here: no work
    decoded: list[Any] = []

    def view_of(seat: int | None, eye: int | None) -> Any:
        botted = seat is not None and str(seat) in read.bots
        if (None if botted and read.status == Game.Status.ACTIVE else seat) != eye:
            return None  # the seat saw with other eyes then: it gets the whole view
        if eye not in earlier:
            decoded[:] = decoded or [rs.decode(read.state)]
            earlier[eye] = rs.view(decoded[0], eye)
        return earlier[eye]

    return view_of
