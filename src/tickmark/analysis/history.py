"""History: per benchmark, the series of one metric over many runs, and the points where the
series changes level (change points), each with its size, the size's CI, the runs on either side
and what changed in the runs' fingerprints there.

Pure: the caller hands in runs (store rows with their result rows); nothing here reads a store
or prints.

A series holds only runs that can be compared: the runs of one benchmark are split by the
fingerprint keys that separate series (fingerprint.keys(separates=True): the target, the
instruction set, instructions counted instead of time, the cycles method), and each series says
what sets it apart from the others of its benchmark.

The method, per series (docs/history.md, "The method"):
  1. each run is a point y = log(value) with its own relative standard error e (standard_error:
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
  5. a change with fewer than CONFIRM points after it is tentative: CONFIRM - n more runs at the
     new level confirm it.
threshold(n) is the (1 - ALPHA) quantile of max |z| over the splits of n points of normal noise
(THRESHOLDS, by simulation), so that a series of normal noise shows a change with probability
ALPHA; on real noise the rate is measured (tools/history_power.py, docs/history.md).
The size of a change is the ratio of the medians after and before; its 95 % CI comes from a
bootstrap of both segments (fixed seed: the same data give the same interval).
"""

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from statistics import NormalDist
from typing import Optional

import numpy as np

from .. import fingerprint
from ..errors import TickmarkError
from ..exact import exact_counts
from .stats import NS_OP, better_higher, time_ratio
from .verdict import CPU_TIME, contended

ALPHA = 0.01  # false changes per series of pure normal noise (docs/history.md: on real noise)
MIN_SEGMENT = 2  # points on either side of a change
CONFIRM = 3  # points after a change that confirm it (fewer: tentative)
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

TASK_CLOCK = "task-clock"

# Fingerprint fields that are measurements of the moment, not what the run ran on.
VOLATILE = {k.name for k in fingerprint.keys(volatile=True)}  # a difference there is no change
SEPARATES = [k.name for k in fingerprint.keys(separates=True)]


@dataclass
class Point:
    run_id: int
    run: str  # the run's name or "run ID"
    started: float
    order: str  # the value the series is ordered by (a time, a kernel, a label), as text
    value: float
    ci_lo: Optional[float]
    ci_hi: Optional[float]
    se: float = 0.0  # the run's own relative standard error of the value (0: unknown)
    fingerprint: dict = field(default_factory=dict, repr=False)
    labels: dict = field(default_factory=dict)
    task_clock: Optional[float] = None  # the run's on-CPU time per operation (headline series of times)
    on_cpu: Optional[float] = None  # the share of its wall time on a CPU (task_clock / value)
    wall: Optional[float] = None  # its wall-time value, where its task-clock level stands in (decided)
    decided: str = ""  # CPU_TIME where the one rule put its task-clock level in place of its wall time


@dataclass
class Change:
    index: int  # the first point of the new level
    before: float  # median of the segment before
    after: float  # median of the segment after
    ratio: float  # after / before
    ratio_lo: float  # 95 % CI of the ratio
    ratio_hi: float
    z: float  # the weighted two-sample statistic between the segments
    threshold: float  # what |z| had to exceed
    worse: bool  # in the bad direction (slower, or less bandwidth)
    n_before: int
    n_after: int
    run_before: str
    run_after: str
    changed: list  # [[key, old, new], ...]: fingerprint fields and labels that differ there
    tentative: bool = False
    to_confirm: int = 0  # more runs at the new level that would confirm a tentative change

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
    noise: Optional[float] = None  # relative noise between runs (tau, of log values)
    skipped: str = ""  # why no analysis was made (too few points)
    where: list = field(default_factory=list)  # what sets it apart from its benchmark's other series
    number: int = 1  # its number among the series of its benchmark
    of: int = 1  # how many series its benchmark has

    @property
    def name(self):
        return self.key if self.of == 1 else f"{self.key} #{self.number}"

    def levels(self):
        """[(first index, last index + 1, median)] of the segments between the changes."""
        cuts = [0] + [c.index for c in self.changes] + [len(self.points)]
        vals = np.array([p.value for p in self.points], dtype=float)
        return [(a, b, float(np.median(vals[a:b]))) for a, b in zip(cuts, cuts[1:]) if b > a]

    def newest_change(self):
        """The change that the newest point's level starts with, or None."""
        return self.changes[-1] if self.changes and self.points else None

    def to_dict(self):
        return {
            "key": self.key,
            "name": self.name,
            "bench": self.bench,
            "unit": self.unit,
            "higher_is_better": self.higher_is_better,
            "noise": self.noise,
            "skipped": self.skipped,
            "where": list(self.where),
            "points": PointDicts(self.points),
            "changes": [dict(asdict(c), pct=c.pct) for c in self.changes],
            "levels": [{"start": a, "end": b, "median": m} for a, b, m in self.levels()],
        }


