"""Statistics of one benchmark instance from its raw samples (host side; the core sends integers).

Per-sample value: ns / ops (ns per operation). Headline by the instance's `stat`:
  median   -> median ns/op
  min      -> smallest ns/op (latency sweeps: noise only ever adds time)
  max      -> highest rate; bandwidth instances are reported in MB/s (bytes_per_op*ops/ns*1000),
              and their headline is the best round: the bytes of all of a round's samples over
              their time (a window of samples x sample length, 50 ms by default), best of the
              rounds, as tinymembench takes the best of its runs of at least 0.5 s; the best
              single sample (`max`) is kept beside it
Spread: rcv = 1.4826*MAD/median (robust CV), cv = std/mean, round_cv = CV of the round medians,
ci95 = distribution-free order-statistic interval of the median, determinism = largest distance
of a round median from the overall median. Every spread is a fraction (0.023 is 2.3 %).

The result model: `compute()` gives a `Stats` (one `Summary` per metric: "" is the headline,
other names are sub-metrics). The store keeps `Stats.to_dict()`, each summary stamped with
STATS_VERSION; `Stats.of(result)` reads a stored or exported result back. Statistics stored
under another version are recomputed from the raw samples when they are read (store/__init__.py).
"""

from __future__ import annotations

import math
from collections.abc import ItemsView, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..base import units
from ..base.shapes import Row
from ..base.units import INSN_OP, MB_S, NS_OP  # noqa: F401 (the headline units, where analysis takes them)
from . import counters
from .estimators import _cv, determinism, median_ci, round_medians
from .worstcase import quantile_bound

STATS_VERSION = 5  # 3: `preempted` only where the preempted samples moved the headline; 4: bandwidth: best round;
# 5: determinism a fraction like the other spreads, no rate per second of the task-clock
UNSTABLE_RCV = 0.10
NOISY_ROUND_CV = 0.03
OUTLIER_MADS = 14.8
OUTLIER_FAR = 0.50
FEW_SAMPLES = 9
DISTURBED_ON_CPU = 0.9  # a bandwidth round on a CPU less than this share of its wall time is disturbed
CONFIRMED_ROUND = 1.15  # ... and a best round that no other round comes within this factor of
TASK_CLOCK = "task-clock"  # pseudo sub-metric: on-CPU time per operation (task-clock counter)
# Sub-metric of a benchmark with cold calls (its descriptor's .cold): one operation timed alone
# right after the port flushed the caches, a sample's "cold"; per call, never divided by a
# sample's operations, and never part of the headline.
COLD = "cold"

# What each flag of a result means, in words, from the thresholds above (flags_for, summarize)
FLAG_MEANINGS = {
    "unstable": f"samples spread widely (robust CV of the samples at least {UNSTABLE_RCV * 100:g} %)",
    "noisy": f"rounds disagree (CV of the round medians above {NOISY_ROUND_CV * 100:g} %)",
    "outliers": f"some samples lie far from the median (more than {OUTLIER_MADS:g} MADs, or {OUTLIER_FAR * 100:g} %)",
    "preempted": "samples hit by a context switch or a CPU migration even after one retake moved "
    "the median (outside the clean samples' 95 % CI), or too few clean samples are left",
    "few-samples": f"fewer than {FEW_SAMPLES} samples: the CI is wide or uncovered",
    "multiplexed": "the kernel time-shared the hardware counters: counts are scaled estimates",
    COLD: "one operation timed alone right after the caches were flushed (median of the cold calls); "
    "not part of the headline",
    "disturbed": f"a bandwidth whose best round was on a CPU less than {DISTURBED_ON_CPU * 100:g} % of its "
    f"wall time (task-clock), or that no other round came within {CONFIRMED_ROUND * 100 - 100:g} % of: other "
    "work took the CPU, the caches or the memory bus, the rate is not what the machine gives quietly",
}


def is_bandwidth(stat: str | None, bytes_per_op: float | None) -> bool:
    """Instances whose headline is a rate in MB/s rather than a time per operation."""
    return stat == "max" and (bytes_per_op or 0) > 0


def unit_for(stat: str | None, bytes_per_op: float | None) -> str:
    return MB_S if is_bandwidth(stat, bytes_per_op) else NS_OP


def unit_of(meta: dict[str, Any] | None) -> str:
    """The unit of an instance's headline from its meta record: a figure's own unit (a number
    read from a program's output, `tickmark exec --figure`), MB/s or ns/op."""
    fig = (meta or {}).get("figure")
    if isinstance(fig, dict):
        return str(fig.get("unit") or "")
    return unit_for((meta or {}).get("stat"), (meta or {}).get("bytes_per_op", 0))


