"""Compare stored runs (or exported JSON documents): per benchmark instance and metric, the ratio
of medians B/A with a bootstrap 95 % CI, a Mann–Whitney U p-value and a verdict; counter figures
side by side; a geometric mean per family; and how many rounds would resolve what is unresolved.

Verdict (criterion's noise threshold with google/benchmark's U-test; see docs/compare.md):
  band = max(2 %, 2 x pooled round_cv)   (pooled = root mean square of the two sides' round_cv)
  faster/slower      p < 0.01 and the CI of B/A - 1 lies entirely outside +-band
  no difference      the CI lies entirely inside +-band, and the band is at most 10 %
  inconclusive       otherwise
  too few samples    fewer than 9 samples on a side: no verdict is called
The CI comes from a two-level bootstrap (rounds with replacement, then samples within each
chosen round), because most of the variance sits between processes, not between samples.
"""

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from .. import fingerprint
from ..errors import TickmarkError
from . import counters, stats
from .stats import TASK_CLOCK, Stats

MIN_SAMPLES = 9
P_LIMIT = 0.01
MIN_BAND = 0.02
BAND_ROUND_CV = 2.0
N_BOOT = 2000
SEED = 20240229
MAX_ROUNDS_HINT = 1000
MAX_SAME_BAND = 0.10  # "no difference" is not claimed when the noise band is wider than this

FASTER, SLOWER, SAME, INCONCLUSIVE, FEW = (
    "faster",
    "slower",
    "no difference beyond noise",
    "inconclusive",
    "too few samples",
)
# instruction counts (QEMU -icount) of two instruction sets: more instructions does not mean slower
OTHER_ISA = "other ISA: no verdict"


# ---------------------------------------------------------------- loading
@dataclass
class Side:
    label: str  # what the user sees: variant label, name or id
    ref: str  # how it was given
    run: dict
    results: dict = field(default_factory=dict)  # key -> result dict with "samples"
    source: str = ""
    profiles: dict = field(default_factory=dict)  # key -> profile (tickmark profile)

    @property
    def fingerprint(self):
        return self.run.get("fingerprint") or {}

    @property
    def hello(self):
        return self.run.get("hello") or {}


# ---------------------------------------------------------------- statistics
def metric_values(result, sub=""):
    """Per-sample values of one metric (ns/op, or MB/s for bandwidth) and their rounds.
    sub "task-clock": on-CPU time per operation from the task-clock counter (time the process
    was descheduled does not count, so it resolves CPU-bound differences on a busy machine)."""
    bpo = (result.get("meta") or {}).get("bytes_per_op", 0)
    unit = stats.unit_for(result.get("stat"), bpo) if not sub else stats.NS_OP
    vals, rounds = stats.metric_values(result.get("samples") or [], sub, bpo if unit == stats.MB_S else 0)
    return vals, rounds, unit


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


def compare_metric(a, ra, b, rb, higher_is_better=False, rng=None):
    """Statistics of B against A for one metric -> dict (see module doc)."""
    rng = rng if rng is not None else np.random.default_rng(SEED)
    out = {"n_a": int(len(a)), "n_b": int(len(b))}
    if len(a) == 0 or len(b) == 0:
        out.update(verdict="missing", note="no samples on one side")
        return out
    ma, mb = float(np.median(a)), float(np.median(b))
    ratio = mb / ma if ma else float("nan")
    cva, cvb = stats.round_cv(a, ra), stats.round_cv(b, rb)
    pooled = math.sqrt(((cva or 0) ** 2 + (cvb or 0) ** 2) / 2)
    band = max(MIN_BAND, BAND_ROUND_CV * pooled)
    rounds_a, rounds_b = len(np.unique(ra)), len(np.unique(rb))
    out.update(
        median_a=ma,
        median_b=mb,
        ratio=ratio,
        round_cv_a=cva,
        round_cv_b=cvb,
        rounds_a=rounds_a,
        rounds_b=rounds_b,
        band=band,
        det_a=stats.determinism(a, ra),
        det_b=stats.determinism(b, rb),
    )
    if len(a) < 2 or len(b) < 2:
        out.update(verdict=FEW, note=f"n={len(a)}/{len(b)}, need {MIN_SAMPLES}+ per side")
        return out
    boot = boot_medians(b, rb, rng) / boot_medians(a, ra, rng) - 1
    lo, hi = (float(x) for x in np.percentile(boot, [2.5, 97.5]))
    p = mann_whitney(a, b)
    out.update(ci=[lo, hi], p=p)
    effect = ratio - 1
    if min(len(a), len(b)) < MIN_SAMPLES:
        out.update(verdict=FEW, note=f"n={len(a)}/{len(b)}, need {MIN_SAMPLES}+ per side")
        return out
    if p < P_LIMIT and (lo > band or hi < -band):
        better = (effect > 0) == higher_is_better
        out["verdict"] = FASTER if better else SLOWER
    elif lo >= -band and hi <= band and band <= MAX_SAME_BAND:
        out["verdict"] = SAME
    else:
        out["verdict"] = INCONCLUSIVE
        if band > MAX_SAME_BAND and abs(effect) <= band:
            out["note"] = f"noise band ±{band * 100:.0f}%: more rounds will not settle it"
        else:
            out["rounds_needed"] = rounds_needed(min(rounds_a, rounds_b), (hi - lo) / 2, effect, band)
    return out