class PointDicts(Sequence):
    """The points of a series as plain data (to_dict), each dict made when it is read: a series
    of thousands of runs holds its Points once, not a dict for each beside them. Compares, copies
    and pickles as the list of dicts."""

    __slots__ = ("_points",)

    def __init__(self, points):
        self._points = points

    def __len__(self):
        return len(self._points)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [_point_dict(p) for p in self._points[i]]
        return _point_dict(self._points[i])

    def __eq__(self, other):
        return list(self) == list(other) if isinstance(other, (list, PointDicts)) else NotImplemented

    def __reduce__(self):
        return (list, (list(self),))


def _point_dict(p):
    return {
        "run_id": p.run_id,
        "run": p.run,
        "started": p.started,
        "order": p.order,
        "value": p.value,
        "ci_lo": p.ci_lo,
        "ci_hi": p.ci_hi,
        "se": p.se,
        "labels": p.labels,  # the run's, shared by its points
        "on_cpu": p.on_cpu,
        "wall": p.wall,
        "decided": p.decided or None,
    }


# ---------------------------------------------------------------- ordering
_NUMBER = r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?"


def natural_key(text):
    """How values of --by sort: a value that is a number sorts as that number (-1 before 2, any
    length); anything else part by part, its digit runs as numbers ('6.1.0-10' after '6.1.0-9')
    and the rest as text; numbers before text."""
    import re
    from fractions import Fraction

    t = str(text).strip()
    if re.fullmatch(_NUMBER, t):
        try:
            return [(0, Fraction(t), "")]
        except (ValueError, ZeroDivisionError):
            pass
    out = []
    for part in re.findall(r"\d+|\D+", t):
        out.append((1, int(part), "") if part.isascii() and part.isdigit() else (2, 0, part))
    return out


def run_order(by):
    """The sort key of runs in a history ordered by `by`: its value (natural_key), then the
    start time and the id."""

    def key(run):
        ov = order_value(run, by)
        return (natural_key(ov) if ov is not None else [], run["started"], run["id"])

    return key


def group_of(fp):
    """The values of the keys that separate series: runs with equal ones can share a series."""
    return tuple(_text((fp or {}).get(k)) for k in SEPARATES)


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
CHUNK = 500  # runs whose result rows build asks `results` for at a time


def build(runs, by=None, metric="", results=None):
    """runs: [{id, name, started, fingerprint, notes, results: [result rows]}] -> [Series]: per
    result key with an ok value of the metric, one series per group of runs that can be compared
    (SEPARATES), in key order; the points ordered by `by` (see order_value), then by time. Runs
    without the `by` value are left out; when none has it, TickmarkError. `results`: instead of
    each run's "results", a function that gives {run id: [result rows]} of a list of runs, called
    for CHUNK runs at a time in order (a store's reader: the rows of a long history are never all
    held at once)."""
    from .stats import INSN_OP, Stats

    ordered = [r for r in runs if by in (None, "time") or order_value(r, by) is not None]
    if runs and not ordered:
        what = f"the label '{by[6:]}'" if by.startswith("label:") else f"the fingerprint field '{by}'"
        raise TickmarkError(f"no run has {what} (--by {by})")
    ordered.sort(key=run_order(by))
    series = {}
    got = {}
    for i, r in enumerate(ordered):
        if results is not None and i % CHUNK == 0:
            got = results(ordered[i : i + CHUNK])
        ov = order_value(r, by)
        labels = dict((r.get("notes") or {}).get("labels") or {})
        fp = r.get("fingerprint") or {}
        group = group_of(fp)
        exact = exact_counts(fp)
        for res in got.get(r["id"], ()) if results is not None else r["results"]:
            if res["status"] != "ok":
                continue
            st = res["stats"]
            if metric in ("", TASK_CLOCK) and type(st) is dict and type(st.get("")) is dict:  # read as it is
                head = _Stored(st[""])
                value, lo, hi, unit, higher, se = _task_clock(head) if metric else _values(head, "", res.get("stat"))
            else:
                value, lo, hi, unit, higher, se = _metric(Stats.of(res), metric, res.get("stat"))
            if value is None or not math.isfinite(value) or value <= 0:
                continue
            tc = _task_clock_of(st) if metric == "" and unit == NS_OP and not exact else None
            if exact and unit == NS_OP:  # QEMU -icount: 1 ns of virtual time is one instruction
                unit = INSN_OP
            s = series.get((res["key"], group, unit))
            if s is None:
                s = series[(res["key"], group, unit)] = Series(res["key"], res["bench"], unit, higher, [])
            s.points.append(
                Point(
                    run_id=r["id"],
                    run=r.get("name") or f"run {r['id']}",
                    started=r["started"],
                    order=ov if ov is not None else "",
                    value=float(value),
                    ci_lo=lo,
                    ci_hi=hi,
                    se=se,
                    fingerprint=fp,
                    labels=labels,
                    task_clock=tc,
                    on_cpu=tc / value if tc else None,
                )
            )
    out = [series[k] for k in sorted(series, key=lambda k: (natural_key(k[0]), _first(series[k])))]
    _say_where(out)
    for s in out:
        settle_contention(s)
    return out


