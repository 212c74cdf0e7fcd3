"""The ruleset contract every game implements (see docs/architecture.md).

Pure Python: no Django import anywhere under games.rules. States are values:
no method mutates a state it was given. Randomness lives in the state (a seed
plus a counter) and is drawn with :func:`draw`, never from a global RNG.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

State = Any
Action = dict[str, Any]
Event = dict[str, Any]


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


class Ruleset:
    """Base class with the shared defaults; subclasses implement the rest.

    Contract (ARCHITECTURE.md): slug, title, min_seats, max_seats,
    default_options, validate_options, setup, to_act, legal_actions, apply,
    view, view_event, outcome, position_key, timeout_action, encode, decode.
    Extensions (extend, never rename): option_fields, seat_names, leave,
    phase_timer, timer_key, phase_deadline, may_act, work_due, do_work,
    normalize_action.
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    # Per action type, every key ``apply`` reads ("type" included); see normalize_action.
    action_keys: ClassVar[dict[str, frozenset[str]]] = {}

    # -- options ---------------------------------------------------------
    def option_fields(self) -> list[dict[str, Any]]:
        """Describe the table options so the platform can build a form.

        Each field: ``{"name", "kind": "bool"|"int"|"choice"|"text",
        "label", "default", "help"?, "min"?, "max"?, "choices"?: [[value, label]]}``.
        Labels are English msgids marked with :func:`gettext_noop`.
        """
        return []

    def default_options(self) -> dict[str, Any]:
        return {f["name"]: f["default"] for f in self.option_fields()}

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
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
    def setup(self, options: dict[str, Any], seats: int, seed: int) -> State:
        raise NotImplementedError

    def to_act(self, state: State) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action] | None:
        return None

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        raise NotImplementedError

    def normalize_action(self, state: State, seat: int, action: Action) -> Action:
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

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def view_event(self, event: Event, seat: int | None) -> Event | None:
        """What ``seat`` (None: a spectator) may see of one stored event."""
        return event

    def outcome(self, state: State) -> dict[str, Any] | None:
        raise NotImplementedError

    def position_key(self, state: State) -> str:
        return json.dumps(self.encode(state), sort_keys=True, separators=(",", ":"))

    def timeout_action(self, state: State, seat: int) -> Action | None:
        """The action a timer applies for ``seat``; None: running out loses/leaves."""
        return None

    def phase_timer(self, state: State) -> float | None:
        """Seconds a ruleset's own phase timer gives (Idiotenspiel sandglass)."""
        return None

    def timer_key(self, state: State) -> str | None:
        """Names the timed phase; the phase timer restarts only when it changes
        (so moves inside one sandglass phase do not refill it)."""
        return None

    def may_act(self, state: State, seat: int) -> bool:
        """Whether ``seat`` may send an action although it is not in ``to_act``
        (e.g. a game master closing a round early). The ruleset still checks it."""
        return False

    def phase_deadline(self, state: State) -> str | None:
        """An absolute ISO deadline the ruleset's phase must end by (a game
        master's round deadline); the platform applies ``timeout_action`` then."""
        return None

    def work_due(self, state: State) -> bool:
        """Whether long work (e.g. resolving a round) waits for the platform's worker."""
        return False

    def do_work(self, state: State) -> tuple[State, list[Event], list[dict[str, Any]]]:
        """Do that work: new state, events, and records kept outside the state."""
        raise IllegalAction(gettext_noop("There is nothing to resolve."))

    def leave(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """A seat leaves a game of 3+ seats (resigned or timed out).

        Games that can go on without a seat override this; the default says
        the game cannot, so the platform ends it instead.
        """
        raise IllegalAction(gettext_noop("This game cannot continue without a seat."))

    def encode(self, state: State) -> dict[str, Any]:
        raise NotImplementedError

    def decode(self, data: dict[str, Any]) -> State:
        raise NotImplementedError


def _check_option(field: dict[str, Any], value: Any) -> Any:
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
