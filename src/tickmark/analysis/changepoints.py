"""Change points: where a series of log values with their own errors changes level.

The method, per series (docs/history.md, "The method"):
  1. each run is a point y = log(value) with its own relative standard error e (history.standard_error:
     from its 95 % CI and the spread of its rounds, what the run knows about itself), so that a
     change is a ratio whatever the unit, and a run that was disturbed (a wider error than the
     typical run's) counts for less; an error below the median of the series' errors counts as
     the median (an error from a few samples can come out small by chance, and one run must not
     outweigh the others);
  2. the noise between runs: tau, the spread that successive points show beyond their own errors
     (noise: robust, a level shift moves one difference only). Each point weighs
     w = 1 / (e^2 + tau^2);
  3. binary segmentation: in a segment, the split (MIN_SEGMENT points a side at least) with the
     largest weighted two-sample statistic |z| (split_z) is a change when |z| exceeds
     threshold(n) for the segment's n points, and both halves are searched again; each pass is
     one cumulative sum, so the search is linear in the series' length for a given number of
     changes;
  4. every change is tested again between its neighbouring segments, the weakest below its
     threshold dropped, until all pass;
  5. a change with fewer than CONFIRM (history.py) points after it is tentative: CONFIRM - n more runs at the
     new level confirm it.
threshold(n) is the (1 - ALPHA) quantile of max |z| over the splits of n points of normal noise
(THRESHOLDS, by simulation), so that a series of normal noise shows a change with probability
ALPHA; on real noise the rate is measured (tools/history_power.py, docs/history.md).
The size of a change is the ratio of the medians after and before; its 95 % CI comes from a
bootstrap of both segments (fixed seed: the same data give the same interval).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Union

import numpy as np
from numpy.typing import ArrayLike

ALPHA = 0.01  # false changes per series of pure normal noise (docs/history.md: on real noise)
MIN_SEGMENT = 2  # points on either side of a change
# threshold(n) at the lengths simulated (simulated_threshold, 40,000 series each, ALPHA 0.01;
# tools/history_thresholds.py prints this table)
THRESHOLDS = {
    4: 8.055,
    5: 6.143,
    6: 5.402,
    7: 4.876,
    8: 4.555,
    9: 4.393,
    10: 4.186,
    11: 4.081,
    12: 3.961,
    13: 3.956,
    14: 3.896,
    15: 3.867,
    16: 3.815,
    17: 3.762,
    18: 3.731,
    19: 3.710,
    20: 3.723,
    24: 3.602,
    28: 3.596,
    32: 3.587,
    40: 3.550,
    48: 3.539,
    56: 3.538,
    64: 3.538,
    80: 3.549,
    96: 3.522,
    128: 3.556,
    160: 3.580,
    200: 3.576,
}
NOISE_FLOOR = 1e-4  # relative: an exactly repeatable series (instruction counts) still has a scale
BOOTSTRAP = 2000
# a statistic of one split, or of many at once (an array of them)
FloatOrArray = Union[float, np.ndarray]


@dataclass
class Found:
    cuts: list[tuple[int, float, float]]  # [(index of the first point of a new level, z, threshold)]
    tau: float  # noise between runs (of log values)


def detect(y: ArrayLike, e: ArrayLike | None = None) -> Found:
    """The changes of log values y whose points have relative standard errors e -> Found."""
    y = np.asarray(y, dtype=float)
    n = len(y)
    e = np.zeros(n) if e is None else np.maximum(np.nan_to_num(np.asarray(e, dtype=float)), 0.0)
    if n:  # a run's own error counts at least as the typical run's: a run that says it was
        e = np.maximum(e, float(np.median(e)))  # disturbed weighs less, none weighs more
    tau = noise(y, e)
    if n < 2 * MIN_SEGMENT:
        return Found([], tau)
    sums = _Sums(y, 1.0 / np.maximum(e**2 + tau**2, NOISE_FLOOR**2))
    cuts: list[int] = []
    todo = [(0, n)]
    while todo:
        a, b = todo.pop()
        k, z = sums.best_split(a, b)
        if k is not None and abs(z) > threshold(b - a):
            cuts.append(k)
            todo += [(a, k), (k, b)]
    cuts.sort()
    while cuts:  # each change against its neighbouring segments; the weakest failing one goes
        bounds = [0] + cuts + [n]
        zs = [float(sums.z(bounds[i], bounds[i + 1], bounds[i + 2])) for i in range(len(cuts))]
        thr = [threshold(bounds[i + 2] - bounds[i]) for i in range(len(cuts))]
        margin = [abs(z) / t for z, t in zip(zs, thr)]
        weakest = int(np.argmin(margin))
        if margin[weakest] > 1:
            return Found([(c, zs[i], thr[i]) for i, c in enumerate(cuts)], float(tau))
        del cuts[weakest]
    return Found([], float(tau))


def split_z(
    wl: FloatOrArray,
    wr: FloatOrArray,
    sl: FloatOrArray,
    sr: FloatOrArray,
    ql: FloatOrArray,
    qr: FloatOrArray,
    nl: FloatOrArray,
    nr: FloatOrArray,
    floor: float = 0.0,
) -> FloatOrArray:
    """The weighted two-sample statistic of a split from the sums of weights w, w y and w y^2 and
    the counts of each side: the difference of the weighted means over its standard error. The
    scale of the weights is the larger of the two sides' pooled weighted residual variance and
    each side's own (a side whose points disagree among themselves, a far point among them, does
    not borrow the other side's precision)."""
    ml, mr = sl / wl, sr / wr
    ssl, ssr = np.maximum(ql - sl * ml, 0.0), np.maximum(qr - sr * mr, 0.0)
    phi = np.maximum.reduce(
        [(ssl + ssr) / np.maximum(nl + nr - 2, 1), ssl / np.maximum(nl - 1, 1), ssr / np.maximum(nr - 1, 1)]
    )
    return (mr - ml) / np.sqrt(np.maximum(phi, floor) * (1 / wl + 1 / wr))


