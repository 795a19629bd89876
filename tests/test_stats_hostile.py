"""Statistics of hostile sample counts: the exact median CI, and many samples in no time."""

import time

import pytest

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


def _exact_median_ci_k(n, level=0.95):
    """The reference: the first k (walking up) whose exact coverage falls below the level."""
    import math

    best = 1
    for k in range(1, n // 2 + 1):
        if 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2**n >= level:
            best = k
        else:
            break
    return best


@pytest.mark.parametrize("n", [1, 2, 5, 6, 9, 15, 16, 50, 71, 100, 257, 400])
def test_median_ci_is_the_exact_order_statistic_interval(n):
    from tickmark.analysis import stats

    k = _exact_median_ci_k(n)
    lo, hi, cover = stats.median_ci(list(range(n)))
    assert (lo, hi) == (k - 1, n - k)
    assert cover == pytest.approx(1 - 2 * sum(__import__("math").comb(n, i) for i in range(k)) / 2**n, rel=1e-9)


@pytest.mark.parametrize("n", [10_000, 100_000])
def test_statistics_of_many_samples_take_no_time(n):
    """One result of 10,000 samples (an import) took minutes when the interval was cubic."""
    import random

    from tickmark.analysis import stats

    rng = random.Random(n)
    samples = [
        {"round": 1 + i % 3, "i": i, "iters": 10, "ops": 100, "ns": 10_000 + rng.randrange(999)} for i in range(n)
    ]
    t = time.process_time()
    s = stats.compute(samples).main
    assert time.process_time() - t < 5
    assert s.ci95_lo <= s.median <= s.ci95_hi and s.ci95_level >= 0.95
