"""One verdict and one gate (docs/compare.md, "Verdict rule" and "The gate").

`verdict()` decides, for one metric of one benchmark, whether result set B is faster, slower or
no different from result set A. A result set is the per-sample values of one run (grouped by
round) or of several runs (grouped by run and round): `compare` gives it two runs, `history`
the runs of two levels of a series. `gate()` holds pairs of compared result sets to a threshold;
`compare --fail-above`, `export --format junit --fail-above` and `history --fail-on-change` all
call it, over the same rows: the metric the command compares (the headline unless --metric
names another).

Measured times (criterion's noise threshold with google/benchmark's U-test):
  band = max(2 %, 2 x pooled round_cv)   (pooled = root mean square of the two sides' round_cv)
  faster/slower      p < 0.01 and the CI of B/A - 1 lies entirely outside +-band
  no difference      the CI lies entirely inside +-band, and the band is at most 10 %
  inconclusive       otherwise
  too few samples    fewer than 9 samples on a side: no verdict is called
The CI comes from a two-level bootstrap (groups with replacement, then samples within each
chosen group), because most of the variance sits between processes, not between samples.

Exact counts (guest instructions under QEMU -icount: the same on every run): a difference is
real when it is larger than the run-to-run deviation of either side (the largest distance of a
round's median from the side's median) and than 0.1 % (EXACT_FLOOR), whatever the number of
samples; otherwise the verdict is "no difference".

Disturbed evidence (docs/compare.md, "Contention"), one rule for every decision (compare's rows,
the gate, the JUnit export, history's change points and gate, the code-size table, the engine's
extra rounds): a side whose process was on a CPU less than ON_CPU_MIN of its wall time and by more
than ON_CPU_GAP less than what it is compared with is contended (contended()); its row is decided
on the CPU time (task-clock) and says so, or is inconclusive (decide()), and a gate that cannot
tell exits EXIT_INCONCLUSIVE unless told to pass or fail. A core shared with other work slows the
CPU time too, unseen by the on-CPU share, but only ever up: a task-clock direction stands only
where the sides' floors (their fastest samples, floor_change()) agree with it, and a gate bounds
an undecided row by the floors' interval (cpu_bound()). Which way is better is
stats.better_higher, the time ratio stats.time_ratio: slower_by() reads them from the row.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import estimators, stats

MIN_SAMPLES = 9
P_LIMIT = 0.01
MIN_BAND = 0.02
BAND_ROUND_CV = 2.0
N_BOOT = 2000
SEED = 20240229
MAX_ROUNDS_HINT = 1000
MAX_SAME_BAND = 0.10  # "no difference" is not claimed when the noise band is wider than this
# Exact counts: a difference under this is a sample's clock reads and loop spread over another
# iteration count (a seed's other order), not the operation (2.0003 against 2.0005 insn/op)
EXACT_FLOOR = 0.001

FASTER, SLOWER, SAME, INCONCLUSIVE, FEW, MISSING = (
    "faster",
    "slower",
    "no difference beyond noise",
    "inconclusive",
    "too few samples",
    "missing",
)
# instruction counts (QEMU -icount) of two instruction sets: more instructions does not mean slower
OTHER_ISA = "other ISA: no verdict"

# Disturbed evidence ("Contention" in docs/compare.md): a side whose process was on a CPU less
# than ON_CPU_MIN of its wall time, and by more than ON_CPU_GAP less than what it is compared
# with, was kept off the CPU by other work: its wall time says nothing about its speed
ON_CPU_MIN = 0.9
ON_CPU_GAP = 0.1
CPU_TIME = stats.TASK_CLOCK  # the metric that decides then: on-CPU time per operation
# The exit status of a gate that cannot tell (docs/compare.md, "The gate"); 1 is a regression
EXIT_INCONCLUSIVE = 3
INCONCLUSIVE_POLICIES = ("pass", "fail")


# ---------------------------------------------------------------- statistics
def boot_medians(vals: np.ndarray, rounds: np.ndarray, rng: np.random.Generator, n_boot: int = N_BOOT) -> np.ndarray:
    """Bootstrap replicates of the median: rounds drawn with replacement, then samples drawn
    with replacement inside each drawn round (vectorised: one index array for all replicates)."""
    order = np.argsort(rounds, kind="stable")
    v, r = vals[order], rounds[order]
    _, start, count = np.unique(r, return_index=True, return_counts=True)
    n, nr = len(v), len(start)
    if nr < 2:
        idx = rng.integers(0, n, size=(n_boot, n))
    else:
        per = max(1, int(round(n / nr)))
        pick = rng.integers(0, nr, size=(n_boot, nr))
        # uniform offsets inside each drawn round (floats scaled: much faster than integers()
        # with a per-element upper bound)
        off = (rng.random((n_boot, nr, per)) * count[pick][..., None]).astype(np.intp)
        idx = (start[pick][..., None] + off).reshape(n_boot, -1)
    x = v[idx]
    m = x.shape[1]
    if m % 2:
        return np.partition(x, m // 2, axis=1)[:, m // 2]
    x = np.partition(x, (m // 2 - 1, m // 2), axis=1)
    return (x[:, m // 2 - 1] + x[:, m // 2]) / 2


def mann_whitney(a: ArrayLike, b: ArrayLike) -> float:
    """Two-sided Mann–Whitney U p-value. Above 8 samples a side (or with ties) this is scipy's
    asymptotic method (normal approximation, tie and continuity corrections) in numpy, so that a
    comparison does not pay for importing scipy.stats; smaller tie-free samples use scipy's exact
    distribution."""
    xa, xb = np.asarray(a, float), np.asarray(b, float)
    n1, n2 = len(xa), len(xb)
    x = np.concatenate([xa, xb])
    _, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
    if (n1 <= 8 or n2 <= 8) and len(counts) == len(x):
        ranks = np.argsort(np.argsort(x)) + 1
        u1 = int(ranks[:n1].sum()) - n1 * (n1 + 1) // 2
        dist = _u_distribution(n1, n2)
        u = max(u1, n1 * n2 - u1)
        return float(min(1.0, 2 * dist[u:].sum() / dist.sum()))
    ends = np.cumsum(counts)
    mid_ranks = (ends - (counts - 1) / 2.0)[inv]  # average ranks, 1-based
    u1 = mid_ranks[:n1].sum() - n1 * (n1 + 1) / 2.0
    u = max(u1, n1 * n2 - u1)
    n = n1 + n2
    ties = float((counts**3 - counts).sum())
    var = n1 * n2 / 12.0 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = (u - n1 * n2 / 2.0 - 0.5) / math.sqrt(var)
    return float(min(1.0, math.erfc(z / math.sqrt(2))))


@functools.lru_cache(maxsize=64)
def _u_distribution(n1: int, n2: int) -> np.ndarray:
    """Number of orderings of n1 + n2 distinct values giving each U = 0..n1*n2 (the exact null
    distribution of the Mann–Whitney U, as scipy's method="exact"; built by the recurrence
    f(m, n) = f(m - 1, n) shifted by n + f(m, n - 1))."""
    f = {(0, n): np.array([1.0]) for n in range(n2 + 1)}
    for m in range(1, n1 + 1):
        f[(m, 0)] = np.array([1.0])
        for n in range(1, n2 + 1):
            out = np.zeros(m * n + 1)
            a, b = f[(m - 1, n)], f[(m, n - 1)]
            out[n : n + len(a)] += a
            out[: len(b)] += b
            f[(m, n)] = out
    return f[(n1, n2)]


def rounds_needed(n_rounds: int, half_width: float, effect: float, band: float) -> int | None:
    """Rounds per side at which the CI (half-width shrinking as 1/sqrt(rounds)) would resolve
    the comparison: clear of the band if the effect lies outside it, inside it otherwise."""
    room = abs(abs(effect) - band)
    if half_width <= 0 or n_rounds <= 0:
        return None
    if room < 1e-4:
        return MAX_ROUNDS_HINT
    need = math.ceil(n_rounds * (half_width / room) ** 2)
    return min(max(need, n_rounds + 1), MAX_ROUNDS_HINT)


def deviation(vals: np.ndarray, groups: np.ndarray) -> float:
    """Run-to-run deviation of a result set, relative to its median: the largest distance of a
    group's (round's) median from the median of all values; with one group, of a single value."""
    vals = np.asarray(vals, dtype=float)
    med = float(np.median(vals))
    if not med:
        return 0.0
    meds = estimators.round_medians(vals, groups) if len(np.unique(groups)) > 1 else vals
    return float(max(abs(m - med) for m in meds) / abs(med))


# ---------------------------------------------------------------- the verdict
def verdict(
    a: ArrayLike,
    ra: ArrayLike,
    b: ArrayLike,
    rb: ArrayLike,
    higher_is_better: bool = False,
    exact: bool = False,
    rng: np.random.Generator | None = None,
) -> dict[str, Any]:
    """B against A for one metric: a, b the per-sample values, ra, rb their groups (rounds, or
    run and round) -> dict with the medians, ratio B/A, verdict and what it rests on (module doc).
    exact: both sides are exact counts (QEMU -icount), judged against their run-to-run deviation."""
    rng = rng if rng is not None else np.random.default_rng(SEED)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ra, rb = np.asarray(ra), np.asarray(rb)
    out: dict[str, Any] = {"n_a": int(len(a)), "n_b": int(len(b))}
    if len(a) == 0 or len(b) == 0:
        out.update(verdict=MISSING, note="no samples on one side")
        return out
    ma, mb = float(np.median(a)), float(np.median(b))
    ratio = mb / ma if ma else float("nan")
    rounds_a, rounds_b = len(np.unique(ra)), len(np.unique(rb))
    out.update(
        median_a=ma,
        median_b=mb,
        ratio=ratio,
        rounds_a=rounds_a,
        rounds_b=rounds_b,
        det_a=estimators.determinism(a, ra),
        det_b=estimators.determinism(b, rb),
    )
    effect = ratio - 1
    if exact:
        dev = max(deviation(a, ra), deviation(b, rb), EXACT_FLOOR)
        out.update(band=dev, exact=True)
        if abs(effect) > dev:
            out["verdict"] = FASTER if (effect > 0) == higher_is_better else SLOWER
        else:
            out["verdict"] = SAME
        return out
    cva, cvb = estimators.round_cv(a, ra), estimators.round_cv(b, rb)
    pooled = math.sqrt(((cva or 0) ** 2 + (cvb or 0) ** 2) / 2)
    band = max(MIN_BAND, BAND_ROUND_CV * pooled)
    out.update(round_cv_a=cva, round_cv_b=cvb, band=band)
    if len(a) < 2 or len(b) < 2:
        out.update(verdict=FEW, note=f"n={len(a)}/{len(b)}, need {MIN_SAMPLES}+ per side")
        return out
    boot = boot_medians(b, rb, rng) / boot_medians(a, ra, rng) - 1
    lo, hi = (float(x) for x in np.percentile(boot, [2.5, 97.5]))
    p = mann_whitney(a, b)
    out.update(ci=[lo, hi], p=p)
    if min(len(a), len(b)) < MIN_SAMPLES:
        out.update(verdict=FEW, note=f"n={len(a)}/{len(b)}, need {MIN_SAMPLES}+ per side")
        return out
    if p < P_LIMIT and (lo > band or hi < -band):
        out["verdict"] = FASTER if (effect > 0) == higher_is_better else SLOWER
    elif lo >= -band and hi <= band and band <= MAX_SAME_BAND:
        out["verdict"] = SAME
    else:
        out["verdict"] = INCONCLUSIVE
        if band > MAX_SAME_BAND and abs(effect) <= band:
            out["note"] = f"noise band ±{band * 100:.0f}%: more rounds will not settle it"
        else:
            out["rounds_needed"] = rounds_needed(min(rounds_a, rounds_b), (hi - lo) / 2, effect, band)
    return out


# ---------------------------------------------------------------- disturbed evidence
def on_cpu_share(samples: Iterable[dict[str, Any]] | None, blocking: bool = False) -> float | None:
    """The evidence that wall time was disturbed: the median share of a sample's wall time that
    the process spent on a CPU (task-clock / wall time; waiting for a CPU, an involuntary switch,
    a migration's wait take it below 1), over the samples whose counter covered the timed
    operations (the direct method). None when nothing says it: no task-clock counts, or a
    benchmark that blocks by design (it sleeps or waits for another party)."""
    if blocking:
        return None
    fr = [
        s["ctr"]["task_clock"] / s["ns"]
        for s in samples or ()
        if s.get("ns") and "task_clock" in (s.get("ctr") or {}) and s.get("ctr_ops") == s.get("ops")
    ]
    return float(np.median(fr)) if fr else None


def least_on_cpu(samples: Iterable[dict[str, Any]] | None, blocking: bool = False) -> float | None:
    """The evidence the one rule holds: the on-CPU share (on_cpu_share) of the round that had the
    least of it. A verdict draws its interval from the rounds (processes), so one round kept off
    the CPU spoils it even when the median sample of the run was on a CPU all the time."""
    by_round: dict[Any, list[dict[str, Any]]] = {}
    for s in samples or ():
        by_round.setdefault(s.get("round", 1), []).append(s)
    shares = [x for x in (on_cpu_share(r, blocking) for r in by_round.values()) if x is not None]
    return min(shares) if shares else None


def contended(share: float | None, reference: float | None = 1.0) -> bool:
    """The one rule for "the measurement was disturbed": a side's wall time is contended when its
    process was on a CPU less than ON_CPU_MIN of the time and by more than ON_CPU_GAP less than
    its reference: a process alone on its CPU (1.0) for a run and a pair of runs (least_on_cpu),
    or in a history, where a result's kind is not known, the share its runs left alone reach (the
    90th percentile of the series' shares). Without a
    share nothing says it was disturbed."""
    if share is None or reference is None:
        return False
    return share < ON_CPU_MIN and reference - share > ON_CPU_GAP


def contention_words(oa: float, ob: float) -> str:
    """What made a pair's wall time contended, in words (the least on-CPU share of a round)."""
    return f"contention: on CPU {oa * 100:.0f}% of the time in A, {ob * 100:.0f}% in B (least of a round)"


DECIDING = (FASTER, SLOWER, SAME)


def floor_change(a: ArrayLike, b: ArrayLike, rng: np.random.Generator | None = None) -> dict[str, Any] | None:
    """The change of the CPU time's floor, B against A: each side's fastest sample (other work
    only ever adds time: a core shared with it, through SMT, the host, the caches or the clock,
    runs slower without leaving it, so the fastest samples are the least disturbed figure) ->
    {"ratio": floor B / floor A, "ci": [lo, hi] of that ratio - 1}, or None where a side has
    fewer than MIN_SAMPLES samples. The interval bootstraps each side's minimum over its samples
    (with replacement), so a floor that one sample alone reached counts for little: the upper end
    is about B's fourth fastest sample against A's fastest."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if min(len(a), len(b)) < MIN_SAMPLES or a.min() <= 0:
        return None
    rng = rng if rng is not None else np.random.default_rng(SEED)
    fa = a[rng.integers(0, len(a), size=(N_BOOT, len(a)))].min(axis=1)
    fb = b[rng.integers(0, len(b), size=(N_BOOT, len(b)))].min(axis=1)
    lo, hi = (float(x) for x in np.percentile(fb / fa - 1, [2.5, 97.5]))
    return {"ratio": float(b.min() / a.min()), "ci": [lo, hi]}


def floor_disagrees(cpu: dict[str, Any]) -> bool:
    """Is the CPU-time verdict's direction one its floor does not share? (The floors' interval
    not wholly beyond the verdict's band on the same side: the CPU time was disturbed too, and
    its medians moved with the disturbance, not with the code.)"""
    floor, band = cpu.get("floor"), cpu.get("band") or MIN_BAND
    if cpu.get("verdict") not in (FASTER, SLOWER) or not floor:
        return False
    lo, hi = floor["ci"]
    return not (lo > band if cpu["ratio"] > 1 else hi < -band)


def decide(row: dict[str, Any], cpu: dict[str, Any] | None, why: str) -> dict[str, Any]:
    """Apply the one rule to a compared row (a verdict dict) whose wall-time evidence is
    contended (why: what says so, in words): the CPU-time verdict of the same samples (cpu: a
    verdict dict of the task-clock metric with its `floor` (floor_change), or None where the runs
    did not count it) decides when it calls one that its floor does not contradict; else the row
    is inconclusive. The wall-time verdict is kept as wall_verdict; `decided` says what decided
    (the metric, its ratio and CI, why), and the note says it."""
    row["wall_verdict"] = row["verdict"]
    row.pop("rounds_needed", None)
    floor = (cpu or {}).get("floor")
    if cpu is not None and cpu.get("verdict") in DECIDING and not floor_disagrees(cpu):
        row["verdict"] = cpu["verdict"]
        row["decided"] = {"on": CPU_TIME, "ratio": cpu["ratio"], "ci": cpu.get("ci"), "why": why}
        row["note"] = f"decided on {CPU_TIME} ({cpu_words(cpu)}): {why}"
    else:
        row["verdict"] = INCONCLUSIVE
        row["decided"] = {"on": None, "why": why}
        if cpu is not None and cpu.get("ci"):
            row["decided"]["cpu"] = {"ratio": cpu["ratio"], "ci": cpu["ci"]}
        if floor:
            row["decided"]["floor"] = dict(floor)  # what a gate may still use (cpu_bound)
        tc = f"{CPU_TIME} {cpu['verdict']}" if cpu is not None else f"no {CPU_TIME} counts"
        if cpu is not None and floor and floor_disagrees(cpu):
            lo, hi = floor["ci"]
            tc = (
                f"{CPU_TIME} {cpu_words(cpu)} but its floor {lo * 100:+.1f}% .. {hi * 100:+.1f}%: "
                "the CPU time was disturbed too"
            )
        row["note"] = f"cannot tell: {why}; {tc}"
    return row


def cpu_bound(row: dict[str, Any]) -> float | None:
    """The most B's CPU time can be slower than A's in an undecided row (a fraction), or None
    where no CPU-time interval was taken: the upper end of the 95 % interval of the floors'
    change (floor_change: the least disturbed figure, since disturbance only adds time; a side's
    median task-clock moves with a core shared with other work) where it was taken, else of the
    task-clock medians'. A gate asks "slower by more than the threshold?", which an interval
    wholly under the threshold answers even when it does not say "faster", "slower" or "same"."""
    d = row.get("decided") or {}
    ci = (d.get("floor") or d.get("cpu") or {}).get("ci")
    return None if not ci else float(ci[1])


def cpu_words(cpu: dict[str, Any]) -> str:
    """'4.17x slower' of a CPU-time verdict (lower is better)."""
    r = stats.time_ratio(cpu.get("ratio"), False)
    if r is None:
        return cpu.get("verdict", "")
    m = r if r >= 1 else 1 / r
    return f"{m:.2f}× {'slower' if r > 1 else 'faster'}" if m >= 1.005 else "1.00×"


def deciding_ratio(row: dict[str, Any]) -> tuple[float | None, bool]:
    """(ratio B/A, higher is better) of what decided a row: the CPU time where the one rule
    decided on it, else the row's own figure."""
    d = row.get("decided") or {}
    if d.get("on") == CPU_TIME:
        return d.get("ratio"), False
    return row.get("ratio"), bool(row.get("higher"))


