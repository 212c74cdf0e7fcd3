"""The one-move greedy Daschax reference: capture the biggest piece it can.

With no capture it plays a random turn (a seeded generator); it places its
pieces at random too and never removes its own pieces.
"""

from __future__ import annotations

from typing import Any

from games.bots.base import Action, view_rng
from games.rules.daschax import DaschaxRuleset
from games.rules.daschax.actions import run_steps

RS = DaschaxRuleset()


class Greedy:
    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        rng = view_rng("daschax", state, seat, seed)
        actions = [a for a in RS.legal_actions(state, seat) if a["type"] != "remove"]
        if actions[0]["type"] == "place":
            return rng.choice(actions)
        rng.shuffle(actions)
        best, best_gain = rng.choice(actions), 0
        for action in actions:
            col, row = action["at"]
            start = row * 10 + col
            _, _, captures, _ = run_steps(
                state.board, seat, start, tuple(action["steps"]), state.variants.move_on
            )
            gain = sum(piece[1] for _, piece in captures)
            if gain > best_gain:
                best, best_gain = action, gain
        return best
