"""Hostile input to the run engine: bad record streams lose nothing else, interruptions make a
run incomplete, the core's own error record is named first, every benchmark is stored."""

import os
import signal
import time

import pytest

from conftest import tickmark_proc, wait_results
from hostilefix import RUN, _children, _store, _wait_for, needs_cc, one_error_line, real, store_readable  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


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
    run, samples = _samples_of("sys.fast")
    if kept:
        assert rc == 0 and run["status"] == "complete", err
    else:  # every sample of an instance left out: a run without its data is incomplete, exit 1
        assert rc == 1 and run["status"] == "incomplete" and "without data" in err, err
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
