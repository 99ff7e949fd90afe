"""The type stubs (ctensor/__init__.pyi) against the package: every function, class and Tensor method they
declare exists at run time, and mypy finds no error in them (when mypy is installed)."""
import ast
import os
import shutil
import subprocess
import sys

import pytest

import ctensor as ct

STUB = os.path.join(os.path.dirname(ct.__file__), "__init__.pyi")


def _stub_tree():
    with open(STUB) as f:
        return ast.parse(f.read())


def _public(name):
    """Declarations a user can reach (not stub-only helpers like _MinMax, nor the stubs' __getattr__ fallback)."""
    return name != "__getattr__" and not (name.startswith("_") and not name.endswith("__"))


def test_every_stub_declaration_exists():
    missing = []
    for node in _stub_tree().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and _public(node.name) and not hasattr(ct, node.name):
            missing.append(node.name)
        if isinstance(node, ast.ClassDef) and node.name == "Tensor":
            missing += ["Tensor." + m.name for m in node.body if isinstance(m, ast.FunctionDef) and _public(m.name)
                        and not hasattr(ct.Tensor, m.name)]
    assert missing == []


def test_stub_type_checks(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed: the stub type check is skipped")
    package = tmp_path / "ctensor"
    package.mkdir()
    shutil.copy(STUB, package / "__init__.pyi")
    result = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", os.devnull, "--follow-imports=skip",
                             "ctensor/__init__.pyi"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
