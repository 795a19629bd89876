"""./bootstrap's own logic, without installing anything: a copy of it in a folder whose ./.venv
holds a stand-in python (it records its arguments and answers like pip), run with a PATH of
the few tools it uses (no apt, dpkg or cargo: the Debian steps are left out). What `run` and
`setup` install (the runtime only), what `test` installs (the test tools too), the stamp that
tells them apart, a line per step, and how to call tickmark at the end. A real install on a
fresh clone is checked by hand (README's Quick start)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ("bash", "cat", "sha256sum", "cut", "dirname", "id", "awk", "tee", "tail", "grep", "mkdir", "rm", "mktemp")

FAKE_PYTHON = """#!/bin/bash
echo "python $*" >> "$BOOT_LOG"
if [ "$1 $2 $3" = "-m pip install" ]; then
  [ -n "${PIP_FAILS-}" ] && { echo "ERROR: no matching distribution for click"; exit 1; }
  if [ "$4" = "-e" ]; then
    echo "Obtaining file:///x"
    echo "Collecting click>=8 (from tickmark==0.1.0)"
    echo "  Downloading click.whl"
    echo "Collecting rich>=12"
    echo "Installing collected packages: click, rich"
    echo "Successfully installed click rich"
  fi
fi
exit 0
"""
FAKE_TICKMARK = """#!/bin/bash
echo "tickmark $*" >> "$BOOT_LOG"
exit 3
"""


@pytest.fixture
def boot(tmp_path):
    """A copy of ./bootstrap with a stand-in ./.venv -> call(*args, **env) = (rc, stderr, calls)."""
    for tool in TOOLS:
        if not shutil.which(tool):
            pytest.skip(f"no {tool}")
    (tmp_path / "bin").mkdir()
    for tool in TOOLS:
        (tmp_path / "bin" / tool).symlink_to(shutil.which(tool))
    repo = tmp_path / "repo"
    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo / "src").mkdir()
    shutil.copy(ROOT / "bootstrap", repo)
    shutil.copy(ROOT / "pyproject.toml", repo)
    for name, text in (("python", FAKE_PYTHON), ("tickmark", FAKE_TICKMARK)):
        path = repo / ".venv" / "bin" / name
        path.write_text(text)
        path.chmod(0o755)
    log = tmp_path / "calls.log"

    def call(*args, **extra):
        log.write_text("")
        env = {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path), "BOOT_LOG": str(log), **extra}
        res = subprocess.run(
            [shutil.which("bash"), str(repo / "bootstrap"), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert res.stdout == "", res.stdout  # every step speaks on stderr
        return res.returncode, res.stderr, log.read_text().splitlines()

    call.stamp = repo / ".venv" / ".tickmark-installed"
    return call


def installs(calls):
    return [c for c in calls if c.startswith("python -m pip install -e")]


def test_setup_installs_the_runtime_only_and_says_what_it_does(boot):
    rc, err, calls = boot("setup")
    assert rc == 0, err
    assert installs(calls) == ["python -m pip install -e ."]
    assert "bootstrap: installing the Python package into ./.venv (about a minute)" in err
    assert "bootstrap:    fetching click" in err and "bootstrap:    fetching rich" in err
    assert "Downloading" not in err  # pip's whole output went to its log, a line per package here
    assert err.strip().splitlines()[-1] == (
        "bootstrap: tickmark is .venv/bin/tickmark (or first: source .venv/bin/activate)"
    )
    assert boot.stamp.read_text().split()[1] == "runtime"
    assert max(len(line) for line in err.splitlines()) <= 80

    rc, err, calls = boot("setup")  # installed: nothing again
    assert rc == 0 and installs(calls) == [] and "installing" not in err


def test_test_installs_the_test_tools_once_and_run_uses_that_install(boot):
    assert boot("setup")[0] == 0
    rc, err, calls = boot("test", "-x", "tests/test_x.py")
    assert rc == 0, err
    assert installs(calls) == ["python -m pip install -e .[test]"]
    assert "python -m pytest -n 4 -x tests/test_x.py" in calls
    assert boot.stamp.read_text().split()[1] == "test"

    rc, err, calls = boot("run", "sys.*")  # a test install serves run: no second install
    assert installs(calls) == []
    assert rc == 3  # tickmark's own exit status
    assert "tickmark run sys.*" in calls
    assert (
        err.strip().splitlines()[-1]
        == "bootstrap: tickmark is .venv/bin/tickmark (or first: source .venv/bin/activate)"
    )


def test_setup_test_installs_what_the_tests_need_and_runs_nothing(boot):
    rc, err, calls = boot("setup", "test")
    assert rc == 0, err
    assert installs(calls) == ["python -m pip install -e .[test]"]
    assert not any("pytest" in c for c in calls)
    rc, err, _ = boot("setup", "tset")
    assert rc == 2 and "setup takes no argument but 'test'" in err


def test_a_failing_pip_shows_its_end_and_stamps_nothing(boot):
    rc, err, calls = boot("run", PIP_FAILS="1")
    assert rc == 1
    assert "ERROR: no matching distribution for click" in err
    assert "bootstrap: pip failed" in err
    assert not boot.stamp.exists()
    assert not any(c.startswith("tickmark") for c in calls)


def test_a_stamp_of_another_pyproject_installs_again(boot):
    assert boot("setup", "test")[0] == 0
    boot.stamp.write_text("0" * 64 + " test\n")
    rc, err, calls = boot("run")
    assert installs(calls) == ["python -m pip install -e ."]
    assert os.path.exists(boot.stamp) and boot.stamp.read_text().split()[1] == "runtime"