def time_ratio_of(row: dict[str, Any]) -> float | None:
    """A compared row's deciding ratio as a time ratio (above 1: B worse), or None."""
    return stats.time_ratio(*deciding_ratio(row))


def cannot_tell(row: dict[str, Any]) -> bool:
    """Did the one rule leave this row undecided (contended wall time, no CPU-time verdict)?"""
    d = row.get("decided")
    return isinstance(d, dict) and d.get("on") is None


def slower_by(row: dict[str, Any]) -> float | None:
    """How much slower B is than A in a compared row, as a fraction, by what decided it (the
    direction from the row's figure: stats.better_higher)."""
    t = time_ratio_of(row)
    return None if t is None else t - 1


# ---------------------------------------------------------------- the gate
@dataclass
class Failure:
    """One reason a gate fails: a benchmark slower than the threshold, one the baseline measured
    and the other run did not, a run that did not finish (key ""), or a benchmark the one rule
    could not decide (kind "inconclusive": contended wall time and no CPU-time verdict)."""

    run: str  # the label of the run held to the gate
    key: str
    kind: str  # "slower", "not measured", "unfinished" or "inconclusive"
    why: str  # in words: "+12.3%", "crashed", "incomplete", "contention: ..."
    slower: float | None = None


@dataclass
class Gate:
    baseline: str
    threshold: float
    metric: str
    failures: list[Failure] = field(default_factory=list)
    inconclusive: str | None = None  # what an undecided benchmark does: None (exit 3), "pass" or "fail"
    # (run, key, bound) of rows the one rule left undecided that passed on their CPU-time interval
    bounded: list[tuple[str, str, float | None]] = field(default_factory=list)
    EXIT_INCONCLUSIVE = EXIT_INCONCLUSIVE  # the exit status of an undecided gate (for its words)

    @property
    def failed(self) -> list[Failure]:
        """The failures that fail the gate whatever --inconclusive says (and the undecided ones
        with --inconclusive=fail)."""
        return [f for f in self.failures if f.kind != "inconclusive" or self.inconclusive == "fail"]

    @property
    def undecided(self) -> list[Failure]:
        return self.of_kind("inconclusive")

    @property
    def passed(self) -> bool:
        return self.exit_status() == 0

    def exit_status(self) -> int:
        """0 passed; 1 a failure (a regression, a benchmark not measured, an unfinished run, or
        an undecided one with --inconclusive=fail); EXIT_INCONCLUSIVE when nothing failed but a
        benchmark could not be decided (0 with --inconclusive=pass)."""
        if self.failed:
            return 1
        if self.undecided and self.inconclusive != "pass":
            return EXIT_INCONCLUSIVE
        return 0

    def of_kind(self, kind: str) -> list[Failure]:
        return [f for f in self.failures if f.kind == kind]

    def by_key(self) -> dict[str, list[Failure]]:
        """{key: [failures]} of the benchmarks that fail (the run-wide ones under "")."""
        out: dict[str, list[Failure]] = {}
        for f in self.failures:
            out.setdefault(f.key, []).append(f)
        return out


