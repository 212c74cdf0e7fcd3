"""The shape of the code (docs/architecture.md): layers that import one way,
no import cycles (lazy imports included), no module reaching into another's
private names, no module over 800 lines.

Read from the source with ``ast``, so every import counts, wherever it sits;
only imports under ``if TYPE_CHECKING:`` are left out (they never run).
"""

from __future__ import annotations

import ast
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "lobby", "accounts", "frontend", "config", "moderation")
MAX_LINES = 800

# Lower numbers sit lower: a module may import its own layer and those below.
LAYERS = [
    (0, ("games.rules", "lobby.pairing")),
    (1, ("games.bots",)),
    (2, ("games.errors", "games.plain_json", "games.threads", "games.i18n", "games.reasons")),
    (2, ("games.row_ids",)),
    (2, ("games.redis_clients", "games.wakeups")),
    (2, ("games.ratelimit",)),
    (2, ("games.hooks",)),
    (2, ("games.addresses",)),
    (2, ("games.users",)),
    (2, ("moderation.roles",)),
    (2, ("accounts.names",)),
    (3, ("games.models", "accounts.models", "moderation.models", "lobby.models")),
    (4, ("games.clocks", "games.store")),
    (5, ("games.selectors", "moderation.selectors", "moderation.standing", "lobby.selectors")),
    (6, ("games.publish",)),
    (
        7,
        (
            "games.services",
            "lobby.services",
            "accounts.services",
            "lobby.tournaments",
            "lobby.clubs",
            "moderation.services",
            "moderation.internal.playbans",
            "moderation.internal.refunds",
            "moderation.internal.detection",
        ),
    ),
    (
        8,
        (
            "games.realtime",
            "games.api",
            "lobby",
            "accounts",
            "frontend",
            "games.admin",
            "moderation",
        ),
    ),
    (9, ("config",)),
]


def layer_of(module: str) -> int | None:
    """The layer of the longest prefix naming ``module``; None: not in a layer."""
    matches = [
        (len(prefix), layer)
        for layer, prefixes in LAYERS
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    return max(matches)[1] if matches else None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def product_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[module_name(path)] = path
    return found


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST):
    """Every import statement, at any depth, except under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


@cache
def imports() -> dict[str, list[tuple[str, str | None, int]]]:
    """module -> (imported module, name imported from it or None, line)."""
    known = product_modules()
    found: dict[str, list[tuple[str, str | None, int]]] = {}
    for module, path in known.items():
        edges = found.setdefault(module, [])
        for node in _import_nodes(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                edges += [(a.name, None, node.lineno) for a in node.names if a.name in known]
                continue
            source = _absolute(module, path, node)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in known:  # ``from package import module``
                    edges.append((submodule, None, node.lineno))
                elif source in known:
                    edges.append((source, alias.name, node.lineno))
    return found


def graph() -> dict[str, set[str]]:
    """module -> the product modules it imports."""
    return {
        module: {target for target, _name, _line in edges if target != module}
        for module, edges in imports().items()
    }


def test_the_import_graph_has_no_cycles():
    try:
        list(TopologicalSorter(graph()).static_order())
    except CycleError as exc:
        pytest.fail("import cycle: " + " -> ".join(exc.args[1]))


def test_layers_import_only_their_own_layer_and_those_below():
    upward = []
    for module, edges in imports().items():
        mine = layer_of(module)
        for target, _name, line in edges:
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                upward.append(f"{module}:{line} imports {target}")
    assert upward == []


def test_rules_import_no_django():
    for module, path in product_modules().items():
        if module.startswith(("games.rules", "games.bots")):
            for node in _import_nodes(ast.parse(path.read_text())):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                assert not any(
                    n.split(".")[0] in {"django", "channels", "rest_framework"} for n in names
                ), module


def test_no_module_imports_another_modules_private_names():
    reaching = [
        f"{module}:{line} imports {target}.{name}"
        for module, edges in imports().items()
        for target, name, line in edges
        if name and name.startswith("_") and not name.startswith("__") and target != module
    ]
    assert reaching == []


def test_no_module_reads_another_modules_private_attributes():
    """``module._name`` on an imported product module (``self._x`` is fine)."""
    known = product_modules()
    reaching = []
    for module, path in known.items():
        tree = ast.parse(path.read_text())
        aliases = {}
        for node in _import_nodes(tree):
            if isinstance(node, ast.ImportFrom):
                source = _absolute(module, path, node)
                for alias in node.names:
                    if f"{source}.{alias.name}" in known:
                        aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
            else:
                for alias in node.names:
                    if alias.name in known and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                reaching.append(
                    f"{module}:{node.lineno} reads {aliases[node.value.id]}.{node.attr}"
                )
    assert reaching == []


@pytest.mark.parametrize("module", sorted(product_modules()))
def test_no_product_module_is_over_800_lines(module):
    lines = product_modules()[module].read_text().count("\n")
    assert lines <= MAX_LINES, f"{module} has {lines} lines"


def test_the_checks_see_what_they_check():
    """The graph is read at all: known edges are there (else every check passes)."""
    g = graph()
    assert "games.services.internal.events" in g["games.services.play"]
    assert "games.services.moves_on_loop" in g["games.realtime.acts"]
    assert layer_of("games.selectors.frames") < layer_of("games.services.play")


def test_every_group_message_leaves_through_publish():
    """One sender (``games.publish``): a module sending on its own skips its
    after-commit, best-effort sending (a 500 for a revoke that happened)."""
    senders = [
        f"{module}:{node.lineno}"
        for module, path in product_modules().items()
        if module != "games.publish"
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Attribute) and node.attr == "group_send"
    ]
    assert senders == []
