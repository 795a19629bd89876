"""The memfn.* comparison: per routine and size, which implementation wins and by how much.

Each memfn.* instance is one implementation (`impl`: 0 libc, 1 ref, 2 word, 3 user) at one
size and alignment. Implementations that failed verification are listed with their first
failing case and take no part in the ranking (they were never timed).
"""

import math
from collections import defaultdict

from .stats import Stats

IMPLS = {0: "libc", 1: "ref", 2: "word", 3: "user"}


def _gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def table_rows(results):
    """-> (rows, failures). rows: (routine, size, {impl: ns}, winner, margin); the ns of an
    implementation at a size is the geometric mean over the other parameters (alignments,
    directions); margin = second best / best."""
    cells = defaultdict(lambda: defaultdict(list))
    failures = {}
    for r in results:
        if not r["bench"].startswith("memfn."):
            continue
        routine = r["bench"].split(".", 1)[1]
        p = dict(r.get("params") or {})
        impl = IMPLS.get(p.pop("impl", None), "?")
        if r["status"] == "failed":
            failures.setdefault((routine, impl), r.get("reason") or "failed")
            continue
        st = Stats.of(r).main
        if r["status"] != "ok" or not st:
            continue
        cells[(routine, p.get("size"))][impl].append(st.value)
    rows = []
    for (routine, size), by_impl in sorted(cells.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        ns = {i: _gmean(v) for i, v in by_impl.items()}
        ranked = sorted(ns, key=ns.get)
        margin = ns[ranked[1]] / ns[ranked[0]] if len(ranked) > 1 else None
        rows.append((routine, size, ns, ranked[0], margin))
    return rows, failures
