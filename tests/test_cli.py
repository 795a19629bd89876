import json
import os
import signal
import time

import pytest

from conftest import row_counts, tickmark_proc, wait_results


@pytest.fixture
def seeded(env, cli):
    """A store that already holds one run."""
    rc, out, err = cli("run", "sys.*", "--rounds", "1", "--name", "base", "--quiet")
    assert rc == 0, err
    return env


BAD = [
    (["run", "xyz"], "no benchmark matches 'xyz' (tickmark list shows them)"),
    (["run", "sys.*", "nothing.here"], "no benchmark matches 'nothing.here'"),
    (["run", "--suite", "nope"], "unknown suite 'nope' (known: default"),
    (["run", "sys.*", "--rounds", "0"], "--rounds"),
    (["run", "sys.*", "--samples", "many"], "--samples"),
    (["run", "sys.*", "--param", "size"], "bad --param 'size'"),
    (["run", "sys.*", "--param", "size=1,x"], "bad --param"),
    (["run", "sys.*", "--param", "size=1,2"], "no selected benchmark has a parameter 'size'"),
    (["run", "sys.*", "--name", "base"], "a run named 'base' exists already"),
    (["run", "sys.*", "--name", "12"], "bad --name"),
    (["run", "sys.*", "--param", "lat.*:size=1"], "--param lat.*:size: 'lat.*' matches no selected benchmark"),
    (["run", "lat.*", "--param", "sys.*:size=1"], "--param sys.*:size: 'sys.*' matches no selected benchmark"),
    (["run", "lat.*", "sys.*", "--param", "sys.*:size=1"], "no selected benchmark matching 'sys.*' has a parameter"),
    (["run", "lat.*", "--param", "lat.*:size=1", "--param", "lat.*:size=2"], "--param lat.*:size given twice"),
    (["run", "lat.*", "--param", "lat[:size=1"], "bad --param 'lat[:size=1'"),
    (["run", "--frobnicate"], "No such option"),
    (["frob"], "No such command"),
    (["show", "999"], "no run '999'"),
    (["show", "nosuchname"], "no run 'nosuchname'"),
    (["export", "latest", "--format", "xml"], "--format"),
    (["export"], "Missing argument"),
    (["list", "zzz*"], "no benchmark matches 'zzz*'"),
]


