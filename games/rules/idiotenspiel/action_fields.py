"""Reading the fields of an Idiotenspiel action: each refused with a clear message."""

from __future__ import annotations

from ..base import Action, IllegalAction, gettext_noop
from .sight import FACINGS
from .state import Pos, Unit
from .work import Work


def pos_field(action: Action, key: str, w: Work) -> Pos:
    v = action.get(key)
    if (
        not isinstance(v, list)
        or len(v) != 2
        or not all(isinstance(c, int) and not isinstance(c, bool) for c in v)
    ):
        raise IllegalAction(gettext_noop("%(key)s must be a field [x, y]."), key=key)
    if not w.md.inside(v[0], v[1]):
        raise IllegalAction(gettext_noop("The field %(at)s lies off the map."), at=v)
    return (v[0], v[1])


def unit_field(action: Action, key: str, w: Work) -> Unit:
    v = action.get(key)
    if not isinstance(v, str) or v not in w.idx:
        raise IllegalAction(gettext_noop("There is no unit %(unit)s."), unit=str(v)[:40])
    return w.unit(v)


def opt_bool_field(action: Action, key: str) -> bool | None:
    v = action.get(key)
    if v is not None and not isinstance(v, bool):
        raise IllegalAction(gettext_noop("%(key)s must be true or false."), key=key)
    return v


def facing_field(action: Action, u: Unit, required: bool) -> str | None:
    v = action.get("facing")
    if v is None:
        if required and u.type == "shieldwall":
            raise IllegalAction(
                gettext_noop("A shield wall must be given a facing (N, NE, ... NW).")
            )
        return None
    if u.type != "shieldwall":
        raise IllegalAction(gettext_noop("Only a shield wall has a facing."))
    if v not in FACINGS:
        raise IllegalAction(gettext_noop("A facing is one of N, NE, E, SE, S, SW, W, NW."))
    return str(v)


def as_list(p: Pos | None) -> list[int] | None:
    return None if p is None else [p[0], p[1]]
