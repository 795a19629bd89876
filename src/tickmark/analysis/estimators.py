"""Estimators on a sample's values: the median's order-statistic confidence interval, the
coefficient of variation, and the medians of the rounds with their spread (round CV,
determinism). stats.py builds an instance's summary from them."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike


def median_ci(
    sorted_values: Sequence[float] | np.ndarray, level: float = 0.95
) -> tuple[float | None, float | None, float]:
    """Order-statistic CI of the median: (lo, hi, coverage).

    The widest-needed symmetric pair x(k), x(n-k+1) (1-based) whose coverage
    1 - 2*P(Binom(n, 1/2) <= k-1) is at least `level`. With too few values for that level the
    interval is (min, max) and the returned coverage is the (smaller) true one. The coverage
    falls as k grows, so k is found by bisection: O(sqrt(n) log n) after the sort.
    """
    x = sorted_values
    n = len(x)
    if n == 0:
        return None, None, 0.0
    best_k, lo, hi = 1, 1, n // 2
    while lo <= hi:
        k = (lo + hi) // 2
        if 1 - 2 * _binom_half_cdf(k - 1, n) >= level:
            best_k, lo = k, k + 1
        else:
            hi = k - 1
    cover = 1 - 2 * _binom_half_cdf(best_k - 1, n)
    return float(x[best_k - 1]), float(x[n - best_k]), float(cover)


def _binom_half_cdf(k: int, n: int) -> float:
    """P(Binom(n, 1/2) <= k): the terms summed from k down (log space) until they no longer
    count, which takes O(sqrt(n)) terms (no scipy import for reading statistics)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    base = math.lgamma(n + 1) - n * math.log(2)
    total = 0.0
    for i in range(k, -1, -1):
        term = math.exp(base - math.lgamma(i + 1) - math.lgamma(n - i + 1))
        total += term
        if term <= total * 1e-17:
            break
    return total


def _cv(values: ArrayLike) -> float | None:
    v = np.asarray(values, dtype=float)
    if len(v) < 2 or v.mean() == 0:
        return None
    return float(v.std(ddof=1) / abs(v.mean()))


def round_medians(values: ArrayLike, rounds: ArrayLike) -> list[float]:
    """Median of each round's values, in round order."""
    v, r = np.asarray(values, dtype=float), np.asarray(rounds)
    return [float(np.median(v[r == k])) for k in np.unique(r)]


def round_cv(values: ArrayLike, rounds: ArrayLike) -> float | None:
    """CV of the round medians (None with fewer than two rounds)."""
    return _cv(round_medians(values, rounds))


def determinism(values: ArrayLike, rounds: ArrayLike) -> float | None:
    """Largest distance of a round median from the overall median, as a fraction of it (0.023 is
    2.3 %, as rcv, cv and round_cv are fractions; None for a zero median)."""
    med = float(np.median(np.asarray(values, dtype=float)))
    if not med:
        return None
    return max(abs(m - med) for m in round_medians(values, rounds)) / med
