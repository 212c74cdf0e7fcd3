"""What the Daschax view shows of counters, pieces, options and the last turn."""

from __future__ import annotations

from typing import Any

from .geometry import FACINGS, SIZES, Counts, Piece, after_step, xy
from .state import Last, Variants


def sizes_view(counts: Counts) -> dict[str, int]:
    return dict(zip(SIZES, counts, strict=True))


def taken_view(cell: int, piece: Piece) -> dict[str, Any]:
    return {
        "at": xy(cell),
        "seat": piece[0],
        "size": SIZES[piece[1] - 1],
        "facing": FACINGS[piece[2]],
    }


def options_view(v: Variants) -> dict[str, Any]:
    return {
        "formation": v.formation,
        "move_on": v.move_on,
        "removal": v.removal,
        "backward": v.backward,
        "place_first": v.place_first,
        "move_first": v.move_first,
        "stall_turns": v.stall_turns,
    }


def last_view(last: Last | None) -> dict[str, Any] | None:
    if last is None:
        return None
    data: dict[str, Any] = {
        "kind": last.kind,
        "seat": last.seat,
        **taken_view(last.at, last.piece),
    }
    if last.kind == "turn":
        path = [{"at": xy(last.at), "facing": FACINGS[last.piece[2]]}]
        cell, facing = last.at, last.piece[2]
        for step in last.steps:
            cell, facing = after_step(cell, facing, step)
            path.append({"at": xy(cell), "facing": FACINGS[facing]})
        data["steps"] = list(last.steps)
        data["path"] = path
        data["captures"] = [taken_view(c, p) for c, p in last.captures]
        data["removed"] = [taken_view(c, p) for c, p in last.removed]
    return data
