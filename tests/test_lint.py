"""Python code health: `ruff check` and `ruff format --check` over the package and the tests, and
import-linter's contracts over the package: its layers, no import cycles, click only in the
command line, rich only in the command line and the report views, views that read no store,
targets that read no store, the run engine driven only from run/ and the command line (rules in
pyproject.toml)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _need(module, what):
    """A [test] dependency: skip without it, fail under CI=true."""
    try:
        __import__(module)
    except ImportError:
        msg = f"{what} is not installed (pip install -e '.[test]')"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)


def _ruff(*args):
    """Run ruff from this interpreter's environment."""
    _need("ruff", "ruff")
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_check_is_clean():
    r = _ruff("check", "--no-cache", "src", "tests")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format_check():
    r = _ruff("format", "--check", "--no-cache", "src", "tests")
    assert r.returncode == 0, r.stdout + r.stderr


def test_import_contracts_hold():
    _need("importlinter", "import-linter")
    exe = Path(sys.executable).with_name("lint-imports")
    r = subprocess.run(
        [str(exe) if exe.exists() else "lint-imports", "--no-cache"],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),  # this tree's package, not an installed one
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout
