"""The bandwidth table of a run: one row per buffer size, labelled with the cache level it fits,
one column per way of moving the bytes (read, write, copy, memset, non-temporal fill and copy,
and all CPUs at once), in MB/s with bytes counted once.

The level of a size is the smallest cache (from the run's topology notes, else what the OS
reports) that holds it; larger than every cache is "memory". Multi-core rows show the total
rate of the largest thread count measured and the rate per core.
"""

from collections import defaultdict

from .stats import Stats

COLUMNS = (
    ("mem.bw_read", {}, "read"),
    ("mem.bw_write", {}, "write"),
    ("mem.bw_copy", {}, "copy"),
    ("mem.bw_memset", {}, "memset"),
    ("mem.bw_nt", {"op": 0}, "NT write"),
    ("mem.bw_nt", {"op": 1}, "NT copy"),
)
CORES_OPS = {0: "read", 1: "write", 2: "copy"}


def _rate(r):
    st = Stats.of(r).main
    if r.get("status") != "ok" or not st or st.value is None:
        return None
    return st.value


def level_of(size, caches):
    """caches: [(name, bytes)] smallest first -> the name of the first that holds size."""
    for name, cap in caches:
        if size <= cap:
            return name
    return "memory" if caches else "-"


def caches_for(run, osr=None):
    """[(name, bytes)] from the run's topology notes (detected), else the OS report."""
    notes = (run or {}).get("notes") or {}
    det = (notes.get("topology") or {}).get("levels") or []
    got = [(lv["name"], lv["size"]) for lv in det if lv.get("size")]
    if got:
        return got, "detected"
    if osr is None:
        from .topology import os_report

        osr = os_report()
    return [(lv["name"], lv["size"]) for lv in osr.get("levels", [])], "OS"


def table_rows(results, caches):
    """-> (header, rows): rows are (size, level, {column: MB/s}) sorted by size; the multi-core
    column is "N CPUs read" with (total, per core) for the largest N measured."""
    cells = defaultdict(dict)
    cores = defaultdict(dict)  # (size, op) -> {threads: MB/s}
    for r in results:
        p = r.get("params") or {}
        v = _rate(r)
        if v is None or "size" not in p:
            continue
        if r["bench"] == "mem.bw_cores":
            cores[(p["size"], p.get("op", 0))][p.get("threads", 1)] = v
            continue
        for bench, match, col in COLUMNS:
            if r["bench"] == bench and all(p.get(k) == x for k, x in match.items()):
                cells[p["size"]][col] = max(v, cells[p["size"]].get(col, 0))
    header = [col for _, _, col in COLUMNS if any(col in c for c in cells.values())]
    multi = {}
    for (size, op), by_n in cores.items():
        n = max(by_n)
        if n > 1:
            col = f"{n} CPUs {CORES_OPS.get(op, op)}"
            multi[(size, col)] = (by_n[n], by_n[n] / n, by_n.get(1))
    for _, col in sorted(multi, key=lambda k: k[1]):
        if col not in header:
            header.append(col)
    rows = []
    for size in sorted(set(cells) | {s for s, _ in multi}):
        row = dict(cells.get(size, {}))
        for (s, col), v in multi.items():
            if s == size:
                row[col] = v
        rows.append((size, level_of(size, caches), row))
    return header, rows