def regressions(result: dict[str, Any], threshold: float, metric: str = "") -> list[tuple[dict[str, Any], float]]:
    """Rows of a compared pair, of one metric, that are slower by the verdict and by more than
    threshold (a fraction) -> [(row, fraction slower)]."""
    out: list[tuple[dict[str, Any], float]] = []
    for r in result["rows"]:
        if r.get("metric", "") != metric or r.get("verdict") != SLOWER:
            continue
        slow = slower_by(r)
        if slow is not None and slow > threshold:
            out.append((r, slow))
    return out


def unmeasured(result: dict[str, Any], metric: str = "") -> list[tuple[dict[str, Any], str]]:
    """Rows of a compared pair, of one metric, that A measured and B did not (B crashed, failed,
    timed out, skipped it, does not have it, or has no samples of it) -> [(row, why)]: a gate
    cannot vouch for them, so it fails on them as on a regression."""
    out: list[tuple[dict[str, Any], str]] = []
    for r in result["rows"]:
        if r.get("metric", "") != metric or r.get("verdict") != MISSING:
            continue
        if r.get("status_a", "ok") != "ok":
            continue  # A did not measure it either: nothing to hold B to
        if "status_b" in r:
            out.append((r, "not in B" if r["status_b"] == "absent" else r["status_b"]))
        elif r.get("n_b") == 0 and r.get("n_a"):
            out.append((r, "no samples"))
    return out


