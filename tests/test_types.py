"""The type checker over the annotated modules: mypy with the settings of pyproject.toml's
[tool.mypy] finds no error, and the checked set is explicit: every file it checks is held to
annotated definitions (the strict override), and every module so held is checked. A module joins
the set by being named in both lists."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


def _config():
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python before 3.11
        import tomli as tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def _module(path):
    """src/tickmark/report/model/run.py -> tickmark.report.model.run (a package: its name)."""
    rel = path.relative_to(SRC).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def checked_modules():
    """The modules of the files [tool.mypy] checks (a folder: each module under it)."""
    out = set()
    for f in _config()["files"]:
        p = ROOT / f
        assert p.exists(), f"[tool.mypy] files names {f}, which is not there"
        out |= {_module(x) for x in (sorted(p.rglob("*.py")) if p.is_dir() else [p])}
    return out


def strict_patterns():
    """The module patterns of the override that requires annotated definitions."""
    strict = [o for o in _config()["overrides"] if o.get("disallow_untyped_defs")]
    assert len(strict) == 1, "one override holds the checked modules to annotated definitions"
    return strict[0]["module"]


def _held(module, patterns):
    return any(module == p or (p.endswith(".*") and module.startswith(p[:-1])) for p in patterns)


def test_every_checked_module_must_be_annotated_and_every_annotated_one_is_checked():
    checked, patterns = checked_modules(), strict_patterns()
    assert {m for m in checked if not _held(m, patterns)} == set()
    for p in patterns:
        assert any(_held(m, [p]) for m in checked), f"{p} is held to annotated definitions but no file of it is checked"


def test_mypy_finds_no_error():
    try:
        import mypy  # noqa: F401
    except ImportError:
        msg = "mypy is not installed (pip install -e '.[test]')"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
