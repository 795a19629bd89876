"""Exports other tools read (google/benchmark JSON, JUnit XML, OpenMetrics), each checked with the
format's own schema or parser: a JSON Schema of google/benchmark's output that real
google/benchmark output (its Python bindings) passes too, a JUnit XSD that pytest's own JUnit
report passes too, and prometheus_client's OpenMetrics parser."""

import json
import math
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tickmark.analysis.stats import Stats
from tickmark.store import Store, exports
from tickmark.store.document import run_model

DATA = Path(__file__).parent / "data"


@pytest.fixture
def stored(env, cli):
    """A run of the synthetic core with ok, skipped, crashed, bandwidth and sub-metric instances."""
    rc, out, err = cli("run", "sys.*", "bw.*", "sync.*", "lat.*", "--rounds", "3", "--name", "exp1", "-q")
    assert rc == 0, err
    st = Store(env)
    run = st.run("exp1")
    results = st.results(run["id"])
    assert {r["status"] for r in results} == {"ok", "skip", "crashed"}
    yield st, run, results
    st.close()


def _tool(name):
    try:
        return __import__(name)
    except ImportError:
        from conftest import need_tool

        need_tool(f"{name} is not installed (pip install -e '.[test]')")


def test_gbench_schema_accepts_real_google_benchmark_output(tmp_path):
    _tool("google_benchmark")
    jsonschema = _tool("jsonschema")
    prog = tmp_path / "bm.py"
    prog.write_text(
        textwrap.dedent(
            """
            import google_benchmark as benchmark

            @benchmark.register
            def add(state):
                while state:
                    sum(range(100))

            @benchmark.register
            def broken(state):
                state.skip_with_error("boom")
                while state:
                    pass

            benchmark.main()
            """
        )
    )
    out = subprocess.run(
        [
            sys.executable,
            str(prog),
            "--benchmark_format=json",
            "--benchmark_min_time=0.001s",
            "--benchmark_repetitions=2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert {b["run_type"] for b in doc["benchmarks"]} == {"iteration", "aggregate"}
    jsonschema.validate(doc, json.loads((DATA / "gbench.schema.json").read_text()))


def test_gbench_export_validates_and_carries_the_headline(stored):
    jsonschema = _tool("jsonschema")
    st, run, results = stored
    doc = json.loads(exports.to_gbench(run_model(st, run)))
    jsonschema.validate(doc, json.loads((DATA / "gbench.schema.json").read_text()))
    by = {}
    for b in doc["benchmarks"]:
        by.setdefault(b["run_name"], []).append(b)
    assert "sys.skipme" not in by  # not measured: not a benchmark result
    (crash,) = by["sys.crashy"]
    assert crash["error_occurred"] is True and crash["error_message"].startswith("crashed")
    fast = Stats.of(next(r for r in results if r["key"] == "sys.fast")).main
    med = next(b for b in by["sys.fast"] if b.get("aggregate_name") == "median")
    assert math.isclose(med["real_time"], fast.ns_per_op)
    iters = [b for b in by["sys.fast"] if b["run_type"] == "iteration"]
    assert len(iters) == fast.rounds == 3
    assert [b["repetition_index"] for b in iters] == [0, 1, 2]
    bw = Stats.of(next(r for r in results if r["key"] == "bw.copy")).main
    med = next(b for b in by["bw.copy"] if b.get("aggregate_name") == "median")
    assert math.isclose(med["real_time"], bw.ns_per_op)
    # each repetition and the median carry a rate, the rate of its entry's own time (64 bytes per operation)
    rated = [b for b in by["bw.copy"] if b["run_type"] == "iteration" or b.get("aggregate_name") == "median"]
    assert len(rated) == 4
    for b in rated:
        assert math.isclose(b["bytes_per_second"], 64 * 1e9 / b["real_time"])


def test_junit_schema_accepts_pytests_own_report(tmp_path):
    xmlschema = _tool("xmlschema")
    t = tmp_path / "test_x.py"
    t.write_text("import pytest\ndef test_a(): pass\ndef test_b(): assert 0\n@pytest.mark.skip\ndef test_c(): pass\n")
    xml = tmp_path / "r.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(t), f"--junitxml={xml}"],
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
    )
    xmlschema.XMLSchema(str(DATA / "junit.xsd")).validate(str(xml))


def test_junit_export_validates_and_fails_crashes_and_gated(stored, tmp_path):
    from tickmark.analysis.verdict import Failure, Gate

    xmlschema = _tool("xmlschema")
    st, run, results = stored
    gate = Gate("base", 0.05, "")
    gate.failures = [
        Failure("exp1", "sys.fast", "slower", "+12.0%", 0.12),
        Failure("exp1", "sys.gone", "not measured", "not in B"),
    ]
    text = exports.to_junit({"run": run, "results": results}, gate=gate)
    f = tmp_path / "j.xml"
    f.write_text(text)
    schema = xmlschema.XMLSchema(str(DATA / "junit.xsd"))
    schema.validate(str(f))
    from xml.etree import ElementTree as ET

    suite = ET.parse(f).getroot().find("testsuite")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {r["key"] for r in results} | {"sys.gone"}
    assert cases["sys.crashy"].find("failure").get("type") == "crashed"
    assert cases["sys.fast"].find("failure").get("type") == "gate"
    assert "12.0 % slower than base" in cases["sys.fast"].find("failure").get("message")
    assert "not measured (not in B); base measured it" in cases["sys.gone"].find("failure").get("message")
    assert cases["sys.skipme"].find("skipped") is not None
    assert cases["bw.copy"].find("failure") is None and "MB/s" in cases["bw.copy"].find("system-out").text
    assert suite.get("failures") == "3" and suite.get("skipped") == "1" and suite.get("tests") == str(len(results) + 1)
    # a run that did not finish: it fails, and so does each benchmark it planned and never started
    cut = dict(run, status="incomplete", notes={"incomplete": "killed"}, hello={"order": ["sys.fast", "late.one"]})
    f.write_text(exports.to_junit({"run": cut, "results": results}))
    schema.validate(str(f))
    cases = {c.get("name"): c for c in ET.parse(f).getroot().find("testsuite").findall("testcase")}
    assert cases["run"].find("failure").get("message") == "the run is incomplete: killed"
    assert cases["late.one"].find("failure").get("type") == "not run"


def test_openmetrics_export_parses_with_prometheus_client(stored):
    _tool("prometheus_client")
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

    st, run, results = stored
    text = exports.to_openmetrics({"run": run, "results": results})
    fams = {f.name: f for f in text_string_to_metric_families(text)}
    assert fams["tickmark_op_time_seconds"].unit == "seconds"
    fast = Stats.of(next(r for r in results if r["key"] == "sys.fast")).main
    (s,) = [x for x in fams["tickmark_op_time_seconds"].samples if x.labels["key"] == "sys.fast"]
    assert math.isclose(s.value, fast.ns_per_op / 1e9) and s.labels["run"] == "exp1"
    states = {
        (x.labels["key"], x.labels["tickmark_result_status"]): x.value
        for x in fams["tickmark_result_status"].samples
        if x.value == 1
    }
    assert states == {(r["key"], r["status"]): 1 for r in results}
    assert fams["tickmark_result_status"].type == "stateset" and fams["tickmark_run"].type == "info"
    (bw,) = fams["tickmark_bandwidth_bytes_per_second"].samples
    assert bw.labels["key"] == "bw.copy" and bw.value > 0


def test_openmetrics_escapes_label_values(stored):
    _tool("prometheus_client")
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

    st, run, results = stored
    run = dict(run, name='we"ird\\name', notes={"labels": {"build id": "a\nb"}})
    fams = {f.name: f for f in text_string_to_metric_families(exports.to_openmetrics({"run": run, "results": results}))}
    (info,) = fams["tickmark_run"].samples
    assert info.labels["run"] == 'we"ird\\name' and info.labels["label_build_id"] == "a\nb"


def test_export_command_writes_each_format_and_gates_against_a_baseline(stored, cli, tmp_path):
    _tool("prometheus_client")
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

    rc, out, err = cli("export", "exp1", "--format", "gbench")
    assert rc == 0 and json.loads(out)["context"]["tickmark_run"] == "exp1"
    rc, out, err = cli("export", "exp1", "--format", "openmetrics")
    assert rc == 0 and out.endswith("# EOF\n") and list(text_string_to_metric_families(out))
    # a baseline run, then the same run as a "slow" one: nothing is significantly slower than itself
    f = tmp_path / "j.xml"
    rc, out, err = cli("export", "exp1", "--format", "junit", "--baseline", "exp1", "--fail-above", "5%", "-o", str(f))
    assert rc == 0, err
    assert 'type="gate"' not in f.read_text() and 'type="crashed"' in f.read_text()
    rc, out, err = cli("export", "exp1", "--format", "gbench", "--baseline", "exp1", "--fail-above", "5")
    assert rc == 2 and "--baseline and --fail-above go together, with --format junit" in err
    rc, out, err = cli("export", "exp1", "--format", "junit", "--baseline", "exp1", "--fail-above", "lots")
    assert rc == 2 and "bad --fail-above 'lots'" in err and err.count("\n") == 1


# ---------------------------------------------------------------- what each export may claim
def _measured_store(path, governor=None, labels=None):
    """A stored run measured on a busy machine: a bandwidth instance whose rounds ran at 100, 80
    and 60 ns per operation (the best sample 50 ns), and a CPU-bound instance on a CPU 60 % of
    the time (task-clock 60 % of the wall time) beside one whose core counted no task-clock."""
    from tickmark.analysis import stats

    st = Store(str(path))
    fp = {"target_uri": "local", "arch": "x86_64", "governor": governor, "flags": ["virtualized"]}
    rid = st.create_run(
        name="busy",
        suite=None,
        patterns=["*"],
        fingerprint=fp,
        hello={"counters": ["task_clock"]},
        status="complete",
        started=1_700_000_000,
        finished=1_700_000_100,
        notes={"rounds": 3, "labels": labels or {}},
    )

    def add(key, stat, bpo, per_round, cpu_share):
        ss = []
        for rnd, ns_op in enumerate(per_round, 1):
            for i, f in enumerate((1.0, 1.02, 0.98, 1.01, 0.99)):
                ns = int(ns_op * f * 1000)
                if rnd == 1 and i == 0 and bpo:
                    ns = 50 * 1000  # the best sample
                s = {"round": rnd, "i": i, "iters": 1000, "ops": 1000, "ns": ns}
                if cpu_share:
                    s.update(ctr_ops=1000, ctr={"task_clock": int(ns * cpu_share)})
                ss.append(s)
        summary = stats.summarize(ss, stat=stat, bytes_per_op=bpo)
        res = st.add_result(rid, key=key, bench=key, params={}, stat=stat, meta={"bytes_per_op": bpo}, stats=summary)
        for rnd in range(1, len(per_round) + 1):
            st.add_samples(res, rnd, [s for s in ss if s["round"] == rnd])

    add("mem.bw_copy", "max", 4096, (100, 80, 60), 0.0)
    add("cpu.busy", "median", 0, (1000, 1000, 1000), 0.6)
    add("sys.bare", "median", 0, (200, 210, 190), 0.0)
    return st, st.run("busy")


def _round_medians(st, key):
    from tickmark.analysis import estimators, stats

    r = next(r for r in st.results(st.run("busy")["id"]) if r["key"] == key)
    vals, rounds = stats.metric_values(st.samples(r["id"]))
    return estimators.round_medians(vals, rounds)


def test_gbench_repetitions_are_the_rounds_own_times(tmp_path):
    """A bandwidth instance's repetitions are its rounds' median times, not round rates turned
    into times through the best sample's rate (that exported 100 ns rounds as 200 ns, with the
    median outside them)."""
    st, run = _measured_store(tmp_path / "s.db")
    doc = json.loads(exports.to_gbench(run_model(st, run)))
    bw = [b for b in doc["benchmarks"] if b["run_name"] == "mem.bw_copy"]
    reps = [b["real_time"] for b in bw if b["run_type"] == "iteration"]
    assert reps == pytest.approx(_round_medians(st, "mem.bw_copy"), rel=1e-12)
    assert reps == pytest.approx([100.0, 80.0, 60.0], rel=0.02)
    med = next(b for b in bw if b.get("aggregate_name") == "median")
    assert min(reps) <= med["real_time"] <= max(reps)
    rated = [b for b in bw if b["run_type"] == "iteration" or b.get("aggregate_name") == "median"]
    assert len(rated) == 4
    for b in rated:
        assert b["bytes_per_second"] == pytest.approx(4096e9 / b["real_time"])


def test_gbench_cpu_time_is_task_clock_and_the_context_claims_only_what_was_recorded(tmp_path):
    jsonschema = _tool("jsonschema")
    st, run = _measured_store(tmp_path / "s.db", labels={"build": "1234", "board": "rk3588"})
    doc = json.loads(exports.to_gbench(run_model(st, run)))
    jsonschema.validate(doc, json.loads((DATA / "gbench.schema.json").read_text()))
    busy = [b for b in doc["benchmarks"] if b["run_name"] == "cpu.busy"]
    for b in busy:  # on the CPU 60 % of the time: cpu_time is task-clock, not the wall time
        assert b["cpu_time"] == pytest.approx(0.6 * b["real_time"], rel=1e-3) and "label" not in b
    bare = [b for b in doc["benchmarks"] if b["run_name"] == "sys.bare"]
    assert all(b["cpu_time"] == b["real_time"] and b["label"] == exports.NO_TASK_CLOCK for b in bare)
    ctx = doc["context"]
    assert "cpu_scaling_enabled" not in ctx  # the governor was not recorded: no claim either way
    assert ctx["label:build"] == "1234" and ctx["label:board"] == "rk3588"
    for gov, scaling in (("performance", False), ("schedutil", True)):
        st2, run2 = _measured_store(tmp_path / f"{gov}.db", governor=gov)
        assert json.loads(exports.to_gbench(run_model(st2, run2)))["context"]["cpu_scaling_enabled"] is scaling
        st2.close()
    st.close()


def test_openmetrics_says_which_statistic_each_value_is_and_carries_task_clock_and_round_cv(tmp_path):
    _tool("prometheus_client")
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

    st, run = _measured_store(tmp_path / "s.db")
    results = {r["key"]: r for r in st.results(run["id"])}
    fams = {
        f.name: f
        for f in text_string_to_metric_families(exports.to_openmetrics({"run": run, "results": list(results.values())}))
    }
    times = {(x.labels["key"], x.labels["stat"]): x.value for x in fams["tickmark_op_time_seconds"].samples}
    bw = Stats.of(results["mem.bw_copy"]).main
    # the bandwidth instance's time is its median time, labelled so (its headline is a max rate)
    assert times == {
        ("mem.bw_copy", "median"): pytest.approx(bw.ns_per_op / 1e9),
        ("cpu.busy", "median"): pytest.approx(Stats.of(results["cpu.busy"]).main.ns_per_op / 1e9),
        ("sys.bare", "median"): pytest.approx(Stats.of(results["sys.bare"]).main.ns_per_op / 1e9),
    }
    (bps,) = fams["tickmark_bandwidth_bytes_per_second"].samples
    assert bps.labels["stat"] == "max" and bps.value == pytest.approx(bw.value * 1e6)
    (cpu,) = fams["tickmark_op_cpu_time_seconds"].samples  # only where task-clock was counted
    assert cpu.labels["key"] == "cpu.busy" and cpu.value == pytest.approx(0.6 * 1000e-9, rel=1e-2)
    cvs = {x.labels["key"]: x.value for x in fams["tickmark_round_cv_ratio"].samples}
    assert cvs["mem.bw_copy"] == pytest.approx(Stats.of(results["mem.bw_copy"]).main.round_cv)
    assert set(cvs) == set(results)
    st.close()


def test_openmetrics_min_headline_is_labelled_min(stored):
    _tool("prometheus_client")
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

    st, run, results = stored
    fams = {f.name: f for f in text_string_to_metric_families(exports.to_openmetrics({"run": run, "results": results}))}
    lat = next(r for r in results if r["key"] == "lat.sweep[size=1024]")
    got = {x.labels["stat"]: x.value for x in fams["tickmark_op_time_seconds"].samples if x.labels["key"] == lat["key"]}
    d = Stats.of(lat).main
    assert got == {"median": pytest.approx(d.ns_per_op / 1e9), "min": pytest.approx(d.value / 1e9)}
