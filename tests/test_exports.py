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

DATA = Path(__file__).parent / "data"


@pytest.fixture
def stored(env, cli):
    """A run of the synthetic core with ok, skipped, crashed, bandwidth and sub-metric instances."""
    rc, out, err = cli("run", "sys.*", "bw.*", "sync.*", "--rounds", "3", "--name", "exp1", "-q")
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
    doc = json.loads(exports.to_gbench(run, results))
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
    assert math.isclose(med["bytes_per_second"], bw.value * 1e6)


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
    text = exports.to_junit(run, results, gate=gate)
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
    f.write_text(exports.to_junit(cut, results))
    schema.validate(str(f))
    cases = {c.get("name"): c for c in ET.parse(f).getroot().find("testsuite").findall("testcase")}
    assert cases["run"].find("failure").get("message") == "the run is incomplete: killed"
    assert cases["late.one"].find("failure").get("type") == "not run"


def test_openmetrics_export_parses_with_prometheus_client(stored):
    _tool("prometheus_client")
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

    st, run, results = stored
    text = exports.to_openmetrics(run, results)
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
    fams = {f.name: f for f in text_string_to_metric_families(exports.to_openmetrics(run, results))}
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
