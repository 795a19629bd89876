"""Python code health: `ruff check` and `ruff format --check` over the package and the tests
(rules in pyproject.toml)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args):
    """Run ruff from this interpreter's environment (it is a [test] dependency)."""
    try:
        import ruff  # noqa: F401
    except ImportError:
        msg = "ruff is not installed (pip install -e '.[test]')"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_check_is_clean():
    r = _ruff("check", "--no-cache", "src", "tests")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format_check():
    r = _ruff("format", "--check", "--no-cache", "src", "tests")
    assert r.returncode == 0, r.stdout + r.stderr
