"""Python code health: `ruff check` over the package and the tests (rules in pyproject.toml), and
`ruff format --check` over the files listed in FORMAT_CHECKED (the list grows as files are
formatted; every file will be on it)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Files kept in `ruff format` style (paths relative to the repository root).
FORMAT_CHECKED = [
    "tests/test_lint.py",
    "tests/test_core_style.py",
    "src/tickmark/profile/hosttool.py",
    "tests/test_hosttool.py",
    "src/tickmark/profile/__init__.py",
    "src/tickmark/profile/command.py",
    "src/tickmark/profile/gprof.py",
    "src/tickmark/profile/model.py",
    "src/tickmark/profile/perf.py",
    "src/tickmark/profile/runners.py",
    "src/tickmark/profile/view.py",
    "tests/test_profile.py",
    "src/tickmark/store_sqlite.py",
    "src/tickmark/store_postgres.py",
    "tests/pgserver.py",
    "tests/test_store_shared.py",
    "src/tickmark/campaign.py",
    "tests/test_campaign.py",
    "src/tickmark/targets/labgrid.py",
    "tests/labgridfix.py",
    "tests/test_labgrid.py",
    "src/tickmark/clicommon.py",
    "src/tickmark/targets/__init__.py",
    "src/tickmark/targets/base.py",
    "src/tickmark/targets/local.py",
    "src/tickmark/targets/qemu_user.py",
    "tests/test_targets.py",
    "src/tickmark/build.py",
    "tests/test_hostile.py",
    "src/tickmark/tm1.py",
    "tests/test_tm1.py",
    "src/tickmark/names.py",
    "src/tickmark/export.py",
    "src/tickmark/fmt.py",
    "src/tickmark/model.py",
    "src/tickmark/views.py",
    "src/tickmark/plots.py",
    "src/tickmark/report.py",
    "tests/test_report.py",
    "tests/reportdata.py",
    "tests/browser.py",
    "src/tickmark/baremetal.py",
    "src/tickmark/kernelimage.py",
    "src/tickmark/targets/qemu_system.py",
    "tests/test_qemu_system.py",
    "src/tickmark/targets/ssh.py",
    "src/tickmark/targets/serial.py",
    "src/tickmark/ingest.py",
    "src/tickmark/fingerprint.py",
    "tests/sshfix.py",
    "tests/test_ssh_target.py",
    "tests/test_serial_target.py",
    "tests/test_ingest.py",
]


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


def test_format_checked_files_exist():
    missing = [p for p in FORMAT_CHECKED if not (ROOT / p).is_file()]
    assert not missing, f"FORMAT_CHECKED names files that do not exist: {missing}"


def test_ruff_format_check():
    r = _ruff("format", "--check", "--no-cache", *FORMAT_CHECKED)
    assert r.returncode == 0, r.stdout + r.stderr
