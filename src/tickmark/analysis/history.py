"""History: per benchmark, the series of headline values of many runs, and the points where the
series changes level (change points), each with its size, the size's CI, the runs on either side
and what changed in the runs' fingerprints there.

Pure: the caller hands in runs (store rows with their result rows); nothing here reads a store
or prints.

The method, per series (values in run order):
  1. work on log values, so that a change is a ratio whatever the unit;
  2. the noise: a robust standard deviation from successive differences,
     1.4826 * median |y[i+1] - y[i]| / sqrt(2) (a level shift moves one difference only, so the
     steps being looked for do not inflate it);
  3. candidates: ruptures' kernel change-point detection (KernelCPD, linear kernel, exact PELT
     search in C) on the values in noise units clipped to +-CLIP_SIGMAS, penalty
     PENALTY_BETA * ln(n) per change, at least MIN_SEGMENT points between changes;
  4. each candidate is tested: Mann-Whitney U between the segments on either side (two-sided);
     the weakest candidate with p >= ALPHA (scaled down for series longer than REFERENCE_LENGTH)
     is dropped and the rest tested again;
  5. the newest points: TAIL_POINTS (two) points that lie beyond TAIL_SIGMAS noise deviations
     of the level before them, on the same side, make a tentative change (too few points to test
     yet; `tentative` says so).
The size of a change is the ratio of the medians after and before; its 95 % CI comes from a
bootstrap of both segments (fixed seed: the same data give the same interval).
"""

import math
from dataclasses import asdict, dataclass, field
from typing import Optional

import numpy as np

from .. import fingerprint
from ..names import decimal

PENALTY_BETA = 2.0
ALPHA = 0.001
MIN_SEGMENT = 3
CLIP_SIGMAS = 4.0  # values are clipped to this many noise deviations for the search (not the test)
REFERENCE_LENGTH = 30  # the series length ALPHA is meant for (see detect)
TAIL_SIGMAS = 6.0
TAIL_POINTS = 2
NOISE_FLOOR = 1e-4  # relative: an exactly repeatable series (instruction counts) still has a scale
BOOTSTRAP = 2000

TASK_CLOCK = "task-clock"

# Fingerprint fields that are measurements of the moment, not what the run ran on.
VOLATILE = {k.name for k in fingerprint.keys(volatile=True)}  # a difference there is no change


@dataclass
class Point:
    run_id: int
    run: str  # the run's name or "run ID"
    started: float
    order: str  # the value the series is ordered by (a time, a kernel, a label), as text
    value: float
    ci_lo: Optional[float]
    ci_hi: Optional[float]
    fingerprint: dict = field(default_factory=dict, repr=False)
    labels: dict = field(default_factory=dict)


@dataclass
class Change:
    index: int  # the first point of the new level
    before: float  # median of the segment before
    after: float  # median of the segment after
    ratio: float  # after / before
    ratio_lo: float  # 95 % CI of the ratio
    ratio_hi: float
    p: Optional[float]  # Mann-Whitney U, two-sided (None for a tentative change)
    worse: bool  # in the bad direction (slower, or less bandwidth)
    n_before: int
    n_after: int
    run_before: str
    run_after: str
    changed: list  # [[key, old, new], ...]: fingerprint fields and labels that differ there
    tentative: bool = False

    @property
    def pct(self):
        return (self.ratio - 1) * 100


@dataclass
class Series:
    key: str  # the result key (benchmark and parameters)
    bench: str
    unit: str
    higher_is_better: bool
    points: list
    changes: list = field(default_factory=list)
    noise: Optional[float] = None  # relative noise between runs (robust sigma of log values)
    skipped: str = ""  # why no analysis was made (too few points)

    def levels(self):
        """[(first index, last index + 1, median)] of the segments between the changes."""
        cuts = [0] + [c.index for c in self.changes] + [len(self.points)]
        vals = np.array([p.value for p in self.points], dtype=float)
        return [(a, b, float(np.median(vals[a:b]))) for a, b in zip(cuts, cuts[1:]) if b > a]

    def newest_change(self):
        """The change that the newest point's level starts with, or None."""
        if not self.changes or not self.points:
            return None
        return self.changes[-1]

    def to_dict(self):
        d = {
            "key": self.key,
            "bench": self.bench,
            "unit": self.unit,
            "higher_is_better": self.higher_is_better,
            "noise": self.noise,
            "skipped": self.skipped,
            "points": [
                {
                    "run_id": p.run_id,
                    "run": p.run,
                    "started": p.started,
                    "order": p.order,
                    "value": p.value,
                    "ci_lo": p.ci_lo,
                    "ci_hi": p.ci_hi,
                    "labels": dict(p.labels),
                }
                for p in self.points
            ],
            "changes": [dict(asdict(c), pct=c.pct) for c in self.changes],
            "levels": [{"start": a, "end": b, "median": m} for a, b, m in self.levels()],
        }
        return d


