"""Hostile input, one table per kind: each case gives the correct behaviour or exactly one line
`tickmark: error: ...` with exit status 2, and the store stays readable by runs, show and compare.

Sections: commands through the build (canary, real compiler), bad record streams (synthetic core),
import documents, interruptions, gates and limits, read-only stores and terminal escapes.
"""

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import copy_store, need_tool, row_counts, run_tmp, synthetic_store, tickmark_proc, wait_results

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile

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


# ---- 1. commands through the build: every string reaches the compiler as an argument ----


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


# ---- 2. bad record streams: one bad record loses nothing else ----


def _store():
    from tickmark.store import Store

    return Store(os.environ["TICKMARK_STORE"])


def _samples_of(key, ref="latest"):
    st = _store()
    run = st.run(ref)
    rid = st.result_id(run["id"], key)
    return run, (st.samples(rid) if rid is not None else [])


STREAMS = [
    # (FAKECORE_MODE bad=..., samples of sys.fast kept out of 3, words in the reported problem)
    ("bigns", 2, "'ns' is out of range"),
    ("strns", 2, "'ns' is not a non-negative integer"),
    ("nons", 2, "missing 'ns'"),
    ("negns", 2, "'ns' is out of range"),
    ("floatns", 2, "'ns' is not a non-negative integer"),
    ("dup", 3, "(duplicate)"),
    ("endfirst", 0, "after its end"),
    ("twoperline", 3, None),
]


@pytest.mark.parametrize("bad,kept,says", STREAMS)
def test_bad_records_are_reported_and_the_rest_kept(env, cli, monkeypatch, bad, kept, says):
    monkeypatch.setenv("FAKECORE_MODE", f"bad={bad}")
    rc, out, err = cli("run", "-q", "--rounds", "1", "--samples", "3", "sys.fast", "sync.lockpair")
    assert rc == 0, err
    run, samples = _samples_of("sys.fast")
    assert run["status"] == "complete"
    assert len(samples) == kept
    assert sorted(s["i"] for s in samples) == sorted({s["i"] for s in samples})  # no index twice
    _, others = _samples_of("sync.lockpair")
    assert len(others) == 3  # the other instance is untouched
    if says:
        assert run["notes"]["malformed"] >= 1
        assert any(says in p and "line " in p for p in run["notes"]["problems"]), run["notes"]["problems"]
        assert says in out  # show lists it under the run
    else:
        assert run["notes"]["malformed"] == 0
    store_readable(cli, "latest")


def test_param_value_twice_is_refused(env, cli):
    rc, out, err = cli(*RUN, "lat.sweep", "--param", "size=1024,1K")
    one_error_line(rc, err, "--param size", "same as 1024")


# ---- 3. import: the whole document is checked before anything is written ----


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


def _first_sample(field, value):
    def mutate(d):
        r = next(r for r in d["results"] if r["samples"])
        r["samples"][0][field] = value

    return mutate


def _hist(d):
    next(r for r in d["results"] if r["hist"])["hist"][0]["buckets"][0][0] = "4096"


IMPORTS = [
    ("started 1e300", _set(["run", "started"], 1e300), "run.started"),
    ("NaN", _first_sample("ns", float("nan")), "NaN is not a number"),
    ("Infinity", _first_sample("ns", float("inf")), "Infinity is not a number"),
    ("negative ns", _first_sample("ns", -5), "samples[0].ns"),
    ("2^70 ns", _first_sample("ns", 2**70), "samples[0].ns"),
    ("string ns", _first_sample("ns", "abc"), "samples[0].ns"),
    ("round -1", _first_sample("round", -1), "samples[0].round"),
    ("string buckets", _hist, "buckets[0][0]"),
    ("name 1", _set(["run", "name"], "1"), "bad run name '1'"),
    ("name latest", _set(["run", "name"], "latest"), "bad run name 'latest'"),
    ("name empty", _set(["run", "name"], ""), "bad run name: empty"),
    ("name ESC", _set(["run", "name"], "a\x1b[2Jb"), "control characters"),
    ("name newline", _set(["run", "name"], "a\nb"), "control characters"),
    ("key ESC", lambda d: d["results"][0].update(key="k\x1b[31m"), "results[0].key"),
    ("status", _set(["run", "status"], "great"), "run.status"),
    ("caches text", _set(["run", "fingerprint", "caches"], "x"), "run.fingerprint.caches"),
    ("caches of numbers", _set(["run", "fingerprint", "caches"], [1, 2]), "run.fingerprint.caches[0]"),
    ("kernel number", _set(["run", "fingerprint", "kernel"], 5), "run.fingerprint.kernel"),
    ("symbols of objects", lambda d: d.update(profiles=[_profile([{}])]), "profiles[0].routines[0].symbols[0]"),
    ("lone surrogate", lambda d: d["results"][0].update(reason="a\ud800b"), "results[0].reason: a NUL character or"),
    ("surrogate name", _set(["run", "name"], "a\udfffb"), "run.name: a NUL character or a lone surrogate"),
    ("NUL", lambda d: d["results"][0].update(reason="a\x00b"), "results[0].reason: a NUL character"),
    ("NUL in a key", _set(["run", "options", "a\x00"], 1), "run.options: a NUL character or a lone surrogate in a key"),
]


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


@pytest.mark.parametrize("label,mutate,says", IMPORTS, ids=[c[0] for c in IMPORTS])
def test_bad_import_is_refused_whole(exported, env, cli, tmp_path, label, mutate, says):
    mutate(exported)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(exported))  # NaN and Infinity are written as such by json.dumps
    before = row_counts(env)
    rc, out, err = cli("import", str(f))
    one_error_line(rc, err, says)
    assert err.count("\n") == 1 and "\x1b" not in err
    assert row_counts(env) == before
    rc, out, err = cli("compare", "base", str(f))  # a file on the command line is checked the same way
    one_error_line(rc, err, says)
    store_readable(cli, "base")


@pytest.mark.parametrize("text,says", [("[" * 200000, "not a results document"), ('{"a":' * 200000, "not a")])
def test_deeply_nested_document(env, cli, tmp_path, text, says):
    f = tmp_path / "deep.json"
    f.write_text(text)
    rc, out, err = cli("import", str(f))
    one_error_line(rc, err, says)


def test_imported_statistics_are_recomputed(exported, env, cli, tmp_path):
    r = next(r for r in exported["results"] if r["key"] == "sys.fast")
    r["stats"][""]["value"] = "fast"
    r["stats"][""]["median"] = 1e300
    exported["run"]["name"] = "copy"
    f = tmp_path / "doc.json"
    f.write_text(json.dumps(exported))
    rc, out, err = cli("import", str(f))
    assert rc == 0, err
    st = _store()
    copy, base = st.run("copy"), st.run("base")
    a = {x["key"]: x["stats"] for x in st.results(base["id"])}
    b = {x["key"]: x["stats"] for x in st.results(copy["id"])}
    assert b["sys.fast"][""]["median"] == a["sys.fast"][""]["median"] < 1e6
    store_readable(cli, "base", "copy")


def test_a_run_name_never_hides_a_run_id(exported, env, cli):
    st = _store()
    legacy = st.create_run(name="1", patterns=["x"], status="complete")  # an older store could hold one
    assert legacy != 1
    rc, out, err = cli("show", "1")
    assert rc == 0 and "run 1 'base'" in out, out


# ---- 4. interruptions ----


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