@pytest.mark.parametrize("args,msg", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_one_line_exit_2_store_intact(seeded, cli, args, msg):
    before = row_counts(seeded)
    rc, out, err = cli(*args)
    assert rc == 2
    assert err.startswith("tickmark: error: ") and err.count("\n") == 1, err
    assert msg in err
    assert "Traceback" not in err and "Usage" not in err
    assert row_counts(seeded) == before


def test_import_bad_files(seeded, cli, tmp_path):
    before = row_counts(seeded)
    cases = {
        "notjson.json": ("{ this is not json", "not valid JSON"),
        "wrongformat.json": (json.dumps({"format": "other", "version": 1}), "format is 'other'"),
        "noresults.json": None,
    }
    rc, doc, _ = cli("export", "base")
    d = json.loads(doc)
    i = next(i for i, r in enumerate(d["results"]) if r["samples"])
    del d["results"][i]["samples"][0]["ns"]
    cases["noresults.json"] = (json.dumps(d), f"results[{i}].samples[0]: missing 'ns'")
    for name, (text, msg) in cases.items():
        p = tmp_path / name
        p.write_text(text)
        rc, out, err = cli("import", str(p))
        assert rc == 2 and err.count("\n") == 1 and msg in err, err
    rc, out, err = cli("import", str(tmp_path / "missing.json"))
    assert rc == 2 and "cannot read" in err
    assert row_counts(seeded) == before


def test_foreign_store_file_is_left_untouched(env, cli, tmp_path):
    p = tmp_path / "precious.txt"
    p.write_text("do not overwrite me")
    for args in (["--store", str(p), "runs"], ["--store", str(p), "run", "sys.*"], ["--store", str(p), "show"]):
        rc, out, err = cli(*args)
        assert rc == 2 and err.count("\n") == 1 and "not an SQLite database" in err
    assert p.read_text() == "do not overwrite me"
    c = tmp_path / "corrupt.db"
    blob = b"SQLite format 3\x00" + os.urandom(4000)
    c.write_bytes(blob)
    rc, out, err = cli("--store", str(c), "runs")
    assert rc == 2 and err.count("\n") == 1 and "corrupt" in err
    assert c.read_bytes() == blob


def test_run_show_export_import(env, cli, tmp_path):
    rc, out, err = cli("run", "sys.*", "ipc.*", "--rounds", "2", "--name", "one", "--quiet")
    assert rc == 0, err
    assert "sys.fast" in out and "crashed" in out and "SIGSEGV" in out and "needs a unicorn" in out
    assert "ns/op" in out and "INCOMPLETE" not in out
    rc, out2, _ = cli("show", "one")
    assert rc == 0 and out2 == out
    rc, csv_text, _ = cli("export", "latest", "--format", "csv")
    assert rc == 0 and csv_text.splitlines()[0].startswith("run,key,benchmark")
    out_file = tmp_path / "one.json"
    rc, _, _ = cli("export", "one", "-o", str(out_file))
    rc, out, err = cli("import", str(out_file))
    assert rc == 0 and "'one-2'" in out
    rc, out, _ = cli("runs")
    assert "one-2" in out and out.count("complete") == 2


def test_show_incomplete_run(env, cli):
    from tickmark.store import Store

    st = Store(env)
    rid = st.create_run(
        patterns=["sys.*"], status="incomplete", notes={"planned": 7, "round_in_progress": 2, "rounds": 1}
    )
    st.add_result(rid, key="sys.fast", bench="sys.fast", status="ok")
    st.close()
    rc, out, err = cli("show")
    assert rc == 0
    assert "INCOMPLETE: interrupted in round 2 after 1 of 7 instances" in out


def test_sigterm_marks_incomplete_and_keeps_results(env, cli):
    p = tickmark_proc(
        ["run", "sys.fast", "ipc.ping", "--rounds", "1", "--seed", "1"],
        env={"FAKECORE_MODE": "slowkey=ipc.ping"},
        start_new_session=True,
    )
    try:
        wait_results(env)
        time.sleep(0.3)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "INCOMPLETE: interrupted" in out and "sys.fast" in out
    rc, out, _ = cli("runs")
    assert "incomplete" in out


def test_sigkill_leaves_run_that_shows_incomplete(env, cli):
    p = tickmark_proc(
        ["run", "sys.fast", "ipc.ping", "--rounds", "1", "--seed", "1"],
        env={"FAKECORE_MODE": "slowkey=ipc.ping"},
        start_new_session=True,
    )
    try:
        wait_results(env)
        time.sleep(0.3)
    finally:
        os.killpg(p.pid, signal.SIGKILL)  # the harness and its core
        p.communicate()
    rc, out, err = cli("show")
    assert rc == 0
    assert "status incomplete" in out and f"INCOMPLETE: abandoned: the tickmark process writing it (PID {p.pid}" in out


def test_a_core_killed_by_a_signal_is_said_so(env, cli, monkeypatch):
    """A core (or the emulator that runs it) that dies of a signal while it lists the benchmarks:
    which program, and which signal, not 'exit status -11'."""
    monkeypatch.setenv("TICKMARK_CORE", "sh -c 'kill -SEGV $$'")
    for args in (["list"], ["run", "sys.fast"]):
        rc, out, err = cli(*args)
        assert rc == 2 and err == (
            "tickmark: error: tickmark-core list failed on local: sh was killed by SIGSEGV (signal 11)\n"
        ), err


def test_no_arguments_prints_help(cli):
    rc, out, err = cli()
    assert rc == 0 and "Commands" in out


def test_info_json_and_list(env, cli):
    rc, out, err = cli("info", "--json")
    assert rc == 0, err
    fp = json.loads(out)
    assert fp["cycles_method"] == "calibrated-freq" and fp["clock"] == "CLOCK_MONOTONIC"
    assert len(fp["binary_sha256"]) == 64
    assert {"rt_priority", "affinity", "perf_event_paranoid", "virtualization", "caches"} <= set(fp)
    rc, out, err = cli("list", "sys.*")
    assert rc == 0 and "sys.skipme" in out and "skip: needs a unicorn" in out and "lat.sweep" not in out
    rc, out, err = cli("suites")
    assert rc == 0 and out.startswith("default")


def test_param_sweep_override(env, cli):
    rc, out, err = cli("run", "lat.*", "--param", "size=4096", "--rounds", "1", "-q")
    assert rc == 0, err
    assert "lat.sweep[size=4096]" in out and "size=1024" not in out