# ---------------------------------------------------------------- ordering
def natural_key(text):
    """'6.1.0-10' after '6.1.0-9'; numbers compare as numbers, the rest as text."""
    out = []
    for part in _split_digits(str(text)):
        n = decimal(part, 30)
        out.append((0, n, "") if n is not None else (1, 0, part))
    return out


def _split_digits(s):
    parts, cur = [], ""
    for ch in s:
        if cur and ch.isdigit() != cur[-1].isdigit():
            parts.append(cur)
            cur = ""
        cur += ch
    if cur:
        parts.append(cur)
    return parts


def order_value(run, by):
    """What a run is ordered by: None for time, 'kernel' (the fingerprint's kernel), 'label:KEY',
    or any other fingerprint field. None when the run does not have it."""
    if by in (None, "time"):
        return None
    if by.startswith("label:"):
        v = ((run.get("notes") or {}).get("labels") or {}).get(by[6:])
    else:
        v = (run.get("fingerprint") or {}).get(by)
    return None if v is None else str(v)


# ---------------------------------------------------------------- building the series
def build(runs, by=None, metric=""):
    """runs: [{id, name, started, fingerprint, notes, results: [result rows]}] -> [Series], one per
    result key with an ok headline, in key order; the points ordered by `by` (see order_value), then
    by time. Runs without the `by` value are left out."""
    from .stats import Stats

    ordered = []
    for r in runs:
        ov = order_value(r, by)
        if by not in (None, "time") and ov is None:
            continue
        ordered.append(((natural_key(ov) if ov is not None else []), r["started"], r["id"], ov, r))
    ordered.sort(key=lambda x: x[:3])
    series = {}
    for _, _, _, ov, r in ordered:
        labels = dict((r.get("notes") or {}).get("labels") or {})
        for res in r["results"]:
            if res["status"] != "ok":
                continue
            value, lo, hi, unit, higher = _metric(Stats.of(res), metric)
            if value is None or not math.isfinite(value) or value <= 0:
                continue
            s = series.get(res["key"])
            if s is None:
                s = series[res["key"]] = Series(res["key"], res["bench"], unit, higher, [])
            s.points.append(
                Point(
                    run_id=r["id"],
                    run=r.get("name") or f"run {r['id']}",
                    started=r["started"],
                    order=ov if ov is not None else "",
                    value=float(value),
                    ci_lo=lo,
                    ci_hi=hi,
                    fingerprint=r.get("fingerprint") or {},
                    labels=labels,
                )
            )
    return [series[k] for k in sorted(series, key=natural_key)]


def _metric(st, metric):
    """(value, CI low, CI high, unit, higher is better) of a result's metric: the headline (""),
    a sub-metric by name, or "task-clock" (on-CPU time per operation, from the task-clock
    counter: the time a process did not wait for a CPU)."""
    if metric == TASK_CLOCK:
        d = st.main
        v = ((d.counters_per_op or {}).get("task_clock") if d is not None else None) or None
        return v, None, None, "ns/op", False
    d = st.get(metric) if metric else st.main
    if d is None:
        return None, None, None, None, False
    return d.value, d.ci95_lo, d.ci95_hi, d.unit, d.higher_is_better


def analyse(series_list):
    """Find the changes of every series (in place) -> the list."""
    for s in series_list:
        analyse_series(s)
    return series_list


