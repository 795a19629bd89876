"""Statistics of one benchmark instance from its raw samples (host side; the core sends integers).

Per-sample value: ns / ops (ns per operation). Headline by the instance's `stat`:
  median   -> median ns/op
  min      -> smallest ns/op (latency sweeps: noise only ever adds time)
  max      -> highest rate; bandwidth instances are reported in MB/s (bytes_per_op*ops/ns*1000)
Spread: rcv = 1.4826*MAD/median (robust CV), cv = std/mean, round_cv = CV of the round medians,
ci95 = distribution-free order-statistic interval of the median, determinism = largest distance
of a round median from the overall median, in %.
"""
import math

import numpy as np
from scipy.stats import binom

from . import counters

UNSTABLE_RCV = 0.10
NOISY_ROUND_CV = 0.03
OUTLIER_MADS = 14.8
OUTLIER_FAR = 0.50
FEW_SAMPLES = 9


def median_ci(sorted_values, level=0.95):
    """Order-statistic CI of the median: (lo, hi, coverage).

    The widest-needed symmetric pair x(k), x(n-k+1) (1-based) whose coverage
    1 - 2*P(Binom(n, 1/2) <= k-1) is at least `level`. With too few values for that level the
    interval is (min, max) and the returned coverage is the (smaller) true one.
    """
    x = sorted_values
    n = len(x)
    if n == 0:
        return None, None, 0.0
    best_k = 1
    for k in range(1, n // 2 + 1):
        if 1 - 2 * binom.cdf(k - 1, n, 0.5) >= level:
            best_k = k
        else:
            break
    cover = 1 - 2 * binom.cdf(best_k - 1, n, 0.5)
    return float(x[best_k - 1]), float(x[n - best_k]), float(cover)


def _cv(values):
    v = np.asarray(values, dtype=float)
    if len(v) < 2 or v.mean() == 0:
        return None
    return float(v.std(ddof=1) / abs(v.mean()))


def distribution(values, rounds):
    """Descriptive statistics of per-sample values with their round numbers."""
    v = np.asarray(values, dtype=float)
    r = np.asarray(rounds)
    med = float(np.median(v))
    mad = float(np.median(np.abs(v - med)))
    lo, hi, cover = median_ci(np.sort(v))
    round_meds = [float(np.median(v[r == k])) for k in sorted(set(r.tolist()))]
    det = max(abs(m - med) for m in round_meds) / med * 100 if med else None
    return {
        "n": int(len(v)), "median": med, "min": float(v.min()), "max": float(v.max()),
        "p90": float(np.percentile(v, 90)), "mean": float(v.mean()),
        "mad": mad, "rcv": 1.4826 * mad / med if med else None, "cv": _cv(v),
        "rounds": len(round_meds), "round_medians": round_meds,
        "round_cv": _cv(round_meds), "ci95_lo": lo, "ci95_hi": hi, "ci95_level": cover,
        "determinism": det,
    }


def hist_percentiles(hists):
    """Merge per-round histograms ({"buckets": [[lower_ns, count], ...], "min", "max"}) and
    read p50/p99/p99.9 as the lower bound of the bucket holding that rank (clamped to min/max)."""
    counts = {}
    lo_all, hi_all = None, None
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
    out = {"count": total, "min": lo_all, "max": hi_all}
    bounds = sorted(counts)
    for name, q in (("p50", 0.50), ("p99", 0.99), ("p99.9", 0.999)):
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


def flags_for(d, preempted=False, extended=True):
    """Noise flags of one metric's distribution `d` (see module doc for thresholds)."""
    flags = []
    if d["rcv"] is not None and d["rcv"] >= UNSTABLE_RCV:
        flags.append("unstable")
    if extended and d["round_cv"] is not None and d["round_cv"] > NOISY_ROUND_CV:
        flags.append("noisy")
    med, mad = d["median"], d["mad"]
    far = med and (abs(d["min"] - med) / med >= OUTLIER_FAR or abs(d["max"] - med) / med >= OUTLIER_FAR)
    if far or (mad > 0 and max(abs(d["max"] - med), abs(d["min"] - med)) > OUTLIER_MADS * mad):
        flags.append("outliers")
    if preempted:
        flags.append("preempted")
    if d["n"] < FEW_SAMPLES:
        flags.append("few-samples")
    return flags


def _hit_again(s):
    return s.get("nivcsw", 0) > 0 or s.get("cpu0", 0) != s.get("cpu1", 0)


def preemption_moved(good, stat="median", bytes_per_op=0):
    """Did the preempted samples (retaken and hit again) measurably move the headline? Yes when
    the headline of all samples lies outside the 95 % CI of the median of the clean samples
    (for a min/max headline: outside the clean samples' range), or no clean samples are left."""
    clean = [s for s in good if not (s.get("retaken") and _hit_again(s))]
    if len(clean) < 2:
        return True

    def per_op(ss):
        v = np.array([s["ns"] / s["ops"] for s in ss], dtype=float)
        return bytes_per_op * 1000.0 / v if bytes_per_op else v

    allv, cv = per_op(good), np.sort(per_op(clean))
    if stat == "median":
        lo, hi, _ = median_ci(cv)
        head = float(np.median(allv))
    else:
        lo, hi = float(cv[0]), float(cv[-1])
        head = float(allv.max() if bytes_per_op else allv.min())
    return not (lo <= head <= hi)


def _per_op(samples, getter):
    vals, rounds = [], []
    for s in samples:
        x = getter(s)
        if x is None or not s.get("ops"):
            continue
        vals.append(x / s["ops"])
        rounds.append(s.get("round", 1))
    return vals, rounds


def summarize(samples, stat="median", bytes_per_op=0, hists=(), cycles_method="none",
              env_flags=(), extended=True):
    """Statistics of one instance: {"": main metric, "<sub>": ...} -> dict of stats.

    samples: dicts with round, ops, ns and optionally cyc, retaken, nivcsw, cpu0, cpu1, sub {name: ns},
    ctr {name: n}, ctr_ops.
    """
    good = [s for s in samples if s.get("ops") and s.get("ns") is not None and s["ns"] > 0]
    if not good:
        return {}
    # A sample hit by a context switch or a migration is taken again once by the core (retaken=1);
    # a sample whose second attempt was hit as well is a preempted sample. `preempted` is flagged
    # only where those samples moved the result (preemption_moved); how many results had any is
    # said once per run.
    retaken = [s for s in good if s.get("retaken")]
    hit = [s for s in retaken if _hit_again(s)]
    multiplexed = any(s.get("multiplexed") for s in good)
    bandwidth = stat == "max" and bytes_per_op > 0
    out = {}

    ns, rounds = _per_op(good, lambda s: s["ns"])
    if bandwidth:
        vals = [bytes_per_op * 1000.0 / x for x in ns]  # MB/s from ns per op
    else:
        vals = ns
    d = distribution(vals, rounds)
    d["unit"] = "MB/s" if bandwidth else "ns/op"
    if stat == "min":
        d["value"] = d["min"]
    elif stat == "max":
        d["value"] = d["max"] if bandwidth else d["min"]  # max rate of a time = min time
    else:
        d["value"] = d["median"]
    ns_med = float(np.median(ns))
    d["ns_per_op"] = ns_med
    d["ops_per_s"] = 1e9 / ns_med
    cyc, _ = _per_op(good, lambda s: s.get("cyc"))
    if cyc and len(cyc) == len(good):
        d["cycles_per_op"] = float(np.median(cyc))
        d["cycles_method"] = cycles_method
    ctr = counters.derived(good)  # counts are over ctr_ops operations (3x ops if differential)
    if ctr:
        d["counters_per_op"] = ctr.pop("per_op")
        d["counters"] = ctr
    h = hist_percentiles(hists)
    if h:
        d["hist"] = h
    env = [f for f in env_flags if f != "kernel-excluded" or d.get("cycles_method") == "perf"]
    d["retaken"] = len(retaken)
    d["preempted_samples"] = len(hit)
    preempted = bool(hit) and preemption_moved(good, stat, bytes_per_op if bandwidth else 0)
    d["flags"] = flags_for(d, preempted, extended) + (["multiplexed"] if multiplexed else []) + env
    out[""] = d

    sub_names = []
    for s in good:
        for k in (s.get("sub") or {}):
            if k not in sub_names:
                sub_names.append(k)
    for name in sub_names:
        vals, rounds = _per_op(good, lambda s, k=name: (s.get("sub") or {}).get(k))
        if not vals or min(vals) <= 0:
            continue
        sd = distribution(vals, rounds)
        sd["unit"] = "ns/op"
        sd["value"] = sd["min"] if stat == "min" else sd["median"]
        sd["ns_per_op"] = sd["median"]
        sd["ops_per_s"] = 1e9 / sd["median"]
        sd["flags"] = flags_for(sd, False, extended)
        out[name] = sd
    return out