def test_kill_9_of_the_core_makes_the_run_incomplete(env, cli, tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    p = tickmark_proc(
        RUN + ("sys.fast", "ipc.ping", "--seed", "1"), env={"FAKECORE_MODE": "slowkey=ipc.ping", "TMPDIR": str(scratch)}
    )
    try:
        wait_results(env)
        core = _wait_for(lambda: _children(p.pid))[0]
        _wait_for(lambda: list(scratch.glob(f"tickmark-{core}")))
        os.kill(core, signal.SIGKILL)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 1, err
    assert "incomplete: round 1: tickmark-core was killed by signal 9" in err
    assert "INCOMPLETE" in out
    assert not list(scratch.iterdir()), "scratch folder left behind"
    rc, out, _ = cli("runs")
    assert "incomplete" in out
    store_readable(cli, "latest")


def test_sighup_makes_the_run_incomplete(env, cli):
    p = tickmark_proc(RUN + ("sys.fast", "ipc.ping", "--seed", "1"), env={"FAKECORE_MODE": "slowkey=ipc.ping"})
    try:
        wait_results(env)
        time.sleep(0.3)
        p.send_signal(signal.SIGHUP)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    assert _store().run("latest")["status"] == "incomplete"
    assert "interrupted by SIGHUP" in out
    store_readable(cli, "latest")


def test_a_core_that_stops_writing_is_stopped_by_the_watchdog(env, cli, monkeypatch):
    t = time.monotonic()
    monkeypatch.setenv("FAKECORE_MODE", "bad=stall")
    monkeypatch.setenv("TICKMARK_WATCHDOG", "2")  # 2 s of silence, not the default 2 x 1 + 10 s
    rc, out, err = cli(*RUN, "sys.fast", "--timeout", "1")
    assert rc == 1, err
    assert time.monotonic() - t < 60
    assert "wrote nothing for 2 s and was stopped (watchdog)" in err
    assert _store().run("latest")["status"] == "incomplete"


def test_the_watchdogs_limit(env, cli, monkeypatch):
    """Twice the per-instance time limit plus 10 s, or TICKMARK_WATCHDOG; a bad value is refused
    before anything is stored."""
    from tickmark.run.engine import Run, RunConfig

    assert Run(None, None, RunConfig(patterns=["sys.fast"], timeout=1)).silence_limit() == 12
    assert Run(None, None, RunConfig(patterns=["sys.fast"])).silence_limit() == 130
    monkeypatch.setenv("TICKMARK_WATCHDOG", "45")
    assert Run(None, None, RunConfig(patterns=["sys.fast"], timeout=1)).silence_limit() == 45
    for bad in ("0", "soon", "1.5", "86401"):
        monkeypatch.setenv("TICKMARK_WATCHDOG", bad)
        rc, out, err = cli(*RUN, "sys.fast")
        one_error_line(rc, err, f"bad TICKMARK_WATCHDOG '{bad}'")
    rc, out, err = cli("runs")
    assert rc == 0 and "no runs stored yet" in out


@needs_cc
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_during_the_build_leaves_no_debris(tmp_path, monkeypatch, sig):
    cache = tmp_path / "cache"
    monkeypatch.delenv("TICKMARK_CORE", raising=False)
    p = tickmark_proc(
        ["--store", str(tmp_path / "s.db"), *RUN, "sys.getppid", "--cflags", "-O0"],
        env={"XDG_CACHE_HOME": str(cache), "TICKMARK_CORE": ""},
    )
    try:
        _wait_for(lambda: list((cache / "tickmark" / "build").glob("*.tmp*")) if (cache / "tickmark").exists() else 0)
        p.send_signal(getattr(signal, sig))
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    assert "interrupted while building tickmark-core; its unfinished build folder was removed" in err
    assert "Traceback" not in err
    assert not list((cache / "tickmark" / "build").iterdir())


# ---- 5. gates and limits ----


@pytest.fixture(scope="module")
def two_runs_store(tmp_path_factory):
    """Runs a and b of sys.fast and a run of lat.sweep, made once for the module -> its store."""
    ab = [("run", "-q", "--rounds", "3", "--samples", "3", "sys.fast", "--name", n) for n in ("a", "b")]
    return synthetic_store(tmp_path_factory.mktemp("two_runs"), *ab, (*RUN, "lat.sweep", "--name", "other"))


@pytest.fixture
def two_runs(env, two_runs_store):
    """env's store holding them (a copy of the module's)."""
    copy_store(two_runs_store, env)
    return env


GATES = [
    (["compare", "a", "b", "--fail-above", "5"], 0, "no regression above 5%"),
    (["compare", "a", "b", "--fail-above", "5%"], 0, "no regression above 5%"),
    (["compare", "a", "b", "--fail-above", "1e3"], 0, "no regression above 1000%"),
    (["compare", "a", "b", "--fail-above", "nan"], 2, "bad --fail-above 'nan'"),
    (["compare", "a", "b", "--fail-above", "inf%"], 2, "bad --fail-above 'inf%'"),
    (["compare", "a", "b", "--fail-above", "-5%"], 2, "bad --fail-above '-5%'"),
    (["compare", "a", "other"], 2, "no benchmark in common"),
    (["compare", "a", "b", "--fail-above", "5", "--baseline", "other"], 2, "no benchmark in common"),
    (["run", "lat.sweep", "--param", "size=99999999999G"], 2, "too large"),
    (["run", "lat.sweep", "--param", "size=" + ",".join(map(str, range(65)))], 2, "at most 64 per parameter"),
    (["run", "lat.sweep", "--param", "size=" + ",".join(map(str, range(10000)))], 2, "at most 64 per parameter"),
    (["run", "lat.sweep", "--param", "size=" + "9" * 10000], 2, "too large"),
    (["run", "lat.sweep", "--param", "size=1", "--param", "size=2"], 2, "given twice"),
    (["run", "sys.fast", "--samples", "1001"], 2, "1<=x<=1000"),
    (["run", "sys.fast", "--sample-ms", "10001"], 2, "1<=x<=10000"),
]


@pytest.mark.parametrize("args,rc,says", GATES, ids=[" ".join(a)[:60] for a, _, _ in GATES])
def test_gates_and_limits(two_runs, cli, args, rc, says):
    got, out, err = cli(*args)
    assert got == rc, err
    if rc == 2:
        one_error_line(got, err, says)
        assert len(err) < 300, "error line too long"
    else:
        assert says in err
    store_readable(cli, "a", "b")


def test_samples_help_states_the_cores_limit(env, cli):
    rc, out, err = cli("run", "--help")
    assert "Samples per round (1-1000)" in out


def test_compare_warns_about_running_and_incomplete_runs(two_runs, cli):
    st = _store()
    st.update_run(st.run("b")["id"], status="running")
    rc, out, err = cli("compare", "a", "b")
    assert rc == 0 and "tickmark: warning: b (fakecc -O2) is running (still being written)" in err
    st.update_run(st.run("b")["id"], status="incomplete")
    rc, out, err = cli("compare", "a", "b")
    assert rc == 0 and "tickmark: warning: b (fakecc -O2) is incomplete" in err


def test_instance_key_pattern_selects_one_point(env, cli):
    rc, out, err = cli(*RUN, "lat.sweep[size=1024]")
    assert rc == 0, err
    assert [r["key"] for r in _store().results(_store().run("latest")["id"])] == ["lat.sweep[size=1024]"]


def test_a_pattern_means_the_same_to_run_compare_and_history(env, cli):
    """A bracketed pattern is literal everywhere and takes `list`'s suffixes: run took
    'lat.sweep[size=1K]' for nothing and compare and history read '[...]' as a character class
    (so the key that run had just stored was 'no benchmark' to them)."""
    for name in ("a", "b"):
        rc, out, err = cli(*RUN, "--name", name, "lat.sweep[size=1K]", "lat.sweep[size=65536]")
        assert rc == 0, err
    keys = sorted(r["key"] for r in _store().results(_store().run("latest")["id"]))
    assert keys == ["lat.sweep[size=1024]", "lat.sweep[size=65536]"]
    for pattern in ("lat.sweep[size=1K]", "lat.sweep[size=1024]"):
        rc, out, err = cli("compare", "a", "b", pattern)
        assert rc == 0 and "lat.sweep[size=1024]" in out and "size=65536" not in out, err
        rc, out, err = cli("history", pattern, "--format", "json")
        assert rc == 0, err
        assert [s["key"] for s in json.loads(out)["series"]] == ["lat.sweep[size=1024]"]
    rc, out, err = cli("compare", "a", "b", "lat.sweep[size=2K]")
    assert rc == 2 and "no benchmark of the compared runs matches 'lat.sweep[size=2K]'" in err, err


# ---- 6. read-only stores and terminal escapes ----


def _read_only_argv(folder, argv):
    """argv that runs with `folder` read-only: a read-only bind mount in a private namespace for
    root (who may write anywhere), file modes for anyone else."""
    if os.geteuid() != 0:
        for p in folder.iterdir():
            p.chmod(0o444)
        folder.chmod(0o555)
        return argv
    if not shutil.which("unshare"):
        need_tool("unshare (util-linux) not found")
    script = 'mount --bind -o ro "$0" "$0" && exec "$@"'
    return ["unshare", "-rm", "sh", "-c", script, str(folder), *argv]


def test_read_only_store_is_readable_and_says_why_it_cannot_be_written(env, cli, tmp_path):
    rc, out, err = cli(*RUN, "sys.fast", "ipc.ping", "--name", "x")
    assert rc == 0, err
    ro = tmp_path / "ro"
    ro.mkdir()
    import sqlite3

    db = sqlite3.connect(str(env))  # as a store is when its last user closed it: WAL folded in
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    shutil.copy(env, ro / "results.db")
    db = str(ro / "results.db")
    py = [sys.executable, "-m", "tickmark.cli", "--store", db]
    envv = dict(os.environ, PYTHONPATH=str(Path(__file__).parent.parent / "src"))
    try:
        for args in (["runs"], ["show", "x"], ["export", "x"], ["compare", "x", "x"]):
            r = subprocess.run(_read_only_argv(ro, py + args), capture_output=True, text=True, env=envv)
            assert r.returncode == 0, (args, r.stderr)
        r = subprocess.run(_read_only_argv(ro, py + list(RUN) + ["sys.fast"]), capture_output=True, text=True, env=envv)
        one_error_line(r.returncode, r.stderr, "is read-only", "cannot write here")
        (tmp_path / "bad.db").write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)
        rc, out, err = cli("--store", str(tmp_path / "bad.db"), "runs")
        one_error_line(rc, err, "unreadable or corrupt")
    finally:
        if os.geteuid() != 0:
            ro.chmod(0o755)