def higher_is_better(meta: dict[str, Any] | None) -> bool:
    """Is a higher headline better? A figure says so itself; else its unit says (units.py:
    bandwidth is, a time is not)."""
    fig = (meta or {}).get("figure")
    return better_higher(unit_of(meta), fig.get("higher") if isinstance(fig, dict) else None)


def better_higher(unit: str, higher: bool | None = None) -> bool:
    """The one rule of which way is better: a direction given (a figure's own: higher=True or
    False) is the answer; without one, a rate in MB/s is better higher and anything else (a time,
    a count per operation) better lower."""
    return units.higher_is_better(unit, higher)


def time_ratio(ratio: float | None, higher: bool) -> float | None:
    """A ratio B/A of a figure as a time ratio: above 1 always means B is worse (a figure where
    higher is better inverted); None without a usable ratio."""
    if ratio is None or not ratio or math.isnan(ratio) or math.isinf(ratio):
        return None
    return 1 / ratio if higher else ratio


@dataclass
class Summary:
    """Statistics of one metric of one instance. Times are ns per operation; `value`, `median`,
    `min`, `max`, `p90`, `mean` and the CI are in `unit` (MB/s for bandwidth headlines)."""

    n: int = 0
    unit: str = NS_OP
    value: float | None = None  # the headline (by the instance's stat)
    median: float | None = None
    min: float | None = None
    max: float | None = None
    p90: float | None = None
    mean: float | None = None
    mad: float | None = None
    rcv: float | None = None
    cv: float | None = None
    rounds: int = 0
    round_medians: list[float] = field(default_factory=list)
    round_cv: float | None = None
    ci95_lo: float | None = None
    ci95_hi: float | None = None
    ci95_level: float | None = None
    determinism: float | None = None
    ns_per_op: float | None = None
    ops_per_s: float | None = None
    cycles_per_op: float | None = None
    cycles_method: str | None = None
    counters_per_op: dict[str, Any] | None = None
    counters: dict[str, Any] | None = None
    hist: dict[str, Any] | None = None
    retaken: int | None = None
    preempted_samples: int | None = None  # samples hit again after their retake
    flags: list[str] = field(default_factory=list)
    higher: bool | None = None  # a figure's direction (None: from the unit)
    version: int = STATS_VERSION

    @property
    def is_bandwidth(self) -> bool:
        return self.unit == MB_S

    @property
    def higher_is_better(self) -> bool:
        return better_higher(self.unit, self.higher)

    @property
    def ci(self) -> tuple[float, float] | None:
        """(lo, hi) of the median's 95 % interval, or None."""
        if self.ci95_lo is None or self.ci95_hi is None:
            return None
        return self.ci95_lo, self.ci95_hi

    @property
    def ci_rel(self) -> float | None:
        """Half-width of the median's 95 % interval relative to the median, or None."""
        ci = self.ci
        if ci is None or not self.median:
            return None
        return (ci[1] - ci[0]) / 2 / self.median

    def counter_figures(self) -> dict[str, Any]:
        """Counter-derived figures as counters.derived() gives them ({} when none were stored)."""
        if self.counters is None and self.counters_per_op is None:
            return {}
        return dict(self.counters or {}, per_op=self.counters_per_op or {})

    def to_dict(self) -> dict[str, Any]:
        """The stored form: every field (None as null) but the optional extras, stamped "v"."""
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "version"}
        d = {k: v for k, v in d.items() if v is not None or k not in _OPTIONAL}
        d["v"] = self.version
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Summary:
        """From a stored or exported summary; missing fields are None, unknown ones ignored, and
        a summary without a version stamp is version 1."""
        names = _FIELDS.get(cls)
        if names is None:
            names = _FIELDS[cls] = {f.name for f in fields(cls)} - {"version"}
        kw = {k: v for k, v in (d or {}).items() if k in names}
        return cls(version=(d or {}).get("v", 1), **kw)


_FIELDS: dict[type, set[str]] = {}  # class -> the names from_dict takes

# Fields a summary has only where they were measured (absent from the stored form otherwise).
_OPTIONAL = {
    "cycles_per_op",
    "cycles_method",
    "counters_per_op",
    "counters",
    "hist",
    "retaken",
    "preempted_samples",
    "higher",
}


