"""What changed between two JSON values: a JSON Patch (RFC 6902) subset.

Event frames carry a seat's view as the patch that turns the view it had
into the view it has now, computed from that seat's own two views, so a
patch holds nothing the seat may not see. Ops: ``replace`` (a changed value),
``add`` (a new key, or an item inserted into a list at that index) and
``remove`` (a key gone, or a list's item, the later ones moving up), applied
in order. Lists are compared past their common head and tail, item by item;
a list whose items mostly changed is replaced whole, which is shorter than
its item-by-item ops.
"""

from __future__ import annotations

from typing import Any

Op = dict[str, Any]


def diff(old: Any, new: Any) -> list[Op]:
    """The ops that turn ``old`` into ``new`` (both as JSON would carry them)."""
    ops: list[Op] = []
    _diff(old, new, "", ops)
    return ops


def _pointer(path: str, key: Any) -> str:
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_dict(old, new, path, ops)
    elif isinstance(old, list | tuple) and isinstance(new, list | tuple):
        _diff_list(old, new, path, ops)
    elif type(old) is not type(new) or old != new:
        # bool vs int: True == 1 in Python but not in JSON
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_dict(old: dict, new: dict, path: str, ops: list[Op]) -> None:
    for key, value in new.items():
        if key in old:
            was = old[key]
            if not _same(was, value):  # compared in C first: most of a view stays
                _diff(was, value, _pointer(path, key), ops)
        else:
            ops.append({"op": "add", "path": _pointer(path, key), "value": value})
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": _pointer(path, key)})


def _diff_list(old: list | tuple, new: list | tuple, path: str, ops: list[Op]) -> None:
    """Ops for the part between the common head and tail: an item taken out
    and one put in elsewhere (a piece moved in a sorted list) is two ops."""
    common = min(len(old), len(new))
    head = 0
    while head < common and _same(old[head], new[head]):
        head += 1
    tail = 0
    while tail < common - head and _same(old[-1 - tail], new[-1 - tail]):
        tail += 1
    was, now = old[head : len(old) - tail], new[head : len(new) - tail]
    if len(was) == len(now) > 1 and list(was[1:]) == list(now[:-1]):
        ops.append({"op": "remove", "path": f"{path}/{head}"})
        ops.append({"op": "add", "path": f"{path}/{head + len(now) - 1}", "value": now[-1]})
        return
    if len(was) == len(now) > 1 and list(was[:-1]) == list(now[1:]):
        ops.append({"op": "remove", "path": f"{path}/{head + len(was) - 1}"})
        ops.append({"op": "add", "path": f"{path}/{head}", "value": now[0]})
        return
    mine: list[Op] = []
    for index in range(min(len(was), len(now))):
        _diff(was[index], now[index], f"{path}/{head + index}", mine)
        if len(mine) > max(2, len(new) // 2):  # most items changed: send the list
            ops.append({"op": "replace", "path": path, "value": new})
            return
    ops.extend(mine)
    for index in range(len(was), len(now)):
        ops.append({"op": "add", "path": f"{path}/{head + index}", "value": now[index]})
    for _ in range(len(now), len(was)):
        ops.append({"op": "remove", "path": f"{path}/{head + len(now)}"})


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON carries them, but for a bool and a number inside a list
    or an object (``[True] == [1]``), which no view switches between."""
    return a is b or (type(a) is type(b) and a == b)


def apply(doc: Any, ops: list[Op]) -> Any:
    """``doc`` with ``ops`` applied (a copy where changed: ``doc`` stays as it
    was); raises ValueError where an op does not fit (the tests' and the
    bench's check that a patch reproduces the view)."""
    import copy

    doc = copy.deepcopy(doc)
    for op in ops:
        if op["path"] == "":
            doc = copy.deepcopy(op["value"])
            continue
        *parents, last = [
            part.replace("~1", "/").replace("~0", "~") for part in op["path"][1:].split("/")
        ]
        target = doc
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        _apply_one(target, last, op)
    return doc


def _apply_one(target: Any, last: str, op: Op) -> None:
    if isinstance(target, list):
        index = len(target) if last == "-" else int(last)
        if op["op"] == "add" and 0 <= index <= len(target):
            target.insert(index, op["value"])
        elif op["op"] in ("remove", "replace") and 0 <= index < len(target):
            if op["op"] == "remove":
                del target[index]
            else:
                target[index] = op["value"]
        else:
            raise ValueError(f"op {op!r} does not fit a list of {len(target)}")
    elif op["op"] == "remove":
        del target[last]
    elif op["op"] == "replace" and last not in target:
        raise ValueError(f"op {op!r}: no such key")
    else:
        target[last] = op["value"]
