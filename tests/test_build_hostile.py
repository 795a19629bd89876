"""Hostile input to the core's build: every string reaches the compiler as an argument, and a
compiler that hangs is stopped with its children; signals clean up."""

import os
import time
from pathlib import Path

import pytest

from hostilefix import CANARY, RUN, _store, needs_cc, no_canary, one_error_line, real, store_readable  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


BAD_BUILD = [
    ("--cflags", f"-O2 $(shell touch {CANARY})"),
    ("--cflags", f"-O2; touch {CANARY}; true"),
    ("--cflags", f"-O2 `touch {CANARY}`"),
    ("--cflags", f"-O2 $(touch {CANARY})"),
    ("--cflags", f"-O2 && touch {CANARY}"),
    ("--cflags", "-O2 'unbalanced"),
    ("--cc", f"gcc $(shell touch {CANARY})"),
    ("--cc", f"gcc; touch {CANARY}"),
    ("--cc", f"gcc `touch {CANARY}`"),
    ("--cc", f"touch {CANARY}"),
]


@needs_cc
@pytest.mark.parametrize("opt,value", BAD_BUILD)
def test_build_strings_never_reach_a_shell(real, cli, tmp_path, opt, value):
    rc, out, err = cli(*RUN, "sys.getppid", opt, value)
    one_error_line(rc, err)
    no_canary(tmp_path, real, Path(__file__).parent.parent / "src")
    store_readable(cli)


@needs_cc
def test_memfn_and_cache_paths_with_spaces_and_metacharacters(real, cli, tmp_path):
    good = Path(__file__).parent / "data" / "memfn_good_memcpy.c"
    odd = tmp_path / f"good space $(touch {CANARY}); `touch {CANARY}`.c"
    odd.write_bytes(good.read_bytes())
    rc, out, err = cli(
        *RUN,
        "memfn.memcpy",
        "--param",
        "size=64",
        "--param",
        "impl=3",
        "--memfn",
        str(odd),
        "--name",
        f"n $(touch {CANARY}) `touch {CANARY}`;x",
    )
    assert rc == 0, err
    assert "FAILED" not in out and "memfn.memcpy" in out
    no_canary(tmp_path, real)
    rc, out, err = cli("runs")
    assert f"n $(touch {CANARY}) `touch {CANARY}`;x" in out
    store_readable(cli, "latest")


def test_name_is_data_only(env, cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = f"$(touch {CANARY});`touch {CANARY}`|touch {CANARY}"
    rc, out, err = cli(*RUN, "sys.fast", "--name", name)
    assert rc == 0, err
    rc, out, err = cli("show", name)
    assert rc == 0 and name in out
    no_canary(tmp_path)


def _script(path, body):
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def _processes_with(word):
    """PIDs of the processes whose command line holds word."""
    out = []
    for d in Path("/proc").iterdir():
        try:
            if d.name.isdigit() and word in (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                out.append(int(d.name))
        except OSError:
            pass
    return out


HANGING_CC = [
    ("--version", "sleep 987651 & wait\n", "ASK_TIMEOUT", "did not finish within 2 s and was stopped"),
    (
        "compiling",
        'case "$1" in --version|-dumpmachine) exec gcc "$@";; esac\nsleep 987652 & wait\n',
        "COMPILE_TIMEOUT",
        "building tickmark-core failed (compiler exit 124",
    ),
]


@needs_cc
@pytest.mark.parametrize("when,body,limit,says", HANGING_CC, ids=[c[0] for c in HANGING_CC])
def test_a_compiler_that_hangs_is_stopped_with_its_children(real, cli, tmp_path, monkeypatch, when, body, limit, says):
    from tickmark.targets import build

    monkeypatch.setattr(build, limit, 2)
    cc = _script(tmp_path / "hang-cc", body)
    marker = body.split("sleep ")[1].split()[0]
    t0 = time.monotonic()
    rc, out, err = cli(*RUN, "sys.getppid", "--cc", str(cc))
    one_error_line(rc, err, says)
    assert time.monotonic() - t0 < 60
    assert "was stopped" in err
    time.sleep(0.2)
    assert not _processes_with(f"sleep {marker}"), "the compiler's child is still running"
    # (this process's own: under pytest-xdist other workers build in the same cache meanwhile)
    left = list((real / "tickmark" / "build").glob(f"*.tmp{os.getpid()}-*"))
    assert not left, "an unfinished build folder is left"
    store_readable(cli)


@needs_cc
def test_a_relative_cc_is_found_from_the_current_folder(real, cli, tmp_path):
    _script(tmp_path / "mycc", 'exec gcc "$@"\n')
    rc, out, err = cli(*RUN, "sys.getppid", "--cc", "./mycc")
    assert rc == 0, err
    run = _store().run("latest")
    assert run["fingerprint"]["cc"] == str(tmp_path / "mycc")
    store_readable(cli, "latest")
