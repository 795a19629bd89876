"""Hostile input, one table per kind: each case gives the correct behaviour or exactly one line
`tickmark: error: ...` with exit status 2, and the store stays readable by runs, show and compare.

Sections: commands through the build (canary, real compiler), bad record streams (synthetic core),
import documents, interruptions, gates and limits, read-only stores and terminal escapes.
"""

import shutil
from pathlib import Path

import pytest

HAVE_CC = bool(shutil.which("make") and shutil.which("gcc"))
needs_cc = pytest.mark.skipif(not HAVE_CC, reason="no C compiler/make (bootstrap installs gcc and make)")
RUN = ("run", "-q", "--rounds", "1", "--samples", "2")
CANARY = "PWNED"


def one_error_line(rc, err, *words):
    """Exit 2 and a first line `tickmark: error: ...` naming the given words; no traceback."""
    assert rc == 2, err
    first = err.splitlines()[0]
    assert first.startswith("tickmark: error: "), err
    assert "Traceback" not in err
    for w in words:
        assert w in first, (w, first)


def store_readable(cli, *refs):
    """runs, show and compare still work on the store."""
    rc, out, err = cli("runs")
    assert rc == 0, err
    for r in refs:
        rc, out, err = cli("show", str(r))
        assert rc == 0, err
    if len(refs) >= 2:
        rc, out, err = cli("compare", str(refs[0]), str(refs[1]))
        assert rc == 0, err


def no_canary(*dirs):
    found = [p for d in dirs for p in Path(d).rglob(f"*{CANARY}*") if p.name == CANARY]
    assert not found, f"a command ran: {found}"


# ---- 1. commands through the build: every string reaches the compiler as an argument ----


@pytest.fixture
def real(tmp_path, monkeypatch, tmp_path_factory):
    """The real core, a private store, a build cache whose path has a space and metacharacters."""
    cache = tmp_path_factory.getbasetemp() / "cache with space $(touch PWNED) `touch PWNED`"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    monkeypatch.delenv("TICKMARK_CORE", raising=False)
    monkeypatch.chdir(tmp_path)
    return cache


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