def _task_clock_of(st):
    """The headline's on-CPU time per operation of a result's statistics (stored dict or Stats),
    or None."""
    d = st.get("") if type(st) is dict else None
    if type(d) is dict:
        per = d.get("counters_per_op")
    else:
        main = st.main if hasattr(st, "main") else None
        per = main.counters_per_op if main is not None else None
    v = per.get("task_clock") if isinstance(per, dict) else None
    return float(v) if isinstance(v, (int, float)) and math.isfinite(v) and v > 0 else None


def settle_contention(s):
    """The one rule for disturbed evidence (verdict.contended), per run of a series of wall
    times: a run whose process was on a CPU for much less of its wall time than the series' runs
    left alone were (the 90th percentile of the shares; a benchmark that blocks by design has a
    low share in every run) was kept off the CPU, so its wall time says nothing
    of its speed; its task-clock level stands in (its on-CPU time per operation, times the
    series' typical wall / on-CPU ratio, from the runs that were not contended), marked
    `decided`. Its own error and CI are unknown then (0: the series' typical error)."""
    shares = [p.on_cpu for p in s.points if p.on_cpu is not None]
    if not shares:
        return s
    ref = float(np.percentile(shares, 90))  # what the runs left alone reach
    hit = [p for p in s.points if contended(p.on_cpu, ref)]
    if not hit:
        return s
    clean = [p.value / p.task_clock for p in s.points if p.task_clock and not contended(p.on_cpu, ref)]
    scale = float(np.median(clean)) if clean else 1.0
    for p in hit:
        p.wall, p.value, p.se, p.decided = p.value, p.task_clock * scale, 0.0, CPU_TIME
        p.ci_lo = p.ci_hi = None  # the CI was the wall time's
    return s


def _text(v):
    return None if v is None or v == "" else str(v)


def _first(s):
    p = s.points[0]
    return (p.started, p.run_id)


def _say_where(series):
    """Number the series of each benchmark and give each the values that set it apart (the
    separating keys whose values differ between the series of that benchmark)."""
    by_key = {}
    for s in series:
        by_key.setdefault(s.key, []).append(s)
    for group in by_key.values():
        if len(group) == 1:
            continue
        firsts = [s.points[0].fingerprint for s in group]
        differ = [k for k in SEPARATES if len({_text(f.get(k)) for f in firsts}) > 1]
        units = len({s.unit for s in group}) > 1
        for i, s in enumerate(group):
            s.number, s.of = i + 1, len(group)
            fp = s.points[0].fingerprint
            s.where = [_where(k, fp.get(k)) for k in differ] or ([f"unit {s.unit}"] if units else [])


def _where(name, value):
    """A separating key's value in words: 'target ssh://board', 'measured time'."""
    k = fingerprint.KEYS[name]
    v = _text(value)
    return f"{k.label} {v}" if v is not None else (k.absent or f"no {k.label}")


def _metric(st, metric, stat="median"):
    """(value, CI low, CI high, unit, higher is better, relative standard error) of a result's
    metric: the headline (""), a sub-metric by name, or "task-clock" (on-CPU time per operation,
    from the task-clock counter: the time a process did not wait for a CPU). The standard error
    is the run's own where the value is a median (0, unknown, for the best sample of a latency
    sweep or a bandwidth: its CI and rounds describe the median)."""
    if metric == TASK_CLOCK:
        return _task_clock(st.main)
    d = st.get(metric) if metric else st.main
    if d is None:
        return None, None, None, None, False, 0.0
    return _values(d, metric, stat)


