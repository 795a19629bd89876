"""One verdict, one gate: `compare --fail-above`, `export --format junit --fail-above` and
`history --fail-on-change` fail the same benchmarks on one store; what history's gate checks
(the newest run's level against the level before); the JUnit export of runs that did not finish;
compare narrowed to patterns and one metric; history's outputs (-o, the metric named, --by
labels). On stores of the synthetic core (tests/fakecore.py), whose modes make one benchmark
slower or only its on-CPU time larger, and say the flags it was built with."""

import json
import os
import re
import signal
import time
import xml.etree.ElementTree as ET

import pytest

from conftest import copy_store, tickmark_proc, use_synthetic_core
from tickmark.cli import main

BENCHES = ("sys.fast", "sync.lockpair")
# from run 6 on: built with -O0, sys.fast three times as slow, sync.lockpair 1.5 times the on-CPU
# time with the same wall time
STEP = "cflags=-O0,slower=sys.fast:3,oncpu=sync.lockpair:1.5"


def _main(*args):
    try:
        return main(list(args))
    except SystemExit as e:
        return e.code


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A store of two series of ten runs (three rounds of five samples each): `step-1..10`,
    labelled build=1..10, whose runs 6..10 are STEP; `flat-1..10`, labelled build=1..10, all
    alike."""
    folder = tmp_path_factory.mktemp("gate")
    with pytest.MonkeyPatch.context() as mp:
        store = use_synthetic_core(mp, folder)
        for i in range(1, 11):
            for series in ("step", "flat"):
                mode = STEP if series == "step" and i >= 6 else ""
                mp.setenv("FAKECORE_MODE", mode)
                argv = ["run", *BENCHES, "--name", f"{series}-{i}", "--label", f"build={i}", "-q"]
                assert main(argv + ["--label", f"series={series}"]) == 0
    return store


@pytest.fixture
def store(made, env):
    copy_store(made, env)
    return str(env)


def failed_cases(xml):
    root = ET.fromstring(xml)
    return sorted(tc.get("name") for tc in root.iter("testcase") if tc.find("failure") is not None)


def test_the_three_gates_fail_the_same_benchmarks(store, cli):
    """compare --fail-above failed the task-clock row of sync.lockpair (its
    on-CPU time grew, its wall time did not) while the JUnit export skipped every metric row.
    Now all three hold the same rows: the headline, or the --metric given."""
    rc, out, err = cli("compare", "--baseline", "step-5", "step-10", "--fail-above", "5%")
    assert rc == 1 and "1 regression(s) above 5% against step-5" in err and "sys.fast +" in err, err
    assert "sync.lockpair" not in err
    rc, xml, err = cli("export", "step-10", "--format", "junit", "--baseline", "step-5", "--fail-above", "5%")
    assert rc == 0 and failed_cases(xml) == ["sys.fast"]
    rc, out, err = cli("history", "--name", "step-*", "--by", "label:build", "--fail-on-change", "5")
    assert rc == 1 and re.search(r"1 benchmark\(s\) at the newest run step-10 slower .*: sys\.fast \+", err), err
    assert "sync.lockpair" not in err
    # one metric named: task-clock, for all three alike
    rc, out, err = cli("compare", "step-5", "step-10", "--fail-above", "5", "--metric", "task-clock")
    assert rc == 1 and "2 task-clock regression(s)" in err and "sync.lockpair +" in err and "sys.fast +" in err
    rc, xml, err = cli(
        "export", "step-10", "--format", "junit", "--baseline", "step-5", "--fail-above", "5", "--metric", "task-clock"
    )
    assert rc == 0 and failed_cases(xml) == ["sync.lockpair", "sys.fast"]
    rc, out, err = cli(
        "history", "--name", "step-*", "--by", "label:build", "--metric", "task-clock", "--fail-on-change", "5"
    )
    assert rc == 1 and "2 benchmark(s) at the newest run step-10" in err, err


def test_history_gate_names_the_run_and_what_changed(store, cli):
    """A nightly-length series: ten runs, 5 + 5, a 3x step on one benchmark and none on
    the other: exit 1 naming run 6 and cflags; ten runs alike: exit 0."""
    rc, out, err = cli("history", "--name", "step-*", "--fail-on-change", "5")
    assert rc == 1, err
    assert re.search(r"sys\.fast \+(199|200)\.\d% since run step-6", err) and "cflags -O2 -> -O0" in err
    assert "compiler flags (cflags): -O2 -> -O0" in out and re.search(
        r"sys\.fast: \+(199|200)\.\d % \(slower\) at run step-6", out
    )
    rc, out, err = cli("history", "--name", "flat-*", "--fail-on-change", "5")
    assert rc == 0 and "no change for the worse above 5% at the newest run flat-10" in err, err
    doc = json.loads(cli("history", "--name", "step-*", "--format", "json", "--fail-on-change", "5")[1])
    (f,) = doc["gate"]["failures"]
    assert f["key"] == "sys.fast" and f["kind"] == "slower" and f["since"] == "step-6"
    assert ["cflags", "-O2", "-O0"] in f["changed"] and not doc["gate"]["passed"]


def test_the_gate_is_the_newest_runs_level_against_the_one_before(store, cli):
    """What --fail-on-change checks, as its help says: the newest run lies on a level that began
    with a change and is slower than the level before. A change for the better, or none, passes;
    the step stays failed while the newest run lies on its level; the same runs give the same
    verdict every time."""
    for last in range(7, 11):
        names = [f"--name=step-{i}" for i in range(1, last + 1)]
        rc, out, err = cli("history", "sys.*", *names, "--fail-on-change", "5")
        assert rc == 1 and "since run step-6" in err, (last, err)
    rc, _, err = cli("history", "sys.*", *[f"--name=step-{i}" for i in range(1, 6)], "--fail-on-change", "5")
    assert rc == 0, err
    first = cli("history", "--name", "step-*", "--fail-on-change", "5", "--format", "json")
    again = cli("history", "--name", "step-*", "--fail-on-change", "5", "--format", "json")
    assert first == again
    # the same step the other way (faster from run 6 on): nothing fails
    rc, _, err = cli(
        "history", "sys.*", *[f"--name=step-{i}" for i in range(6, 11)], "--name=flat-1", "--by=label:build"
    )
    assert rc == 0


def test_a_tentative_change_says_how_many_runs_confirm_it(store, cli):
    rc, out, err = cli("history", "sys.fast", *[f"--name=step-{i}" for i in range(1, 8)], "--fail-on-change", "5")
    assert rc == 1 and "at #6?" in out and "tentative: 1 more run at this level would confirm it" in out, out
    assert "a change needs 3 on each side" not in out and "p = " not in out


def test_junit_of_a_killed_run_is_not_green(env, cli):
    """A run killed with SIGKILL before its benchmarks ran exported green."""
    p = tickmark_proc(
        ["run", "sys.fast", "ipc.ping", "sync.lockpair", "--rounds", "1", "--seed", "1", "--name", "killed"],
        env={"FAKECORE_MODE": "slowkey=ipc.ping"},
        start_new_session=True,
    )
    from tickmark.store import Store

    try:
        for _ in range(400):
            st = Store(env)
            n = sum(len(st.results(r["id"])) for r in st.runs())
            st.close()
            if n:
                break
            time.sleep(0.05)
        time.sleep(0.3)
    finally:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
    rc, xml, err = cli("export", "killed", "--format", "junit")
    assert rc == 0, err
    root = ET.fromstring(xml)
    assert int(root.get("failures")) >= 2
    failed = failed_cases(xml)
    assert "run" in failed and "ipc.ping" in failed and "sys.fast" not in failed
    (case,) = [tc for tc in root.iter("testcase") if tc.get("name") == "run"]
    assert "abandoned" in case.find("failure").get("message")


def test_a_benchmark_missing_against_the_baseline_fails_junit_as_compare(store, cli):
    """A benchmark of the baseline that the run does not have failed compare's gate
    and passed the JUnit export."""
    assert cli("run", "sys.fast", "--name", "only-fast", "-q")[0] == 0
    rc, out, err = cli("compare", "--baseline", "flat-10", "only-fast", "--fail-above", "5%")
    assert (
        rc == 1
        and "1 benchmark(s) of flat-10 (fakecc -O2) not measured in only-fast (fakecc -O2): sync.lockpair (not in B)"
        in err
    )
    rc, xml, err = cli("export", "only-fast", "--format", "junit", "--baseline", "flat-10", "--fail-above", "5%")
    assert rc == 0 and failed_cases(xml) == ["sync.lockpair"]
    assert "not measured (not in B); flat-10" in xml


def test_compare_narrowed_to_patterns_and_one_metric(store, cli):
    """First hour, item 6: the pattern was read as a third run."""
    rc, out, err = cli("compare", "flat-1", "step-10", "sys.*", "--format", "json")
    assert rc == 0, err
    rows = json.loads(out)["comparisons"][0]["rows"]
    assert {r["key"] for r in rows} == {"sys.fast"} and {r["metric"] for r in rows} == {"", "task-clock"}
    rc, out, err = cli("compare", "flat-1", "step-10", "sync.lockpair", "--metric", "task-clock", "--format", "json")
    doc = json.loads(out)
    assert rc == 0 and doc["metric"] == "task-clock"
    assert [(r["key"], r["metric"], r["verdict"]) for r in doc["comparisons"][0]["rows"]] == [
        ("sync.lockpair", "task-clock", "slower")
    ]
    rc, out, err = cli("compare", "flat-1", "step-10", "sys.*", "--metric", "headline")
    assert rc == 0 and "metric: headline" in out and "task-clock" not in out.split("counters A -> B")[0]
    rc, out, err = cli("compare", "flat-1", "nosuch")
    assert rc == 2 and "no run 'nosuch' (and no benchmark of the compared runs of that name)" in err
    rc, out, err = cli("compare", "flat-1", "step-2", "no.*")
    assert rc == 2 and "no benchmark of the compared runs matches 'no.*'" in err
    rc, out, err = cli("compare", "flat-1", "step-2", "--metric", "cycles")
    assert rc == 2 and "bad --metric 'cycles' (headline, task-clock, lock, unlock)" in err


def test_history_names_its_metric_in_every_view(store, cli, tmp_path):
    """--metric task-clock was named in no output."""
    rc, out, err = cli("history", "--name", "flat-*", "--metric", "task-clock")
    assert rc == 0 and "metric: task-clock (on-CPU time per operation)" in out
    for fmt in ("md", "html", "json"):
        rc, out, err = cli("history", "--name", "flat-*", "--metric", "task-clock", "--format", fmt)
        assert rc == 0 and "task-clock (on-CPU time per operation)" in out, fmt
    doc = json.loads(cli("history", "--name", "flat-*", "--format", "json")[1])
    assert doc["metric"] == "headline"


def test_history_by_a_label_no_run_has(store, cli):
    rc, out, err = cli("history", "--by", "label:nosuch")
    assert rc == 2 and "no run has the label 'nosuch' (--by label:nosuch)" in err


def test_history_output_files_and_the_store(store, cli, tmp_path, monkeypatch):
    """Findings 30.1 and 30.26: -o STORE overwrote the store in md, html and json (also through a
    symlink and TICKMARK_STORE); -o was ignored for the table; -o x.html wrote the table."""
    link = tmp_path / "link.db"
    link.symlink_to(store)
    for target in (store, str(link)):
        for fmt in ("md", "html", "json", "table"):
            rc, out, err = cli("--store", store, "history", "--format", fmt, "-o", target)
            assert rc == 2 and "refusing to write" in err, (fmt, target)
    monkeypatch.setenv("TICKMARK_STORE", store)
    rc, out, err = cli("history", "--format", "md", "-o", store)
    assert rc == 2 and "refusing to write" in err
    assert cli("runs")[0] == 0  # the store is intact
    table = tmp_path / "h.txt"
    rc, out, err = cli("history", "--name", "step-*", "-o", str(table))
    assert rc == 0 and out == "" and "sys.fast" in table.read_text() and "changes" in table.read_text()
    page = tmp_path / "h.html"
    rc, out, err = cli("history", "--name", "step-*", "-o", str(page))
    assert rc == 0 and page.read_text().lstrip().startswith("<!DOCTYPE html>") and ", html)" in err


def test_history_fits_80_columns(store, cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, err = cli("history", "--name", "step-*", "--by", "label:build")
    assert rc == 0 and "what changed there:" in out
    assert [line for line in out.splitlines() if len(line) > 80] == []


def test_history_gives_one_number_for_a_change(store, cli):
    """history printed one change as +60.3 % in its table and +60.9 % in its gate's line (the
    level's medians against compare's estimate of the pooled samples): the gate's line, its JSON
    and the table now give the change's one figure."""
    rc, out, err = cli("history", "--name", "step-*", "--fail-on-change", "5")
    assert rc == 1, err
    table = re.search(r"sys\.fast: ([+-]\d+\.\d) % \(slower\) at run step-6", out)
    line = re.search(r"sys\.fast ([+-]\d+\.\d) ?% since run step-6", err)
    assert table and line, (out, err)
    assert table.group(1) == line.group(1), (table.group(0), line.group(0))
    doc = json.loads(cli("history", "--name", "step-*", "--format", "json", "--fail-on-change", "5")[1])
    (f,) = doc["gate"]["failures"]
    (s,) = [s for s in doc["series"] if s["key"] == "sys.fast"]
    assert f["why"].startswith(table.group(1)) and f["slower"] == pytest.approx(s["changes"][-1]["ratio"] - 1)