def test_names_with_control_characters(env, cli):
    for name in ("a\x1b[2Jb", "two\nlines", "bell\x07"):
        rc, out, err = cli(*RUN, "sys.fast", "--name", name)
        one_error_line(rc, err, "control characters")
        assert "\x1b" not in err and "\x07" not in err and err.count("\n") == 1
    st = _store()
    st.create_run(name="old\x1b[31mred", patterns=["p\x1b[2J"], status="complete")  # an older store
    for args in (["runs"], ["show", "old\x1b[31mred"]):
        rc, out, err = cli(*args)
        assert rc == 0, err
        assert "\x1b" not in out and "old\\x1b[31mred" in out


# ---- fuzz: mutated TM1 lines and export documents ----

HOSTILE_VALUES = [2**70, -(2**70), 2**63, -1, 1.5, 1e300, "x", "", None, True, [], {}, [[1, "a"]], "\x1b[2J"]


def _stream_lines(n_inst=20, samples=5):
    lines = ['TM1 {"t":"hello","v":1,"core":"0.1.0","target":"x86_64-linux-gnu"}']
    for k in range(n_inst):
        key = f"b.k[size={k}]"
        lines.append(json.dumps({"t": "meta", "bench": "b.k", "key": key, "params": {"size": k}, "iters": 10}))
        for i in range(samples):
            lines.append(
                json.dumps(
                    {"t": "sample", "key": key, "i": i, "iters": 10, "ops": 10, "ns": 100 + i, "ctr": {"task_clock": 5}}
                )
            )
        lines.append(json.dumps({"t": "end", "key": key, "status": "ok", "reason": "", "wall_ns": 1}))
    lines.append(json.dumps({"t": "bye", "instances": n_inst}))
    return [ln if ln.startswith("TM1 ") else "TM1 " + ln for ln in lines]


def _mutate_line(rng, line):
    how = rng.randrange(8)
    if how == 0:  # cut it short
        return line[: rng.randrange(len(line))]
    if how == 1:  # flip a character
        i = rng.randrange(len(line))
        return line[:i] + chr(rng.randrange(1, 0x250)) + line[i + 1 :]
    if how == 2:  # noise around it, or a second marker
        return rng.choice(["junk ", "\x00\x1b[2J", "TM1 {", "TM1 TM1 "]) + line + rng.choice(["", " TM1 {", "\r"])
    rec = json.loads(line[4:])
    field = rng.choice(sorted(rec))
    if how in (3, 4):  # a hostile value
        rec[field] = rng.choice(HOSTILE_VALUES)
    elif how == 5:
        del rec[field]
    elif how == 6:
        rec["t"] = rng.choice(["sample", "meta", "end", "hist", "bye", "hello", "nope", 5])
    else:
        return "TM1 " + "[" * rng.randrange(1, 5000) + line[4:]
    return "TM1 " + json.dumps(rec)


def test_fuzz_tm1_lines_no_crash_and_valid_records_kept():
    import random

    from tickmark.tm1 import Reader, validate

    rng = random.Random(20261123)
    mutated = 0
    base = _stream_lines()
    while mutated < 10000:
        lines = list(base)
        sample_rows = [i for i, ln in enumerate(lines) if '"t": "sample"' in ln]
        hit = set(rng.sample(sample_rows, 25))
        for i in hit:
            lines[i] = _mutate_line(rng, lines[i])
        mutated += len(hit)
        r = Reader()
        recs = [rec for ln in lines for rec in r.feed_line(ln)]
        assert all(validate(x) is None for x in recs)
        kept = {(x["key"], x["i"]) for x in recs if x["t"] == "sample"}
        intact = {(json.loads(lines[i][4:])["key"], json.loads(lines[i][4:])["i"]) for i in sample_rows if i not in hit}
        assert intact <= kept, "a valid record was lost"
        assert sum(x["t"] == "end" for x in recs) == 20 and recs[-1]["t"] == "bye"
        assert all(n <= len(lines) for n, _ in r.problems)
    # and wholly random damage anywhere in the stream: never an exception
    for _ in range(20):
        r = Reader()
        for ln in base:
            r.feed_line(_mutate_line(rng, ln) if rng.random() < 0.5 else ln)
        r.close()


