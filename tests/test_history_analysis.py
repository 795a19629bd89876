"""The change-point analysis of analysis/history.py on series given point by point: where a step
is found, its size and CI, short series (each run's own standard error), the tentative change of
the newest points and how many runs confirm it, series kept apart by what makes runs comparable,
what changed in the fingerprints (in words), the order of --by values, and the false-change rate
over same-vs-same series."""

import math

import numpy as np
import pytest

from tickmark.analysis import changepoints, detection_power
from tickmark.analysis import history as h
from tickmark.base.errors import TickmarkError


def runs_of(values, fp=lambda i: {}, labels=lambda i: {}, unit="ns/op", stat="median", se=0.01, rounds=3):
    """Stored runs of one benchmark cpu.x, one per value: headline `value` with a 95 % CI of
    +-1.96 se (relative) and `rounds` rounds whose CV is se * sqrt(rounds)."""
    out = []
    for i, v in enumerate(values):
        d = {
            "value": v,
            "median": v,
            "unit": unit,
            "ci95_lo": v * (1 - 1.96 * se),
            "ci95_hi": v * (1 + 1.96 * se),
            "rounds": rounds,
            "round_cv": se * math.sqrt(rounds),
            "v": 3,
        }
        out.append(
            {
                "id": i + 1,
                "name": f"r{i + 1}",
                "started": 1000.0 + i,
                "fingerprint": fp(i),
                "notes": {"labels": labels(i)},
                "results": [{"key": "cpu.x", "bench": "cpu.x", "status": "ok", "stat": stat, "stats": {"": d}}],
            }
        )
    return out


def noisy(n, seed, scale=0.01):
    return 100 * np.exp(np.random.default_rng(seed).normal(0, scale, n))


def test_a_step_is_found_where_it_is_with_its_size_and_what_changed():
    v = noisy(30, 1)
    v[19:] *= 1.10
    runs = runs_of(v, fp=lambda i: {"kernel": "6.1" if i < 19 else "6.2", "loadavg": str(i)})
    (s,) = h.analyse(h.build(runs))
    (c,) = s.changes
    assert c.index == 19 and not c.tentative and c.worse
    assert 8 < c.pct < 12 and c.ratio_lo < c.ratio < c.ratio_hi and c.ratio_lo > 1.05
    assert abs(c.z) > c.threshold and c.n_before == 19 and c.n_after == 11
    assert (c.run_before, c.run_after) == ("r19", "r20")
    assert c.changed == [["kernel", "6.1", "6.2"]]  # the load average is a measurement, not a change
    assert [(a, b) for a, b, _ in s.levels()] == [(0, 19), (19, 30)]


def test_bandwidth_that_drops_is_worse_and_one_that_rises_is_not():
    v = noisy(30, 2)
    v[15:] *= 0.8
    (s,) = h.analyse(h.build(runs_of(v, unit="MB/s", stat="max")))
    (c,) = s.changes
    assert s.higher_is_better and c.worse and c.pct < -15
    (s,) = h.analyse(h.build(runs_of(v[::-1].copy(), unit="MB/s", stat="max")))
    assert not s.changes[0].worse


@pytest.mark.parametrize("n_before,n_after", [(5, 5), (3, 3), (4, 2)])
def test_a_clean_step_in_a_short_series_is_found(n_before, n_after):
    """Ten runs, five at -O2 then five at -O0 (57 us -> 240 us, every point apart):
    a rank test cannot reach its level with 5 runs a side; each run's own standard error can."""
    v = np.concatenate([noisy(n_before, 3, 0.01) * 0.57, noisy(n_after, 4, 0.01) * 2.40])
    (s,) = h.analyse(h.build(runs_of(v, fp=lambda i: {"cflags": "-O2" if i < n_before else "-O0"})))
    (c,) = s.changes
    assert c.index == n_before and c.worse and 4.0 < c.ratio < 4.5
    assert c.changed == [["cflags", "-O2", "-O0"]]
    assert c.tentative == (n_after < h.CONFIRM) and c.to_confirm == max(0, h.CONFIRM - n_after)


