"""History: per benchmark, the series of one metric over many runs, and the points where the
series changes level (change points), each with its size, the size's CI, the runs on either side
and what changed in the runs' fingerprints there.

Pure: the caller hands in runs (store rows with their result rows); nothing here reads a store
or prints.

A series holds only runs that can be compared: the runs of one benchmark are split by the
fingerprint keys that separate series (fingerprint.keys(separates=True): the target, the
instruction set, instructions counted instead of time, the cycles method), and each series says
what sets it apart from the others of its benchmark.

The method of finding the changes is changepoints.py's (docs/history.md, "The method").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Optional, overload

import numpy as np

from ..base.errors import TickmarkError
from ..base.exact import exact_counts
from ..base.shapes import Fingerprint, Row
from ..facts import fingerprint
from .changepoints import MIN_SEGMENT, detect, ratio_ci
from .stats import NS_OP, Stats, Summary, better_higher, time_ratio
from .verdict import CPU_TIME, contended

CONFIRM = 3  # points after a change that confirm it (fewer: tentative)

TASK_CLOCK = "task-clock"
# what _metric gives of a result's metric: (value, CI low, CI high, unit, higher is better,
# relative standard error)
Figures = tuple[Optional[float], Optional[float], Optional[float], str, bool, float]

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
    ci_lo: float | None
    ci_hi: float | None
    se: float = 0.0  # the run's own relative standard error of the value (0: unknown)
    fingerprint: Fingerprint = field(default_factory=dict, repr=False)
    labels: dict[str, Any] = field(default_factory=dict)
    task_clock: float | None = None  # the run's on-CPU time per operation (headline series of times)
    on_cpu: float | None = None  # the share of its wall time on a CPU (task_clock / value)
    wall: float | None = None  # its wall-time value, where its task-clock level stands in (decided)
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
    changed: list[list[Any]]  # [[key, old, new], ...]: fingerprint fields and labels that differ there
    tentative: bool = False
    to_confirm: int = 0  # more runs at the new level that would confirm a tentative change

    @property
    def pct(self) -> float:
        return (self.ratio - 1) * 100


@dataclass
class Series:
    key: str  # the result key (benchmark and parameters)
    bench: str
    unit: str
    higher_is_better: bool
    points: list[Point]
    changes: list[Change] = field(default_factory=list)
    noise: float | None = None  # relative noise between runs (tau, of log values)
    skipped: str = ""  # why no analysis was made (too few points)
    where: list[str] = field(default_factory=list)  # what sets it apart from its benchmark's other series
    number: int = 1  # its number among the series of its benchmark
    of: int = 1  # how many series its benchmark has

    @property
    def name(self) -> str:
        return self.key if self.of == 1 else f"{self.key} #{self.number}"

    def levels(self) -> list[tuple[int, int, float]]:
        """[(first index, last index + 1, median)] of the segments between the changes."""
        cuts = [0] + [c.index for c in self.changes] + [len(self.points)]
        vals = np.array([p.value for p in self.points], dtype=float)
        return [(a, b, float(np.median(vals[a:b]))) for a, b in zip(cuts, cuts[1:]) if b > a]

    def newest_change(self) -> Change | None:
        """The change that the newest point's level starts with, or None."""
        return self.changes[-1] if self.changes and self.points else None

    def to_dict(self) -> dict[str, Any]:
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


class PointDicts(Sequence[dict[str, Any]]):
    """The points of a series as plain data (to_dict), each dict made when it is read: a series
    of thousands of runs holds its Points once, not a dict for each beside them. Compares, copies
    and pickles as the list of dicts."""

    __slots__ = ("_points",)

    def __init__(self, points: list[Point]) -> None:
        self._points = points

    def __len__(self) -> int:
        return len(self._points)

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            return [_point_dict(p) for p in self._points[i]]
        return _point_dict(self._points[i])

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, PointDicts)) else NotImplemented

    def __reduce__(self) -> tuple[type[list[Any]], tuple[list[dict[str, Any]]]]:
        return (list, (list(self),))


def _point_dict(p: Point) -> dict[str, Any]:
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