class _Sums:
    """Prefix sums of the weights w, w y and w y^2 of a series (y centred on its median, which
    keeps the sums of squares exact enough for counts that never change): each split's weighted
    two-sample statistic in O(1)."""

    def __init__(self, y: np.ndarray, w: np.ndarray) -> None:
        y = y - float(np.median(y))
        self.w = np.concatenate([[0.0], np.cumsum(w)])
        self.s = np.concatenate([[0.0], np.cumsum(w * y)])
        self.q = np.concatenate([[0.0], np.cumsum(w * y * y)])
        self.floor = NOISE_FLOOR**2 * float(np.median(w))  # the smallest scale a point is given

    def z(self, a: int, k: int | np.ndarray, b: int) -> FloatOrArray:
        """The statistic of the split at k of points a..b-1 (k may be an array): split_z of the
        weighted sums of both sides."""
        w, s, q = self.w, self.s, self.q
        return split_z(
            w[k] - w[a], w[b] - w[k], s[k] - s[a], s[b] - s[k], q[k] - q[a], q[b] - q[k], k - a, b - k, self.floor
        )

    def best_split(self, a: int, b: int) -> tuple[int | None, float]:
        """(k, z) of the split of a..b-1 with the largest |z| (MIN_SEGMENT points a side), or
        (None, 0)."""
        lo, hi = a + MIN_SEGMENT, b - MIN_SEGMENT
        if hi < lo:
            return None, 0.0
        k = np.arange(lo, hi + 1)
        z = np.asarray(self.z(a, k, b))  # an array of statistics: k is one
        i = int(np.argmax(np.abs(z)))
        return int(k[i]), float(z[i])


