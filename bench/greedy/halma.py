"""The one-move greedy Halma reference: the largest forward progress.

Progress is the drop in row + col distance to the target corner. It empties
its own house in time for the 50-move rule: from move 15 on, while pieces are
still at home, a move out of the house goes first, then any move of a home
piece; it never steps back into its house late. Ties fall by a seeded
generator.
"""

from __future__ import annotations

from typing import Any

from games.bots.base import Action, view_rng
from games.rules.halma import HOUSE_FLAGS, MOVE_LIMIT, HalmaRuleset

RS = HalmaRuleset()


def _field(rc: list[int]) -> int:
    return rc[0] * 10 + rc[1]


def _dist(seat: int, field: int) -> int:
    r, c = divmod(field, 10)
    return r + c if seat == 0 else 18 - r - c


class Greedy:
    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        rng = view_rng("halma", state, seat, seed)
        actions = RS.legal_actions(state, seat)
        rng.shuffle(actions)
        house = HOUSE_FLAGS[seat]
        at_home = sum(house[f] for f in state.pieces[seat])
        left = MOVE_LIMIT - state.plies // 2
        hurry = at_home > 0 and left <= 35  # from move 15 on, home pieces go first

        def key(action: Action) -> tuple[int, int, int]:
            a, b = _field(action["path"][0]), _field(action["path"][-1])
            leaves = house[a] and not house[b]
            enters = house[b] and not house[a]
            late = enters and left <= 12
            home = hurry and house[a]
            return (
                int(hurry and leaves) - 2 * int(late),
                int(home),
                _dist(seat, a) - _dist(seat, b),
            )

        return max(actions, key=key)