def natural_key(text: object) -> list[tuple[int, Any, str]]:
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
    out: list[tuple[int, Any, str]] = []
    for part in re.findall(r"\d+|\D+", t):
        out.append((1, int(part), "") if part.isascii() and part.isdigit() else (2, 0, part))
    return out


def run_order(by: str | None) -> Callable[[Row], tuple[Any, ...]]:
    """The sort key of runs in a history ordered by `by`: its value (natural_key), then the
    start time and the id."""

    def key(run: Row) -> tuple[Any, ...]:
        ov = order_value(run, by)
        return (natural_key(ov) if ov is not None else [], run["started"], run["id"])

    return key


def group_of(fp: Fingerprint | None) -> tuple[str | None, ...]:
    """The values of the keys that separate series: runs with equal ones can share a series."""
    return tuple(_text((fp or {}).get(k)) for k in SEPARATES)


def order_value(run: Row, by: str | None) -> str | None:
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


def build(
    runs: Sequence[Row],
    by: str | None = None,
    metric: str = "",
    results: Callable[[list[Row]], dict[Any, list[Row]]] | None = None,
) -> list[Series]:
    """runs: [{id, name, started, fingerprint, notes, results: [result rows]}] -> [Series]: per
    result key with an ok value of the metric, one series per group of runs that can be compared
    (SEPARATES), in key order; the points ordered by `by` (see order_value), then by time. Runs
    without the `by` value are left out; when none has it, TickmarkError. `results`: instead of
    each run's "results", a function that gives {run id: [result rows]} of a list of runs, called
    for CHUNK runs at a time in order (a store's reader: the rows of a long history are never all
    held at once)."""
    from .stats import INSN_OP, Stats

    ordered = [r for r in runs if by in (None, "time") or order_value(r, by) is not None]
    if runs and not ordered and by is not None:  # by is a field: time leaves every run
        what = f"the label '{by[6:]}'" if by.startswith("label:") else f"the fingerprint field '{by}'"
        raise TickmarkError(f"no run has {what} (--by {by})")
    ordered.sort(key=run_order(by))
    series: dict[tuple[str, tuple[str | None, ...], str | None], Series] = {}
    got: dict[Any, list[Row]] = {}
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


def _task_clock_of(st: dict[str, Any] | Stats) -> float | None:
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


CONTENDED_SE = 0.1  # relative error of a contended run's CPU-time level (settle_contention)


def settle_contention(s: Series) -> Series:
    """The one rule for disturbed evidence (verdict.contended), per run of a series of wall
    times: a run whose process was on a CPU for much less of its wall time than the series' runs
    left alone were (the 90th percentile of the shares; a benchmark that blocks by design has a
    low share in every run) was kept off the CPU, so its wall time says nothing
    of its speed; its task-clock level stands in (its on-CPU time per operation, times the
    series' typical wall / on-CPU ratio, from the runs that were not contended), marked
    `decided`. Its CI is unknown then, and its error is CONTENDED_SE: a run kept off its CPU
    shared the core while on it too, and its CPU time can read 15-25 % high with nothing in the
    run that shows it (docs/compare.md, "Contention"), so it weighs less in the change search."""
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
        assert p.task_clock is not None  # its on_cpu share is task_clock / value
        p.wall, p.value, p.se, p.decided = p.value, p.task_clock * scale, CONTENDED_SE, CPU_TIME
        p.ci_lo = p.ci_hi = None  # the CI was the wall time's
    return s


def _text(v: object) -> str | None:
    return None if v is None or v == "" else str(v)


def _first(s: Series) -> tuple[float, int]:
    p = s.points[0]
    return (p.started, p.run_id)


def _say_where(series: Iterable[Series]) -> None:
    """Number the series of each benchmark and give each the values that set it apart (the
    separating keys whose values differ between the series of that benchmark)."""
    by_key: dict[str, list[Series]] = {}
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


def _where(name: str, value: object) -> str:
    """A separating key's value in words: 'target ssh://board', 'measured time'."""
    k = fingerprint.KEYS[name]
    v = _text(value)
    return f"{k.label} {v}" if v is not None else (k.absent or f"no {k.label}")


