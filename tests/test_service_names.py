"""The services' public face (docs/architecture.md, "Services: entry points
and helpers"): every public function of a service module is an entry point,
named ``<noun>_<verb>`` (``game_resign``, ``table_create``, ``user_block``)
with at most one positional argument, the rest keyword-only. A helper is
``_private`` to its module, or, shared by several services, a public name of
a module in an ``internal/`` folder that nothing outside the service layer
calls. Which modules are services, and which internal, is read from the
folders (``SERVICE_FOLDERS``), not from a list of modules.

Read from the source with ``ast``, so the test needs no Django and sees every
module, imported or not.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The service layer, read from the tree: these folders and modules hold the
# entry points, and each folder's ``internal/`` the helpers its services share
# (their other public names serve only the service layer).
SERVICE_FOLDERS = (
    "games/services",
    "accounts/services",
    "lobby/tournaments",
    "lobby/clubs",
    "moderation/internal",
)
SERVICE_FILES = ("lobby/services.py", "moderation/services.py")
INTERNAL_FOLDER = "internal"


def service_modules() -> list[Path]:
    found = [ROOT / name for name in SERVICE_FILES]
    for folder in SERVICE_FOLDERS:
        found += (ROOT / folder).rglob("*.py")
    return sorted(found)


def is_internal(path: Path) -> bool:
    return INTERNAL_FOLDER in path.relative_to(ROOT).parts


SERVICE_MODULES = service_modules()

# The things entry points act on: the first word of every entry point's name.
NOUNS = {
    "analyses",
    "analysis",
    "bot",
    "change",
    "conditional",
    "chat",
    "club",
    "forced",
    "game",
    "guest",
    "guests",
    "handover",
    "import",
    "imports",
    "loop",
    "mail",
    "notifications",
    "push",
    "pushes",
    "remis",
    "rematch",
    "replay",
    "report",
    "table",
    "tournament",
    "user",
    "vacation",
    "warning",
}

# Names ARCHITECTURE.md fixes for outside tools (kept as they are).
FIXED = {
    ("accounts.services.internal.bot_accounts", "bot_user"),
    ("games.services.bots", "play_due_bots"),
}
RECEIVER = re.compile(r"on_[a-z_]+")  # a signal's receiver: its arguments come by keyword


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def public_functions(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("_")
    ]


def entry_point_fault(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """Why ``node`` is no entry point by the rule (None: it is one)."""
    if RECEIVER.fullmatch(node.name):
        return None
    words = node.name.split("_")
    if len(words) < 2 or words[0] not in NOUNS:
        return "not <noun>_<verb>"
    positional = len(node.args.posonlyargs) + len(node.args.args)
    if positional > 1 or node.args.vararg is not None:
        return "more than one positional argument"
    return None


def faults(source: str, module: str = "") -> list[str]:
    """``name: why`` for each public function of a module that is no entry point."""
    return [
        f"{node.name}: {fault}"
        for node in public_functions(ast.parse(source))
        if (module, node.name) not in FIXED and (fault := entry_point_fault(node)) is not None
    ]


@cache
def uses() -> dict[tuple[str, str], set[str]]:
    """(module, name) -> the product modules that import it or read ``module.name``."""
    paths = {
        module_name(p): p
        for package in ("games", "lobby", "accounts", "frontend", "config", "moderation")
        for p in (ROOT / package).rglob("*.py")
        if "migrations" not in p.parts
    }
    found: dict[tuple[str, str], set[str]] = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text())
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                package = (
                    module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                )
                base = package[: len(package) - (node.level - 1)] if node.level else []
                source = ".".join([*base, node.module] if node.module else base)
                for alias in node.names:
                    if f"{source}.{alias.name}" in paths:
                        aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
                    else:
                        found.setdefault((source, alias.name), set()).add(module)
            elif isinstance(node, ast.Import):
                aliases.update({a.asname or a.name: a.name for a in node.names})
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                found.setdefault((aliases[node.value.id], node.attr), set()).add(module)
    return found


def in_service_layer(module: str) -> bool:
    return module in {module_name(p) for p in SERVICE_MODULES}


@pytest.mark.parametrize(
    "path",
    [p for p in SERVICE_MODULES if not is_internal(p) and p.name != "__init__.py"],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_every_public_function_of_a_service_module_is_an_entry_point(path: Path) -> None:
    assert faults(path.read_text(), module_name(path)) == []


@pytest.mark.parametrize(
    "path",
    [p for p in SERVICE_MODULES if is_internal(p) and p.name != "__init__.py"],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_an_internal_modules_helpers_serve_only_the_service_layer(path: Path) -> None:
    module = module_name(path)
    wrong = []
    for node in public_functions(ast.parse(path.read_text())):
        if (module, node.name) in FIXED or entry_point_fault(node) is None:
            continue
        users = uses().get((module, node.name), set()) - {module}
        if not users:
            wrong.append(f"{node.name}: used by no other module (make it _private)")
        wrong += [f"{node.name}: used by {u}" for u in sorted(users) if not in_service_layer(u)]
    assert wrong == []


def test_the_service_folders_exist() -> None:
    for folder in SERVICE_FOLDERS:
        assert (ROOT / folder / "__init__.py").exists(), folder
    assert all((ROOT / name).exists() for name in SERVICE_FILES)


# The entry points other tools import (ARCHITECTURE.md): importable at these
# paths, wherever the code moved (an alias module is fine).
ENTRY_POINTS = [
    "games.services.play.game_act",
    "games.services.endings.game_resign",
    "games.services.handover.game_handover_agree",
    "games.services.remis.remis_request",
    "games.services.bots.play_due_bots",
    "games.services.bot_accounts.bot_user",  # tree-move: keep
    "games.realtime.sweeper.build_replays",
    "lobby.services.table_create",
    "lobby.services.table_join",
    "lobby.services.table_start",
]


@pytest.mark.parametrize("dotted", ENTRY_POINTS)
def test_the_entry_points_other_tools_import_stay_at_their_paths(dotted: str) -> None:
    module, _, name = dotted.rpartition(".")
    path = ROOT / f"{module.replace('.', '/')}.py"
    bound = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef):
            bound.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            bound.update(a.asname or a.name for a in node.names)
    assert name in bound


def test_the_rule_finds_what_breaks_it() -> None:
    source = """
def game_resign(*, game_id: int, user: object) -> int: ...
def expire_offers(now: object = None) -> int: ...
def block_user(*, user: object, username: str) -> None: ...
def claim(turn: object) -> None: ...
def table_move(game: object, seat: int) -> None: ...
def game_spread(*args: object) -> None: ...
def on_game_over(sender: object, **kwargs: object) -> None: ...
def _helper(a: int, b: int) -> None: ...
def bot_user(game: str, level: str) -> None: ...
"""
    assert faults(source, "games.services.bots") == [
        "expire_offers: not <noun>_<verb>",
        "block_user: not <noun>_<verb>",
        "claim: not <noun>_<verb>",
        "table_move: more than one positional argument",
        "game_spread: more than one positional argument",
        "bot_user: more than one positional argument",
    ]
    assert (
        faults(source, "accounts.services.internal.bot_accounts")[-1]
        != "bot_user: more than one positional argument"
    )
