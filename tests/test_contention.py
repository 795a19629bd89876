"""The one rule for disturbed evidence (analysis/verdict.py), held by every decision alike:
compare's rows, the gate of compare --fail-above, the JUnit export and history --fail-on-change,
the change-point search and the code-size table. On stores of the synthetic core
(tests/fakecore.py), whose `contend` mode keeps one benchmark off the CPU (its wall time three
times as long, its on-CPU time as it was) as other work on a busy machine does; the same
properties on the real core under a real load are in test_busy.py."""

import json
import re
import xml.etree.ElementTree as ET

import pytest

from conftest import copy_store, use_synthetic_core
from tickmark.analysis import verdict
from tickmark.cli import main

BENCH = "sys.fast"
SLOW = f"cflags=-O0,slower={BENCH}:3"  # the regression: three times the time, on and off the CPU
LOADED = f"contend={BENCH}:3"  # kept off the CPU: three times the wall time, the same CPU time


def _mode(*parts):
    return ",".join(p for p in parts if p)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Runs of sys.fast: `quiet`, `loaded` (the same build kept off the CPU), `slow` (-O0) and
    `slow-loaded`; `noisy-a`/`noisy-b` whose on-CPU time jitters by +-40 % while one of them is
    kept off the CPU; a series `h-1..10` labelled build=1..10, -O0 from build 6, builds 3 and 8
    kept off the CPU; a series `f-1..10` alike throughout, builds 3 and 8 kept off the CPU."""
    folder = tmp_path_factory.mktemp("contention")
    with pytest.MonkeyPatch.context() as mp:
        store = use_synthetic_core(mp, folder)

        def run(name, mode, *more):
            mp.setenv("FAKECORE_MODE", mode)
            assert main(["run", BENCH, "--name", name, "-q", "--max-rounds", "3", *more]) == 0

        run("quiet", "")
        run("loaded", LOADED)
        run("slow", SLOW)
        run("slow-loaded", _mode(SLOW, LOADED))
        # seeded: the fastest samples of two jittering sides decide the gate's bound, by chance
        run("noisy-a", f"cpujitter={BENCH}:0.4", "--seed", "11")
        run("noisy-b", _mode(LOADED, f"cpujitter={BENCH}:0.4"), "--seed", "12")
        for i in range(1, 11):
            busy = LOADED if i in (3, 8) else ""
            run(f"h-{i}", _mode(SLOW if i >= 6 else "", busy), "--label", f"build={i}")
            run(f"f-{i}", busy, "--label", f"build={i}")
        for i in range(1, 11):  # 3x from build 6, 3.3x from build 8; builds 6 and 10 jitter off the CPU
            slow = "" if i < 6 else SLOW if i < 8 else f"cflags=-O0,slower={BENCH}:3.3"
            busy = _mode(LOADED, f"cpujitter={BENCH}:0.4") if i in (6, 10) else ""
            run(f"w-{i}", _mode(slow, busy), "--label", f"build={i}", "--seed", str(i))
    return store


@pytest.fixture
def store(made, env):
    copy_store(made, env)
    return str(env)


def cases_with(xml, tag):
    """The names of the JUnit test cases that hold a <tag> (failure, error)."""
    return sorted(tc.get("name") for tc in ET.fromstring(xml).iter("testcase") if tc.find(tag) is not None)


def failed_cases(xml):
    return cases_with(xml, "failure")


def errored_cases(xml):
    return cases_with(xml, "error")


def headline(cli, a, b):
    rc, out, err = cli("compare", a, b, BENCH, "--format", "json")
    assert rc == 0, err
    (row,) = [r for r in json.loads(out)["comparisons"][0]["rows"] if r["metric"] == ""]
    return row


@pytest.mark.parametrize("a,b", [("quiet", "loaded"), ("loaded", "quiet")])
def test_the_same_build_kept_off_the_cpu_passes_every_gate(store, cli, a, b):
    """Both ways round: the wall time says 3x slower (or faster), the rule decides on task-clock
    and every gate passes; what decided is said in the row and the JSON."""
    row = headline(cli, a, b)
    assert row["verdict"] == verdict.SAME and row["decided"]["on"] == "task-clock", row
    assert row["wall_verdict"] in (verdict.SLOWER, verdict.FASTER, verdict.INCONCLUSIVE)
    assert row["note"].startswith("decided on task-clock (") and "contention: on CPU" in row["note"]
    rc, out, err = cli("compare", "--baseline", a, b, "--fail-above", "5%")
    assert rc == 0 and "no regression above 5%" in err, err
    assert "(decided on" in out and "(task-clock)" in out and "slower" not in out.split("counters")[0], out
    rc, xml, err = cli("export", b, "--format", "junit", "--baseline", a, "--fail-above", "5%")
    assert rc == 0 and failed_cases(xml) == [] and errored_cases(xml) == [], xml


@pytest.mark.parametrize("a,b", [("quiet", "slow-loaded"), ("loaded", "slow")])
def test_a_regression_kept_off_the_cpu_fails_every_gate(store, cli, a, b):
    """-O2 against -O0 with one side kept off the CPU, both ways round: slower by task-clock,
    and compare, the JUnit export and the code-size words all say so."""
    row = headline(cli, a, b)
    assert row["verdict"] == verdict.SLOWER and row["decided"]["on"] == "task-clock", row
    assert row["decided"]["ratio"] == pytest.approx(3, rel=0.05)
    rc, out, err = cli("compare", "--baseline", a, b, "--fail-above", "5%")
    assert rc == 1 and re.search(
        rf"1 regression\(s\) above 5% against {a} \(fakecc -O2\): {BENCH} \+(19\d|20\d)\.\d%", err
    ), err
    rc, xml, err = cli("export", b, "--format", "junit", "--baseline", a, "--fail-above", "5%")
    assert rc == 0 and failed_cases(xml) == [BENCH], xml


def test_cannot_tell_is_its_own_exit_status(store, cli):
    """Wall time kept off the CPU and an on-CPU time too noisy to decide: inconclusive, exit 3
    (never a silent pass); --inconclusive=pass and =fail choose; JUnit says error, or failure."""
    row = headline(cli, "noisy-a", "noisy-b")
    assert row["verdict"] == verdict.INCONCLUSIVE and row["decided"]["on"] is None
    assert set(row["decided"]) == {"on", "why", "cpu", "floor"} and len(row["decided"]["floor"]["ci"]) == 2
    assert row["note"].startswith("cannot tell: contention: on CPU") and "task-clock inconclusive" in row["note"]
    gate = ("compare", "--baseline", "noisy-a", "noisy-b", BENCH, "--fail-above", "5%")
    rc, _, err = cli(*gate)
    assert (
        rc == verdict.EXIT_INCONCLUSIVE == 3 and "cannot be told apart from noisy-a (fakecc -O2), inconclusive" in err
    ), err
    rc, _, err = cli(*gate, "--inconclusive=pass")
    assert rc == 0 and "passed (--inconclusive=pass)" in err, err
    rc, _, err = cli(*gate, "--inconclusive=fail")
    assert rc == 1 and "failed (--inconclusive=fail)" in err, err
    junit = ("export", "noisy-b", "--format", "junit", "--baseline", "noisy-a", "--fail-above", "5%")
    rc, xml, _ = cli(*junit)
    assert rc == 0 and errored_cases(xml) == [BENCH] and failed_cases(xml) == []
    assert 'type="inconclusive"' in xml and "cannot tell against noisy-a" in xml and "contention: on CPU" in xml
    assert failed_cases(cli(*junit, "--inconclusive", "fail")[1]) == [BENCH]
    xml = cli(*junit, "--inconclusive", "pass")[1]
    assert failed_cases(xml) == [] and errored_cases(xml) == []
    rc, _, err = cli("compare", "noisy-a", "noisy-b", "--inconclusive", "pass")
    assert rc == 2 and "--inconclusive goes with --fail-above" in err


def test_history_gives_a_contended_run_its_task_clock_level(store, cli):
    """Builds 3 and 8 kept off the CPU: their task-clock level stands in (said in every view), the
    step is found at build 6 and the gate fails; the same series without the step finds nothing
    and passes."""
    rc, out, err = cli("history", "--name", "h-*", "--by", "label:build", "--fail-on-change", "5")
    assert rc == 1 and re.search(rf"{BENCH} \+(19\d|20\d)\.\d% since label:build 6", err), err
    flat = " ".join(out.split())
    # kept off the CPU for 3 to 3.6 times its CPU time: on a CPU 28-33 % of its wall time
    assert re.search(r"decided on task-clock: contention at label:build 3 \(on CPU (2[89]|3[0-4])%", flat), flat
    assert "label:build 8 (on CPU" in flat
    doc = json.loads(cli("history", "--name", "h-*", "--by", "label:build", "--format", "json")[1])
    (s,) = doc["series"]
    assert [c["index"] for c in s["changes"]] == [5]
    marked = [p["order"] for p in s["points"] if p["decided"] == "task-clock"]
    assert marked == ["3", "8"] and all(p["wall"] > 2.5 * p["value"] for p in s["points"] if p["decided"])
    md = cli("history", "--name", "h-*", "--by", "label:build", "--format", "md")[1]
    assert "decided on task-clock: contention at label:build 3" in md
    html = cli("history", "--name", "h-*", "--by", "label:build", "--format", "html")[1]
    assert "decided on task-clock: contention at label:build 3" in html
    rc, out, err = cli("history", "--name", "f-*", "--by", "label:build", "--fail-on-change", "5")
    assert rc == 0 and "changes" not in out.split("\n")[0].replace("0 changes", ""), out
    assert "no change for the worse above 5%" in err


def test_run_ends_saying_how_disturbed_it_was(env, cli, monkeypatch):
    """A run kept off the CPU gets extra rounds within its budget and ends with one line naming
    the figures that affects; a quiet run says that none was."""
    monkeypatch.setenv("FAKECORE_MODE", LOADED)
    rc, out, err = cli("run", BENCH, "--name", "busy", "-q", "--max-rounds", "5")
    assert rc == 0, err
    last = " ".join(out.strip().split("\n")[-3:])
    assert re.search(r"disturbed: 1 of 1 results had their wall time kept off the CPU \(\d+ of \d+ samples", last)
    assert re.search(rf"{BENCH} \(on CPU [23]\d%\)", last) and "decide these on task-clock" in last, out
    from tickmark.store import Store

    run = Store(str(env)).run("busy")
    d = run["notes"]["disturbed"]
    assert d["of"] == 1 and d["results"][0][0] == BENCH and d["results"][0][2] >= 1  # extra rounds
    assert run["notes"]["extended"][BENCH] >= 1
    monkeypatch.setenv("FAKECORE_MODE", "")
    rc, out, err = cli("run", BENCH, "--name", "calm", "-q")
    assert rc == 0 and "disturbed: no result of 1 (0 of" in out.strip().split("\n")[-1], out


def test_an_undecided_row_whose_cpu_interval_is_under_the_threshold_passes_the_gate(store, cli):
    """The gate asks "slower by more than the threshold?": a row the one rule left undecided
    passes when its task-clock interval lies wholly under the threshold, and the gate says so;
    the same row against a threshold inside its interval stays inconclusive."""
    row = headline(cli, "noisy-a", "noisy-b")
    bound = verdict.cpu_bound(row)
    assert bound is not None and 0.05 < bound < 1.5, row
    wide = f"{(bound + 0.2) * 100:.0f}%"
    gate = ("compare", "--baseline", "noisy-a", "noisy-b", BENCH, "--fail-above")
    rc, _, err = cli(*gate, wide)
    assert rc == 0 and f"no regression above {wide}" in err, err
    assert re.search(r"1 benchmark\(s\) with contended wall time held to the gate by their task-clock interval", err)
    assert f"{BENCH} (at most {bound * 100:+.1f}%)" in err, err
    rc, xml, _ = cli("export", "noisy-b", "--format", "junit", "--baseline", "noisy-a", "--fail-above", wide)
    assert rc == 0 and errored_cases(xml) == [] and failed_cases(xml) == [], xml
    assert cli(*gate, "5%")[0] == verdict.EXIT_INCONCLUSIVE


def test_a_contended_run_whose_cpu_time_rarely_reaches_its_floor_takes_more_samples(env, cli, monkeypatch):
    """Kept off the CPU, its on-CPU time jittering by +-40 % (a core shared with other work): too
    few samples reach the floor that compare holds a contended pair to, so an extra round of its
    own takes three times the samples, and the run's last line says so. Kept off the CPU with a
    steady on-CPU time, the floor is reached in every sample and no round takes more."""
    from tickmark.store import Store

    monkeypatch.setenv("FAKECORE_MODE", _mode(LOADED, f"cpujitter={BENCH}:0.4"))
    rc, out, err = cli("run", BENCH, "--name", "shared", "-q", "--max-rounds", "5", "--samples", "5")
    assert rc == 0, err
    st = Store(str(env))
    run = st.run("shared")
    assert run["notes"]["floor_rounds"] >= 1 and run["notes"]["disturbed"]["floor_rounds"] >= 1, run["notes"]
    (res,) = st.results(run["id"])
    per_round = {}
    for s in st.samples(res["id"]):
        per_round[s["round"]] = per_round.get(s["round"], 0) + 1
    assert [per_round[r] for r in (1, 2, 3)] == [5, 5, 5] and 15 in list(per_round.values())[3:], per_round
    last = " ".join(out.strip().split("\n")[-3:])
    assert "with more samples, to reach the task-clock floor" in last, out
    monkeypatch.setenv("FAKECORE_MODE", LOADED)
    rc, out, err = cli("run", BENCH, "--name", "steady", "-q", "--max-rounds", "5", "--samples", "5")
    run = Store(str(env)).run("steady")
    assert rc == 0 and not run["notes"].get("floor_rounds") and run["notes"]["extended"][BENCH] >= 1, run["notes"]


def test_the_history_gate_holds_an_undecided_newest_level_to_the_level_before_that(store, cli):
    """A 3x step at build 6 and a smaller one at build 8 whose two levels, each with a run kept
    off the CPU and jittering on it, cannot be told apart: the newest level is held to the level
    before build 6's change instead, and the gate fails there (never exit 3 on a 3.3x regression)."""
    doc = json.loads(cli("history", "--name", "w-*", "--by", "label:build", "--format", "json")[1])
    (s,) = doc["series"]
    assert [c["index"] for c in s["changes"]] == [5, 7], s["changes"]
    rc, out, err = cli("history", "--name", "w-*", "--by", "label:build", "--fail-on-change", "5")
    assert rc == 1 and re.search(rf"{BENCH} \+2\d\d\.\d% since label:build 6", err), err
