"""The board page: one table of what lmbench's summary says about a machine, from any runs of
that machine (an os-suite run, a context-switch sweep, a bandwidth run, a topology run): the
process and system-call times, the context switch as a procs x size grid, the local
communication latencies and bandwidths, and the memory latencies. `show --summary` prints it,
and the report puts it first.

Each figure is a stored result's headline, the figure lmbench reports: the time per operation
over a batch (the median of the samples' means; a round trip for the ping-pongs), or the best
MB/s for a bandwidth. Per-event percentiles (the event-latency table) describe the spread of
single events, not this figure. Where several runs or instances hold one figure, the first run
given and the instance lmbench measures (both parties on one CPU, as lmbench's unpinned parties
end up on an idle machine; 64 KiB messages) are taken; the key that was taken is shown beside
each figure.
"""

from __future__ import annotations

from typing import Any, TypedDict, Union

from ...analysis.stats import Stats, Summary
from ...base.fmt import fmt_time
from ...base.shapes import Row, StoreReader
from ...base.units import MB_S, fmt_bandwidth
from .memory import topology_of

# (lmbench's name, the benchmark (or the benchmarks whose mean it is), the parameters of its figure)
FigureSpec = tuple[tuple[str, Union[str, tuple[str, ...]], dict[str, int]], ...]

# (lmbench's name, benchmark, the parameters lmbench's figure has (where the benchmark has them))
PROCESSES: FigureSpec = (
    ("null call", "sys.getppid", {}),
    ("null I/O", ("sys.read", "sys.write"), {}),
    ("stat", "sys.stat", {}),
    ("open/close", "sys.open_close", {}),
    ("signal install", "signal.install", {}),
    ("signal handler", "signal.catch", {}),
    ("fork", "proc.fork_exit", {}),
    ("exec", "proc.fork_exec", {}),
    ("sh", "proc.fork_sh", {}),
)
LATENCY: FigureSpec = (
    ("pipe", "ipc.pipe_lat", {"cross": 0}),
    ("AF_UNIX", "ipc.unix_stream_lat", {"cross": 0}),
    ("UDP", "ipc.udp_lat", {"cross": 0}),
    ("TCP", "ipc.tcp_lat", {"cross": 0}),
    ("TCP connect", "ipc.tcp_connect", {}),
)
BANDWIDTH: FigureSpec = (
    ("pipe", "ipc.pipe_bw", {"msg": 65536, "cross": 0}),
    ("AF_UNIX", "ipc.unix_bw", {"msg": 65536, "cross": 0}),
    ("TCP", "ipc.tcp_bw", {"msg": 65536, "cross": 0}),
    ("file reread", "fs.read_bw", {"block": 65536}),
    ("bcopy (libc)", "mem.bw_copy", {}),
    ("memory read", "mem.bw_read", {}),
    ("memory write", "mem.bw_write", {}),
)
LARGEST = ("mem.bw_copy", "mem.bw_read", "mem.bw_write")  # lmbench's bw_mem: a set far past the caches
RING = "sched.ctx_ring"
SWITCH = "switch_derived"  # the ring's sub-metric that is lmbench lat_ctx's per-switch figure


class BoardRow(TypedDict):
    """One figure of the board page: its value and text, the result keys and runs it is from."""

    what: str
    value: float | None
    text: str
    key: str
    run: str | None


class BoardTable(TypedDict):
    title: str
    rows: list[BoardRow]


class RingRow(TypedDict):
    procs: int
    cells: list[str]


class RingGrid(TypedDict):
    """sched.ctx_ring as lmbench's lat_ctx table."""

    metric: str
    sizes_kib: list[int]
    rows: list[RingRow]
    run: Any


class BoardMemory(TypedDict):
    run: Any
    rows: list[dict[str, Any]]


class BoardModel(TypedDict):
    """The board page (`show --summary`, the report's first section)."""

    runs: list[Any]
    what: str
    tables: list[BoardTable]
    ctx: RingGrid | None
    memory: BoardMemory | None


WHAT = (
    "each figure is what lmbench reports, the mean time of one operation over a batch (the median "
    f"over samples; one round trip for pipe, AF_UNIX, UDP and TCP), or the best {MB_S}; the per-event "
    "percentiles of the event-latency table describe single events, not this figure"
)