def _task_clock(d):
    """_metric's figures of task-clock per operation, from a headline summary d (or None)."""
    v = ((d.counters_per_op or {}).get("task_clock") if d is not None else None) or None
    return v, None, None, NS_OP, False, 0.0


def _values(d, metric, stat):
    """_metric's figures of one summary d (a stats.Summary or a _Stored)."""
    se = standard_error(d) if metric or (stat or "median") == "median" else 0.0
    return d.value, d.ci95_lo, d.ci95_hi, d.unit, d.higher_is_better, se


class _Stored:
    """A headline summary as stored (a dict: what the store's headlines read), with the fields of
    a stats.Summary that a history reads, without building the Summary (a history reads one per
    run and benchmark); missing fields as Summary.from_dict has them."""

    __slots__ = ("value", "ci95_lo", "ci95_hi", "unit", "rounds", "round_cv", "counters_per_op", "higher")

    def __init__(self, d):
        self.value, self.ci95_lo, self.ci95_hi = d.get("value"), d.get("ci95_lo"), d.get("ci95_hi")
        self.unit, self.rounds, self.round_cv = d.get("unit", NS_OP), d.get("rounds", 0), d.get("round_cv")
        self.counters_per_op = d.get("counters_per_op")
        self.higher = d.get("higher")  # a figure's own direction (None: from the unit)

    @property
    def higher_is_better(self):
        return better_higher(self.unit, self.higher)


def standard_error(d):
    """What a run knows about the precision of its value, as a relative standard error: the
    larger of its 95 % CI's half-width / 1.96 and the spread of its round medians (separate
    processes) / sqrt(rounds); 0 when it knows neither."""
    se = 0.0
    v = d.value
    if not v:
        return se
    if d.ci95_lo is not None and d.ci95_hi is not None and d.ci95_hi >= d.ci95_lo:
        se = (d.ci95_hi - d.ci95_lo) / 2 / 1.96 / abs(v)
    rounds = d.rounds or 0
    if d.round_cv is not None and rounds >= 2:
        se = max(se, d.round_cv / math.sqrt(rounds))
    return float(se) if math.isfinite(se) else 0.0


# ---------------------------------------------------------------- the analysis
def analyse(series_list):
    """Find the changes of every series (in place) -> the list."""
    for s in series_list:
        analyse_series(s)
    return series_list


def analyse_series(s):
    vals = np.array([p.value for p in s.points], dtype=float)
    if len(vals) < 2 * MIN_SEGMENT:
        s.skipped = f"{len(vals)} point{'s' if len(vals) != 1 else ''}: a change needs {2 * MIN_SEGMENT} at least"
        s.changes = []
        return s
    y = np.log(vals)
    e = np.array([p.se for p in s.points], dtype=float)
    found = detect(y, e)
    s.noise = found.tau
    cuts = [c for c, _, _ in found.cuts]
    s.changes = [_change(s, y, cuts, i, z, thr) for i, (_, z, thr) in enumerate(found.cuts)]
    return s


@dataclass
class Found:
    cuts: list  # [(index of the first point of a new level, z, threshold)]
    tau: float  # noise between runs (of log values)


def detect(y, e=None):
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
    cuts, todo = [], [(0, n)]
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


def split_z(wl, wr, sl, sr, ql, qr, nl, nr, floor=0.0):
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

    def __init__(self, y, w):
        y = y - float(np.median(y))
        self.w = np.concatenate([[0.0], np.cumsum(w)])
        self.s = np.concatenate([[0.0], np.cumsum(w * y)])
        self.q = np.concatenate([[0.0], np.cumsum(w * y * y)])
        self.floor = NOISE_FLOOR**2 * float(np.median(w))  # the smallest scale a point is given

    def z(self, a, k, b):
        """The statistic of the split at k of points a..b-1 (k may be an array): split_z of the
        weighted sums of both sides."""
        w, s, q = self.w, self.s, self.q
        return split_z(
            w[k] - w[a], w[b] - w[k], s[k] - s[a], s[b] - s[k], q[k] - q[a], q[b] - q[k], k - a, b - k, self.floor
        )

    def best_split(self, a, b):
        """(k, z) of the split of a..b-1 with the largest |z| (MIN_SEGMENT points a side), or
        (None, 0)."""
        lo, hi = a + MIN_SEGMENT, b - MIN_SEGMENT
        if hi < lo:
            return None, 0.0
        k = np.arange(lo, hi + 1)
        z = self.z(a, k, b)
        i = int(np.argmax(np.abs(z)))
        return int(k[i]), float(z[i])


def noise(y, e=None):
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


def threshold(n):
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


def simulated_threshold(n, alpha=ALPHA, simulations=40000, seed=0, batch=4000):
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


