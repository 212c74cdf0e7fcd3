"""The services' public face (docs/architecture.md, "Services: entry points
and helpers"): every public function of a service module is an entry point,
named ``<noun>_<verb>`` (``game_resign``, ``table_create``, ``user_block``)
with at most one positional argument, the rest keyword-only. A helper is
``_private`` to its module, or, shared by several services, a public name of
an internal module that nothing outside the service layer calls.

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
SERVICE_MODULES = sorted(
    [
        *(ROOT / "games" / "services").glob("*.py"),
        ROOT / "lobby" / "services.py",
        *(ROOT / "lobby" / "tournaments").glob("*.py"),
        *(
            ROOT / "moderation" / f"{name}.py"
            for name in ("services", "playbans", "refunds", "signals")
        ),
    ]
)

# The things entry points act on: the first word of every entry point's name.
NOUNS = {
    "analyses",
    "analysis",
    "bot",
    "change",
    "conditional",
    "chat",
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

# Shared helpers, by meaning; their other public names serve only the service layer.
INTERNAL = {
    "games.services.internal.draw_offers",  # a draw offer stored on a locked game (a person's, a bot's one)
    "games.services.internal.events",  # the one write funnel: the next event, its effects, publishing
    "games.services.internal.guards",  # the first checks: a game id, a locked row, a seat, a rate
    "games.services.internal.seat_offers",  # a seat offered to a bot or handed to one
    "games.services.internal.notifications",  # notices written in another service's transaction
    "games.services.internal.ratings",  # a finished game's rating changes
    "games.services.internal.replies",  # conditional replies, decided in the opponent's move
    "games.services.internal.game_import",  # the checks and writes of one import
    "games.services.internal.followers",  # followed players' game notices
    "accounts.services.internal.bot_accounts",  # one bot account per game and level
    "games.services.internal.replay_checkpoints",  # states kept for replays
    "games.services.internal.leaving",  # a seat leaves: the rules' leave or the game's end
    "games.services.internal.deciding",  # one act decided: seat, turn, version, the ruleset
    "games.services.internal.away",  # seats whose player is on vacation, in a running game
    "lobby.tournaments.internal.common",  # a tournament's lock and the checks every entry makes
    "lobby.tournaments.internal.deadlines",  # a round's deadline and its adjudication
    "lobby.tournaments.internal.notices",  # players told of a round
    "lobby.tournaments.internal.results",  # points, no-shows and standings of a round
    "lobby.tournaments.internal.eligibility",  # who may play a round, seeded how
    "moderation.internal.playbans",  # play-bans recorded in a game's transaction
    "moderation.internal.refunds",  # rating refunds for a cheater's victims
    "moderation.internal.detection",  # the site's own reports (signals), and staff told of any report
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
    return module in {module_name(p) for p in SERVICE_MODULES} or module == "lobby.tournaments"


@pytest.mark.parametrize(
    "path",
    [p for p in SERVICE_MODULES if module_name(p) not in INTERNAL and p.name != "__init__.py"],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_every_public_function_of_a_service_module_is_an_entry_point(path: Path) -> None:
    assert faults(path.read_text(), module_name(path)) == []


@pytest.mark.parametrize(
    "path",
    [p for p in SERVICE_MODULES if module_name(p) in INTERNAL],
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


def test_internal_modules_exist() -> None:
    assert {module_name(p) for p in SERVICE_MODULES} >= INTERNAL


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