def multiple(ratio, higher_is_better=False):
    """'11.2x slower' / '1.52x faster' (B relative to A) from the ratio of B/A."""
    if ratio is None or not ratio or math.isnan(ratio):
        return "-"
    slower = (ratio > 1) != higher_is_better
    m = ratio if ratio >= 1 else 1 / ratio
    if m < 1.005:
        return "1.00×"
    txt = f"{m:.2f}" if m < 10 else f"{m:.1f}" if m < 100 else f"{m:.0f}"
    return f"{txt}× {'slower' if slower else 'faster'}"


# ---------------------------------------------------------------- one pair of runs
def _metrics(result, other=None):
    subs = list(Stats.of(result).subs)
    both = [r for r in (result, other) if r]
    if both and all(any("task_clock" in (s.get("ctr") or {}) for s in (r.get("samples") or [])[:1]) for r in both):
        subs.append(TASK_CLOCK)
    return [""] + subs


def _counters(result):
    main = Stats.of(result).main
    return (main and main.counter_figures()) or counters.derived(result.get("samples") or [])


def on_cpu(result):
    """Median fraction of the wall time the process was on a CPU (task-clock / ns), for
    single-thread direct-method instances (where both count the same batch); else None."""
    if (result.get("meta") or {}).get("blocking"):
        return None
    fr = [
        s["ctr"]["task_clock"] / s["ns"]
        for s in result.get("samples") or []
        if s.get("ns") and "task_clock" in (s.get("ctr") or {}) and s.get("ctr_ops") == s.get("ops")
    ]
    return float(np.median(fr)) if fr else None


def family(bench):
    return bench.split(".", 1)[0]


def isa_difference(A, B):
    """(arch of A, arch of B) when both runs counted guest instructions (QEMU -icount) on two
    instruction sets, else None: their counts differ by the ISA, not by speed."""
    fa, fb = A.fingerprint, B.fingerprint
    if fa.get("qemu_icount") and fb.get("qemu_icount") and fa.get("arch") != fb.get("arch"):
        return fa.get("arch") or "?", fb.get("arch") or "?"
    return None


def insn_multiple(ratio):
    """'1.52× the instructions' (B relative to A) for instruction counts of two ISAs."""
    if ratio is None or not ratio or math.isnan(ratio):
        return "-"
    return f"{ratio:.2f}× the instructions"


