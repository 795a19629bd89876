"""The bandwidth table of a run: one row per buffer size, labelled with the cache level it fits,
one column per way of moving the bytes (read, write, copy, move in place, memset, non-temporal
fill and copy), in MB/s (10^6 bytes per second) with bytes counted once, and the all-CPUs
figures of mem.bw_cores beside one CPU.

The level of a size is the smallest cache (detected from the run's own latency sweeps, else
what the run's target's OS reports) that holds it; larger than every cache is "memory".
Multi-core rows show the total rate of the largest thread count measured and its gain over one
CPU (the total divided by one CPU's rate: x2.00 for two CPUs that scale perfectly).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..base.shapes import Row
from .stats import Stats

# (a size, its cache level, {column: MB/s}, [columns whose figure was disturbed])
TableRow = tuple[Any, str, dict[str, float], list[str]]
# (a size, its cache level, {op: (total MB/s, x of one CPU)}, [ops whose figure was disturbed])
CoresRow = tuple[Any, str, dict[str, tuple[float, Any]], list[str]]

COLUMNS: tuple[tuple[str, dict[str, int], str], ...] = (
    ("mem.bw_read", {}, "read"),
    ("mem.bw_write", {}, "write"),
    ("mem.bw_copy", {}, "copy"),
    ("mem.bw_memmove", {"shift": 256}, "move"),
    ("mem.bw_memset", {}, "memset"),
    ("mem.bw_nt", {"op": 0}, "NT write"),
    ("mem.bw_nt", {"op": 1}, "NT copy"),
)
CORES_OPS = {0: "read", 1: "write", 2: "copy"}
DEFAULTS = {"shift": 256}  # parameters older runs did not have, at the value they ran with


def _rate(r: Row) -> float | None:
    st = Stats.of(r).main
    if r.get("status") != "ok" or not st or st.value is None:
        return None
    return st.value


def series_label(bench: str, params: dict[str, Any] | None) -> str:
    """The name of a way of moving the bytes, as the table's column says it ("NT write", "move"),
    for a mem.bw_* result's parameters other than its size; other parameters follow the name."""
    p = {k: v for k, v in (params or {}).items() if k != "size"}
    for b, match, col in COLUMNS:
        if b == bench and all(p.get(k, DEFAULTS.get(k)) == x for k, x in match.items()):
            rest = {k: v for k, v in p.items() if k not in match}
            return " ".join([col] + [f"{k}={v}" for k, v in sorted(rest.items())])
    return " ".join([bench.split("_", 1)[-1]] + [f"{k}={v}" for k, v in sorted(p.items())])


def level_of(size: int, caches: list[tuple[str, int | None]]) -> str:
    """caches: [(name, bytes)] smallest first -> the name of the first that holds size; past the
    last level whose size is known, a level that was not measurable (bytes None) gives its name
    with '?' (it or a larger level: which one holds it is not known)."""
    for name, cap in caches:
        if cap is None:
            return f"{name}?"
        if size <= cap:
            return name
    return "memory" if caches else "-"


def caches_for(run: Row | None, detected: dict[str, Any] | None = None) -> tuple[list[tuple[str, int | None]], str]:
    """[(name, bytes)] of the levels detected in the run (its topology's `detected`), else of
    those the run's target's OS reports (its fingerprint) -> (levels, "detected" or "OS")."""
    got = [(lv["name"], lv["size"]) for lv in (detected or {}).get("levels") or [] if lv["name"] != "memory"]
    if any(size for _, size in got):
        return got, "detected"
    from .os_topology import os_report

    return [(lv["name"], lv["size"]) for lv in os_report((run or {}).get("fingerprint"))["levels"]], "OS"


def disturbed(r: Row) -> bool:
    """Was a bandwidth result's best round disturbed (on a CPU less than stats.DISTURBED_ON_CPU of
    its wall time: its rate is lower than the machine gives quietly)?"""
    st = Stats.of(r).main
    return bool(st and "disturbed" in (st.flags or []))


def table_rows(results: list[Row], caches: list[tuple[str, int | None]]) -> tuple[list[str], list[TableRow]]:
    """-> (header, rows): rows are (size, level, {column: MB/s}, [columns whose figure was
    disturbed]) sorted by size, one column per way of moving the bytes with one CPU."""
    cells: defaultdict[Any, dict[str, float]] = defaultdict(dict)
    bad: defaultdict[Any, set[str]] = defaultdict(set)
    for r in results:
        p = r.get("params") or {}
        v = _rate(r)
        if v is None or "size" not in p:
            continue
        for bench, match, col in COLUMNS:
            if r["bench"] == bench and all(p.get(k, DEFAULTS.get(k)) == x for k, x in match.items()):
                if v > cells[p["size"]].get(col, 0):
                    cells[p["size"]][col] = v
                    bad[p["size"]].discard(col)
                    if disturbed(r):
                        bad[p["size"]].add(col)
    header = [col for _, _, col in COLUMNS if any(col in c for c in cells.values())]
    return header, [(size, level_of(size, caches), dict(cells[size]), sorted(bad[size])) for size in sorted(cells)]


def cores_rows(results: list[Row], caches: list[tuple[str, int | None]]) -> tuple[int | None, list[CoresRow]]:
    """mem.bw_cores -> (threads, rows): rows are (size, level, {op: (total MB/s, x of one CPU)},
    [ops whose total or one-CPU figure was disturbed]) for the largest thread count measured (more
    than one); (None, []) without such results."""
    cores: defaultdict[tuple[Any, int], dict[int, float]] = defaultdict(dict)  # (size, op) -> {threads: MB/s}
    bad: set[tuple[Any, int, int]] = set()
    for r in results:
        p = r.get("params") or {}
        v = _rate(r)
        if v is not None and r["bench"] == "mem.bw_cores" and "size" in p:
            cores[(p["size"], p.get("op", 0))][p.get("threads", 1)] = v
            if disturbed(r):
                bad.add((p["size"], p.get("op", 0), p.get("threads", 1)))
    n = max((max(by_n) for by_n in cores.values()), default=1)
    if n < 2:
        return None, []
    rows: defaultdict[Any, dict[str, tuple[float, Any]]] = defaultdict(dict)
    marks: defaultdict[Any, set[str]] = defaultdict(set)
    for (size, op), by_n in cores.items():
        if n in by_n:
            one = by_n.get(1)
            rows[size][CORES_OPS.get(op, str(op))] = (by_n[n], by_n[n] / one if one else None)
            if (size, op, n) in bad or (size, op, 1) in bad:
                marks[size].add(CORES_OPS.get(op, str(op)))
    return n, [(size, level_of(size, caches), rows[size], sorted(marks[size])) for size in sorted(rows)]
