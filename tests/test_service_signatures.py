"""No ``Any`` in the public face of the services: the games', the lobby's
(its tournaments too), moderation's and the accounts' (API tokens, bot accounts).

mypy checks the services with every function typed (pyproject.toml); this
keeps the types it checks meaningful: a public service function says what it
takes and returns. ``Any`` is allowed only as the value type of a JSON object,
``dict[str, Any]`` (actions, events, options: the rules' own shapes); what a
client sent is ``object``, a caller is ``Visitor`` or ``User``.

Read from the source with ``ast``, so the test needs no Django and sees every
module, imported or not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_service_names import service_modules

ROOT = Path(__file__).resolve().parent.parent
SERVICE_MODULES = [
    *service_modules(),
    *(ROOT / "accounts" / f"{name}.py" for name in ("tokens", "bot_upgrade")),
    *(ROOT / "moderation" / f"{name}.py" for name in ("standing", "roles")),
]


def _json_object(node: ast.expr) -> bool:
    """``dict[str, Any]``: a JSON object, whose values are any JSON."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "dict"
        and isinstance(node.slice, ast.Tuple)
        and len(node.slice.elts) == 2
        and isinstance(node.slice.elts[0], ast.Name)
        and node.slice.elts[0].id == "str"
        and isinstance(node.slice.elts[1], ast.Name)
        and node.slice.elts[1].id == "Any"
    )


def stray_any(annotation: ast.expr) -> bool:
    """Whether ``annotation`` names ``Any`` anywhere but as a JSON object's values."""
    if _json_object(annotation):
        return False
    if isinstance(annotation, ast.Name | ast.Attribute):
        name = annotation.id if isinstance(annotation, ast.Name) else annotation.attr
        return name == "Any"
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return stray_any(ast.parse(annotation.value, mode="eval").body)
    return any(
        stray_any(child)
        for child in ast.iter_child_nodes(annotation)
        if isinstance(child, ast.expr)
    )


def annotations(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, ast.expr]]:
    args = func.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    found = [(a.arg, a.annotation) for a in every if a.annotation is not None]
    return found + ([("return", func.returns)] if func.returns is not None else [])


def offenders(source: str) -> list[str]:
    """``name(part)`` for each public top-level function whose signature has a stray Any."""
    tree = ast.parse(source)
    return [
        f"{node.name}({part})"
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("_")
        for part, annotation in annotations(node)
        if stray_any(annotation)
    ]


@pytest.mark.parametrize("path", SERVICE_MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_public_service_signatures_name_no_any(path: Path) -> None:
    assert offenders(path.read_text()) == []


def test_the_check_finds_any_where_it_hides() -> None:
    source = """
def bare(user: Any) -> None: ...
def optional(x: Any | None = None) -> int: ...
def nested(x: list[Any]) -> dict[str, list[Any]]: ...
def returned() -> "tuple[int, Any]": ...
def starred(*args: Any, **kwargs: typing.Any) -> None: ...
def json(action: dict[str, Any]) -> list[dict[str, Any]] | None: ...
def _private(x: Any) -> Any: ...
"""
    assert offenders(source) == [
        "bare(user)",
        "optional(x)",
        "nested(x)",
        "nested(return)",
        "returned(return)",
        "starred(args)",
        "starred(kwargs)",
    ]