class Stats:
    """The statistics of one instance: metric name -> Summary ("" = headline, first)."""

    def __init__(self, metrics: dict[str, Summary] | None = None) -> None:
        self.metrics = dict(metrics or {})

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Stats:
        return cls({k: v if isinstance(v, Summary) else Summary.from_dict(v) for k, v in (d or {}).items()})

    @classmethod
    def of(cls, result: Any) -> Stats:
        """The Stats of a result row (store) or exported result: its "stats" entry."""
        st = result.get("stats") if isinstance(result, dict) else result
        return st if isinstance(st, Stats) else cls.from_dict(st)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        return {k: s.to_dict() for k, s in self.metrics.items()}

    @property
    def main(self) -> Summary | None:
        return self.metrics.get("")

    @property
    def subs(self) -> dict[str, Summary]:
        """Sub-metric name -> Summary (without the headline)."""
        return {k: s for k, s in self.metrics.items() if k}

    def get(self, name: str) -> Summary | None:
        return self.metrics.get(name)

    def items(self) -> ItemsView[str, Summary]:
        return self.metrics.items()

    def __iter__(self) -> Iterator[str]:
        return iter(self.metrics)

    def __bool__(self) -> bool:
        return bool(self.metrics)

    def __len__(self) -> int:
        return len(self.metrics)

    @property
    def current(self) -> bool:
        """Computed by this version of the statistics (else: recompute from the samples)."""
        return all(s.version == STATS_VERSION for s in self.metrics.values())


def is_current(stats_dict: dict[str, Any] | None) -> bool:
    """A stored stats dict that this version computed (an empty one has nothing to redo)."""
    return all(isinstance(d, dict) and d.get("v") == STATS_VERSION for d in (stats_dict or {}).values())


def distribution(values: ArrayLike, rounds: ArrayLike, unit: str = NS_OP) -> Summary:
    """Descriptive statistics of per-sample values with their round numbers -> Summary."""
    v = np.asarray(values, dtype=float)
    med = float(np.median(v))
    mad = float(np.median(np.abs(v - med)))
    lo, hi, cover = median_ci(np.sort(v))
    meds = round_medians(v, rounds)
    return Summary(
        n=int(len(v)),
        unit=unit,
        median=med,
        min=float(v.min()),
        max=float(v.max()),
        p90=float(np.percentile(v, 90)),
        mean=float(v.mean()),
        mad=mad,
        rcv=1.4826 * mad / med if med else None,
        cv=_cv(v),
        rounds=len(meds),
        round_medians=meds,
        round_cv=_cv(meds),
        ci95_lo=lo,
        ci95_hi=hi,
        ci95_level=cover,
        determinism=determinism(v, rounds),
    )


FIGURE = "figure"  # metric_values' metric for a figure's own values (the samples' "value")


