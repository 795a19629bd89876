"""What a latency histogram supports about its tail, with no assumption about the distribution:
"p99.99 <= X with 95 % confidence", from order statistics.

Of n independent events, the number above the q-quantile is binomial (n, 1 - q). So the j-th
largest event is at or above the q-quantile with the probability that at least j events lie
above it, P(K >= j); the largest j for which that is at least the confidence level gives the
tightest bound X = the j-th largest event. With too few events even the maximum does not bound the
quantile (1 - q^n below the confidence level): then there is no statement, only how many events
one needs. A histogram knows the j-th largest event to a bucket: X is that bucket's upper edge
(never above the observed maximum), so the statement stays true.

Events that are not independent (a wake-up late because the one before was) make the statement
optimistic; it is the statement the data support under that assumption, as cyclictest's maximum
is the one it saw.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Callable

from scipy.stats import binom

SUB = 32  # sub-buckets per power of two: core/src/hist.c (TM_HIST_SUB)


def bucket_index(ns: float) -> int:
    """The core's histogram bucket of a value (core/src/hist.c: tm_hist_index)."""
    n = int(ns)
    if n < SUB:
        return n
    shift = n.bit_length() - 1 - 5
    return (shift + 1) * SUB + ((n >> shift) - SUB)


def bucket_lower(idx: int) -> int:
    """The lowest value of a bucket (tm_hist_lower)."""
    if idx < SUB:
        return idx
    shift = idx // SUB - 1
    return (SUB + idx % SUB) << shift


def events_needed(q: float, confidence: float = 0.95) -> int:
    """The fewest events whose maximum bounds the q-quantile at the confidence level."""
    return math.ceil(math.log(1 - confidence) / math.log(q))


def rank_from_top(n: int, q: float, confidence: float = 0.95) -> int | None:
    """The largest j such that the j-th largest of n events is at or above the q-quantile with
    at least the confidence -> j (1 is the maximum), or None when n is too small."""
    alpha = 1 - confidence
    k = int(binom.ppf(alpha, n, 1 - q))  # the smallest k with P(K <= k) >= alpha
    while k >= 0 and binom.cdf(k, n, 1 - q) > alpha:
        k -= 1
    return k + 1 if k >= 0 else None


def quantile_bound(
    buckets: Iterable[Sequence[Any]], maximum: float | None, q: float = 0.9999, confidence: float = 0.95
) -> dict[str, Any]:
    """buckets: [[lower_ns, count], ...] of one histogram (or merged), maximum: its largest event
    -> {"q", "confidence", "events", "bound"} with bound the value X of "the q-quantile <= X with
    this confidence", or bound None and "needed" (the events such a statement takes)."""
    counts: dict[int, int] = {}
    for lower, count in buckets:
        counts[int(lower)] = counts.get(int(lower), 0) + int(count)
    n = sum(counts.values())
    out: dict[str, Any] = {"q": q, "confidence": confidence, "events": n, "bound": None}
    j = rank_from_top(n, q, confidence) if n else None
    if j is None:
        out["needed"] = events_needed(q, confidence)
        return out
    seen = 0
    for lower in sorted(counts, reverse=True):
        seen += counts[lower]
        if seen >= j:
            upper = bucket_lower(bucket_index(lower) + 1) - 1
            out["bound"] = min(upper, maximum) if maximum is not None else upper
            return out
    return out


def statement(bound: dict[str, Any], unit_text: Callable[[Any], str]) -> str:
    """One line of a bound (quantile_bound's dict): "p99.99 <= 41.2 us (95 % confidence, 6.0M
    events)" or "p99.99: not enough events (1,200 of 29,956)"; unit_text formats a value."""
    name = "p" + f"{bound['q'] * 100:.4f}".rstrip("0").rstrip(".")
    conf = f"{bound['confidence'] * 100:.0f} %"
    if bound["bound"] is None:
        return f"{name}: not enough events for {conf} confidence ({bound['events']:,} of {bound['needed']:,})"
    return f"{name} <= {unit_text(bound['bound'])} with {conf} confidence ({bound['events']:,} events)"