def _mutate_doc(rng, doc):
    """A random leaf or container of the document replaced by a hostile value."""
    import copy

    path, node = [], doc
    while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
        k = rng.choice(sorted(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(k)
        node = node[k]
    if not path:
        return
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    choice = rng.randrange(4)
    if choice == 0 and isinstance(parent, dict):
        del parent[path[-1]]
    elif choice == 1:
        parent[path[-1]] = json.loads("[" * 50 + "]" * 50)
    else:
        parent[path[-1]] = copy.deepcopy(rng.choice(HOSTILE_VALUES))


def test_fuzz_export_documents(exported, env, cli, tmp_path):
    import copy
    import io
    import random

    from tickmark.errors import TickmarkError
    from tickmark.report import terminal as report
    from tickmark.run.engine import import_document
    from tickmark.store import document as export

    rng = random.Random(7)
    st = _store()
    accepted = 0
    for n in range(1000):
        doc = copy.deepcopy(exported)
        for _ in range(rng.randrange(1, 4)):
            _mutate_doc(rng, doc)
        text = json.dumps(doc) if rng.random() < 0.9 else json.dumps(doc)[: rng.randrange(10, 2000)]
        try:
            good = export.parse_document(text)
        except TickmarkError as e:
            assert "\n" not in str(e) and len(str(e)) < 400
            continue
        accepted += 1
        if accepted <= 40:  # what is accepted imports, and the store stays readable
            if good["run"]["name"] is not None:
                good["run"]["name"] = f"fuzz-{n}"
            rid = import_document(st, good)
            report.show(st, st.run(rid), file=io.StringIO())
    assert accepted > 20  # mutations that keep a document valid (a reason, a note) are imported
    store_readable(cli, "base", "latest")


# ---- 7. the core's own error record, and the full benchmark list on the real core ----


def test_the_cores_error_record_is_named_first(env, cli, monkeypatch):
    monkeypatch.setenv("FAKECORE_MODE", "error")
    rc, out, err = cli(*RUN, "sys.fast")
    assert rc == 1, err
    assert "incomplete: round 1: tickmark-core reported an error: record too long" in err
    problems = _store().run("latest")["notes"]["problems"]
    assert problems[0] == "round 1: tickmark-core reported an error: record too long", problems


@needs_cc
def test_every_benchmark_runs_and_is_stored(real, cli):
    """'*': the core's hello lists every instance (a long record) and every instance is stored."""
    rc, out, err = cli("run", "-q", "--rounds", "1", "--samples", "1", "--sample-ms", "1", "--timeout", "20", "*")
    assert rc == 0, err
    st = _store()
    run = st.run("latest")
    keys = {r["key"] for r in st.results(run["id"])}
    assert run["status"] == "complete", run["notes"].get("incomplete")
    assert len(run["hello"]["order"]) == len(keys) > 300
    assert run["notes"]["malformed"] == 0 and not run["notes"]["problems"], run["notes"]["problems"][:3]


# ---- 8. statistics of many samples ----


def _exact_median_ci_k(n, level=0.95):
    """The reference: the first k (walking up) whose exact coverage falls below the level."""
    import math

    best = 1
    for k in range(1, n // 2 + 1):
        if 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2**n >= level:
            best = k
        else:
            break
    return best


@pytest.mark.parametrize("n", [1, 2, 5, 6, 9, 15, 16, 50, 71, 100, 257, 400])
def test_median_ci_is_the_exact_order_statistic_interval(n):
    from tickmark.analysis import stats

    k = _exact_median_ci_k(n)
    lo, hi, cover = stats.median_ci(list(range(n)))
    assert (lo, hi) == (k - 1, n - k)
    assert cover == pytest.approx(1 - 2 * sum(__import__("math").comb(n, i) for i in range(k)) / 2**n, rel=1e-9)


@pytest.mark.parametrize("n", [10_000, 100_000])
def test_statistics_of_many_samples_take_no_time(n):
    """One result of 10,000 samples (an import) took minutes when the interval was cubic."""
    import random

    from tickmark.analysis import stats

    rng = random.Random(n)
    samples = [
        {"round": 1 + i % 3, "i": i, "iters": 10, "ops": 100, "ns": 10_000 + rng.randrange(999)} for i in range(n)
    ]
    t = time.process_time()
    s = stats.compute(samples).main
    assert time.process_time() - t < 5
    assert s.ci95_lo <= s.median <= s.ci95_hi and s.ci95_level >= 0.95


# ---- 9. stores: names that keep nothing, damaged stores, trouble in the middle of a run ----

STORE_PATHS = [
    (":memory:", "would keep nothing"),
    ("/dev/null", "not a regular file"),
    ("/dev/full", "not a regular file"),
    ("/dev/zero", "not a regular file"),
    ("x" * 300 + ".db", "File name too long"),
]


@pytest.mark.parametrize("path,says", STORE_PATHS, ids=[p[:12] for p, _ in STORE_PATHS])
def test_store_names_that_keep_nothing_are_refused(env, cli, tmp_path, monkeypatch, path, says):
    monkeypatch.chdir(tmp_path)
    journal = [os.path.exists(f"{d}-journal") for d in ("/dev/null", "/dev/full", "/dev/zero")]
    for args in (RUN + ("sys.fast",), ("runs",), ("show",)):
        rc, out, err = cli("--store", path, *args)
        one_error_line(rc, err, says)
        assert "results" not in out
    assert not list(tmp_path.iterdir())
    assert [os.path.exists(f"{d}-journal") for d in ("/dev/null", "/dev/full", "/dev/zero")] == journal


CORRUPTIONS = [
    ("fingerprint not JSON", "UPDATE runs SET fingerprint = '{bad'"),
    ("fingerprint a list", "UPDATE runs SET fingerprint = '[1]'"),
    ("notes a number", "UPDATE runs SET notes = '7'"),
    ("params a string", "UPDATE results SET params = '\"x\"'"),
    ("name a blob", "UPDATE runs SET name = x'41ff00'"),
    ("started a word", "UPDATE runs SET started = 'yesterday'"),
    ("hello not UTF-8", "UPDATE runs SET hello = CAST(x'7b22ff227d' AS TEXT)"),
    ("key a blob", "UPDATE results SET key = x'00ff' WHERE key = 'sys.fast'"),
    ("sample extra a list", "UPDATE samples SET extra = '[]'"),
    ("sample ns a word", "UPDATE samples SET ns = 'abc'"),
    ("histogram not JSON", "UPDATE hists SET data = 'nope'"),
]


@pytest.mark.parametrize("label,sql", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_hand_edited_store_is_corrupt_not_a_traceback(env, cli, label, sql):
    import sqlite3

    rc, out, err = cli(*RUN, "sys.fast", "ipc.ping", "--name", "base")
    assert rc == 0, err
    db = sqlite3.connect(str(env))
    db.execute(sql)
    db.commit()
    db.close()
    said = []
    for args in (["runs"], ["show", "1"], ["export", "1"], ["compare", "1", "1"], ["report", "1", "--format", "md"]):
        rc, out, err = cli(*args)
        if rc != 0:
            one_error_line(rc, err, "is corrupt")
            said.append(err)
    assert said, "the damage went unnoticed"


def test_fuzz_damaged_store_files(env, cli, tmp_path):
    """Random bytes of the first pages overwritten: every command answers, or says the store is
    unreadable or corrupt in one line."""
    import random
    import sqlite3

    rc, out, err = cli(*RUN, "sys.fast", "ipc.ping", "lat.sweep", "--name", "base")
    assert rc == 0, err
    db = sqlite3.connect(str(env))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    good = env.read_bytes()
    rng = random.Random(19)
    damaged = tmp_path / "damaged.db"
    answered = 0
    for _ in range(150):
        data = bytearray(good)
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(min(len(data), 3 * 4096))] = rng.randrange(256)
        for f in (damaged, Path(f"{damaged}-wal"), Path(f"{damaged}-shm")):
            f.unlink(missing_ok=True)
        damaged.write_bytes(bytes(data))
        for args in (["runs"], ["show", "latest"], ["export", "latest"]):
            rc, out, err = cli("--store", str(damaged), *args)
            if rc:
                one_error_line(rc, err)
                assert "corrupt" in err or "no run" in err or "not a tickmark store" in err, err
            answered += rc == 0
    assert answered > 100  # most damage misses what these commands read


def _hold_store(path, seconds):
    """Another process holding the store's write lock for `seconds`."""
    code = (
        "import sqlite3, sys, time\n"
        "db = sqlite3.connect(sys.argv[1], timeout=60, isolation_level=None)\n"
        "db.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(float(sys.argv[2]))\n"
        "db.execute('ROLLBACK')\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code, str(path), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "held"
    return p


def _run_then(env, action, mode="slowkey=ipc.ping,slow=2", **kw):
    """A run of sys.fast then ipc.ping (which takes 2 s); action() once sys.fast is stored."""
    p = tickmark_proc(RUN + ("sys.fast", "ipc.ping", "--seed", "1"), env={"FAKECORE_MODE": mode}, **kw)
    try:
        wait_results(env)
        held = action()
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    return p.returncode, out, err, held


def test_store_busy_in_the_middle_of_a_run(env, cli, monkeypatch):
    # busy after 4 s instead of 30: ipc.ping's end (< 2 s after the lock is taken) waits 4 s for
    # the lock and fails; the run is then closed as incomplete once the lock is let go (8 s)
    monkeypatch.setenv("TICKMARK_BUSY_TIMEOUT", "4")
    rc, out, err, holder = _run_then(env, lambda: _hold_store(env, 8))
    holder.wait()
    one_error_line(rc, err, "is busy")
    run = _store().run("latest")
    assert run["status"] == "incomplete" and "busy" in run["notes"]["incomplete"]
    store_readable(cli, "latest")


def test_a_bad_busy_timeout_is_one_error_line(env, cli, monkeypatch):
    monkeypatch.setenv("TICKMARK_BUSY_TIMEOUT", "soon")
    rc, out, err = cli(*RUN, "sys.fast")
    one_error_line(rc, err, "bad TICKMARK_BUSY_TIMEOUT 'soon'")


def _on_a_small_disk(store, argv, tmp_path, free_kib=300):
    """argv with a copy of `store` on a 2 MiB tmpfs (a private mount) that has free_kib left;
    the copy comes back (with its log) when the command ends -> (CompletedProcess, its path)."""
    if not shutil.which("unshare"):
        need_tool("unshare (util-linux) not found")
    import sqlite3

    mnt, back = tmp_path / "small", tmp_path / "back"
    mnt.mkdir()
    back.mkdir()
    db = sqlite3.connect(str(store))  # the log folded in: the copy is the whole store
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    script = (
        'm="$0"; b="$2"; mount -t tmpfs -o size=2m tmpfs "$m" || exit 99; cp "$1" "$m/s.db"; shift 2; '
        f'head -c {2048 - free_kib}K /dev/zero > "$m/filler"; cd "$m"; '
        '"$@" --store "$m/s.db"; rc=$?; cp "$m"/s.db "$m"/s.db-wal "$b"/; exit $rc'
    )
    return _tmpfs_script(script, [str(mnt), str(store), str(back)], argv), back / "s.db"


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


def test_disk_full_in_the_middle_of_a_run(env, cli, tmp_path):
    rc, out, err = cli(*RUN, "sys.fast", "--name", "before")
    assert rc == 0, err
    argv = ["run", "-q", "--rounds", "3", "--samples", "200", "*", "--name", "big"]
    r, after = _on_a_small_disk(env, argv, tmp_path)
    one_error_line(r.returncode, r.stderr, "full")
    os.environ["TICKMARK_STORE"] = str(after)
    run = _store().run("big")
    assert run["status"] == "incomplete"  # closed, or read as abandoned: never 'running'
    rc, out, err = cli("show", "big")
    assert rc == 0 and ("full" in out or "abandoned" in out), out
    store_readable(cli, "before")


def test_disk_full_during_an_import_says_so(exported, env, cli, tmp_path):
    exported["run"]["name"] = "copy"
    r0 = exported["results"][0]
    r0["samples"] = [dict(r0["samples"][0], i=i, round=1 + i // 1000) for i in range(20000)]
    doc = tmp_path / "big.json"
    doc.write_text(json.dumps(exported))
    before = row_counts(env)
    r, after = _on_a_small_disk(env, ["import", str(doc)], tmp_path)
    one_error_line(r.returncode, r.stderr, "full")
    assert "cannot rollback" not in r.stderr
    assert row_counts(after) == before
    os.environ["TICKMARK_STORE"] = str(after)
    store_readable(cli, "base")


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_store_deleted_in_the_middle_of_a_run(env, cli, how):
    def damage():
        if how == "deleted":
            for f in (env, Path(f"{env}-wal"), Path(f"{env}-shm")):
                f.unlink(missing_ok=True)
        else:
            os.truncate(env, 0)

    rc, out, err, _ = _run_then(env, damage)
    one_error_line(rc, err, "deleted, replaced or emptied")


def test_a_run_whose_harness_was_killed_is_abandoned(env, cli):
    p = tickmark_proc(RUN + ("sys.fast", "ipc.ping", "--seed", "1"), env={"FAKECORE_MODE": "slowkey=ipc.ping"})
    try:
        wait_results(env)
        core = _wait_for(lambda: _children(p.pid))[0]
        p.kill()
        p.wait()
    finally:
        if p.poll() is None:
            p.kill()
        os.kill(core, signal.SIGKILL)
    rc, out, err = cli("runs")
    assert rc == 0 and "incomplete" in out and "running" not in out, out
    rc, out, err = cli("show", "latest")
    assert rc == 0 and f"abandoned: the tickmark process writing it (PID {p.pid} on" in out, out
    rc, out, err = cli("compare", "latest", "latest")
    assert rc == 0 and "is incomplete" in err


# ---- 10. the real core stopped from outside: no scratch folder is left ----


def _console_child():
    """In the child: a new session whose controlling terminal is its standard output (a console)."""
    import fcntl
    import termios

    fcntl.ioctl(1, termios.TIOCSCTTY, 0)


@needs_cc
@pytest.mark.parametrize("how", ["SIGHUP", "SIGTERM", "SIGINT", "reader gone", "console hangup"])
def test_the_core_removes_its_scratch_folder_when_stopped(core_binary, tmp_path, how):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    argv = [core_binary, "run", "sys.fstat", "sys.stat", "--sample-ms", "200", "--samples", "20"]
    envv = dict(os.environ, TMPDIR=str(scratch))
    if how == "console hangup":
        master, slave = os.openpty()
        p = subprocess.Popen(argv, stdout=slave, env=envv, start_new_session=True, preexec_fn=_console_child)
        os.close(slave)
    else:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, env=envv, start_new_session=True)
    try:
        _wait_for(lambda: list(scratch.iterdir()))  # an instance runs and uses its scratch folder
        if how == "console hangup":
            os.close(master)  # the console goes away: the kernel hangs up its session
        elif how == "reader gone":
            p.stdout.close()
        else:
            p.send_signal(getattr(signal, how))
        p.wait(timeout=15)  # it stops now, not after the 8 s its two instances would take
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert not list(scratch.iterdir()), f"left behind: {list(scratch.rglob('*'))}"


# ---- 11. numbers and target URIs: Unicode digits, huge numbers, ports, shell signs ----

NUMBERS = [
    (["show", "²"], "no run '²'"),
    (["show", "١"], "no run '١'"),
    (["show", "9" * 5000], "no run"),
    (["info", "--target", "serial:/dev/ttyS0?baud=²"], "baud must be one of"),
    (["info", "--target", "serial:/dev/ttyS0?baud=" + "9" * 5000], "baud must be one of"),
    (["info", "--target", "serial:/dev/ttyS0?silence=²"], "silence wants seconds"),
    (["info", "--target", "serial:/dev/ttyS0?silence=١٢"], "silence wants seconds"),
    (["info", "--target", "labgrid:p?wait=²"], "wait wants seconds"),
    (["info", "--target", "labgrid:p?boot-wait=" + "9" * 5000], "boot-wait wants seconds"),
    (["info", "--target", "ssh://root@h:0"], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root@h:²"], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root@h:" + "9" * 5000], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root@h:+22"], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root@[::1]:0"], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root:S3cret@h"], "a password cannot be part"),
    (["info", "--target", "serial:/dev/ttyS0?core=/usr/bin/tick mark"], "core must be a plain path"),
    (["info", "--target", "serial:/dev/ttyS0?core=/bin/x%20--help"], "core must be a plain path"),
    (["info", "--target", "serial:/dev/ttyS0?core=/bin/x%09y"], "core must be a plain path"),
]


@pytest.mark.parametrize("args,says", NUMBERS, ids=[" ".join(a)[:50] for a, _ in NUMBERS])
def test_unicode_digits_huge_numbers_and_odd_uris(env, cli, args, says):
    rc, out, err = cli(*args)
    one_error_line(rc, err, says)
    assert "S3cret" not in err and len(err) < 500


def test_unicode_digits_in_columns(env, cli, monkeypatch):
    rc, out, err = cli(*RUN, "sys.fast")
    assert rc == 0, err
    for cols in ("²", "١٢٠", "9" * 5000):
        monkeypatch.setenv("COLUMNS", cols)
        rc, out, err = cli("show")
        assert rc == 0 and "sys.fast" in out, err


def test_a_name_of_unicode_digits_is_a_name(env, cli):
    rc, out, err = cli(*RUN, "sys.fast", "--name", "²")
    assert rc == 0, err
    rc, out, err = cli("show", "²")
    assert rc == 0 and "'²'" in out


def _parse_target(uri):
    """A target URI parsed the way --target parses it, without connecting to anything -> the
    canonical URI, or TickmarkError."""
    from tickmark.targets import labgrid, open_target

    if uri.startswith("labgrid:"):  # opening it reaches for the coordinator: parse only
        if any(ord(c) < 32 or ord(c) == 127 for c in uri):
            from tickmark.errors import TickmarkError

            raise TickmarkError("bad --target: control characters in the URI")
        return labgrid.parse_uri(uri)[0]
    with open_target(uri) as t:
        return t.uri


TARGET_SEEDS = [
    "local",
    "ssh://root@10.0.0.2:2222",
    "ssh://[fe80::1]:22",
    "ssh:lab-imx6",
    "serial:/dev/ttyUSB0?baud=115200&core=/usr/bin/tickmark-core&silence=5",
    "labgrid:rpi4-a?via=ssh&wait=5&boot-wait=10&power-cycle=1",
    "qemu-user:aarch64",
    "qemu-system:mps2-an500?icount=0",
    "qemu-system:x86_64?accel=tcg&kernel=/nonexistent/vmlinuz",
]
URI_PIECES = ["²", "١", "0", "00", "65536", "9" * 30, "9" * 5000, "%00", "%20", "%", "&", "?", "=", ":", "@", "[", "]"]
URI_PIECES += [
    "/",
    " ",
    "\t",
    "\n",
    "\x00",
    "-",
    "--help",
    ";reboot",
    "$(id)",
    "'",
    '"',
    "\u202e",
    "ﬀ",
    "core=",
    "baud=",
]


def _mutate_uri(rng, uri):
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(uri) + 1)
        how = rng.randrange(4)
        if how == 0:  # insert a piece
            uri = uri[:i] + rng.choice(URI_PIECES) + uri[i:]
        elif how == 1:  # replace a run of characters
            uri = uri[:i] + rng.choice(URI_PIECES) + uri[i + rng.randrange(1, 6) :]
        elif how == 2:  # cut
            uri = uri[: i + rng.randrange(0, 3)] if rng.random() < 0.3 else uri[:i] + uri[i + 1 :]
        else:  # an option twice, or one of another scheme
            uri += rng.choice(["&baud=9600", "?icount=1", "&wait=²", "&silence=0", "?via=serial", ":22", "&core=a b"])
    return uri


def test_fuzz_target_uris():
    """Mutated target URIs: each is a target whose canonical URI reads back as itself, or one
    line of error that never echoes a password; never an exception."""
    import random

    from tickmark.errors import TickmarkError

    rng = random.Random(1119)
    accepted = refused = 0
    t0 = time.monotonic()
    for _ in range(20000):
        uri = _mutate_uri(rng, rng.choice(TARGET_SEEDS))
        try:
            canon = _parse_target(uri)
        except TickmarkError as e:
            msg = str(e)
            assert "\n" not in msg and len(msg) < 600, (uri, msg)
            refused += 1
            continue
        assert _parse_target(canon) == canon, (uri, canon)
        accepted += 1
    assert accepted > 500 and refused > 2000, (accepted, refused)
    print(f"target URI fuzz: {accepted + refused} cases, {accepted} accepted, {time.monotonic() - t0:.1f} s")


# ---- 12. what a board ran: a captured log keeps the board's seed and benchmarks ----


@needs_cc
def test_an_ingested_run_keeps_what_the_board_ran(core_binary, env, cli, tmp_path):
    log = tmp_path / "board.log"
    r = subprocess.run(
        [core_binary, "run", "sys.getppid", "sys.fstat", "--samples", "3", "--seed", "4242"], capture_output=True
    )
    log.write_bytes(b"boot noise\n" + r.stdout)
    rc, out, err = cli("ingest", str(log), "--name", "board")
    assert rc == 0, err
    run = _store().run("board")
    assert run["notes"]["seeds"] == [4242] and run["options"]["seed"] == 4242
    assert run["patterns"] == ["sys.fstat", "sys.getppid"] and run["options"]["samples"] == 3


# ---- 13. PostgreSQL URLs: odd ports, and a password is never printed ----

PG_URLS = [
    ("postgresql://u:S3cret@127.0.0.1:99999/db", "the port must be a number, 1..65535"),
    ("postgresql://u:S3cret@127.0.0.1:0/db", "the port must be a number, 1..65535"),
    ("postgresql://u:S3cret@127.0.0.1:²/db", "the port must be a number, 1..65535"),
    ("postgresql://u:S3cret%ZZ@127.0.0.1:1/db", "cannot connect to store postgresql://u:***@127.0.0.1:1/db"),
    ("postgresql://u@127.0.0.1:1/db?sslmode=x&password=S3cret", "password=***"),
    ("postgresql://u@127.0.0.1:1/db?PASSWORD=S3cret&sslmode=disable", "PASSWORD=***"),
    ("postgresql://u:S3cret@127.0.0.1:1/db", "cannot connect to store postgresql://u:***@127.0.0.1:1/db"),
]


@pytest.mark.parametrize("url,says", PG_URLS, ids=[u[13:50] for u, _ in PG_URLS])
def test_postgresql_urls_never_show_the_password(env, cli, url, says):
    if importlib.util.find_spec("psycopg") is None:
        need_tool("psycopg is not installed (pip install -e .)")
    for args in (["runs"], [*RUN, "sys.fast"]):
        rc, out, err = cli("--store", url, *args)
        one_error_line(rc, err, says)
        assert "S3cret" not in out + err


@needs_cc
@pytest.mark.parametrize("pattern", ["--no-fork", "--text", "--samples", "--iters=5", "-x"])
def test_a_pattern_is_never_an_option_of_the_core(real, cli, pattern):
    rc, out, err = cli(*RUN, "--", pattern)
    one_error_line(rc, err)
    assert "bad pattern" in err or "no benchmark matches" in err or "needs a value" in err, err
    rc, out, err = cli("runs")
    assert "no runs stored yet" in out


def test_an_ingested_log_names_the_cores_error_first(env, cli, tmp_path):
    log = tmp_path / "old.log"
    log.write_text('TM1 {"t":"error","reason":"record too long"}\nTM1 {"t":"end","key":"a","status":"skip"}\n')
    rc, out, err = cli("ingest", str(log))
    one_error_line(rc, err, "no tickmark run", "line 1: tickmark-core reported an error: record too long")


def test_a_matrix_whose_core_died_stores_incomplete_runs(env, cli, monkeypatch, capsys):
    monkeypatch.setenv("FAKECORE_MODE", "die=1")
    args = [
        "matrix",
        "--cflags",
        "-O1",
        "--cflags",
        "-O2",
        "-q",
        "--rounds",
        "1",
        "--seed",
        "7",
        "sys.fast",
        "ipc.ping",
    ]
    with pytest.raises(SystemExit) as e:  # the matrix command ends with sys.exit(status)
        cli(*args)
    err = capsys.readouterr().err
    assert e.value.code == 1 and "is incomplete: round 1: tickmark-core exited with status 3" in err, err
    st = _store()
    assert [r["status"] for r in st.runs()] == ["incomplete", "incomplete"]
    assert all("exited with status 3" in r["notes"]["incomplete"] for r in st.runs())


# ---- 14. output files: never the store itself, and a failed write keeps the old file ----

OUTPUT_ON_STORE = [
    ["export", "base", "-o", "{S}"],
    ["export", "base", "-o", "{S}-wal"],
    ["export", "base", "--format", "csv", "-o", "{S}-journal"],
    ["export", "base", "-o", "{link}"],
    ["report", "base", "-o", "{S}"],
    ["report", "base", "-o", "{S}-shm"],
    ["campaign", "{camp}", "--report", "{S}"],
]


@pytest.mark.parametrize("args", OUTPUT_ON_STORE, ids=[" ".join(a) for a in OUTPUT_ON_STORE])
def test_output_onto_the_store_is_refused(exported, env, cli, tmp_path, args):
    (tmp_path / "link.db").symlink_to(env)
    camp = tmp_path / "c.toml"
    camp.write_text('name = "c"\nrounds = 1\n[targets]\na = "local"\n[workloads]\nw = ["sys.fast"]\n')
    argv = [a.format(S=env, link=tmp_path / "link.db", camp=camp) for a in args]
    before = row_counts(env)
    rc, out, err = cli(*argv)
    one_error_line(rc, err, "is a file of the result store")
    assert row_counts(env) == before, "the command ran before it refused"
    store_readable(cli, "base", "base")


def _on_a_full_disk(argv, tmp_path, old_text):
    """argv run in a folder on a small tmpfs (a private mount) holding out.txt = old_text and
    no space left -> (CompletedProcess, what out.txt holds afterwards, files left there)."""
    if not shutil.which("unshare"):
        need_tool("unshare (util-linux) not found")
    mnt = tmp_path / "full"
    mnt.mkdir()
    script = (
        'm="$0"; mount -t tmpfs -o size=1m tmpfs "$m" || exit 99; cd "$m"; printf %s "$1" > out.txt; shift; '
        "head -c 2000K /dev/zero > filler 2>/dev/null; "
        '"$@"; rc=$?; echo; echo ===; cat out.txt; echo; echo ===; ls -A; exit $rc'
    )
    r = _tmpfs_script(script, [str(mnt), old_text], argv)
    _, held, files = r.stdout.rsplit("===", 2)
    return r, held.strip("\n"), files.split()


@pytest.mark.parametrize("args", [["export", "base", "-o", "out.txt"], ["report", "base", "-o", "out.txt"]])
def test_a_failed_output_write_keeps_the_old_file(exported, env, cli, tmp_path, args):
    r, held, files = _on_a_full_disk(["--store", str(env), *args], tmp_path, "OLD CONTENT")
    one_error_line(r.returncode, r.stderr, "cannot write out.txt", "No space left")
    assert held == "OLD CONTENT"
    assert sorted(files) == ["filler", "out.txt"], "a temporary file was left behind"


def test_output_replaces_the_old_file_whole(exported, env, cli, tmp_path):
    out = tmp_path / "out.json"
    out.write_text("x" * 100000)
    out.chmod(0o640)
    rc, _, err = cli("export", "base", "-o", str(out))
    assert rc == 0, err
    assert json.loads(out.read_text())["run"]["name"] == "base"
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out")) == []
    rc, text, err = cli("export", "base", "-o", "/dev/stdout")  # a device is written, never replaced
    assert rc == 0 and Path("/dev/stdout").exists()


# ---- 15. names: every command that makes a name follows the same rules ----


def _fake_log(tmp_path, env):
    """A captured log of one run of the synthetic core -> its path."""
    log = tmp_path / "board.log"
    core = os.environ["TICKMARK_CORE"].split()
    r = subprocess.run([*core, "run", "sys.fast", "--samples", "2"], capture_output=True, env=env)
    log.write_bytes(r.stdout)
    return log


LONG = "n" * 95
MADE_NAMES = [
    ([*RUN, "sys.fast", "--name", "a\u202eb"], "invisible character U+202E"),
    ([*RUN, "sys.fast", "--name", "ab\u200b"], "invisible character U+200B"),
    ([*RUN, "sys.fast", "--name", "\u2066x"], "invisible character U+2066"),
    ([*RUN, "sys.fast", "--name", "x\ufeff"], "invisible character U+FEFF"),
    ([*RUN, "sys.fast", "--name", "a\u2028b"], "invisible character U+2028"),
    (["ingest", "{log}", "--name", "a\u202eb"], "invisible character U+202E"),
    (["ingest", "{log}", "--name", "\x1b]0;PWN\x07"], "control characters"),
    (["profile", "sys.fast", "--name", "a\u200db"], "invisible character U+200D"),
    (["matrix", "--cflags", "-O1", "--cflags", "-O2", "--name", LONG, "sys.fast"], "longer than 100"),
    (["matrix", "--cflags", "-O1", "--cflags", "-O2", "--name", "a\u202e", "sys.fast"], "invisible character"),
    (["campaign", "{camp_long}"], "longer than 89"),
]


@pytest.mark.parametrize("args,says", MADE_NAMES, ids=[" ".join(a)[:40] for a, _ in MADE_NAMES])
def test_every_name_a_command_makes_follows_the_rules(env, cli, tmp_path, args, says):
    rc, out, err = cli(*RUN, "sys.fast", "--name", "base")
    assert rc == 0, err
    camp = tmp_path / "long.toml"
    camp.write_text(f'name = "{"c" * 40}"\n[targets]\n{"t" * 20} = "local"\n[workloads]\n{"w" * 20} = ["sys.fast"]\n')
    argv = [a.format(log=_fake_log(tmp_path, os.environ), camp_long=camp) for a in args]
    before = row_counts(env)
    rc, out, err = cli(*argv)
    one_error_line(rc, err, says)
    assert "\x1b" not in err and "\u202e" not in err and "\x07" not in err
    assert row_counts(env) == before
    store_readable(cli, "base")


def test_a_campaign_never_adopts_a_run_it_did_not_make(env, cli, tmp_path):
    for name, status in (("c:a:default:w", "complete"), ("c:a:default:v", "incomplete")):
        rc, out, err = cli(*RUN, "sys.fast", "--name", "mine")
        assert rc == 0, err
        st = _store()
        st.update_run(st.run("mine")["id"], name=name, status=status)  # a user's run with a cell's name
    camp = tmp_path / "c.toml"
    camp.write_text('name = "c"\nrounds = 1\n[targets]\na = "local"\n[workloads]\nw = ["sys.fast"]\nv = ["sys.fast"]\n')
    rc, out, err = cli("campaign", str(camp))
    one_error_line(rc, err, "a run named 'c:a:default:w' exists that campaign c did not make", "and 1 more")
    st = _store()
    assert sorted(r["name"] for r in st.runs()) == ["c:a:default:v", "c:a:default:w"], "renamed or adopted"
    assert "campaign" not in st.run("c:a:default:w")["notes"]
    store_readable(cli, "c:a:default:w", "c:a:default:v")


# ---- 16. reading commands never create a store; ~ in --store ----

READERS = [["runs"], ["show"], ["export", "latest"], ["compare", "a", "b"], ["report"], ["history", "sys.fast"]]


@pytest.mark.parametrize("args", READERS, ids=[a[0] for a in READERS])
def test_reading_commands_create_no_store_or_folder(env, cli, tmp_path, args):
    missing = tmp_path / "no" / "such" / "folder" / "s.db"
    rc, out, err = cli("--store", str(missing), *args)
    assert rc in (0, 2), err
    assert "Traceback" not in err
    if rc == 0:
        assert "no runs stored yet" in out
    else:
        one_error_line(rc, err)
    assert not (tmp_path / "no").exists(), "a reading command created the store's folder"


def test_tilde_in_store_is_the_home_folder(env, cli, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli("--store", "~/s.db", *RUN, "sys.fast", "--name", "t")
    assert rc == 0, err
    assert (tmp_path / "home" / "s.db").is_file() and not (tmp_path / "~").exists()
    rc, out, err = cli("--store=~/s.db", "show", "t")
    assert rc == 0 and "'t'" in out, err


# ---- 17. CSV export: no cell a spreadsheet reads as a formula ----


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t"])
def test_csv_export_neutralises_formula_cells(exported, env, cli, tmp_path, lead):
    r = next(r for r in exported["results"] if r["key"] == "sys.fast")
    r["reason"] = lead + 'HYPERLINK("http://x","y")'
    r["key"] = r["meta"]["key"] = lead.strip() + "cmd|' /C calc'!A0" if lead != "\t" else "k"
    exported["run"]["name"] = "evil"
    f = tmp_path / "evil.json"
    f.write_text(json.dumps(exported))
    rc, out, err = cli("import", str(f))
    if lead == "\t":  # a tab is a control character: no text in a store holds one (names.text_problem)
        one_error_line(rc, err, "].reason: control characters")
        return
    assert rc == 0, err
    rc, out, err = cli("export", "evil", "--format", "csv")
    assert rc == 0, err
    import csv
    import io

    rows = list(csv.reader(io.StringIO(out)))
    cells = [c for row in rows[1:] for c in row]
    assert any(c == "'" + r["reason"] for c in cells), rows
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t") or (c[:1] == "-" and not _number(c))], rows
    store_readable(cli, "evil", "base")


def _number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


# ---- 18. ingest: no record left out without a word, any line length, linear time ----


def _replace(old, new, count=1):
    return lambda text: text.replace(old, new, count)


def _two_per_line(text):
    lines = text.splitlines()
    return "\n".join(" ".join(lines[i : i + 2]) for i in range(0, len(lines), 2)) + "\n"


INGESTS = [
    # (label, log edit, exit status, results kept, words printed)
    ("bare hello", lambda t: 'TM1 {"t":"hello"}\n' + t.split("\n", 1)[1], 2, 0, ["hello: missing 'v'"]),
    ("order of numbers", _replace('"order":["ipc.ping","sys.fast"]', '"order":[1,2]'), 2, 0, ["'order' is not a list"]),
    ("hello field type", _replace('"samples":2,', '"samples":"2",'), 2, 0, ["'samples' is not a non-negative"]),
    (
        "end status",
        _replace('"t":"end","key":"sys.fast","status":"ok"', '"t":"end","key":"sys.fast","status":"great"'),
        0,
        1,
        ["end: 'status' is not one of", "sys.fast was cut off before its 'end'"],
    ),
    (
        "key too long",
        _replace('"key":"sys.fast","i":0', '"key":"' + "k" * 400 + '","i":0'),
        0,
        2,
        ["'key' is empty, too long"],
    ),
    (
        "key with ESC",
        _replace('"key":"sys.fast","i":0', '"key":"sys\\u001b[2J","i":0'),
        0,
        2,
        ["'key' is empty, too long"],
    ),
    ("two records per line", _two_per_line, 0, 2, ["(2 results; 0 problem(s) above)"]),
]


@pytest.mark.parametrize("label,edit,rc,kept,says", INGESTS, ids=[c[0] for c in INGESTS])
def test_ingest_names_every_record_it_leaves_out(env, cli, tmp_path, label, edit, rc, kept, says):
    core = os.environ["TICKMARK_CORE"].split()
    good = subprocess.run([*core, "run", "sys.fast", "ipc.ping", "--samples", "2"], capture_output=True, text=True)
    log = tmp_path / "board.log"
    log.write_text(edit(good.stdout))
    got, out, err = cli("ingest", str(log))
    assert got == rc, err
    for w in says:
        assert w in out, out
    if rc == 2:
        one_error_line(got, err, "no usable 'hello'")
        return
    st = _store()
    run = st.run("latest")
    assert len(st.results(run["id"])) == kept
    problems = run["notes"]["ingested"]["problems"]
    assert f"({kept} results" in out and f"; {len(problems)} problem(s) above)" in out, out
    assert run["notes"]["malformed"] == 0, run["notes"]["problems"]  # the replay refused nothing unsaid
    store_readable(cli, "latest")


def test_ingest_of_many_open_instances_is_linear(env, cli, tmp_path):
    hello = subprocess.run(
        [*os.environ["TICKMARK_CORE"].split(), "run", "sys.fast", "--samples", "1"], capture_output=True, text=True
    ).stdout.splitlines()[0]
    metas = (json.dumps({"t": "meta", "bench": "b.k", "key": f"b.k[size={k}]", "iters": 10}) for k in range(30000))
    log = tmp_path / "meta.log"
    log.write_text(hello + "\n" + "".join(f"TM1 {m}\n" for m in metas))
    t0 = time.monotonic()
    rc, out, err = cli("ingest", str(log))
    took = time.monotonic() - t0
    assert rc == 1, err  # stored, incomplete: the log ends before its bye
    assert "30001 problem(s) above" in out
    assert took < 60, f"{took:.0f} s for 30,000 instances"  # it took 75 s (9 min under load) when quadratic


@pytest.mark.parametrize("cmd,says", [("ingest", "longer than 16 MiB"), ("import", "not a results document")])
def test_an_endless_file_is_not_read_whole(env, cli, cmd, says):
    t0 = time.monotonic()
    rc, out, err = cli(cmd, "/dev/zero")
    one_error_line(rc, err, says)
    assert time.monotonic() - t0 < 30
    rc, out, err = cli("runs")
    assert rc == 0 and "no runs stored yet" in out


# ---- 19. import: what a document says is kept as it says, or refused ----


def test_duplicate_json_keys_are_refused(exported, env, cli, tmp_path):
    f = tmp_path / "dup.json"
    f.write_text(json.dumps(exported).replace('"format":', '"format": "other", "format":', 1))
    before = row_counts(env)
    rc, out, err = cli("import", str(f))
    one_error_line(rc, err, "key 'format' is given twice")
    assert row_counts(env) == before


def test_imported_running_run_is_incomplete_and_started_0_is_kept(exported, env, cli, tmp_path):
    exported["run"].update(name="copy", status="running", started=0, finished=None)
    f = tmp_path / "copy.json"
    f.write_text(json.dumps(exported))
    rc, out, err = cli("import", str(f))
    assert rc == 0, err
    run = _store().run("copy")
    assert run["status"] == "incomplete" and run["started"] == 0
    assert "exported while it was still running" in run["notes"]["incomplete"]
    rc, out, err = cli("show", "copy")
    assert rc == 0 and "1970-01-01" in out and "abandoned" not in out, out
    rc, out, err = cli("export", "copy")
    assert json.loads(out)["run"]["started"] == 0
    store_readable(cli, "copy", "base")


def test_a_good_profile_imports_and_shows(exported, env, cli, tmp_path):
    exported["run"]["name"] = "prof"
    exported["profiles"] = [_profile(["__memmove_avx_unaligned"])]
    f = tmp_path / "prof.json"
    f.write_text(json.dumps(exported))
    rc, out, err = cli("import", str(f))
    assert rc == 0, err
    store_readable(cli, "prof", "base")


# ---- 20. the build: a compiler that hangs is stopped with its children; signals clean up ----


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


# ---- fuzz: campaign files (as TOML text, and as parsed documents of any shape) ----

CAMPAIGN_SEED = """name = "lab-nov"
rounds = 2
max_rounds = 3
samples = 5
sample_ms = 10
seed = 7
timeout = 60
lease = 30
params = ["size=4K,64K"]
baseline = "a"

[labels]
build = "1234"

[targets]
a = "local"
b = "qemu-user:aarch64"

[variants]
O2 = { cflags = "-O2" }
Os = { cc = "gcc", cflags = "-Os" }

[workloads]
os = "os"
mine = ["sys.*", "ipc.pipe_lat"]
"""
CAMPAIGN_VALUES = [
    *HOSTILE_VALUES,
    float("nan"),
    float("inf"),
    -0.0,
    2**63,
    "a" * 300,
    "a\u202eb",
    "x\u200b",
    "a\ud800",
    "a\x00b",
    "1",
    "latest",
    "-O2 $(touch PWNED)",
    {"a": 1},
    ["here"],
    {"cflags": ["-O2"]},
    {"x": {"y": {}}},
]
TOML_PIECES = [
    '"',
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    "\n",
    "\\",
    "\\u0000",
    "\\ud800",
    "#",
    ",",
    ".",
    "[[t]]",
    "\x00",
    "\x1b",
]
TOML_PIECES += [
    "1979-05-27T07:32:00Z",
    "nan",
    "inf",
    "0x7fffffffffffffff",
    "9" * 400,
    "\u202e",
    "\ufeff",
    "true",
    '"""',
]


def _mutate_campaign_doc(rng, doc):
    """A random key of the document (any depth) replaced, deleted or added."""
    import copy

    node = doc
    while isinstance(node, dict) and node and rng.random() < 0.6:
        k = rng.choice(sorted(node))
        if not isinstance(node[k], dict):
            break
        node = node[k]
    if not isinstance(node, dict):
        return
    how = rng.randrange(4)
    if how == 0 and node:
        del node[rng.choice(sorted(node))]
    elif how == 1:
        node[rng.choice(["extra", "a" * 200, "a\u202e", "1", "x.y", "", "baseline", "name"])] = copy.deepcopy(
            rng.choice(CAMPAIGN_VALUES)
        )
    elif node:
        node[rng.choice(sorted(node))] = copy.deepcopy(rng.choice(CAMPAIGN_VALUES))


def _mutate_campaign_text(rng, text):
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(text) + 1)
        how = rng.randrange(3)
        if how == 0:
            text = text[:i] + rng.choice(TOML_PIECES) + text[i:]
        elif how == 1:
            text = text[:i] + rng.choice(TOML_PIECES) + text[i + rng.randrange(1, 8) :]
        else:
            text = text[:i] + text[i + rng.randrange(1, 40) :]
    return text


def _campaign_case(load):
    """load() -> a Spec whose every cell has a run name tickmark accepts, or one line of error."""
    from tickmark.errors import TickmarkError
    from tickmark.names import check_name
    from tickmark.run import campaign as cp

    try:
        spec = load()
        cp.check_cell_names(spec)
    except TickmarkError as e:
        assert "\n" not in str(e), str(e)
        return False
    cells = cp.cells(spec)
    assert len(cells) == len(spec.targets) * len(spec.variants) * len(spec.workloads) > 0
    assert spec.baseline in spec.targets
    for c in cells:
        check_name(c.run_name)
    assert all(isinstance(u, str) and u for u in spec.targets.values())
    return True


def test_fuzz_campaign_files(env, cli, tmp_path):
    """Mutated campaign files: each is a campaign whose cells have valid run names, or one line
    of error; never an exception. A sample of them also goes through `tickmark campaign --status`."""
    import random

    from tickmark.run import campaign as cp

    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib

    rng = random.Random(1125)
    seed_doc = tomllib.loads(CAMPAIGN_SEED)
    accepted = refused = 0
    t0 = time.monotonic()
    f = tmp_path / "c.toml"
    for n in range(6000):
        if n % 2:
            text = _mutate_campaign_text(rng, CAMPAIGN_SEED)
            f.write_text(text, encoding="utf-8", errors="surrogatepass")
            ok = _campaign_case(lambda: cp.load(str(f)))
        else:
            doc = json.loads(json.dumps(seed_doc))
            for _ in range(rng.randrange(1, 4)):
                _mutate_campaign_doc(rng, doc)
            ok = _campaign_case(lambda d=doc: cp.parse(d, "c.toml"))
        accepted += ok
        refused += not ok
        if n % 2 and n % 60 == 1:  # the command line reads the same file: --status runs nothing
            rc, out, err = cli("campaign", str(f), "--status")
            assert rc in (0, 2) and "Traceback" not in err, err
            assert rc == 0 or err.count("\n") == 1, err
    assert accepted > 300 and refused > 2000, (accepted, refused)
    assert row_counts(env)["runs"] == 0 if env.exists() else True
    print(f"campaign file fuzz: {accepted + refused} cases, {accepted} accepted, {time.monotonic() - t0:.1f} s")
