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
"""

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from ..units import MB_S
from . import stats

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


# ---------------------------------------------------------------- statistics
def boot_medians(vals, rounds, rng, n_boot=N_BOOT):
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


def mann_whitney(a, b):
    """Two-sided Mann–Whitney U p-value. Above 8 samples a side (or with ties) this is scipy's
    asymptotic method (normal approximation, tie and continuity corrections) in numpy, so that a
    comparison does not pay for importing scipy.stats; smaller tie-free samples use scipy's exact
    distribution."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    n1, n2 = len(a), len(b)
    x = np.concatenate([a, b])
    _, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
    if (n1 <= 8 or n2 <= 8) and len(counts) == len(x):
        ranks = np.argsort(np.argsort(x)) + 1
        u1 = int(ranks[:n1].sum()) - n1 * (n1 + 1) // 2
        dist = _u_distribution(n1, n2)
        u = max(u1, n1 * n2 - u1)
        return float(min(1.0, 2 * dist[u:].sum() / dist.sum()))
    ends = np.cumsum(counts)
    ranks = (ends - (counts - 1) / 2.0)[inv]  # average ranks, 1-based
    u1 = ranks[:n1].sum() - n1 * (n1 + 1) / 2.0
    u = max(u1, n1 * n2 - u1)
    n = n1 + n2
    ties = float((counts**3 - counts).sum())
    var = n1 * n2 / 12.0 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = (u - n1 * n2 / 2.0 - 0.5) / math.sqrt(var)
    return float(min(1.0, math.erfc(z / math.sqrt(2))))


@functools.lru_cache(maxsize=64)
def _u_distribution(n1, n2):
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


def rounds_needed(n_rounds, half_width, effect, band):
    """Rounds per side at which the CI (half-width shrinking as 1/sqrt(rounds)) would resolve
    the comparison: clear of the band if the effect lies outside it, inside it otherwise."""
    room = abs(abs(effect) - band)
    if half_width <= 0 or n_rounds <= 0:
        return None
    if room < 1e-4:
        return MAX_ROUNDS_HINT
    need = math.ceil(n_rounds * (half_width / room) ** 2)
    return min(max(need, n_rounds + 1), MAX_ROUNDS_HINT)


def deviation(vals, groups):
    """Run-to-run deviation of a result set, relative to its median: the largest distance of a
    group's (round's) median from the median of all values; with one group, of a single value."""
    vals = np.asarray(vals, dtype=float)
    med = float(np.median(vals))
    if not med:
        return 0.0
    meds = stats.round_medians(vals, groups) if len(np.unique(groups)) > 1 else vals
    return float(max(abs(m - med) for m in meds) / abs(med))


# ---------------------------------------------------------------- the verdict
def verdict(a, ra, b, rb, higher_is_better=False, exact=False, rng=None):
    """B against A for one metric: a, b the per-sample values, ra, rb their groups (rounds, or
    run and round) -> dict with the medians, ratio B/A, verdict and what it rests on (module doc).
    exact: both sides are exact counts (QEMU -icount), judged against their run-to-run deviation."""
    rng = rng if rng is not None else np.random.default_rng(SEED)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ra, rb = np.asarray(ra), np.asarray(rb)
    out = {"n_a": int(len(a)), "n_b": int(len(b))}
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
        det_a=stats.determinism(a, ra),
        det_b=stats.determinism(b, rb),
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
    cva, cvb = stats.round_cv(a, ra), stats.round_cv(b, rb)
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


def slower_by(row):
    """How much slower B is than A in a compared row, as a fraction (bandwidth, and a figure where
    higher is better: less is slower)."""
    ratio = row.get("ratio")
    if ratio is None or not ratio or math.isnan(ratio):
        return None
    return (1 / ratio - 1) if row.get("higher") or row.get("unit") == MB_S else ratio - 1


# ---------------------------------------------------------------- the gate
@dataclass
class Failure:
    """One reason a gate fails: a benchmark slower than the threshold, one the baseline measured
    and the other run did not, or a run that did not finish (key "")."""

    run: str  # the label of the run held to the gate
    key: str
    kind: str  # "slower", "not measured" or "unfinished"
    why: str  # in words: "+12.3%", "crashed", "incomplete"
    slower: float = None


@dataclass
class Gate:
    baseline: str
    threshold: float
    metric: str
    failures: list = field(default_factory=list)

    @property
    def passed(self):
        return not self.failures

    def of_kind(self, kind):
        return [f for f in self.failures if f.kind == kind]

    def by_key(self):
        """{key: [failures]} of the benchmarks that fail (the run-wide ones under "")."""
        out = {}
        for f in self.failures:
            out.setdefault(f.key, []).append(f)
        return out


def regressions(result, threshold, metric=""):
    """Rows of a compared pair, of one metric, that are slower by the verdict and by more than
    threshold (a fraction) -> [(row, fraction slower)]."""
    out = []
    for r in result["rows"]:
        if r.get("metric", "") != metric or r.get("verdict") != SLOWER:
            continue
        slow = slower_by(r)
        if slow is not None and slow > threshold:
            out.append((r, slow))
    return out


def unmeasured(result, metric=""):
    """Rows of a compared pair, of one metric, that A measured and B did not (B crashed, failed,
    timed out, skipped it, does not have it, or has no samples of it) -> [(row, why)]: a gate
    cannot vouch for them, so it fails on them as on a regression."""
    out = []
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


def gate(pairs, threshold, metric="", baseline=None):
    """Hold each compared pair ((A, B), result) to the threshold (a fraction) on one metric's
    rows -> Gate. It fails for every row slower by the verdict and by more than the threshold,
    for every benchmark A measured and B did not, and for a B that is not complete. baseline:
    what the gate names the A sides (the first one's label by default)."""
    base = baseline if baseline is not None else (pairs[0][0][0].label if pairs else "")
    g = Gate(base, threshold, metric)
    for (_, B), res in pairs:
        for r, slow in regressions(res, threshold, metric):
            g.failures.append(Failure(B.label, r["key"], "slower", f"+{slow * 100:.1f}%", slow))
        for r, why in unmeasured(res, metric):
            g.failures.append(Failure(B.label, r["key"], "not measured", why))
        status = B.run.get("status")
        if status != "complete":
            g.failures.append(Failure(B.label, "", "unfinished", status or "unknown"))
    return g
