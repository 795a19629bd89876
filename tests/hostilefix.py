"""What the hostile tests of several components share: the one-error-line and store-readable
checks, the canary, the real core with no build options, an exported run, helpers."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import copy_store, run_tmp, synthetic_store

HAVE_CC = bool(shutil.which("make") and shutil.which("gcc"))


needs_cc = pytest.mark.skipif(
    not HAVE_CC and not os.environ.get("CI"), reason="no C compiler/make (bootstrap installs gcc and make)"
)


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


@pytest.fixture
def real(tmp_path, monkeypatch, tmp_path_factory):
    """The real core, a private store, a build cache whose path has a space and metacharacters
    (one for the whole run: pytest-xdist workers share its builds, as they share build_cache's)."""
    cache = run_tmp(tmp_path_factory) / "cache with space $(touch PWNED) `touch PWNED`"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    monkeypatch.delenv("TICKMARK_CORE", raising=False)
    monkeypatch.chdir(tmp_path)
    return cache


def _store():
    from tickmark.store import Store

    return Store(os.environ["TICKMARK_STORE"])


@pytest.fixture(scope="module")
def base_store(tmp_path_factory):
    """A run 'base' of the synthetic core and its export, made once for the module."""
    folder = tmp_path_factory.mktemp("base")
    doc = folder / "base.json"
    return synthetic_store(folder, (*RUN, "sys.fast", "ipc.ping", "--name", "base"), ("export", "base", "-o", str(doc)))


@pytest.fixture
def exported(env, base_store):
    """env's store holding run 'base' (a copy of the module's) -> its exported document."""
    copy_store(base_store, env)
    return json.loads((base_store.parent / "base.json").read_text())


def _set(path, value):
    def mutate(d):
        *head, last = path
        for p in head:
            d = d[p]
        d[last] = value

    return mutate


def _profile(symbols):
    return {
        "key": "sys.fast",
        "tool": "perf",
        "event": "task-clock",
        "unit": "ms",
        "hits": 10,
        "seconds": 1.0,
        "ns_per_op": None,
        "routines": [{"name": "memmove", "group": "libc", "self": 0.5, "total": 0.5, "symbols": symbols}],
    }


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def _wait_for(cond, timeout=60):
    t = time.time()
    while time.time() - t < timeout:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


HOSTILE_VALUES = [2**70, -(2**70), 2**63, -1, 1.5, 1e300, "x", "", None, True, [], {}, [[1, "a"]], "\x1b[2J"]


def _tmpfs_script(script, args, argv):
    """sh -c script args... tickmark argv... as root of a private mount namespace (where the
    script mounts its tmpfs; exit status 99: it could not) -> CompletedProcess."""
    py = [sys.executable, "-m", "tickmark.cli", *argv]
    envv = dict(os.environ, PYTHONPATH=str(Path(__file__).parent.parent / "src"))
    r = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, *args, *py], capture_output=True, text=True, env=envv, timeout=180
    )
    if r.returncode == 99:
        pytest.skip(f"cannot mount a tmpfs in a private namespace: {r.stderr.strip()}")
    return r
