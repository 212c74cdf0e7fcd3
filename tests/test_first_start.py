"""A newcomer's first ``bin/serve`` (issue 48, item 11): bin/setup installs
without the notices a pip configuration's partial local indexes cause, and
the README's opening says what the site offers.

bin/setup runs in a copy of the project whose ``.venv`` holds a stand-in pip
that prints what pip prints on a machine whose configuration names file://
indexes missing most packages, plus one warning that must still show.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MISSING = "WARNING: Location 'file:///opt/pypi-more/simple/{}/' is ignored: it is neither a file nor a directory."
OTHER = "WARNING: Retrying after connection broken: the one warning a person must see"
FAKE_PIP = f"""#!{sys.executable}
import sys
for name in ("django", "channels", "daphne"):
    print({MISSING!r}.format(name), file=sys.stderr)
print({OTHER!r}, file=sys.stderr)
open(sys.argv[0] + ".ran", "w").write(" ".join(sys.argv[1:]))
"""


def _executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_setup_drops_the_notices_of_partial_local_indexes_and_keeps_other_warnings(tmp_path):
    (tmp_path / "bin").mkdir()
    shutil.copy(ROOT / "bin" / "setup", tmp_path / "bin" / "setup")
    for name in (".python-version", "requirements.txt", "requirements-dev.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    venv_bin = tmp_path / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    _executable(venv_bin / "python", f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    _executable(venv_bin / "pip", FAKE_PIP)
    env = {**os.environ, "PYTHON": sys.executable}
    done = subprocess.run(
        ["bash", "bin/setup", "runtime"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert (venv_bin / "pip.ran").read_text().startswith("install")
    assert "is ignored: it is neither a file nor a directory" not in done.stderr, done.stderr
    assert OTHER in done.stderr


def test_the_readme_opening_names_what_the_site_offers():
    text = (ROOT / "README.md").read_text()
    opening = text.split("\n\n")[1]
    for words in ("guest", "tournament", "TV", "embed", "planned moves", "moderat", "bot"):
        assert re.search(words, opening, re.IGNORECASE if words != "TV" else 0), words
    assert "API" in opening