def board_model(
    store: StoreReader, runs: list[Row], topologies: dict[Any, dict[str, Any] | None] | None = None
) -> BoardModel | None:
    """The board page of `runs` (run rows of one machine) -> {"runs", "what", "tables", "ctx",
    "memory"}, or None when they hold none of its figures. topologies: {run id: its topology}
    where the caller has them already (memory.topology_of)."""
    results = [(run, r) for run in runs for r in store.results(run["id"])]
    tables = [
        _table("Processes: time per operation", PROCESSES, results),
        _table("Local communication: latency", LATENCY, results),
        _table("Local communication: bandwidth", BANDWIDTH, results),
    ]
    ctx = _ring_grid(results)
    mem = _memory(store, runs, topologies or {})
    if not any(row["value"] for t in tables for row in t["rows"]) and not ctx and not mem:
        return None
    return {"runs": [run["id"] for run in runs], "what": WHAT, "tables": tables, "ctx": ctx, "memory": mem}


def _headline(r: Row, metric: str = "") -> Summary | None:
    d = Stats.of(r).get(metric) if r.get("status") == "ok" else None
    return d if d is not None and d.value is not None else None


def _pick(results: list[tuple[Row, Row]], bench: str, want: dict[str, int]) -> tuple[Row, Row] | None:
    """The result lmbench's figure is: of `bench`, the instance with the parameters `want` (those
    it has), in the first run that has one; for a memory bandwidth the largest size."""
    mine = [(run, r) for run, r in results if r["bench"] == bench and _headline(r)]
    if not mine:
        return None
    best = [x for x in mine if all((x[1].get("params") or {}).get(k, v) == v for k, v in want.items())] or mine
    first = best[0][0]["id"]
    best = [x for x in best if x[0]["id"] == first]
    if bench in LARGEST:
        return max(best, key=lambda x: (x[1].get("params") or {}).get("size", 0))
    return best[0]


def _table(title: str, spec: FigureSpec, results: list[tuple[Row, Row]]) -> BoardTable:
    rows: list[BoardRow] = []
    for label, which, want in spec:
        benches = (which,) if isinstance(which, str) else which
        picked = [_pick(results, b, want) for b in benches]
        got = [x for x in picked if x is not None]
        if len(got) < len(picked):  # lmbench's null I/O is the mean of a read and a write: both or nothing
            rows.append({"what": label, "value": None, "text": "-", "key": " + ".join(benches), "run": None})
            continue
        ds = [d for d in (_headline(r) for _, r in got) if d is not None]
        value = sum(d.value or 0.0 for d in ds) / len(ds)
        rows.append(
            {
                "what": label,
                "value": value,
                "text": fmt_bandwidth(value) if ds[0].unit == MB_S else fmt_time(value),
                "key": " + ".join(r["key"] for _, r in got) + (" (mean)" if len(got) > 1 else ""),
                "run": ", ".join(sorted({str(run["id"]) for run, _ in got})),
            }
        )
    return {"title": title, "rows": rows}


def _ring_grid(results: list[tuple[Row, Row]]) -> RingGrid | None:
    """sched.ctx_ring as lmbench's lat_ctx table, from the run with the most points of it: one
    row per ring size (procs), one column per private data size (KiB), the per-switch time
    (switch_derived; the hop where it is missing)."""
    ring = [(run, r) for run, r in results if r["bench"] == RING and "procs" in (r.get("params") or {})]
    ring = [(run, r) for run, r in ring if _headline(r)]
    if not ring:
        return None
    count: dict[Any, int] = {}
    for run, _ in ring:
        count[run["id"]] = count.get(run["id"], 0) + 1
    best = max(count, key=lambda i: (count[i], -list(count).index(i)))
    cells: dict[tuple[Any, Any], float | None] = {}
    metric = SWITCH
    for run, r in ring:
        if run["id"] != best:
            continue
        p = r["params"]
        d = _headline(r, SWITCH)
        if d is None:
            d, metric = _headline(r), "hop"
        cells[(p["procs"], p.get("size", 0))] = d.value if d is not None else None
    procs = sorted({p for p, _ in cells})
    sizes = sorted({s for _, s in cells})
    return {
        "metric": metric,
        "sizes_kib": sizes,
        "rows": [
            {"procs": p, "cells": [fmt_time(cells[(p, s)]) if (p, s) in cells else "-" for s in sizes]} for p in procs
        ],
        "run": best,
    }


def _memory(store: StoreReader, runs: list[Row], known: dict[Any, dict[str, Any] | None]) -> BoardMemory | None:
    """The load latencies of the levels detected in the first run with a latency sweep (its
    topology: memory.topology_of) -> {"run", "rows": [{"what", "size", "text"}]} or None."""
    for run in runs:
        topo = known[run["id"]] if run["id"] in known else topology_of(store, [run])
        if topo is None:
            continue
        rows: list[dict[str, Any]] = []
        for lv in topo["detected"]["levels"]:
            if lv.get("latency_ns") is None:
                continue
            what = lv["name"] if lv["size"] else "memory"
            rows.append({"what": what, "size": lv["size"], "text": fmt_time(lv["latency_ns"])})
        return {"run": run["id"], "rows": rows}
    return None
