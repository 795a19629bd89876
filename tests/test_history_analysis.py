"""The change-point analysis of analysis/history.py on series given point by point: where a step
is found, its size and CI, the tentative change of the newest points, what changed in the
fingerprints, the CI gate, and the false-change rate over same-vs-same series."""

import numpy as np
import pytest

from tickmark.analysis import history as h


def runs_of(values, fp=lambda i: {}, labels=lambda i: {}, unit="ns/op", stat="median"):
    out = []
    for i, v in enumerate(values):
        d = {"value": v, "median": v, "unit": unit, "ci95_lo": v * 0.99, "ci95_hi": v * 1.01, "v": 3}
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
    assert c.p < 1e-3 and c.n_before == 19 and c.n_after == 11
    assert (c.run_before, c.run_after) == ("r19", "r20")
    assert c.changed == [["kernel", "6.1", "6.2"]]  # the load average is a measurement, not a change
    assert [(a, b) for a, b, _ in s.levels()] == [(0, 19), (19, 30)]
    assert h.failing([s], 5) == [(s, c)] and h.failing([s], 15) == []


def test_bandwidth_that_drops_is_worse_and_one_that_rises_is_not():
    v = noisy(30, 2)
    v[15:] *= 0.8
    (s,) = h.analyse(h.build(runs_of(v, unit="MB/s", stat="max")))
    (c,) = s.changes
    assert s.higher_is_better and c.worse and c.pct < -15
    (s,) = h.analyse(h.build(runs_of(v[::-1].copy(), unit="MB/s", stat="max")))
    assert not s.changes[0].worse and h.failing([s], 5) == []


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


def test_the_two_newest_points_far_out_make_a_tentative_change_one_does_not():
    v = noisy(30, 4)
    v[-1] *= 1.3
    (s,) = h.analyse(h.build(runs_of(v)))
    assert s.changes == []
    v[-2] *= 1.3
    (s,) = h.analyse(h.build(runs_of(v)))
    (c,) = s.changes
    assert c.tentative and c.index == 28 and c.p is None and c.worse
    assert [x[0] for x in h.failing([s], 20)] == [s]


def test_identical_values_and_short_series():
    (s,) = h.analyse(h.build(runs_of([1000.0] * 10 + [1010.0] * 10)))  # exact counts: any step is real
    assert [c.index for c in s.changes] == [10]
    (s,) = h.analyse(h.build(runs_of([5.0] * 20)))
    assert s.changes == []
    (s,) = h.analyse(h.build(runs_of([5.0, 6.0, 7.0])))
    assert s.changes == [] and "3 points" in s.skipped


def test_failed_and_skipped_results_are_not_points():
    runs = runs_of(noisy(8, 5))
    runs[3]["results"][0]["status"] = "crashed"
    (s,) = h.build(runs)
    assert len(s.points) == 7 and "r4" not in [p.run for p in s.points]


def test_false_change_rate_on_same_distribution_is_low():
    rng = np.random.default_rng(7)
    # runs of heavy-tailed samples, as a loaded machine gives them
    pool = [100 * (1 + 0.05 * np.abs(rng.standard_t(3, 9))) for _ in range(30)]
    hits, n = h.false_change_rate([pool], n_series=150)
    assert n == 150 and hits / n < 0.05, hits


@pytest.mark.parametrize("seed", range(5))
def test_no_change_in_plain_noise(seed):
    (s,) = h.analyse(h.build(runs_of(noisy(40, 100 + seed, 0.05))))
    assert s.changes == []
