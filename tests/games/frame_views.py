"""The view a client holds, frame by frame, as the game page keeps it.

hello and sync carry the whole view; an event frame carries the change
(``view_patch``, a JSON Patch from the view the seat had) or, where no patch
could be made, the whole view. ``Views.feed`` writes the view the frame leads
to into ``frame["state"]["view"]``, so tests read every frame's view as
before, and a patch that does not apply fails the test.
"""

from __future__ import annotations

from typing import Any

from games.selectors.delta import apply


class Views:
    def __init__(self) -> None:
        self.view: Any = None
        self.version: int | None = None

    def feed(self, frame: dict) -> dict:
        kind, state = frame.get("type"), frame.get("state")
        if kind in ("hello", "sync"):
            self.view, self.version = state["view"], state["version"]
        elif kind == "event":
            if "view" in state:
                self.view = state["view"]
            elif self.version is not None and frame["version"] == self.version + 1:
                self.view = apply(self.view, frame["view_patch"])
                state["view"] = self.view
            else:
                return frame  # a gap or a duplicate: the page asks for a sync
            self.version = frame["version"]
        return frame