def analyse_series(s):
    vals = np.array([p.value for p in s.points], dtype=float)
    if len(vals) < 2 * MIN_SEGMENT:
        s.skipped = f"{len(vals)} points: a change needs {MIN_SEGMENT} on each side"
        s.changes = []
        return s
    y = np.log(vals)
    s.noise = noise(y)
    cuts = detect(y, s.noise)
    s.changes = [_change(s, y, cuts, i) for i in range(len(cuts))]
    tail = tail_change(y, cuts, s.noise)
    if tail is not None:
        s.changes.append(_change(s, y, cuts + [tail], len(cuts), tentative=True))
    return s


def noise(y):
    """Robust standard deviation of y from its successive differences (floored)."""
    d = np.diff(np.asarray(y, dtype=float))
    if len(d) == 0:
        return NOISE_FLOOR
    return max(1.4826 * float(np.median(np.abs(d))) / math.sqrt(2), NOISE_FLOOR)


def detect(y, sigma, beta=PENALTY_BETA, alpha=ALPHA, min_size=MIN_SEGMENT):
    """The confirmed change points of log values y (indices of the first point of each new level).
    Past REFERENCE_LENGTH points the test level shrinks in proportion: a longer series offers
    more places for a chance run of high or low values, and the rate of false changes per series
    is meant to stay what it is for a series of REFERENCE_LENGTH runs."""
    import ruptures as rpt
    from scipy.stats import mannwhitneyu

    y = np.asarray(y, dtype=float)
    n = len(y)
    if n < 2 * min_size:
        return []
    # in noise units, clipped: a few far outliers (a run hit by load) must not buy a segment of
    # their own; a real step still stands out over its whole length
    z = np.clip((y - np.median(y)) / sigma, -CLIP_SIGMAS, CLIP_SIGMAS).reshape(-1, 1)
    cuts = rpt.KernelCPD(kernel="linear", min_size=min_size).fit(z).predict(pen=beta * math.log(n))[:-1]
    cuts = [int(c) for c in cuts]
    alpha = alpha * min(1.0, REFERENCE_LENGTH / n)
    bounds = [0] + cuts + [n]
    ps = [_mw(mannwhitneyu, y[bounds[i] : bounds[i + 1]], y[bounds[i + 1] : bounds[i + 2]]) for i in range(len(cuts))]
    while cuts:
        weakest = int(np.argmax(ps))
        if ps[weakest] < alpha:
            break
        del cuts[weakest], bounds[weakest + 1], ps[weakest]
        for j in (weakest - 1, weakest):  # only the tests next to the merged segments change
            if 0 <= j < len(ps):
                ps[j] = _mw(mannwhitneyu, y[bounds[j] : bounds[j + 1]], y[bounds[j + 1] : bounds[j + 2]])
    return cuts


def _mw(mannwhitneyu, a, b):
    """Two-sided Mann-Whitney U p-value: scipy's (exact where it can be) for short segments, the
    normal approximation with the tie correction (what scipy uses there too) for long ones,
    computed here because scipy's per-call overhead dominates on series of thousands of runs."""
    if np.all(a == a[0]) and np.all(b == b[0]) and a[0] != b[0]:
        return 0.0  # two constant levels (exact instruction counts): certainly different
    n1, n2 = len(a), len(b)
    if min(n1, n2) <= 8:
        return float(mannwhitneyu(a, b, alternative="two-sided").pvalue)
    from scipy.stats import rankdata

    both = np.concatenate([a, b])
    ranks = rankdata(both)
    u = float(ranks[:n1].sum()) - n1 * (n1 + 1) / 2
    n = n1 + n2
    _, ties = np.unique(both, return_counts=True)
    var = n1 * n2 / 12 * ((n + 1) - float((ties**3 - ties).sum()) / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(var)
    return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))


def tail_change(y, cuts, sigma, k=TAIL_POINTS, sigmas=TAIL_SIGMAS):
    """The index where the newest k points start a new level, or None: all of them lie beyond
    `sigmas` noise deviations of the level before them, on the same side. (One point alone is
    not enough: on a shared machine a single run hit by load lies that far out now and then.)"""
    n = len(y)
    start = cuts[-1] if cuts else 0
    seg = y[start : n - k]
    if len(seg) < MIN_SEGMENT or k < 1:
        return None
    m = float(np.median(seg))
    dev = (y[n - k :] - m) / sigma
    if np.all(dev > sigmas) or np.all(dev < -sigmas):
        return n - k
    return None