def undecided(
    result: dict[str, Any], metric: str = "", threshold: float | None = None
) -> list[tuple[dict[str, Any], str]]:
    """Rows of a compared pair, of one metric, that the one rule could not decide (contended
    wall time and no CPU-time verdict) -> [(row, why)]: a gate cannot pass them silently. Held
    to a threshold, a row whose CPU-time interval lies wholly under it (cpu_bound) is decided for
    the gate: whatever its direction, it is not slower by more than the threshold."""
    out = []
    for r in result["rows"]:
        if r.get("metric", "") != metric or not cannot_tell(r):
            continue
        bound = cpu_bound(r)
        if threshold is not None and bound is not None and bound <= threshold:
            continue
        out.append((r, r["decided"]["why"]))
    return out


def gate(
    pairs: list[Any],
    threshold: float,
    metric: str = "",
    baseline: str | None = None,
    inconclusive: str | None = None,
) -> Gate:
    """Hold each compared pair ((A, B), result) to the threshold (a fraction) on one metric's
    rows -> Gate. It fails for every row slower by the verdict and by more than the threshold,
    for every benchmark A measured and B did not, and for a B that is not complete; a row the one
    rule could not decide is inconclusive (exit 3, or as `inconclusive` says: "pass" or "fail").
    baseline: what the gate names the A sides (the first one's label by default)."""
    base = baseline if baseline is not None else (pairs[0][0][0].label if pairs else "")
    g = Gate(base, threshold, metric, inconclusive=inconclusive)
    for (_, B), res in pairs:
        for r, slow in regressions(res, threshold, metric):
            g.failures.append(Failure(B.label, r["key"], "slower", f"+{slow * 100:.1f}%", slow))
        for r, why in undecided(res, metric, threshold):
            g.failures.append(Failure(B.label, r["key"], "inconclusive", why))
        held = {r["key"] for r, _ in undecided(res, metric, threshold)}
        for r, _ in undecided(res, metric):
            if r["key"] not in held:
                g.bounded.append((B.label, r["key"], cpu_bound(r)))
        for r, why in unmeasured(res, metric):
            g.failures.append(Failure(B.label, r["key"], "not measured", why))
        status = B.run.get("status")
        if status != "complete":
            g.failures.append(Failure(B.label, "", "unfinished", status or "unknown"))
    return g
