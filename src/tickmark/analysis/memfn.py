"""The memfn.* comparison: per routine and size, which implementation is fastest, by how much,
and whether that is more than noise.

Each memfn.* instance is one implementation (`impl`: 0 libc, 1 ref, 2 word, 3 user) at one
size and alignment. Implementations that failed verification are listed with their first
failing case and take no part in the ranking (they were never timed).

The fastest implementation of a routine and size is the one with the smallest geometric mean
over the other parameters (alignments, directions). It is called the winner only when the one
verdict (verdict.verdict, the one `tickmark compare` gives) finds it faster than the second
fastest at every one of those parameters; otherwise the row says what the verdict found
instead (no difference beyond noise, inconclusive, too few samples).
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Optional

from ..base.shapes import Row, SamplesOf
from . import compare
from .stats import Stats, higher_is_better
from .verdict import FASTER, verdict

IMPLS: dict[object, str] = {0: "libc", 1: "ref", 2: "word", 3: "user"}

# (routine, size, {impl: ns}, the fastest impl, its margin over the second, the verdict on it)
MemfnRow = tuple[str, Any, dict[str, float], str, Optional[float], Optional[str]]


def _gmean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def _rest(params: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The parameters of an instance other than impl and size, as a hashable key."""
    return tuple(sorted((k, v) for k, v in params.items() if k not in ("impl", "size")))


def winner_verdict(best: dict[Any, Row], second: dict[Any, Row], samples_of: SamplesOf) -> str | None:
    """The one verdict on the fastest implementation (best) against the second (second):
    {rest of params: result} of each, with the samples from samples_of(result). -> FASTER when
    it is so at every parameter set both measured; else the first verdict that is not (None
    without samples)."""
    verdicts: list[str] = []
    for rest in sorted(set(best) & set(second)):
        a, b = second[rest], best[rest]
        sa, sb = samples_of(a), samples_of(b)
        if not sa or not sb:
            return None
        va, ra, _ = compare.metric_values(dict(a, samples=sa))
        vb, rb, _ = compare.metric_values(dict(b, samples=sb))
        higher = higher_is_better(dict(a.get("meta") or {}, stat=a.get("stat")))
        verdicts.append(verdict(va, ra, vb, rb, higher)["verdict"])
    if not verdicts:
        return None
    return next((v for v in verdicts if v != FASTER), FASTER)


def table_rows(
    results: list[Row], samples_of: SamplesOf | None = None
) -> tuple[list[MemfnRow], dict[tuple[str, str], str]]:
    """-> (rows, failures). rows: (routine, size, {impl: ns}, fastest, margin, verdict); the ns
    of an implementation at a size is the geometric mean over the other parameters (alignments,
    directions); margin = second best / best; verdict: compare's verdict on the fastest against
    the second (FASTER: the winner; None without samples or without a second)."""
    cells: defaultdict[tuple[str, Any], defaultdict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    inst: defaultdict[tuple[str, Any], defaultdict[str, dict[Any, Row]]] = defaultdict(lambda: defaultdict(dict))
    failures: dict[tuple[str, str], str] = {}
    for r in results:
        if not r["bench"].startswith("memfn."):
            continue
        routine = r["bench"].split(".", 1)[1]
        p = dict(r.get("params") or {})
        impl = IMPLS.get(p.get("impl"), "?")
        if r["status"] == "failed":
            failures.setdefault((routine, impl), r.get("reason") or "failed")
            continue
        st = Stats.of(r).main
        if r["status"] != "ok" or not st or st.value is None:
            continue
        cells[(routine, p.get("size"))][impl].append(st.value)
        inst[(routine, p.get("size"))][impl][_rest(p)] = r
    rows: list[MemfnRow] = []
    for (routine, size), by_impl in sorted(cells.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        ns = {i: _gmean(v) for i, v in by_impl.items()}
        ranked = sorted(ns, key=lambda i: ns[i])
        margin = ns[ranked[1]] / ns[ranked[0]] if len(ranked) > 1 else None
        said = None
        if len(ranked) > 1 and samples_of is not None:
            said = winner_verdict(inst[(routine, size)][ranked[0]], inst[(routine, size)][ranked[1]], samples_of)
        rows.append((routine, size, ns, ranked[0], margin, said))
    return rows, failures
