"""The type stubs (wthor.pyi) describe the module as it is, and every public
item has a docstring."""

from __future__ import annotations

import ast
import inspect

import wthor
from conftest import ROOT

STUBS = ROOT / "crates" / "wthor-py" / "wthor.pyi"


def stubbed():
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {
                n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign)) and hasattr(n, "name")
            } | {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.FunctionDef):
            out[node.name] = None
        elif isinstance(node, ast.AnnAssign):
            out[node.target.id] = None
    return out


def test_stubs_match_the_module():
    stubs = stubbed()
    public = {n for n in dir(wthor) if not n.startswith("_")} - {"wthor", "GameIterator"}
    assert public - set(stubs) == set(), "in the module, not in wthor.pyi"
    assert set(stubs) - public - {"StrPath", "__version__"} == set(), "in wthor.pyi, not in the module"
    assert wthor.__version__
    for cls, members in stubs.items():
        if not members:
            continue
        obj = getattr(wthor, cls)
        for m in members - {"__init__", "__eq__", "__hash__", "path", "offset", "record"}:
            assert hasattr(obj, m), f"wthor.pyi has {cls}.{m}, the module does not"
        if issubclass(obj, BaseException):
            continue
        real = {n for n, _ in inspect.getmembers(obj) if not n.startswith("_")}
        assert real - members == set(), f"{cls} has members missing from wthor.pyi"


def test_public_items_have_docstrings():
    for name in ["Database", "Game", "Board", "Solution", "solve", "WthorError", "FormatError"]:
        obj = getattr(wthor, name)
        assert obj.__doc__ and len(obj.__doc__) > 20, name
    for cls in [wthor.Database, wthor.Game, wthor.Board]:
        for n, member in inspect.getmembers(cls):
            if not n.startswith("_"):
                assert member.__doc__, f"{cls.__name__}.{n} has no docstring"
