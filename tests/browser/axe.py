"""axe-core in a page (a dev-only npm package, injected from node_modules):
the violations it finds, with the page shot at 1280 and 360 px wide."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from .helpers import settle

AXE = Path(settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"
RUN_AXE_JS = """async (impacts) => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations.filter((v) => !impacts || impacts.includes(v.impact))
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")) }));
}"""


def require_axe() -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run npm ci")


class AxeMixin:
    """For a BrowserLiveTestCase: ``self.axe(page, name)``. axe-core (and
    ``extra_style``) are injected, which the site's CSP refuses: bypass it."""

    bypass_csp = True
    extra_style: str | None = None  # a style the test adds before axe runs
    impacts: list[str] | None = None  # the impacts counted; None: every one

    def axe(self, page, name: str) -> list[dict]:
        if self.extra_style:
            page.add_style_tag(content=self.extra_style)
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(RUN_AXE_JS, self.impacts)
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            settle(page)
            self.shot(page, f"{name}-{width}")
        page.set_viewport_size({"width": 1280, "height": 900})
        return found