def compare_pair(A, B, seed=SEED):
    """All rows of B against A, plus the per-family geometric means."""
    rng = np.random.default_rng(seed)
    rows = []
    isa = isa_difference(A, B)
    for key in sorted(set(A.results) | set(B.results)):
        ra, rb = A.results.get(key), B.results.get(key)
        any_r = ra or rb
        bench = any_r.get("bench") or key.split("[")[0]
        for sub in _metrics(ra, rb) if ra else _metrics(rb):
            row = {"key": key, "bench": bench, "metric": sub or "", "family": family(bench)}
            if not ra or not rb or ra["status"] != "ok" or rb["status"] != "ok":
                miss = "A" if not ra else "B" if not rb else None
                row["status_a"], row["status_b"] = (r["status"] if r else "absent" for r in (ra, rb))
                row["verdict"] = "missing"
                row["note"] = f"not in {miss}" if miss else f"A {ra['status']}, B {rb['status']}"
                rows.append(row)
                continue
            va, rda, unit = metric_values(ra, sub)
            vb, rdb, _ = metric_values(rb, sub)
            row["unit"] = unit
            row.update(compare_metric(va, rda, vb, rdb, unit == "MB/s", rng))
            if isa and row["verdict"] in (FASTER, SLOWER, SAME, INCONCLUSIVE):
                row["verdict"] = OTHER_ISA
                row["note"] = f"instruction counts of {isa[0]} and {isa[1]} tell the ISAs apart, not speed"
                row.pop("rounds_needed", None)
            flags = {f for r in (ra, rb) for f in getattr(Stats.of(r).get(sub), "flags", [])}
            row["unstable"] = (
                "unstable" in flags
                if sub != TASK_CLOCK
                else bool(
                    row.get("round_cv_a")
                    and row.get("round_cv_b")
                    and max(row["round_cv_a"], row["round_cv_b"]) >= 0.10
                )
            )
            if not sub:
                row["counters_a"], row["counters_b"] = _counters(ra), _counters(rb)
                oa, ob = on_cpu(ra), on_cpu(rb)
                if oa is not None and ob is not None:
                    row["counters_a"]["on_cpu"], row["counters_b"]["on_cpu"] = oa, ob
                    if min(oa, ob) < 0.9 and abs(oa - ob) > 0.1 and row.get("verdict") != FEW:
                        row["note"] = (
                            f"contention: on CPU {oa * 100:.0f}% of the time in A, "
                            f"{ob * 100:.0f}% in B; see the task-clock row"
                        )
            if not sub and row.get("verdict") == SLOWER and key in A.profiles and key in B.profiles:
                from ..profile.model import top_change

                row["profile_change"] = top_change(A.profiles[key], B.profiles[key])
            rows.append(row)
    return {"a": A.label, "b": B.label, "rows": rows, "families": families(rows), "isa": isa}


def families(rows):
    """Geometric mean per family of the time ratios B/A (bandwidth inverted, so that above 1
    always means B is slower), over the main metrics that are not flagged unstable (over all of
    them, marked so, when every one is unstable); task-clock rows get their own line."""
    out = {}
    for fam in sorted({r["family"] for r in rows}):
        for metric, label in (("", fam), (TASK_CLOCK, f"{fam} ({TASK_CLOCK})")):
            cand = [
                r
                for r in rows
                if r["family"] == fam and r["metric"] == metric and r.get("ratio") and not math.isnan(r["ratio"])
            ]
            stable = [r for r in cand if not r.get("unstable")]
            use = stable or cand
            if not use:
                continue
            logs = [math.log(1 / r["ratio"] if r.get("unit") == "MB/s" else r["ratio"]) for r in use]
            verdicts = {}
            for r in use:
                verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
            out[label] = {
                "geomean_time_ratio": math.exp(sum(logs) / len(logs)),
                "n": len(logs),
                "verdicts": verdicts,
                "all_unstable": not stable,
            }
    return out


def fingerprint_differences(A, B):
    """Settings that differ between the machines/builds of two runs (printed before the table):
    [(key, a, b)], the keys the fingerprint registry shows."""
    return [(k.name, a, b) for k, a, b in fingerprint.differences(A.fingerprint, B.fingerprint)]


# ---------------------------------------------------------------- regressions
def regressions(result, threshold):
    """Rows of a pair that are significantly slower by more than threshold (a fraction)."""
    out = []
    for r in result["rows"]:
        if r.get("verdict") != SLOWER or r.get("ratio") is None:
            continue
        slow = (1 / r["ratio"] - 1) if r.get("unit") == "MB/s" else r["ratio"] - 1
        if slow > threshold:
            out.append((r, slow))
    return out


def unmeasured(result):
    """Main rows of a pair that A measured and B did not (B crashed, failed, timed out, skipped
    it, does not have it, or has no samples of it) -> [(row, why)]: a regression gate cannot
    vouch for them, so it fails on them as on a regression."""
    out = []
    for r in result["rows"]:
        if r.get("metric") or r.get("verdict") != "missing":
            continue
        if r.get("status_a", "ok") != "ok":
            continue  # A did not measure it either: nothing to hold B to
        if "status_b" in r:
            out.append((r, "not in B" if r["status_b"] == "absent" else r["status_b"]))
        elif r.get("n_b") == 0 and r.get("n_a"):
            out.append((r, "no samples"))
    return out