def _change(s, y, cuts, i, tentative=False):
    from scipy.stats import mannwhitneyu

    n = len(y)
    bounds = [0] + cuts + [n]
    a, c, b = bounds[i], bounds[i + 1], bounds[i + 2]
    before, after = y[a:c], y[c:b]
    lo, hi = ratio_ci(before, after)
    ratio = math.exp(float(np.median(after)) - float(np.median(before)))
    p = None if tentative else _mw(mannwhitneyu, before, after)
    return Change(
        index=c,
        before=math.exp(float(np.median(before))),
        after=math.exp(float(np.median(after))),
        ratio=ratio,
        ratio_lo=lo,
        ratio_hi=hi,
        p=p,
        worse=(ratio < 1) if s.higher_is_better else (ratio > 1),
        n_before=c - a,
        n_after=b - c,
        run_before=s.points[c - 1].run,
        run_after=s.points[c].run,
        changed=fingerprint_changes(s.points[c - 1], s.points[c]),
        tentative=tentative,
    )


def ratio_ci(before, after, level=0.95, n=BOOTSTRAP, seed=0):
    """Bootstrap interval of exp(median(after) - median(before)) for log values (fewer draws for
    long segments, whose medians vary little; drawn in batches to bound the memory)."""
    rng = np.random.default_rng(seed)
    before, after = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    longest = max(len(before), len(after))
    n = n if longest <= 500 else max(200, n // 4)
    batch = max(1, 2_000_000 // longest)
    d = []
    for k in range(0, n, batch):
        m = min(batch, n - k)
        mb = np.median(rng.choice(before, (m, len(before))), axis=1)
        ma = np.median(rng.choice(after, (m, len(after))), axis=1)
        d.append(ma - mb)
    d = np.sort(np.concatenate(d))
    q = (1 - level) / 2
    return math.exp(float(np.quantile(d, q))), math.exp(float(np.quantile(d, 1 - q)))


def fingerprint_changes(p0, p1):
    """[[field, old, new]] of the fingerprint fields and labels that differ between two points."""
    out = []
    f0, f1 = _flat(p0.fingerprint), _flat(p1.fingerprint)
    for k in sorted(set(f0) | set(f1)):
        if k.split(".", 1)[0] in VOLATILE:
            continue
        if f0.get(k) != f1.get(k):
            out.append([k, f0.get(k), f1.get(k)])
    for k in sorted(set(p0.labels) | set(p1.labels)):
        if p0.labels.get(k) != p1.labels.get(k):
            out.append([f"label:{k}", p0.labels.get(k), p1.labels.get(k)])
    return out


def _flat(d, prefix=""):
    out = {}
    for k, v in (d or {}).items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        elif isinstance(v, list):
            out[f"{prefix}{k}"] = repr(v)
        else:
            out[f"{prefix}{k}"] = v
    return out


# ---------------------------------------------------------------- CI gate
def failing(series_list, pct):
    """[(series, change)] where the newest point's level starts with a change in the bad
    direction larger than pct percent."""
    out = []
    for s in series_list:
        c = s.newest_change()
        if c is not None and c.worse and abs(c.pct) > pct:
            out.append((s, c))
    return out


# ---------------------------------------------------------------- false-change rate
def false_change_rate(pools, n_series=200, length=30, seed=1):
    """How often the method finds a change in a series where nothing changed.

    pools: per benchmark, the runs of one configuration, each run given by its per-sample values
    (real stored samples). Each point of a synthetic series is the median of a bootstrap resample
    of a run drawn at random from one pool, so all points of a series come from the same
    distribution, with the spread between runs and within a run that the pool has.
    -> (series with a change, series made)."""
    rng = np.random.default_rng(seed)
    pools = [[np.asarray(r, dtype=float) for r in pool if len(r)] for pool in pools]
    pools = [p for p in pools if len(p) >= 2]
    if not pools:
        return 0, 0
    hits = 0
    for i in range(n_series):
        pool = pools[i % len(pools)]
        runs = rng.integers(0, len(pool), length)
        y = np.log([np.median(rng.choice(pool[j], len(pool[j]))) for j in runs])
        sigma = noise(y)
        cuts = detect(y, sigma)
        if cuts or tail_change(y, cuts, sigma) is not None:
            hits += 1
    return hits, n_series