def noise(y: ArrayLike, e: ArrayLike | None = None) -> float:
    """tau: the spread between runs beyond their own errors e (module doc, step 2), floored. The
    robust spread of d / sqrt(e[i]^2 + e[i+1]^2 + 2 tau^2) falls as tau grows, and it is 1 where
    half of the pairs need a tau as large: tau is the median over the successive pairs of the tau
    that makes that pair's difference 1 / 1.4826 of its standard deviation."""
    y = np.asarray(y, dtype=float)
    d = np.diff(y)
    if len(d) == 0:
        return NOISE_FLOOR
    e = np.zeros(len(y)) if e is None else np.asarray(e, dtype=float)
    need = ((1.4826 * d) ** 2 - e[:-1] ** 2 - e[1:] ** 2) / 2
    return max(math.sqrt(max(float(np.median(need)), 0.0)), NOISE_FLOOR)


def threshold(n: int) -> float:
    """What max |z| over the splits of n points must exceed for a change (module doc): the
    simulated quantile of THRESHOLDS, linear in log(n) between its lengths, and past the last one
    growing as the Bonferroni bound does."""
    if n < 2 * MIN_SEGMENT:
        return math.inf
    if n in THRESHOLDS:
        return THRESHOLDS[n]
    last = max(THRESHOLDS)
    if n > last:
        nd = NormalDist()
        return THRESHOLDS[last] + nd.inv_cdf(1 - ALPHA / (2 * (n - 1))) - nd.inv_cdf(1 - ALPHA / (2 * (last - 1)))
    a = max(g for g in THRESHOLDS if g < n)
    b = min(g for g in THRESHOLDS if g > n)
    f = math.log(n / a) / math.log(b / a)
    return (1 - f) * THRESHOLDS[a] + f * THRESHOLDS[b]


def simulated_threshold(
    n: int, alpha: float = ALPHA, simulations: int = 40000, seed: int = 0, batch: int = 4000
) -> float:
    """The (1 - alpha) quantile of max |z| over the splits of n points of normal noise (the
    statistic of split_z with unit weights): what THRESHOLDS holds (tools/history_thresholds.py
    prints it)."""
    rng = np.random.default_rng([seed, n])
    k = np.arange(MIN_SEGMENT, n - MIN_SEGMENT + 1)
    top = []
    for _ in range(0, simulations, batch):
        y = rng.standard_normal((batch, n))
        c1 = np.concatenate([np.zeros((batch, 1)), np.cumsum(y, axis=1)], axis=1)
        c2 = np.concatenate([np.zeros((batch, 1)), np.cumsum(y * y, axis=1)], axis=1)
        z = split_z(k, n - k, c1[:, k], c1[:, [n]] - c1[:, k], c2[:, k], c2[:, [n]] - c2[:, k], k, n - k)
        top.append(np.abs(z).max(axis=1))
    return float(np.quantile(np.concatenate(top), 1 - alpha))


def ratio_ci(
    before: ArrayLike, after: ArrayLike, level: float = 0.95, n: int = BOOTSTRAP, seed: int = 0
) -> tuple[float, float]:
    """Bootstrap interval of exp(median(after) - median(before)) for log values (fewer draws for
    long segments, whose medians vary little; drawn in batches to bound the memory)."""
    rng = np.random.default_rng(seed)
    before, after = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    longest = max(len(before), len(after))
    n = n if longest <= 500 else max(200, n // 4)
    batch = max(1, 2_000_000 // longest)
    diffs: list[np.ndarray] = []
    for k in range(0, n, batch):
        m = min(batch, n - k)
        mb = np.median(rng.choice(before, (m, len(before))), axis=1)
        ma = np.median(rng.choice(after, (m, len(after))), axis=1)
        diffs.append(ma - mb)
    d = np.sort(np.concatenate(diffs))
    q = (1 - level) / 2
    return math.exp(float(np.quantile(d, q))), math.exp(float(np.quantile(d, 1 - q)))