def test_the_runs_own_errors_weigh_its_point():
    """A run that knows it was disturbed (a wide CI) counts for less than the steady ones."""
    v = noisy(10, 5, 0.005)
    v[7] *= 1.3  # one run far out ...
    runs = runs_of(v)
    d = runs[7]["results"][0]["stats"][""]
    d["ci95_lo"], d["ci95_hi"], d["round_cv"] = v[7] * 0.6, v[7] * 1.4, 0.35  # ... that says so
    (s,) = h.analyse(h.build(runs))
    assert s.changes == []
    assert s.points[7].se > 10 * s.points[0].se


def test_tentative_change_at_the_tail_says_how_many_runs_confirm_it():
    v = noisy(20, 6, 0.01)
    v[-2:] *= 1.3
    (s,) = h.analyse(h.build(runs_of(v)))
    (c,) = s.changes
    assert c.tentative and c.index == 18 and c.worse and c.to_confirm == h.CONFIRM - 2
    v = noisy(20, 6, 0.01)
    v[-1] *= 1.3  # one run alone: an outlier or a start, nothing to call yet
    (s,) = h.analyse(h.build(runs_of(v)))
    assert s.changes == []


def test_a_change_is_not_moved_or_dropped_as_runs_arrive():
    """With 5 runs before a +50 % step, the verdict must not flip as runs after it
    arrive (main found none with 8 after, +22.4 % at the wrong run with 7, a tentative one at run 9
    with 5): from two runs after it on, it is found at the run where it happened."""
    for seed in range(5):
        v = np.concatenate([noisy(5, seed, 0.01), 1.5 * noisy(10, 100 + seed, 0.01)])
        for after in range(2, 11):
            (s,) = h.analyse(h.build(runs_of(v[: 5 + after])))
            (c,) = s.changes
            assert c.index == 5 and c.worse and 1.4 < c.ratio < 1.6, (seed, after)
            assert c.tentative == (after < h.CONFIRM)


def test_identical_values_and_short_series():
    (s,) = h.analyse(h.build(runs_of([1000.0] * 10 + [1010.0] * 10, se=0)))  # exact counts: any step is real
    assert [c.index for c in s.changes] == [10]
    (s,) = h.analyse(h.build(runs_of([5.0] * 20, se=0)))
    assert s.changes == []
    (s,) = h.analyse(h.build(runs_of([5.0, 6.0, 7.0])))
    assert s.changes == [] and s.skipped == "3 points: a change needs 4 at least"


def test_failed_and_skipped_results_are_not_points():
    runs = runs_of(noisy(8, 5))
    runs[3]["results"][0]["status"] = "crashed"
    (s,) = h.build(runs)
    assert len(s.points) == 7 and "r4" not in [p.run for p in s.points]


def test_runs_that_cannot_be_compared_are_series_of_their_own():
    """Local, SSH and QEMU -icount runs of one benchmark never share a series (main
    gave 'cpu.stringsort +16205 %' across them); each series says what sets it apart."""
    fps = (
        [{"target_uri": "local", "arch": "x86_64", "cycles_method": "calibrated-freq"}] * 4
        + [{"target_uri": "ssh://root@board", "arch": "x86_64", "cycles_method": "calibrated-freq"}] * 4
        + [
            {
                "target_uri": "qemu-system:mps2-an500",
                "arch": "armv7m",
                "cycles_method": "icount-insns",
                "qemu_icount": "shift=0,sleep=off",
            }
        ]
        * 4
    )
    order = [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]  # interleaved in time
    values = [1.2e6] * 4 + [1.3e6] * 4 + [2.0e8] * 4
    runs = runs_of([values[i] for i in order], fp=lambda i: fps[order[i]], se=0.002)
    series = h.analyse(h.build(runs))
    assert [(s.name, len(s.points)) for s in series] == [("cpu.x #1", 4), ("cpu.x #2", 4), ("cpu.x #3", 4)]
    assert all(s.changes == [] for s in series)  # no ratio across them
    assert series[0].where == ["target local", "architecture x86_64", "cycles method calibrated-freq", "measured time"]
    assert series[1].where[0] == "target ssh://root@board"
    assert series[2].where == [
        "target qemu-system:mps2-an500",
        "architecture armv7m",
        "cycles method icount-insns",
        "guest instructions under QEMU -icount shift=0,sleep=off",
    ]
    assert series[2].unit == "insn/op" and series[0].unit == "ns/op"


