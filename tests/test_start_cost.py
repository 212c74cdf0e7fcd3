"""What a starting process imports: a rolling restart serves again sooner
without the libraries only some work needs (docs/performance.md: importing
networkx, openskill and pywebpush with aiohttp took 0.11 s of 1.0 s)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOADED_ON_FIRST_USE = ("networkx", "openskill", "pywebpush", "aiohttp")


def test_the_served_app_starts_without_the_libraries_of_pairing_ratings_and_pushes():
    script = (
        "import sys; import config.asgi; from config import routing; "
        f"print(','.join(m for m in {LOADED_ON_FIRST_USE!r} if m in sys.modules))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "", f"imported at start: {done.stdout.strip()}"
