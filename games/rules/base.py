"""The ruleset contract every game implements (see docs/architecture.md).

Pure Python: no Django import anywhere under games.rules. States are values:
no method mutates a state it was given. Randomness lives in the state (a seed
plus a counter) and is drawn with :func:`draw`, never from a global RNG.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Literal,
    NotRequired,
    Protocol,
    TypedDict,
    TypeVar,
    cast,
    overload,
    runtime_checkable,
)

if TYPE_CHECKING:
    import random

    # Only annotations name it (this module's are strings): no runtime dependency.
    from typing_extensions import TypeIs

# A ruleset's state type: each engine has its own frozen value (HalmaState, ...).
S = TypeVar("S")
# The old name of "any ruleset's state", kept for imports; new code writes Ruleset[S].
State = Any
S_contra = TypeVar("S_contra", contravariant=True)
# An optional hook protocol that :func:`implements` narrows a ruleset to.
H = TypeVar("H")

# JSON objects with a "type" field. Actions come from clients and are checked
# by ``apply``; events and views go out through ``view_event`` and ``view``.
Action = dict[str, Any]
Event = dict[str, Any]
View = Mapping[str, Any]  # read-only: views may share static parts
Options = dict[str, Any]
# What long work hands the platform to keep outside the state (match traces).
Record = dict[str, Any]


class Outcome(TypedDict):
    """How a game ended; ``reason`` is a translatable msgid."""

    winners: list[int]
    draw: bool
    reason: str
    reason_params: NotRequired[dict[str, Any]]


ActorsKind = Literal["players", "referee", "work", "over"]


@dataclass(frozen=True)
class Actors:
    """Who may act now, one answer for every ruleset (OpenSpiel's current player).

    ``kind`` says what the game waits for:

    - ``"players"``: the seats in ``seats`` (several: a simultaneous phase);
    - ``"referee"``: only referee seats (``is_referee``), e.g. a game master
      opening the next round;
    - ``"work"``: the platform's own long work (``LongWork.do_work``); no seat acts;
    - ``"over"``: the game has ended (``outcome`` is not None); nobody acts.

    ``seats`` are the seats the game waits for (``to_act``); ``optional`` the
    seats that may act although the game does not wait for them (``may_act``,
    e.g. a game master closing a round early). A driver asks this, then
    ``random_action`` (or a bot) for one of :attr:`anyone`.
    """

    kind: ActorsKind
    seats: tuple[int, ...] = ()
    optional: tuple[int, ...] = ()

    @property
    def anyone(self) -> tuple[int, ...]:
        """Every seat that may send an action now, waited for or not, in order."""
        return tuple(sorted({*self.seats, *self.optional}))


class OptionField(TypedDict):
    """One table option, described for the platform's form (labels are msgids)."""

    name: str
    kind: str  # "bool" | "int" | "choice" | "text"
    label: str
    default: Any
    help: NotRequired[str]
    min: NotRequired[int]
    max: NotRequired[int]
    max_length: NotRequired[int]
    choices: NotRequired[list[list[Any]]]  # [[value, label msgid], ...]


def gettext_noop(message: str) -> str:
    """Mark a string for translation without translating it here.

    The rules stay free of Django; the platform translates the marked
    templates (``makemessages`` finds them by this name).
    """
    return message


class RulesError(ValueError):
    """A rule was broken. ``template % params`` is the English message.

    The template is a translatable msgid; the platform shows it translated,
    so keep params out of the template text and pass them separately.
    """

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)

    @property
    def message(self) -> str:
        return str(self)


class IllegalAction(RulesError):
    """An action that the rules forbid in this state; nothing changed."""


class InvalidOptions(RulesError):
    """Table options a ruleset does not accept."""


_MASK64 = (1 << 64) - 1