def _change(s, y, cuts, i, z, thr):
    n = len(y)
    bounds = [0] + cuts + [n]
    a, c, b = bounds[i], bounds[i + 1], bounds[i + 2]
    before, after = y[a:c], y[c:b]
    lo, hi = ratio_ci(before, after)
    ratio = math.exp(float(np.median(after)) - float(np.median(before)))
    tentative = b == n and b - c < CONFIRM
    return Change(
        index=c,
        before=math.exp(float(np.median(before))),
        after=math.exp(float(np.median(after))),
        ratio=ratio,
        ratio_lo=lo,
        ratio_hi=hi,
        z=z,
        threshold=thr,
        worse=time_ratio(ratio, s.higher_is_better) > 1,
        n_before=c - a,
        n_after=b - c,
        run_before=s.points[c - 1].run,
        run_after=s.points[c].run,
        changed=fingerprint_changes(s.points[c - 1], s.points[c]),
        tentative=tentative,
        to_confirm=CONFIRM - (b - c) if tentative else 0,
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
    """[[field, old, new]] of the fingerprint fields (in words, fingerprint.in_words) and labels
    that differ between two points; fields that measure the moment (volatile) are left out."""
    out = []
    f0, f1 = _flat(p0.fingerprint), _flat(p1.fingerprint)
    for k in sorted(set(f0) | set(f1), key=_registry_order):
        if k.split(".", 1)[0] in VOLATILE:
            continue
        if f0.get(k) != f1.get(k):
            out.append([k, f0.get(k), f1.get(k)])
    for k in sorted(set(p0.labels) | set(p1.labels)):
        if p0.labels.get(k) != p1.labels.get(k):
            out.append([f"label:{k}", p0.labels.get(k), p1.labels.get(k)])
    return out


_ORDER = {k.name: i for i, k in enumerate(fingerprint.keys())}


def _registry_order(k):
    return (_ORDER.get(k.split(".", 1)[0], len(_ORDER)), k)


def _flat(d, prefix=""):
    out = {}
    for k, v in (d or {}).items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = fingerprint.in_words(k, v) if isinstance(v, list) else v
    return out


# ---------------------------------------------------------------- power and false changes
def run_draws(samples, meta, metric="", k=40, rng=None):
    """k draws of what one run would have said (a synthetic point: its rounds drawn again with
    replacement, and the samples of each drawn round) -> [(value, standard error)] of the metric,
    computed as for a stored run (stats.compute, then _metric)."""
    from . import stats

    rng = rng if rng is not None else np.random.default_rng(0)
    by_round = {}
    for smp in samples:
        by_round.setdefault(smp.get("round", 1), []).append(smp)
    rounds = list(by_round.values())
    out = []
    for _ in range(k):
        drawn = []
        for i, j in enumerate(rng.integers(0, len(rounds), len(rounds))):
            rd = rounds[j]
            drawn += [dict(rd[x], round=i + 1) for x in rng.integers(0, len(rd), len(rd))]
        st = stats.compute(drawn, meta.get("stat", "median"), meta.get("bytes_per_op", 0))
        value, _, _, _, _, se = _metric(st, metric, meta.get("stat", "median")) if st else (None,) * 6
        if value and math.isfinite(value):
            out.append((value, se))
    return out


def synthetic(pool, n, step, rng, higher_is_better=False):
    """A series of n points drawn at random from a pool of runs, each run a list of (value,
    standard error) draws (bootstrap resamples of its samples), with a step from point n // 2 on
    (the values multiplied by step; divided where higher is better, so that a step is a slowdown)
    -> (log values, standard errors)."""
    runs = rng.integers(0, len(pool), n)
    pts = [pool[r][rng.integers(0, len(pool[r]))] for r in runs]
    y = np.log([v for v, _ in pts])
    e = np.array([se for _, se in pts], dtype=float)
    if step != 1.0:
        y[n // 2 :] += -math.log(step) if higher_is_better else math.log(step)
    return y, e


def false_change_rate(pools, n_series=200, length=30, seed=1):
    """How often the method finds a change (tested or tentative) in a series where nothing
    changed: series i drawn from pools[i % len(pools)] (synthetic) -> (series with a change,
    series made)."""
    rng = np.random.default_rng(seed)
    pools = [p for p in pools if len(p) >= 2]
    if not pools:
        return 0, 0
    hits = 0
    for i in range(n_series):
        y, e = synthetic(pools[i % len(pools)], length, 1.0, rng)
        hits += bool(detect(y, e).cuts)
    return hits, n_series
