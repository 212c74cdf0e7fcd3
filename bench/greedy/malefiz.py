"""The greedy Malefiz reference player the bot bench measures against.

It rolls when it must; then it plays the move that leaves a piece nearest the
goal (walking distance, barricades ignored), hitting a rival when that is
just as near; a barricade in hand goes right in front of the rival piece
nearest the goal. No search, no odds: a plain, sensible club player.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from games.rules import get_ruleset
from games.rules.malefiz import FIELDS, GOAL, INDEX, NEIGHBOURS, MalefizState


def walking_distances(src: int) -> list[int]:
    """Steps from field ``src`` to every field, barricades ignored."""
    dist = [-1] * len(FIELDS)
    dist[src] = 0
    queue = deque([src])
    while queue:
        u = queue.popleft()
        for v in NEIGHBOURS[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


DIST = walking_distances(GOAL)


def _field(xy: list[int]) -> int:
    return INDEX[(xy[0], xy[1])]


class Greedy:
    def choose(self, state: MalefizState, seat: int, *, seed: int) -> dict[str, Any]:
        actions = get_ruleset("malefiz").legal_actions(state, seat)
        first = actions[0]
        if first["type"] == "roll":
            return first
        if first["type"] == "barricade":
            return self.place(state, seat, actions)
        rivals = 0
        for other, mask in enumerate(state.pieces):
            if other != seat:
                rivals |= mask

        def key(action: dict[str, Any]) -> tuple[int, int]:
            to = _field(action["to"])
            return (DIST[to], 0 if rivals >> to & 1 else 1)

        return min(actions, key=key)

    def place(
        self, state: MalefizState, seat: int, actions: list[dict[str, Any]]
    ) -> dict[str, Any]:
        free = {_field(a["to"]): a for a in actions}
        best, lead = -1, 1 << 30
        for other, mask in enumerate(state.pieces):
            if other == seat:
                continue
            for f in range(len(FIELDS)):
                if mask >> f & 1 and DIST[f] < lead:
                    best, lead = f, DIST[f]
        here = best
        while here >= 0 and here != GOAL:
            here = min(NEIGHBOURS[here], key=lambda v: (DIST[v], v))
            if here in free:
                return free[here]
        # No rival on the board: block the way into the goal as low as possible.
        return max(
            free.values(), key=lambda a: (DIST[_field(a["to"])] <= 6, -DIST[_field(a["to"])])
        )
