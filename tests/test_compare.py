"""compare: verdicts on synthetic runs with a known shift and with none, refusal with too few
samples, --fail-above, JSON output, exported files; the U-test against scipy."""

import json

import numpy as np
import pytest

from tickmark.analysis import compare as cmp
from tickmark.cli import main
from tickmark.report.terminal.compare import render
from tickmark.store import Store
from tickmark.store.refs import run_compare


def make_run(
    store,
    name,
    shift=1.0,
    rounds=3,
    samples=5,
    seed=0,
    round_sd=0.01,
    sample_sd=0.01,
    benches=("sys.a", "sys.b", "cpu.x", "cpu.y"),
    ctr=True,
):
    """A stored run whose ns/op per sample is base * shift * round effect * sample noise."""
    rng = np.random.default_rng(seed)
    rid = store.create_run(
        name=name,
        patterns=["*"],
        status="complete",
        fingerprint={"variant": f"cc {name}", "cflags": name},
        hello={
            "counters": ["task_clock", "context_switches", "page_faults"],
            "counters_unsupported": "cycles,instructions",
            "kernel_excluded": 0,
        },
    )
    for i, bench in enumerate(benches):
        base = 100.0 * (i + 1)
        res = store.add_result(
            rid, key=bench, bench=bench, meta={"stat": "median"}, stats={"": {"determinism": 1.0, "flags": []}}
        )
        for r in range(1, rounds + 1):
            reff = rng.lognormal(0, round_sd)
            ss = []
            for k in range(samples):
                ops = 10000
                ns = int(base * shift * reff * rng.lognormal(0, sample_sd) * ops)
                s = {"i": k, "iters": ops, "ops": ops, "ns": ns}
                if ctr:
                    s.update(ctr_ops=ops, ctr={"task_clock": ns, "context_switches": 1, "page_faults": 0})
                ss.append(s)
            store.add_samples(res, r, ss)
    return rid


@pytest.fixture
def store(tmp_path):
    st = Store(tmp_path / "r.db")
    yield st
    st.close()


def rows_by_key(pair, metric=""):
    return {r["key"]: r for r in pair["rows"] if r["metric"] == metric}


def test_known_shift_is_called_slower(store):
    make_run(store, "a", seed=1)
    make_run(store, "b", shift=1.30, seed=2)
    sides, pairs = run_compare(store, ["a", "b"])
    rows = rows_by_key(pairs[0][1])
    for key, r in rows.items():
        assert r["verdict"] == cmp.SLOWER, (key, r)
        assert 1.2 < r["ratio"] < 1.4
        assert r["ci"][0] > 0.1 and r["p"] < 0.01
        assert cmp.multiple(r["ratio"]).endswith("slower")
    tc = rows_by_key(pairs[0][1], cmp.TASK_CLOCK)  # on-CPU time from the task-clock counter
    assert set(tc) == set(rows) and all(r["verdict"] == cmp.SLOWER for r in tc.values())
    fam = pairs[0][1]["families"]
    assert set(fam) == {"sys", "cpu", "sys (task-clock)", "cpu (task-clock)"}
    assert 1.2 < fam["cpu"]["geomean_time_ratio"] < 1.4


def test_faster_and_bandwidth_direction():
    rng = np.random.default_rng(3)
    a = rng.lognormal(np.log(100), 0.01, 15)
    b = a / 2 * rng.lognormal(0, 0.01, 15)
    rd = np.repeat([1, 2, 3], 5)
    assert cmp.verdict(a, rd, b, rd)["verdict"] == cmp.FASTER
    assert cmp.verdict(a, rd, b, rd, higher_is_better=True)["verdict"] == cmp.SLOWER
    assert cmp.multiple(0.5) == "2.00× faster" and cmp.multiple(11.2) == "11.2× slower"
    assert cmp.multiple(1.003) == "1.00×" and cmp.multiple(1 / 118.0) == "118× faster"


def test_no_shift_is_not_called_different(store):
    make_run(store, "a", seed=4)
    make_run(store, "b", seed=5)
    _, pairs = run_compare(store, ["a", "b"])
    for r in pairs[0][1]["rows"]:
        assert r["verdict"] not in (cmp.FASTER, cmp.SLOWER), r
        assert 0.95 < r["ratio"] < 1.05


def test_false_positive_rate_of_the_rule_below_5_percent():
    """Same distribution on both sides, with a between-round (process) effect as on real
    machines: fewer than 5 % of the comparisons may be called faster or slower."""
    rng = np.random.default_rng(6)
    rd = np.repeat([1, 2, 3], 5)
    called = 0
    n = 400
    for _ in range(n):
        sides = []
        for _side in range(2):
            reff = np.repeat(rng.lognormal(0, 0.02, 3), 5)
            sides.append(100 * reff * rng.lognormal(0, 0.01, 15))
        v = cmp.verdict(sides[0], rd, sides[1], rd, rng=rng)["verdict"]
        called += v in (cmp.FASTER, cmp.SLOWER)
    assert called / n < 0.05, called


