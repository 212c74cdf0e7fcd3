"""Every module and file that the docs and the code's comments name exists.

A rename or a split leaves names behind in prose that no import checks:
this reads README.md, docs/*.md, docs/rules/*.md and the comments and docstrings of the
project's Python modules for paths (``games/services/play.py``, also short
ones such as ``services/play.py`` or ``store/rows.py`` that mean the games
app's) and dotted module names (``games.services.play``, optionally followed
by a name the module defines: ``games.users.is_bot``), and checks each.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "lobby", "accounts", "frontend", "config", "moderation")
TOP = (*PACKAGES, "tests", "docs", "bench", "bin", "locale", "deploy", ".ci")
# The games app's layers, named in its own comments without the "games/" prefix.
GAME_DIRS = ("services", "selectors", "store", "realtime", "api", "rules", "bots")

# A path starts fresh (not inside a URL or another path) and ends on a name.
_START = r"(?<![\w./<>-])"
SLASHED = re.compile(_START + r"((?:" + "|".join(map(re.escape, TOP + GAME_DIRS)) + r")/[\w./*-]*)")
DOTTED = re.compile(_START + r"((?:" + "|".join(PACKAGES) + r")(?:\.[A-Za-z_]\w*)+)")
# File names such as "games.py" (selectors/games.py) are no dotted module names.
FILE_SUFFIXES = frozenset({"py", "md", "js", "html", "json", "txt", "po", "mo", "toml", "sh"})

# Named but not paths of this repository, each with its reason.
NOT_PATHS = {
    "moderation.moderate",  # permissions ("app_label.codename"), moderation/roles.py
    "moderation.arbitrate_remis",
    "api/games/",  # a URL's path, in a test that sweeps the URLs
}


def prose_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def python_files() -> list[Path]:
    found: list[Path] = []
    for package in (*PACKAGES, "tests", "bench"):
        found += [p for p in sorted((ROOT / package).rglob("*.py")) if "migrations" not in p.parts]
    return found


def comments_and_docstrings(source: str) -> Iterator[str]:
    """The ``#`` comments and the docstrings of one module."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield doc


def texts() -> Iterator[tuple[str, str]]:
    """(where, text) for every piece of prose that may name a path."""
    for path in prose_files():
        yield path.relative_to(ROOT).as_posix(), path.read_text()
    for path in python_files():
        where = path.relative_to(ROOT).as_posix()
        for text in comments_and_docstrings(path.read_text()):
            yield where, text


def _file(name: str) -> Path | None:
    """The file or folder ``name`` names, from the top or (a layer's short
    name) from the games app; a module may be named without ``.py``."""
    for base in (ROOT, ROOT / "games") if name.split("/", 1)[0] in GAME_DIRS else (ROOT,):
        for candidate in (base / name, base / f"{name}.py"):
            if candidate.exists():
                return candidate
    return None


def slashed_exists(name: str) -> bool:
    """A file or folder; or a module and a name it binds (``store/rows.lock_game``)."""
    name = name.rstrip("./")
    if "*" in name:  # a pattern (``games/realtime/stream_*.py``): it names some file
        return any(ROOT.glob(name)) or any((ROOT / "games").glob(name))
    if not name or _file(name):
        return True
    module, _, attribute = name.rpartition(".")
    found = _file(module) if module and "/" not in attribute else None
    return found is not None and found.suffix == ".py" and attribute in defined_names(found)


@cache
def defined_names(module: Path) -> frozenset[str]:
    """The names a module binds at its top level (defined or imported)."""
    names: set[str] = set()
    for node in ast.parse(module.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def dotted_exists(name: str) -> bool:
    """A package or module, optionally followed by a name the module binds
    (and attributes of that name, which are not checked)."""
    parts = name.split(".")
    here = ROOT
    for i, part in enumerate(parts):
        if (here / part).is_dir():
            here = here / part
            continue
        module = here / f"{part}.py"
        if module.exists():
            rest = parts[i + 1 :]
            return not rest or rest[0] in defined_names(module)
        init = here / "__init__.py"
        return i > 0 and init.exists() and part in defined_names(init)
    return True


def missing() -> list[str]:
    found = set()
    for where, text in texts():
        for name in SLASHED.findall(text):
            if name not in NOT_PATHS and not slashed_exists(name):
                found.add(f"{where}: {name}")
        for name in DOTTED.findall(text):
            if name.rsplit(".", 1)[1] in FILE_SUFFIXES:
                continue
            if name not in NOT_PATHS and not dotted_exists(name):
                found.add(f"{where}: {name}")
    return sorted(found)


def test_every_path_named_in_docs_and_comments_exists() -> None:
    assert missing() == []


@pytest.mark.parametrize(
    "name",
    [
        "games/services/play.py",
        "services/play.py",
        "games/selectors/",
        "docs/architecture.md",
        "games.services.play",
        "games.users.is_bot",
        "games.rules.RULESETS",
    ],
)
def test_real_names_pass(name: str) -> None:
    check = slashed_exists if "/" in name else dotted_exists
    assert check(name)


@pytest.mark.parametrize(
    "name",
    ["games/services/nothing.py", "services/nothing.py", "games.nothing", "games.users.nothing"],
)
def test_made_up_names_fail(name: str) -> None:
    check = slashed_exists if "/" in name else dotted_exists
    assert not check(name)


def test_the_patterns_find_names_in_prose_but_not_in_urls() -> None:
    text = "see games/services/play.py and games.users.is_bot, not /api/games/1/ or a.games/x"
    assert SLASHED.findall(text) == ["games/services/play.py"]
    assert slashed_exists("games/realtime/stream_*.py")
    assert not slashed_exists("games/realtime/nothing_*.py")
    assert DOTTED.findall(text) == ["games.users.is_bot"]


def layer_picture() -> str:
    """The picture of the layers in docs/architecture.md (its first code block)."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## The layers", 1)[1]
    return section.split("```", 2)[1]


def test_the_layer_picture_names_every_module() -> None:
    """Each product module is in docs/architecture.md's picture (the rules',
    bots' and board pictures' modules are summed up by their folders; apps.py
    is Django's)."""
    picture = layer_picture()
    words = set(re.findall(r"[\w]+", picture))
    unnamed = [
        path.relative_to(ROOT).as_posix()
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        and path.stem not in ("__init__", "apps")
        and not {"rules", "bots", "pictures", "templatetags"} & set(path.parts)
        and path.stem not in words
    ]
    assert unnamed == []


def test_the_layer_picture_numbers_layers_as_the_layer_test() -> None:
    """Each line of the picture ending in "layer N" starts with a folder or
    module that tests/test_layers.py puts in layer N."""
    from tests.test_layers import layer_of

    numbered = re.findall(r"^ (\S+)\s.*layer (\d+)$", layer_picture(), re.M)
    assert len(numbered) == 10
    for name, number in numbered:
        module = name.rstrip("/").removesuffix(".py").replace("/", ".")
        assert layer_of(module) == int(number), name