def draw(seed: int, counter: int, sides: int) -> int:
    """A reproducible random number in ``range(sides)`` for draw no. ``counter``.

    A counter-based generator (splitmix64 finaliser) is cheaper than seeding
    ``random.Random`` per draw and needs no RNG object inside the state.
    """
    z = (seed * 0x9E3779B97F4A7C15 + (counter + 1) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return z % sides


class Ruleset(ABC, Generic[S]):
    """The contract every ruleset implements, generic in its state type ``S``.

    Contract (ARCHITECTURE.md): slug, title, min_seats, max_seats,
    default_options, validate_options, setup, to_act, legal_actions, apply,
    view, view_event, outcome, position_key, timeout_action, encode, decode.
    Extensions every ruleset answers (extend, never rename): option_fields,
    seat_names, may_act, is_referee, leave, actors, random_action,
    normalize_action (with ``action_keys``), and the class attributes
    ``views_are_public``, ``leave_offered`` and ``perfect_information``, so
    the platform never asks which game it runs. Platform hooks that only some
    games have are the small protocols below (:class:`PhaseTimer`,
    :class:`PhaseDeadline`, :class:`LongWork`, :class:`RemisQueue`); the
    platform asks ``isinstance(rs, LongWork)`` before it uses one.
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    # Platform extension: True when nothing any seat's view or legal actions
    # show is secret from anyone (perfect information; the dice's seed never
    # appears in a view). The platform then sends every seat's frame in one
    # message to the game's group; otherwise a seat's own frame goes only to
    # the user who holds it.
    views_are_public: ClassVar[bool] = False
    # Platform extension: True when a seat leaving a game of 3+ seats (resigned
    # or out of time, and removed by ``leave``) is first offered to a bot, if
    # the other players agree (services/handover.py), instead of leaving at once.
    leave_offered: ClassVar[bool] = False
    # Bots' extension: True when ``apply`` draws no randomness and no view hides
    # anything, so looking ahead with ``apply`` tells a seat nothing it could not
    # know (the generic bot searches only then; see games/bots/generic.py).
    perfect_information: ClassVar[bool] = False
    # A player may opt in to have the site play their forced turns (``forced_action``).
    offers_forced_turns: ClassVar[bool] = False
    # Per action type, every key ``apply`` reads ("type" included); see normalize_action.
    action_keys: ClassVar[dict[str, frozenset[str]]] = {}

    # -- options ---------------------------------------------------------
    def option_fields(self) -> list[OptionField]:
        """Describe the table options so the platform can build a form.

        Labels are English msgids marked with :func:`gettext_noop`.
        """
        return []

    def default_options(self) -> Options:
        return {f["name"]: f["default"] for f in self.option_fields()}

    def validate_options(self, options: Options) -> Options:
        """Check and normalise options against :meth:`option_fields`."""
        if not isinstance(options, dict):
            raise InvalidOptions(gettext_noop("Options must be a JSON object."))
        fields = {f["name"]: f for f in self.option_fields()}
        unknown = sorted(set(options) - set(fields))
        if unknown:
            raise InvalidOptions(gettext_noop("Unknown option: %(name)s."), name=unknown[0])
        clean = self.default_options()
        for name, value in options.items():
            clean[name] = _check_option(fields[name], value)
        return clean

    def seat_names(self, seats: int) -> list[str]:
        """Display names of the seats (msgids), e.g. colours; [] numbers them."""
        return []

    # -- the game --------------------------------------------------------
    @abstractmethod
    def setup(self, options: Options, seats: int, seed: int) -> S:
        """The opening state; raises InvalidOptions for a bad table."""

    @abstractmethod
    def to_act(self, state: S) -> list[int]:
        """Seats expected to act; [] when the game is over (or waits for work)."""

    def legal_actions(self, state: S, seat: int) -> list[Action] | None:
        """Every action ``seat`` may send now; None where they do not enumerate."""
        return None

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """The new state and its events; raises IllegalAction, changing nothing."""

    def actors(self, state: S) -> Actors:
        """Who may act now (see :class:`Actors`): the one question a generic
        driver (random playouts, tournament runners, tools) asks.

        The default answers from ``outcome``, ``LongWork.work_due``, ``to_act``,
        ``is_referee`` and ``may_act`` (asked of seats below ``max_seats``; a
        seat the table does not have may never act), so it agrees with them by
        construction; a ruleset overrides it only to answer faster.
        """
        if self.outcome(state) is not None:
            return Actors("over")
        if isinstance(self, LongWork) and self.work_due(state):
            return Actors("work")
        seats = tuple(self.to_act(state))
        optional = tuple(
            s for s in range(self.max_seats) if s not in seats and self.may_act(state, s)
        )
        referee = bool(seats) and all(self.is_referee(s) for s in seats)
        return Actors("referee" if referee else "players", seats, optional)

    def random_action(self, state: S, seat: int, rng: random.Random) -> Action | None:
        """A random action that ``apply`` accepts from ``seat`` now, or None when the
        seat has nothing to do (a seat that only ``may_act`` may also pass).

        Every ruleset answers it, so random play (the contract test, tools) and
        the generic bot drive every game without knowing its actions: for a
        seat in ``actors(state).seats`` it always gives an action. The default
        draws from ``legal_actions``; a ruleset whose actions do not enumerate
        (``legal_actions`` is None, Hexenhalma) overrides it to build random but
        valid actions. ``rng`` is the caller's, never the game's dice.
        """
        actions = self.legal_actions(state, seat)
        return rng.choice(actions) if actions else None

    def normalize_action(self, state: S, seat: int, action: Action) -> Action:
        """The action as the platform applies and stores it: only what this ruleset reads.

        A client's extra keys never reach the log. The default keeps the keys
        ``action_keys`` lists for the action's type, else those the legal
        actions of that type carry; an action of a type neither names is
        returned unchanged (``apply`` refuses it). Raises IllegalAction only
        where ``apply`` would too.
        """
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return action
        keys = self.action_keys.get(action["type"])
        if keys is None:
            legal = self.legal_actions(state, seat) or []
            found = {k for a in legal if a.get("type") == action["type"] for k in a}
            keys = frozenset(found) if found else None
        if keys is None:
            return action
        return {k: v for k, v in action.items() if k in keys}

    @abstractmethod
    def view(self, state: S, seat: int | None) -> View:
        """JSON for ``seat`` (None: a spectator); hides what that seat may not see."""

    def view_event(self, event: Event, seat: int | None) -> Event | None:
        """What ``seat`` (None: a spectator) may see of one stored event."""
        return event

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on (a function of the state)."""

    def position_key(self, state: S) -> str:
        return json.dumps(self.encode(state), sort_keys=True, separators=(",", ":"))

    def timeout_action(self, state: S, seat: int) -> Action | None:
        """The action a timer applies for ``seat``; None: running out loses/leaves."""
        return None

    def forced_action(self, state: S, seat: int) -> Action | None:
        """The one action ``seat`` can make now, where a player may let the
        site play such turns for them (``offers_forced_turns``); else None."""
        return None

    def single_action_turns(self, state: S) -> bool:
        """Whether in ``state`` a turn is one action that hands the turn to the
        other seat, drawing no hidden randomness: where conditional moves
        (games/services/conditional.py) may be planned and played. Off unless
        a ruleset says so."""
        return False

    def may_act(self, state: S, seat: int) -> bool:
        """Whether ``seat`` may send an action although it is not in ``to_act``
        (e.g. a game master closing a round early). The ruleset still checks it."""
        return False

    def is_referee(self, seat: int) -> bool:
        """Whether ``seat`` runs the game rather than plays it (a game master):
        it has no clock, cannot resign, offer a draw or abort, and a draw is
        agreed among the other seats."""
        return False

    def leave(self, state: S, seat: int) -> tuple[S, list[Event]]:
        """A seat leaves a game of 3+ seats (resigned or timed out).

        Games that can go on without a seat override this; the default says
        the game cannot, so the platform ends it instead.
        """
        raise IllegalAction(gettext_noop("This game cannot continue without a seat."))

    # -- storage ---------------------------------------------------------
    @abstractmethod
    def encode(self, state: S) -> dict[str, Any]:
        """The state as JSON for storage; :meth:`decode` reads every format stored so far."""

    @abstractmethod
    def decode(self, data: dict[str, Any]) -> S:
        """The state from :meth:`encode`'s JSON."""


# -- optional platform hooks ------------------------------------------------------
#
# Small protocols a ruleset implements only when its game needs the platform
# for it. They are runtime-checkable: the platform asks ``isinstance(rs, X)``.
# A ruleset names the ones it implements among its bases, so mypy checks them
# at the class. On the move path the platform asks :func:`implements`, the
# same answer cached per class.


@runtime_checkable
class PhaseTimer(Protocol[S_contra]):
    """A timer per phase that the ruleset names (the Idiotenspiel sandglass)."""

    def phase_timer(self, state: S_contra) -> float | None:
        """Seconds the current phase lasts; None: no phase timer now."""
        ...

    def timer_key(self, state: S_contra) -> str | None:
        """Names the timed phase; the timer restarts only when it changes
        (so moves inside one sandglass phase do not refill it)."""
        ...


@runtime_checkable
class PhaseDeadline(Protocol[S_contra]):
    """An absolute deadline a phase must end by (a game master's round deadline);
    the platform then applies ``timeout_action``."""

    def phase_deadline(self, state: S_contra) -> str | None:
        """An ISO date-time, or None when no such deadline runs."""
        ...


@runtime_checkable
class LongWork(Protocol[S]):
    """Work too long for a socket request (resolving a Hexenhalma round); the
    platform's worker does it once it is due."""

    def work_due(self, state: S) -> bool:
        """Whether the worker should do the work now."""
        ...

    def do_work(self, state: S) -> tuple[S, list[Event], list[Record]]:
        """Do it: the new state, its events, and records kept outside the state."""
        ...


# The generic hooks are named one by one, so that the narrowed ruleset takes
# any state (a bare generic class would leave its state type unsolved).
@overload
def implements(
    ruleset: object, hook: Callable[..., PhaseTimer[Any]]
) -> TypeIs[PhaseTimer[Any]]: ...
@overload
def implements(
    ruleset: object, hook: Callable[..., PhaseDeadline[Any]]
) -> TypeIs[PhaseDeadline[Any]]: ...
@overload
def implements(ruleset: object, hook: Callable[..., LongWork[Any]]) -> TypeIs[LongWork[Any]]: ...
@overload
def implements(
    ruleset: object, hook: Callable[..., RemisQueue[Any]]
) -> TypeIs[RemisQueue[Any]]: ...
@overload
def implements(ruleset: object, hook: Callable[..., H]) -> TypeIs[H]: ...
def implements(ruleset: object, hook: Callable[..., object]) -> bool:
    """Whether ``ruleset`` implements the optional ``hook`` protocol.

    A type guard (PEP 742's ``TypeIs``, which keeps what mypy knew of
    ``ruleset``): where it answers True, mypy checks the hook's calls against
    the protocol (``if implements(rs, LongWork): rs.work_due(state)``).
    ``hook`` is typed as a callable because mypy refuses a protocol class
    where ``type[H]`` is expected (python/mypy#4717); it is a hook class.

    The answer of ``isinstance(ruleset, hook)``, asked of the class, where the
    ABC machinery caches it: under Python 3.11 a runtime protocol's
    ``isinstance`` inspects every method on each call (some 10 µs), and the
    platform asks on every move.
    """
    return issubclass(type(ruleset), cast(type, hook))


class RepetitionCandidate(TypedDict):
    """A move that would repeat a position for the third time, and the move
    numbers a claim would cite."""

    action: Action
    move_numbers: list[int]


class CitedPosition(TypedDict):
    """One position a repetition claim cites, as the admin sees it."""

    move: int
    pieces: list[list[list[int]]] | None  # per seat, [row, col] fields; None: not reached
    identical: bool  # the same position as after the proposed move
    past_51: bool  # counts for repetition (played after move 51)
    proposed: NotRequired[bool]  # the position after the proposed move


class RepetitionEvidence(TypedDict):
    positions: list[CitedPosition]
    identical: bool
    past_51: bool
    move_legal: bool


@runtime_checkable
class RemisQueue(Protocol[S_contra]):
    """Remis claims decided by an admin instead of by the rules (Brettspielnetz
    Halma, RULES.md §1). The ruleset knows which positions count and what a
    claim's evidence is; the platform keeps the queue, the history and the
    decision.

    ``history`` is the list of states from the setup on, one after every
    logged move: ``history[p]`` after ``p`` plies.
    """

    def move_number_after(self, plies: int) -> int:
        """The number of the move that produced the position after ``plies`` plies."""
        ...

    def position_counts_after(self, plies: int) -> bool:
        """Whether the position after ``plies`` plies counts for repetition
        (before the first that does, no claim can be found: nothing to replay)."""
        ...

    def deadlock_claim_from(self, state: S_contra) -> int | None:
        """None when a deadlock claim may be filed in ``state``; otherwise the
        move that must be complete first."""
        ...

    def repetition_candidates(
        self, history: Sequence[S_contra], seat: int
    ) -> list[RepetitionCandidate]:
        """Moves of ``seat`` (to move after ``history``) that would produce a
        counting position for the third time, with the move numbers to cite."""
        ...

    def repetition_evidence(
        self, history: Sequence[S_contra], seat: int, after: S_contra, move_numbers: Sequence[int]
    ) -> RepetitionEvidence:
        """What the admin sees of a claim: each cited position (the last is
        ``after``, the proposed move's), whether it matches, whether it counts."""
        ...


def _check_option(field: OptionField, value: Any) -> Any:
    kind = field["kind"]
    name = field["name"]
    if kind == "bool":
        if not isinstance(value, bool):
            raise InvalidOptions(gettext_noop("Option %(name)s must be true or false."), name=name)
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptions(gettext_noop("Option %(name)s must be a whole number."), name=name)
        lo, hi = field.get("min"), field.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise InvalidOptions(
                gettext_noop("Option %(name)s must lie between %(lo)s and %(hi)s."),
                name=name,
                lo=lo,
                hi=hi,
            )
        return value
    if kind == "choice":
        allowed = [c[0] for c in field["choices"]]
        if value not in allowed:
            raise InvalidOptions(
                gettext_noop("Option %(name)s must be one of: %(allowed)s."),
                name=name,
                allowed=", ".join(map(str, allowed)),
            )
        return value
    if kind == "text":
        limit = field.get("max_length", 2000)
        if not isinstance(value, str) or len(value) > limit:
            raise InvalidOptions(gettext_noop("Option %(name)s must be a short text."), name=name)
        return value
    raise InvalidOptions(gettext_noop("Unknown option: %(name)s."), name=name)


# -- a game continued from another game's position ---------------------------------
#
# "Continue from here against the computer" (games/services/continuing.py)
# starts a new game from a position of a finished one. The position is kept
# (``Game.opening``) without the dice's hidden source: the old game's seed is
# public once it has ended (its export names it), and with it the rolls the
# old game went on to make. The new game's own seed gives the dice.

SECRET_KEYS = frozenset({"seed", "counter", "rng"})  # every ruleset's hidden dice source


def public_position(rs: Ruleset[Any], state: Any) -> dict[str, Any]:
    """``state`` encoded without the dice's hidden source (``SECRET_KEYS``)."""
    return {k: v for k, v in rs.encode(state).items() if k not in SECRET_KEYS}


def opening_state(
    rs: Ruleset[Any],
    options: Options,
    seats: int,
    seed: int,
    position: dict[str, Any] | None = None,
) -> Any:
    """A game's state at version 1: the set-up, or the ``position`` it
    continues from (``public_position``) with the dice of its own ``seed``."""
    fresh = rs.setup(options, seats, seed)
    if position is None:
        return fresh
    dice = {k: v for k, v in rs.encode(fresh).items() if k in SECRET_KEYS}
    return rs.decode({**position, **dice})