def test_too_few_samples_is_refused(store):
    make_run(store, "a", rounds=1, samples=5, seed=7)
    make_run(store, "b", rounds=1, samples=5, shift=2.0, seed=8)
    _, pairs = run_compare(store, ["a", "b"])
    for r in pairs[0][1]["rows"]:
        assert r["verdict"] == cmp.FEW
        assert "need 9+" in r["note"]
        assert 1.8 < r["ratio"] < 2.2  # the ratio is still shown


def test_inconclusive_gets_a_rounds_estimate():
    rng = np.random.default_rng(9)
    rd = np.repeat([1, 2, 3], 5)
    a = 100 * np.repeat(rng.lognormal(0, 0.015, 3), 5) * rng.lognormal(0, 0.01, 15)
    b = 104 * np.repeat(rng.lognormal(0, 0.015, 3), 5) * rng.lognormal(0, 0.01, 15)
    r = cmp.verdict(a, rd, b, rd, rng=rng)
    assert r["verdict"] == cmp.INCONCLUSIVE  # a 4 % shift within 1.5 % round-to-round noise, 3 rounds
    assert "note" not in r
    assert r["rounds_needed"] > 3


def test_mann_whitney_matches_scipy():
    from scipy.stats import mannwhitneyu

    rng = np.random.default_rng(10)
    for _ in range(300):
        n1, n2 = rng.integers(3, 25, 2)
        a = np.round(rng.normal(0, 1, n1), 1)
        b = np.round(rng.normal(0.5, 1, n2), 1)
        ref = mannwhitneyu(a, b, alternative="two-sided").pvalue
        assert abs(cmp.mann_whitney(a, b) - ref) < 1e-12


def test_mann_whitney_exact_small_samples_match_scipy():
    from scipy.stats import mannwhitneyu

    rng = np.random.default_rng(11)
    for _ in range(200):
        n1, n2 = rng.integers(1, 9), rng.integers(1, 14)
        a, b = rng.random(n1), rng.random(n2) + rng.random() * 0.5  # no ties: the exact path
        ref = mannwhitneyu(a, b, alternative="two-sided", method="exact").pvalue
        assert abs(cmp.mann_whitney(a, b) - ref) < 1e-12


def test_fail_above_exit_code(tmp_path, capsys):
    db = str(tmp_path / "r.db")
    st = Store(db)
    make_run(st, "base", seed=11)
    make_run(st, "same", seed=12)
    make_run(st, "worse", shift=1.25, seed=13)
    st.close()
    assert _exit(["--store", db, "compare", "--baseline", "base", "worse", "--fail-above", "5%"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "regression(s) above 5%" in err[0] and "sys.a" in err[0]
    assert _exit(["--store", db, "compare", "--baseline", "base", "worse", "--fail-above", "40%"]) == 0
    assert _exit(["--store", db, "compare", "--baseline", "base", "same", "--fail-above", "5%"]) == 0
    assert _exit(["--store", db, "compare", "--baseline", "base", "same", "--fail-above", "x%"]) == 2
    assert _exit(["--store", db, "compare", "base", "nosuchrun"]) == 2


def _exit(args):
    try:
        return main(args)
    except SystemExit as e:
        return e.code


def test_json_format_and_exported_file(tmp_path, capsys):
    db = str(tmp_path / "r.db")
    st = Store(db)
    make_run(st, "a", seed=14)
    make_run(st, "b", shift=1.5, seed=15)
    st.close()
    out = tmp_path / "b.json"
    assert _exit(["--store", db, "export", "b", "-o", str(out)]) == 0
    capsys.readouterr()
    # the exported file from "another machine" against a stored run
    assert _exit(["--store", db, "compare", "a", str(out), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = [r for r in doc["comparisons"][0]["rows"] if r["metric"] == ""]
    assert {r["key"] for r in rows} == {"sys.a", "sys.b", "cpu.x", "cpu.y"}
    for r in rows:
        assert r["verdict"] == "slower" and 1.4 < r["ratio"] < 1.6
        assert len(r["ci"]) == 2 and 0 <= r["p"] < 0.01 and r["multiple"].endswith("slower")
        assert r["counters_a"]["per_op"]["task_clock"] > 0
    assert doc["runs"][1]["source"].startswith("file ")
    assert doc["runs"][0]["counters"]["hardware_status"] == "not supported here"
    # the table form shows the software counters side by side
    assert _exit(["--store", db, "compare", "a", str(out)]) == 0
    text = capsys.readouterr().out
    assert "task-clock/op" in text and "not supported here" in text and "× slower" in text


def test_a_full_suite_renders_every_row(store):
    """30 benchmarks x 2 runs: every row is compared and rendered (its speed is a recorded
    figure in docs/compare.md, not a timed test)."""
    import io

    benches = [f"fam{i % 5}.b{i}" for i in range(30)]
    make_run(store, "a", seed=16, benches=benches)
    make_run(store, "b", seed=17, benches=benches, shift=1.01)
    sides, pairs = run_compare(store, ["a", "b"])
    out = io.StringIO()
    render(sides, pairs, file=out)
    ((_, res),) = pairs
    assert sorted(r["key"] for r in res["rows"] if r["metric"] == "") == sorted(benches)
    assert all(b in out.getvalue() for b in benches)
