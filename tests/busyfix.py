"""The busy-machine checks of the gate, one try: a series of runs of one CPU benchmark on the
real core, half built -O2 then half -O0, one run of each half measured under the defined load
(loadfix.under_load, in this session), and what compare, the JUnit export and history make of
pairs and series of them. tools/busy_check.py counts them over many tries of ten runs (builds 3
and 8 loaded; docs/compare.md, docs/history.md); tests/test_busy.py holds one short try."""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from loadfix import under_load

BENCH = "cpu.idea"
THRESHOLD = "5%"


@dataclass(frozen=True)
class Plan:
    runs: int = 10
    step: int = 6  # the first -O0 build
    loaded: tuple = (3, 8)  # builds measured under the load: one -O2, one -O0


NIGHTLY = Plan()  # the 5+5 series of the acceptance
SHORT = Plan(6, 4, (2, 5))  # 3+3, for the test suite


def tickmark(store, *args):
    """The command line as a child process of this session -> (exit status, stdout, stderr)."""
    env = dict(os.environ, TICKMARK_STORE=str(store), COLUMNS="100")
    p = subprocess.run([sys.executable, "-m", "tickmark.cli", *args], env=env, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def name(i):
    return f"b-{i}"


def make_series(store, bench=BENCH, plan=NIGHTLY):
    """The runs: builds before plan.step -O2, the others -O0, plan.loaded ones under the load."""
    for i in range(1, plan.runs + 1):
        argv = ["run", bench, "--cflags", "-O2" if i < plan.step else "-O0", "--name", name(i), "-q"]
        argv += ["--label", f"build={i}"]
        if i in plan.loaded:
            with under_load():
                rc, out, err = tickmark(store, *argv)
        else:
            rc, out, err = tickmark(store, *argv)
        if rc != 0:
            raise AssertionError(f"run {name(i)} exited {rc}: {err[-500:]}")


def compare_gate(store, a, b, bench=BENCH, *policy):
    """(exit status of compare --fail-above, its stderr, the headline row of the JSON); policy:
    more options of the gate (--inconclusive=pass)."""
    rc, _, err = tickmark(store, "compare", "--baseline", name(a), name(b), bench, "--fail-above", THRESHOLD, *policy)
    _, out, _ = tickmark(store, "compare", name(a), name(b), bench, "--format", "json")
    (row,) = [r for r in json.loads(out)["comparisons"][0]["rows"] if r["metric"] == ""]
    return rc, err, row


def junit_failed(store, a, b, bench=BENCH):
    """Does the JUnit export of b against a fail (or error) the benchmark's test case?"""
    rc, xml, err = tickmark(store, "export", name(b), "--format", "junit", "--baseline", name(a), "--fail-above", "5")
    if rc != 0:
        raise AssertionError(f"export exited {rc}: {err[-300:]}")
    for tc in ET.fromstring(xml).iter("testcase"):
        if tc.get("name") == bench:
            return tc.find("failure") is not None, tc.find("error") is not None
    raise AssertionError(f"no test case {bench} in the JUnit export")


def history_gate(store, builds, bench=BENCH):
    """(exit status of history --fail-on-change over the runs of these builds, the JSON model)."""
    names = [f"--name={name(i)}" for i in builds]
    rc, _, err = tickmark(store, "history", bench, *names, "--by", "label:build", "--fail-on-change", "5")
    _, out, _ = tickmark(store, "history", bench, *names, "--by", "label:build", "--format", "json")
    return rc, json.loads(out)


def said_what_decided(row):
    """No direction from contended wall time: a row decided by the one rule says what decided it
    (task-clock, or that it cannot tell), and a row whose median on-CPU shares already show the
    contention was decided by it."""
    from tickmark.analysis.verdict import contended

    if row.get("decided"):
        note = row.get("note") or ""
        return note.startswith("decided on task-clock") or note.startswith("cannot tell")
    oa, ob = ((row.get(f"counters_{s}") or {}).get("on_cpu") for s in "ab")
    return not (contended(oa) or contended(ob))


def same_build_pairs(plan=NIGHTLY):
    """The -O2/-O2 pairs, one side quiet and the other loaded, both ways round."""
    busy = plan.loaded[0]
    return ((1, busy), (busy, busy + 1))


def checks(store, bench=BENCH, plan=NIGHTLY):
    """What one try of the series shows -> {check: passed}."""
    out = {}
    said = []
    busy2, busy0, step, runs = *plan.loaded, plan.step, plan.runs
    (q, l2), (_, q2) = same_build_pairs(plan)
    for a, b, want, what in (
        (1, busy0, 1, "-O2 quiet / -O0 loaded"),
        (busy2, step, 1, "-O2 loaded / -O0 quiet"),
        (q, l2, 0, "-O2 quiet / -O2 loaded"),
        (l2, q2, 0, "-O2 loaded / -O2 quiet"),
    ):
        rc, _, row = compare_gate(store, a, b, bench)
        out[f"compare {what}: exit {want}"] = rc == want
        failed, errored = junit_failed(store, a, b, bench)
        out[f"JUnit {what}: {'fails' if want else 'passes'}"] = failed == bool(want) and not errored
        said.append(said_what_decided(row))
    out["every verdict says what decided it"] = all(said)
    rc, _ = history_gate(store, (1, busy2, step, busy0), bench)
    out[f"history of builds 1, {busy2} (loaded), {step}, {busy0} (loaded): exit 1"] = rc == 1
    for builds in (range(1, step), range(step, runs + 1)):
        rc, doc = history_gate(store, builds, bench)
        out[f"history of builds {builds[0]}-{builds[-1]} (one loaded): no change, exit 0"] = rc == 0 and not any(
            s["changes"] for s in doc["series"]
        )
    rc, doc = history_gate(store, range(1, runs + 1), bench)
    (s,) = doc["series"]
    found = [s["points"][c["index"]]["order"] for c in s["changes"]]
    half = f"{step - 1}+{runs - step + 1}"
    out[f"history {half}: a change at build {step}"] = str(step) in found
    out[f"history {half}: the change at build {step} (and no other)"] = found == [str(step)]
    out[f"history {half}: the gate exits 1"] = rc == 1
    return out