def metric_values(samples: Iterable[Row], metric: str = "", bytes_per_op: float = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per-sample values of one metric and their rounds -> (values, rounds) as arrays.

    metric "": ns per operation, or MB/s when bytes_per_op is given (a bandwidth headline);
    a sub-metric name: that part's ns per operation; COLD: the ns of each cold call (one operation
    after a cache flush, not divided by the sample's operations); TASK_CLOCK: on-CPU ns per operation from the
    task-clock counter (time the process was descheduled does not count); FIGURE: a figure's
    values as the program printed them (any finite number). Samples without the value, without
    operations, or (but for a figure) with a value of zero or less are left out."""
    vals: list[float] = []
    rounds: list[Any] = []
    if metric == FIGURE:
        for s in samples:
            x = s.get("value")
            if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x):
                vals.append(float(x))
                rounds.append(s.get("round", 1))
        return np.asarray(vals, dtype=float), np.asarray(rounds)
    for s in samples:
        ops = s.get("ops")
        if metric == TASK_CLOCK:
            ops, x = s.get("ctr_ops"), (s.get("ctr") or {}).get("task_clock")
        elif metric == COLD:
            ops, x = 1, s.get("cold")
        elif metric:
            x = (s.get("sub") or {}).get(metric)
        else:
            x = s.get("ns")
        if not ops or x is None or x <= 0:
            continue
        per_op = x / ops
        vals.append(bytes_per_op * 1000.0 / per_op if bytes_per_op and not metric else per_op)
        rounds.append(s.get("round", 1))
    return np.asarray(vals, dtype=float), np.asarray(rounds)


def hist_percentiles(hists: Sequence[Row]) -> dict[str, Any] | None:
    """Merge per-round histograms ({"buckets": [[lower_ns, count], ...], "min", "max", "sum"}) and
    read p50/p99/p99.9/p99.99 as the lower bound of the bucket holding that rank (clamped to
    min/max), and "tail": what the events support about p99.99 at 95 % confidence
    (worstcase.quantile_bound: a bound, or not enough events);
    avg (cyclictest's Avg) is the events' exact mean where every histogram carries its sum."""
    counts: dict[int, int] = {}
    lo_all: int | None = None
    hi_all: int | None = None
    sums: list[Any] = [h.get("sum") for h in hists]
    for h in hists:
        for lower, count in h.get("buckets", []):
            counts[lower] = counts.get(lower, 0) + count
        if "min" in h:
            lo_all = h["min"] if lo_all is None else min(lo_all, h["min"])
        if "max" in h:
            hi_all = h["max"] if hi_all is None else max(hi_all, h["max"])
    total = sum(counts.values())
    if not total:
        return None
    out: dict[str, Any] = {"count": total, "min": lo_all, "max": hi_all}
    if sums and all(isinstance(x, int) for x in sums):
        out["avg"] = sum(sums) / total
    bounds = sorted(counts)
    # what the events support about the tail, distribution-free (analysis/worstcase.py)
    out["tail"] = quantile_bound(counts.items(), hi_all)
    for name, q in (("p50", 0.50), ("p99", 0.99), ("p99.9", 0.999), ("p99.99", 0.9999)):
        rank = math.ceil(q * total)
        acc = 0
        for b in bounds:
            acc += counts[b]
            if acc >= rank:
                val = b
                if lo_all is not None:
                    val = max(val, lo_all)
                if hi_all is not None:
                    val = min(val, hi_all)
                out[name] = val
                break
    return out


def flags_for(d: Summary, preempted: bool = False, extended: bool = True) -> list[str]:
    """Noise flags of one metric's Summary `d` (see module doc for thresholds)."""
    flags: list[str] = []
    if d.rcv is not None and d.rcv >= UNSTABLE_RCV:
        flags.append("unstable")
    if extended and d.round_cv is not None and d.round_cv > NOISY_ROUND_CV:
        flags.append("noisy")
    med, mad = d.median, d.mad
    # distribution() gives every summary these (from at least one value)
    assert med is not None and mad is not None and d.min is not None and d.max is not None
    far = med and (abs(d.min - med) / med >= OUTLIER_FAR or abs(d.max - med) / med >= OUTLIER_FAR)
    if far or (mad > 0 and max(abs(d.max - med), abs(d.min - med)) > OUTLIER_MADS * mad):
        flags.append("outliers")
    if preempted:
        flags.append("preempted")
    if d.n < FEW_SAMPLES:
        flags.append("few-samples")
    return flags


def _hit_again(s: Row) -> bool:
    return s.get("nivcsw", 0) > 0 or s.get("cpu0", 0) != s.get("cpu1", 0)


def best_round_rate(samples: Iterable[Row], bytes_per_op: float) -> float:
    """The bandwidth headline: per round, the bytes of all its samples over their total time
    (MB/s), and the best of the rounds."""
    per: dict[Any, tuple[float, float]] = {}
    for s in samples:
        b, ns = per.get(s.get("round", 1), (0, 0))
        per[s.get("round", 1)] = (b + bytes_per_op * s["ops"], ns + s["ns"])
    return max(b * 1000.0 / ns for b, ns in per.values() if ns > 0)


def round_rates(samples: Iterable[Row], bytes_per_op: float) -> dict[Any, float]:
    """{round: MB/s of all its samples' bytes over their time}."""
    per: dict[Any, list[Row]] = {}
    for s in samples:
        per.setdefault(s.get("round", 1), []).append(s)
    return {r: best_round_rate(ss, bytes_per_op) for r, ss in per.items()}


def bandwidth_disturbed(samples: Sequence[Row], bytes_per_op: float) -> bool:
    """Is the bandwidth headline (the best round) disturbed? Its round was on a CPU less than
    DISTURBED_ON_CPU of its wall time, or (two rounds or more) no other round came within
    CONFIRMED_ROUND of it: a clean round alone whose rate the others do not confirm (the caches
    or the memory bus taken by other work move a round's rate without taking the CPU)."""
    rates = sorted(round_rates(samples, bytes_per_op).values(), reverse=True)
    unconfirmed = len(rates) >= 2 and rates[1] * CONFIRMED_ROUND < rates[0]
    return unconfirmed or (best_round_on_cpu(samples, bytes_per_op) or 1.0) < DISTURBED_ON_CPU


def best_round_on_cpu(samples: Iterable[Row], bytes_per_op: float) -> float | None:
    """The share of its wall time that the bandwidth headline's round (best_round_rate's) spent
    on a CPU (task-clock over ns of its samples), or None where task-clock was not counted."""
    per: dict[Any, list[Row]] = {}
    for s in samples:
        per.setdefault(s.get("round", 1), []).append(s)
    best = max(per.values(), key=lambda ss: best_round_rate(ss, bytes_per_op))
    if not all("task_clock" in (s.get("ctr") or {}) and s.get("ctr_ops") == s.get("ops") for s in best):
        return None
    ns = sum(s["ns"] for s in best)
    return sum(s["ctr"]["task_clock"] for s in best) / ns if ns else None


def preemption_moved(good: Sequence[Row], stat: str | None = "median", bytes_per_op: float = 0) -> bool:
    """Did the preempted samples (retaken and hit again) measurably move the headline? A median
    headline: yes when the median of all samples lies outside the 95 % CI of the median of the
    clean samples. A bandwidth headline (the best round): when the clean samples' best round is
    more than 2 % faster. A min headline: preemption only adds time, so it cannot make the
    fastest sample faster: only when fewer than two clean samples are left."""
    clean = [s for s in good if not (s.get("retaken") and _hit_again(s))]
    if len(clean) < 2:
        return True
    if stat == "max" and bytes_per_op:
        return best_round_rate(clean, bytes_per_op) > 1.02 * best_round_rate(good, bytes_per_op)
    if stat != "median":
        return False
    lo, hi, _ = median_ci(np.sort(metric_values(clean, "", bytes_per_op)[0]))
    head = float(np.median(metric_values(good, "", bytes_per_op)[0]))
    assert lo is not None and hi is not None  # two clean samples at least: the interval has ends
    return not (lo <= head <= hi)


def figure_stats(
    samples: Iterable[Row], figure: dict[str, Any], env_flags: Iterable[str] = (), extended: bool = True
) -> Stats:
    """Statistics of a figure read from a program's output (meta "figure": its unit and
    direction) -> Stats with the headline only: the median of the values, in the figure's unit."""
    vals, rounds = metric_values(samples, FIGURE)
    if not len(vals):
        return Stats()
    d = distribution(vals, rounds, str(figure.get("unit") or ""))
    d.value = d.median
    d.higher = bool(figure.get("higher"))
    d.flags = flags_for(d, False, extended) + [f for f in env_flags if f != "kernel-excluded"]
    return Stats({"": d})


def task_clock_summary(good: Sequence[Row], stat: str | None, extended: bool = True) -> Summary | None:
    """The on-CPU time per operation (task-clock) as a sub-metric of its own, or None when the
    samples did not count it (a program run by `tickmark exec`: what hyperfine calls user + sys)."""
    vals, rounds = metric_values(good, TASK_CLOCK)
    if len(vals) < len(good) or not len(vals):
        return None
    d = distribution(vals, rounds)
    d.value = d.min if stat == "min" else d.median
    d.ns_per_op = d.median  # no ops_per_s: CPU time per run is no rate of runs (the wall time's row has it)
    d.flags = flags_for(d, False, extended)
    return d


def cold_summary(good: Sequence[Row], extended: bool = True) -> Summary | None:
    """The cold calls of an instance (each sample's "cold": one operation after a cache flush)
    -> Summary, its value their median, flagged "cold"; None without any. No rate per second: a
    cold call is a single event, not a throughput."""
    vals, rounds = metric_values(good, COLD)
    if not len(vals):
        return None
    d = distribution(vals, rounds)
    d.value = d.ns_per_op = d.median
    d.flags = [COLD] + flags_for(d, False, extended)
    return d


def compute(
    samples: Sequence[Row],
    stat: str | None = "median",
    bytes_per_op: float = 0,
    hists: Sequence[Row] = (),
    cycles_method: str = "none",
    env_flags: Iterable[str] = (),
    extended: bool = True,
    figure: dict[str, Any] | None = None,
    with_task_clock: bool = False,
) -> Stats:
    """Statistics of one instance -> Stats ({"": headline, "<sub>": ...}; empty without data).

    samples: dicts with round, ops, ns and optionally cyc, retaken, nivcsw, cpu0, cpu1, sub {name: ns},
    ctr {name: n}, ctr_ops. figure: a figure's unit and direction (its samples carry "value");
    with_task_clock: the task-clock counter as a sub-metric too (a program run by `exec`).
    """
    if figure:
        return figure_stats(samples, figure, env_flags, extended)
    good = [s for s in samples if s.get("ops") and s.get("ns") is not None and s["ns"] > 0]
    if not good:
        return Stats()
    # A sample hit by a context switch or a migration is taken again once by the core (retaken=1);
    # a sample whose second attempt was hit as well is a preempted sample. `preempted` is flagged
    # only where those samples moved the result (preemption_moved); how many results had any is
    # said once per run.
    retaken = [s for s in good if s.get("retaken")]
    hit = [s for s in retaken if _hit_again(s)]
    multiplexed = any(s.get("multiplexed") for s in good)
    bandwidth = is_bandwidth(stat, bytes_per_op)
    out: dict[str, Summary] = {}

    vals, rounds = metric_values(good, "", bytes_per_op if bandwidth else 0)
    d = distribution(vals, rounds, unit_for(stat, bytes_per_op))
    if stat == "min":
        d.value = d.min
    elif stat == "max":
        d.value = best_round_rate(good, bytes_per_op) if bandwidth else d.min  # max rate of a time = min time
    else:
        d.value = d.median
    ns_med = float(np.median(metric_values(good)[0]))
    d.ns_per_op = ns_med
    d.ops_per_s = 1e9 / ns_med
    cyc = [s["cyc"] / s["ops"] for s in good if s.get("cyc") is not None]
    if cyc and len(cyc) == len(good):
        d.cycles_per_op = float(np.median(cyc))
        d.cycles_method = cycles_method
    ctr = counters.derived(good)  # counts are over ctr_ops operations (3x ops if differential)
    if ctr:
        d.counters_per_op = ctr.pop("per_op")
        d.counters = ctr
    d.hist = hist_percentiles(hists)
    env = [f for f in env_flags if f != "kernel-excluded" or d.cycles_method == "perf"]
    d.retaken = len(retaken)
    d.preempted_samples = len(hit)
    preempted = bool(hit) and preemption_moved(good, stat, bytes_per_op if bandwidth else 0)
    d.flags = flags_for(d, preempted, extended) + (["multiplexed"] if multiplexed else []) + env
    if bandwidth and bandwidth_disturbed(good, bytes_per_op):
        d.flags.append("disturbed")
    out[""] = d

    sub_names: list[str] = []
    for s in good:
        for k in s.get("sub") or {}:
            if k not in sub_names:
                sub_names.append(k)
    for name in sub_names:
        raw = [(s.get("sub") or {}).get(name) for s in good]
        if all(x is None for x in raw) or min(x for x in raw if x is not None) <= 0:
            continue
        vals, rounds = metric_values(good, name)
        sd = distribution(vals, rounds)
        assert sd.median is not None  # a value above zero at least (above)
        sd.value = sd.min if stat == "min" else sd.median
        sd.ns_per_op = sd.median
        sd.ops_per_s = 1e9 / sd.median
        sd.flags = flags_for(sd, False, extended)
        out[name] = sd
    cold = cold_summary(good, extended)
    if cold is not None:
        out[COLD] = cold
    if with_task_clock:
        tc = task_clock_summary(good, stat, extended)
        if tc is not None:
            out[TASK_CLOCK] = tc
    return Stats(out)


def summarize(
    samples: Sequence[Row],
    stat: str = "median",
    bytes_per_op: float = 0,
    hists: Sequence[Row] = (),
    cycles_method: str = "none",
    env_flags: Iterable[str] = (),
    extended: bool = True,
) -> dict[str, dict[str, Any]]:
    """compute() in its stored form (a dict of versioned summary dicts)."""
    return compute(samples, stat, bytes_per_op, hists, cycles_method, env_flags, extended).to_dict()


def recompute(
    result: Row,
    samples: Sequence[Row],
    hists: Sequence[Row],
    cycles_method: str = "none",
    env_flags: Iterable[str] = (),
) -> Stats:
    """Fresh statistics of a stored result row from its raw samples and histograms -> Stats."""
    meta: dict[str, Any] = result.get("meta") or {}
    return compute(
        samples,
        stat=meta.get("stat", result.get("stat", "median")),
        bytes_per_op=meta.get("bytes_per_op", 0),
        hists=hists,
        cycles_method=cycles_method,
        env_flags=env_flags,
        figure=meta.get("figure") if isinstance(meta.get("figure"), dict) else None,
        with_task_clock=meta.get("method") == "exec",
    )