def test_what_changed_is_in_words_not_python():
    """A list of caches was printed as a raw Python dict."""
    caches = [{"level": 1, "type": "Data", "size": "32K", "coherency_line_size": "64"}]
    p0 = h.Point(1, "a", 0, "", 1.0, None, None, fingerprint={"caches": caches, "flags": ["x"]})
    p1 = h.Point(2, "b", 1, "", 1.0, None, None, fingerprint={"caches": caches[:0] + [dict(caches[0], size="48K")]})
    assert h.fingerprint_changes(p0, p1) == [["caches", "L1d 32K", "L1d 48K"]]


def test_order_by_label_and_by_kernel_natural_order():
    v = noisy(12, 3)
    # stored out of order: the label decides, numbers compared as numbers (9 before 10)
    labels = [str(x) for x in (10, 2, 9, 1, 11, 3, 4, 12, 5, 6, 7, 8)]
    runs = runs_of(v, labels=lambda i: {"build": labels[i]})
    (s,) = h.build(runs, by="label:build")
    assert [p.order for p in s.points] == [str(x) for x in range(1, 13)]
    runs = runs_of(v[:3], fp=lambda i: {"kernel": ["6.1.0-10", "6.1.0-9", "5.15.0-1"][i]})
    (s,) = h.build(runs, by="kernel")
    assert [p.order for p in s.points] == ["5.15.0-1", "6.1.0-9", "6.1.0-10"]
    runs = runs_of(v[:4], labels=lambda i: {"build": "1"} if i % 2 else {})
    (s,) = h.build(runs, by="label:build")
    assert len(s.points) == 2  # runs without the label are left out


def test_label_numbers_sort_as_numbers_negative_and_long():
    """'-1' and numbers of more than 30 digits sorted as text."""
    long = "1" + "0" * 40
    values = ["10", "-1", long, "2", "-20", "9" * 35, "1.5", "abc"]
    runs = runs_of(noisy(len(values), 9), labels=lambda i: {"build": values[i]})
    (s,) = h.build(runs, by="label:build")
    assert [p.order for p in s.points] == ["-20", "-1", "1.5", "2", "10", "9" * 35, long, "abc"]


def test_a_label_that_no_run_has_is_said_so():
    with pytest.raises(TickmarkError, match="no run has the label 'nosuch'"):
        h.build(runs_of(noisy(4, 1)), by="label:nosuch")


def test_false_change_rate_on_same_distribution_is_low():
    rng = np.random.default_rng(7)
    # runs of heavy-tailed samples, as a loaded machine gives them: each run a few (median,
    # standard error) draws of a bootstrap of its samples
    pool = []
    for _ in range(30):
        x = 100 * (1 + 0.05 * np.abs(rng.standard_t(3, 15)))
        draws = []
        for _ in range(5):
            b = rng.choice(x, len(x))
            draws.append((float(np.median(b)), float(1.2533 * b.std() / np.sqrt(len(b)) / np.median(b))))
        pool.append(draws)
    for length in (6, 10, 30):
        hits, n = detection_power.false_change_rate([pool], n_series=200, length=length)
        assert n == 200 and hits / n <= 0.05, (length, hits)


@pytest.mark.parametrize("seed", range(5))
def test_no_change_in_plain_noise(seed):
    (s,) = h.analyse(h.build(runs_of(noisy(40, 100 + seed, 0.05), se=0.02)))
    assert s.changes == []


def test_the_search_is_linear_and_the_thresholds_are_the_simulated_ones():
    """The thresholds of the table are what simulated_threshold gives (fewer simulations here:
    within their sampling error), and a series of 20,000 points with two steps is searched in one
    pass per level (the steps found where they are)."""
    for n in (6, 10):
        assert abs(
            changepoints.simulated_threshold(n, simulations=8000) - changepoints.threshold(n)
        ) < 0.15 * changepoints.threshold(n)
    rng = np.random.default_rng(11)
    y = rng.normal(0, 0.01, 20000)
    y[5000:] += 0.05
    y[15000:] -= 0.1
    assert [c for c, _, _ in changepoints.detect(y, np.full(len(y), 0.005)).cuts] == [5000, 15000]