def _metric(st: Stats, metric: str, stat: str | None = "median") -> Figures:
    """(value, CI low, CI high, unit, higher is better, relative standard error) of a result's
    metric: the headline (""), a sub-metric by name, or "task-clock" (on-CPU time per operation,
    from the task-clock counter: the time a process did not wait for a CPU). The standard error
    is the run's own where the value is a median (0, unknown, for the best sample of a latency
    sweep or a bandwidth: its CI and rounds describe the median)."""
    if metric == TASK_CLOCK:
        return _task_clock(st.main)
    d = st.get(metric) if metric else st.main
    if d is None:
        return None, None, None, "", False, 0.0
    return _values(d, metric, stat)


def _task_clock(d: Summary | _Stored | None) -> Figures:
    """_metric's figures of task-clock per operation, from a headline summary d (or None)."""
    v = ((d.counters_per_op or {}).get("task_clock") if d is not None else None) or None
    return v, None, None, NS_OP, False, 0.0


def _values(d: Summary | _Stored, metric: str, stat: str | None) -> Figures:
    """_metric's figures of one summary d (a stats.Summary or a _Stored)."""
    se = standard_error(d) if metric or (stat or "median") == "median" else 0.0
    return d.value, d.ci95_lo, d.ci95_hi, d.unit, d.higher_is_better, se


class _Stored:
    """A headline summary as stored (a dict: what the store's headlines read), with the fields of
    a stats.Summary that a history reads, without building the Summary (a history reads one per
    run and benchmark); missing fields as Summary.from_dict has them."""

    __slots__ = ("value", "ci95_lo", "ci95_hi", "unit", "rounds", "round_cv", "counters_per_op", "higher")

    def __init__(self, d: dict[str, Any]) -> None:
        self.value, self.ci95_lo, self.ci95_hi = d.get("value"), d.get("ci95_lo"), d.get("ci95_hi")
        self.unit, self.rounds, self.round_cv = d.get("unit", NS_OP), d.get("rounds", 0), d.get("round_cv")
        self.counters_per_op = d.get("counters_per_op")
        self.higher = d.get("higher")  # a figure's own direction (None: from the unit)

    @property
    def higher_is_better(self) -> bool:
        return better_higher(self.unit, self.higher)


def standard_error(d: Summary | _Stored) -> float:
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
def analyse(series_list: list[Series]) -> list[Series]:
    """Find the changes of every series (in place) -> the list."""
    for s in series_list:
        analyse_series(s)
    return series_list


def analyse_series(s: Series) -> Series:
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


def _change(s: Series, y: np.ndarray, cuts: list[int], i: int, z: float, thr: float) -> Change:
    n = len(y)
    bounds = [0] + cuts + [n]
    a, c, b = bounds[i], bounds[i + 1], bounds[i + 2]
    before, after = y[a:c], y[c:b]
    lo, hi = ratio_ci(before, after)
    ratio = math.exp(float(np.median(after)) - float(np.median(before)))
    tentative = b == n and b - c < CONFIRM
    time = time_ratio(ratio, s.higher_is_better)
    assert time is not None  # a ratio of two medians of positive values
    return Change(
        index=c,
        before=math.exp(float(np.median(before))),
        after=math.exp(float(np.median(after))),
        ratio=ratio,
        ratio_lo=lo,
        ratio_hi=hi,
        z=z,
        threshold=thr,
        worse=time > 1,
        n_before=c - a,
        n_after=b - c,
        run_before=s.points[c - 1].run,
        run_after=s.points[c].run,
        changed=fingerprint_changes(s.points[c - 1], s.points[c]),
        tentative=tentative,
        to_confirm=CONFIRM - (b - c) if tentative else 0,
    )


def fingerprint_changes(p0: Point, p1: Point) -> list[list[Any]]:
    """[[field, old, new]] of the fingerprint fields (in words, fingerprint.in_words) and labels
    that differ between two points; fields that measure the moment (volatile) are left out."""
    out: list[list[Any]] = []
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


def _registry_order(k: str) -> tuple[int, str]:
    return (_ORDER.get(k.split(".", 1)[0], len(_ORDER)), k)


def _flat(d: dict[str, Any] | None, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in (d or {}).items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = fingerprint.in_words(k, v) if isinstance(v, list) else v
    return out
