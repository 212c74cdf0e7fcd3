"""One place makes game rows (issue 49 item 2): ``games/services/creating.py``.

Every source of a game (a lobby table, playing the computer, a staff bot
match, a rematch, a tournament round, an import) goes through its
``game_create`` (or the bulk ``game_create_many``), so a new field or a new
side effect of a new game is added once. Read from the source with ``ast``:
a ``Game(...)`` or ``Seat(...)`` built anywhere else in the product, or a
``Game.objects.create``/``bulk_create``, fails here. A ``Game(pk=...)``
stand-in for a row already stored (a digest's list) is no new row.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "lobby", "accounts", "frontend", "config", "moderation")
FACTORY = ROOT / "games" / "services" / "creating.py"
MODELS = {"Game", "Seat"}
MAKERS = {"create", "bulk_create", "get_or_create", "update_or_create"}


def _model_name(node: ast.expr) -> str | None:
    """``Game`` for ``Game`` and ``models.Game``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def makes_rows(call: ast.Call) -> str | None:
    """What ``call`` makes, when it makes a game's or a seat's row."""
    func = call.func
    name = _model_name(func)
    if name in MODELS and not any(k.arg == "pk" for k in call.keywords):
        return f"{name}(...)"
    if (
        isinstance(func, ast.Attribute)
        and func.attr in MAKERS
        and isinstance(func.value, ast.Attribute)
        and func.value.attr in ("objects", "_default_manager")
        and _model_name(func.value.value) in MODELS
    ):
        return f"{_model_name(func.value.value)}.objects.{func.attr}"
    return None


def product_files() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_one_place_constructs_game_rows():
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {made}"
        for path in product_files()
        if path != FACTORY
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call) and (made := makes_rows(node)) is not None
    ]
    assert found == []


def test_the_scan_sees_each_way_of_making_a_row():
    """The check above finds what it looks for (and the factory has it)."""
    made = [
        makes_rows(node)
        for node in ast.walk(ast.parse(FACTORY.read_text()))
        if isinstance(node, ast.Call)
    ]
    assert {"Game(...)", "Seat(...)", "Game.objects.bulk_create", "Seat.objects.bulk_create"} <= {
        m for m in made if m
    }
    samples = {
        "Game.objects.create(ruleset='halma')": "Game.objects.create",
        "models.Game(ruleset='halma')": "Game(...)",
        "Seat.objects.get_or_create(game=g, index=0)": "Seat.objects.get_or_create",
        "Game(pk=1, ruleset='halma')": None,
        "Game.objects.filter(pk=1)": None,
    }
    for source, expected in samples.items():
        (call,) = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)][:1]
        assert makes_rows(call) == expected, source
