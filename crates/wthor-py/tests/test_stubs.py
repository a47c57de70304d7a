"""The type stubs (wthor.pyi) describe the module as it is, and every public
item has a docstring."""

from __future__ import annotations

import ast
import inspect
import re

import pytest

import wthor
from conftest import ROOT

STUBS = ROOT / "crates" / "wthor-py" / "wthor.pyi"
QUERY_RS = ROOT / "crates" / "wthor-py" / "src" / "query.rs"

# Names of the stubs that are types for the checkers, not module items.
STUB_ONLY = {"StrPath", "__version__", "Filters"}


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
    assert set(stubs) - public - STUB_ONLY == set(), "in wthor.pyi, not in the module"
    assert wthor.__version__
    for cls, members in stubs.items():
        if not members or cls in STUB_ONLY:
            continue
        obj = getattr(wthor, cls)
        for m in members - {"__init__", "__eq__", "__hash__", "path", "offset", "record"}:
            assert hasattr(obj, m), f"wthor.pyi has {cls}.{m}, the module does not"
        if issubclass(obj, BaseException):
            continue
        real = {n for n, _ in inspect.getmembers(obj) if not n.startswith("_")}
        assert real - members == set(), f"{cls} has members missing from wthor.pyi"


def test_public_items_have_docstrings():
    for name in ["Database", "Game", "Board", "Solution", "Evaluation", "solve", "WthorError", "FormatError"]:
        obj = getattr(wthor, name)
        assert obj.__doc__ and len(obj.__doc__) > 20, name
    for cls in [wthor.Database, wthor.Game, wthor.Board]:
        for n, member in inspect.getmembers(cls):
            if not n.startswith("_"):
                assert member.__doc__, f"{cls.__name__}.{n} has no docstring"


def test_the_filters_of_the_stubs_are_the_keywords_the_module_takes(testdata):
    """The stubs' ``Filters`` keys are the Rust side's KEYWORDS, and each
    is taken (None leaves it out) where an unknown one is refused."""
    keys = stubbed()["Filters"]
    rust = QUERY_RS.read_text(encoding="utf-8")
    listed = rust[rust.index("pub(crate) const KEYWORDS"):]
    listed = listed[: listed.index("];")]
    assert keys == set(re.findall(r'"([a-z_]+)"', listed))
    db = wthor.Database(testdata)
    for key in keys:
        assert db.count(**{key: None}) == len(db), key
    with pytest.raises(TypeError):
        db.count(nonsense=None)