def parse_threshold(text, option="--fail-above"):
    """A percentage option: '5%' or '5' both mean five percent -> 0.05; finite and not negative."""
    t = text.strip()
    num = t[:-1].strip() if t.endswith("%") else t
    try:
        v = float(num)
    except ValueError:
        raise TickmarkError(f"bad {option} '{text[:40]}' (expected a percentage such as 5%)")
    if not math.isfinite(v) or v < 0:
        raise TickmarkError(f"bad {option} '{text[:40]}' (a percentage from 0 up, such as 5%)")
    return v / 100


# ---------------------------------------------------------------- output
def _num(x):
    if x is None:
        return None
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return None
    return x


def to_json(sides, pairs):
    def clean(o):
        if isinstance(o, dict):
            return {k: clean(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [clean(v) for v in o]
        if isinstance(o, (np.floating, np.integer)):
            o = o.item()
        return _num(o)

    doc = {
        "format": "tickmark-compare",
        "version": 1,
        "runs": [
            {
                "label": s.label,
                "ref": s.ref,
                "source": s.source,
                "id": s.run.get("id"),
                "name": s.run.get("name"),
                "variant": s.fingerprint.get("variant"),
                "counters": counters.availability(s.hello, s.fingerprint.get("cycles_method")),
            }
            for s in sides
        ],
        "rule": {
            "min_samples": MIN_SAMPLES,
            "p_limit": P_LIMIT,
            "min_band": MIN_BAND,
            "max_same_band": MAX_SAME_BAND,
            "band_round_cv": BAND_ROUND_CV,
            "bootstrap": N_BOOT,
        },
        "comparisons": [],
    }
    for (A, B), res in pairs:
        rows = []
        for r in res["rows"]:
            row = {
                k: r.get(k)
                for k in (
                    "key",
                    "bench",
                    "metric",
                    "unit",
                    "median_a",
                    "median_b",
                    "ratio",
                    "ci",
                    "p",
                    "verdict",
                    "n_a",
                    "n_b",
                    "rounds_a",
                    "rounds_b",
                    "round_cv_a",
                    "round_cv_b",
                    "band",
                    "det_a",
                    "det_b",
                    "rounds_needed",
                    "note",
                    "profile_change",
                    "counters_a",
                    "counters_b",
                )
                if r.get(k) is not None
            }
            if r.get("ratio") is not None:
                row["multiple"] = (
                    insn_multiple(r["ratio"]) if res.get("isa") else multiple(r["ratio"], r.get("unit") == "MB/s")
                )
            rows.append(row)
        doc["comparisons"].append(
            {
                "a": A.label,
                "b": B.label,
                "rows": rows,
                "families": res["families"],
                "isa": list(res["isa"]) if res.get("isa") else None,
                "differences": [{"field": k, "a": a, "b": b} for k, a, b in fingerprint_differences(A, B)],
            }
        )
    return clean(doc)


def _emulated(side):
    fp = side.fingerprint
    return bool(fp.get("emulated")) or "emulated" in (fp.get("flags") or [])


def check_comparable(A, B):
    """Runs that measured in different units (instruction counts under QEMU icount are not
    times) are never compared: the fingerprint registry's incomparable keys."""
    bad = fingerprint.incomparable(A.fingerprint, B.fingerprint)
    if bad:
        _, a, b = bad
        raise TickmarkError(f"cannot compare {A.label} ({a}) with {B.label} ({b}): the units differ")


def mixing_warning(A, B):
    """A line when one run was emulated and the other was not, else None."""
    if _emulated(A) == _emulated(B):
        return None
    emu, real = (A, B) if _emulated(A) else (B, A)
    return (
        f"WARNING: {emu.label} ran emulated and {real.label} did not: emulated timings say nothing "
        "about hardware; the ratios below compare unlike things"
    )


def compare_sides(sides):
    """Compare the first side (the baseline) with each of the others -> (sides, pairs); labels
    are made unique for the reader."""
    if len(sides) < 2:
        raise TickmarkError("compare needs two runs at least (RUN_A RUN_B, or --baseline RUN and a run)")
    seen = {}
    for s in sides:  # make labels unique for the reader
        n = seen.get(s.label, 0)
        seen[s.label] = n + 1
        if n:
            s.label = f"{s.label} #{n + 1}"
    base = sides[0]
    for other in sides[1:]:
        check_comparable(base, other)
        if not set(base.results) & set(other.results):
            raise TickmarkError(f"{base.label} and {other.label} have no benchmark in common: nothing to compare")
    pairs = [((base, other), compare_pair(base, other)) for other in sides[1:]]
    return sides, pairs
