"""The series the plots of a run draw (the HTML report): load latency over the working set with
the run's topology, the context-switch ring, event-latency histograms, bandwidth over size, the
nbench indices and stored profiles."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Callable, TypedDict

from ...analysis.compare import Side
from ...analysis.memfn import IMPLS
from ...analysis.stats import Stats, Summary
from ...base.exact import exact_counts
from ...base.shapes import Fingerprint, Row, SamplesOf, StoreReader


class NbenchFigures(TypedDict):
    """The nbench figures of a run: a row per kernel, the BYTEmark indices of its groups (None
    under QEMU -icount), the time basis and its words, and the caveat of an exact-count run."""

    rows: list[dict[str, Any]]
    original_groups: dict[str, float | None]
    partial_groups: tuple[dict[str, Any], dict[str, Any]]  # (original, Linux): nbench.partial_groups
    linux_groups: dict[str, float | None]
    basis: str | None
    basis_text: str | None
    caveat: str | None


def result_order(r: Row) -> tuple[str, list[tuple[str, tuple[int, Any, str]]]]:
    """The order of result rows: by benchmark name, then parameters in numeric order."""
    return (
        r["bench"],
        [
            (k, (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v)))
            for k, v in sorted((r.get("params") or {}).items())
        ],
    )


def _ok(results: Iterable[Row], pred: Callable[[Row], bool]) -> Iterator[tuple[Row, Summary]]:
    """(result, headline Summary) of the results that are ok and match pred."""
    for r in results:
        if r["status"] != "ok" or not pred(r):
            continue
        main = Stats.of(r).main
        if main is not None:
            yield r, main


def series(
    store: StoreReader,
    run: Row,
    results: list[Row],
    nb: NbenchFigures | None = None,
    topo: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the plots of a run draw (the series it has data for); topo: the run's topology
    (memory.topology_of)."""
    drawn: tuple[tuple[str, Any], ...] = (
        ("latency", latency_series(results, topo)),
        ("ctx_ring", ctx_ring_series(results)),
        ("hists", hist_series(store, results)),
        ("bandwidth", bandwidth_series(results)),
        ("nbench", nb),
        ("profiles", profile_series(store, run)),
    )
    return {name: value for name, value in drawn if value}


def latency_series(results: list[Row], topo: dict[str, Any] | None) -> dict[str, Any] | None:
    """mem.lat_rand: minimum latency over the working set (4 KiB and huge pages; the page-local
    chase mem.lat_pagelocal beside them where it was run), with the run's topology (its model,
    memory.topology_of): the levels detected and the levels the target's OS reports."""
    from ...analysis import topology

    if topo is None or not any(r["bench"] == "mem.lat_rand" and r["status"] == "ok" for r in results):
        return None
    p4k, phuge, _, _ = topology.curves(results)
    keep = ("name", "size", "latency_ns", "at_size", "confidence", "latency_cycles")
    return {
        "points_4k": [list(p) for p in sorted(p4k.items())],
        "points_huge": [list(p) for p in sorted(phuge.items())],
        "points_pagelocal": [list(p) for p in sorted(topology.pagelocal_curve(results).items())],
        "levels": [{k: lv.get(k) for k in keep} for lv in topo["detected"]["levels"]],
        "os_levels": [{"name": o["name"], "size": o["size"]} for o in topo["os"]["levels"]],
    }


def ctx_ring_series(results: list[Row]) -> list[dict[str, Any]]:
    """sched.ctx_ring: time per hop over the ring size, one line per private data size."""
    lines: dict[Any, list[list[Any]]] = {}
    for r, d in _ok(results, lambda r: r["bench"] == "sched.ctx_ring"):
        p = r.get("params") or {}
        if "procs" not in p:
            continue
        lines.setdefault(p.get("size", 0), []).append([p["procs"], d.value, d.ci95_lo, d.ci95_hi])
    return [{"size_kib": s, "points": sorted(pts)} for s, pts in sorted(lines.items())]


def hist_series(store: StoreReader, results: list[Row]) -> list[dict[str, Any]]:
    """Event-latency histograms (timer.cyclic*, ping-pongs): merged buckets and percentiles."""
    out = []
    for r, d in _ok(sorted(results, key=result_order), lambda r: True):
        if not d.hist:
            continue
        counts: dict[Any, int] = {}
        for h in store.hists(r["id"]):
            for lower, count in h.get("buckets", []):
                counts[lower] = counts.get(lower, 0) + count
        h = d.hist
        out.append(
            {
                "key": r["key"],
                "buckets": [[b, counts[b]] for b in sorted(counts)],
                "count": h.get("count"),
                "min": h.get("min"),
                "avg": h.get("avg"),
                "p50": h.get("p50"),
                "p99": h.get("p99"),
                "p99.9": h.get("p99.9"),
                "max": h.get("max"),
            }
        )
    return out


def bandwidth_series(results: list[Row]) -> list[dict[str, Any]]:
    """Bandwidth over size: mem.bw_* (one line per routine) and memfn.* (one panel per routine,
    one line per implementation; MB/s = bytes per call / time per call, geometric mean over the
    alignments and directions)."""
    from ...analysis.bandwidth import COLUMNS, series_label
    from ...analysis.memfn import table_rows

    mem: dict[str, list[list[Any]]] = {}
    for r, d in _ok(results, lambda r: r["bench"].startswith("mem.bw_")):
        p = dict(r.get("params") or {})
        size = p.pop("size", None)
        if not size or not d.is_bandwidth or "threads" in p:  # thread scaling is not a size sweep
            continue
        mem.setdefault(series_label(r["bench"], p), []).append([size, d.value])
    names = [col for _, _, col in COLUMNS]
    order = sorted(mem, key=lambda k: (names.index(k) if k in names else len(names), k))
    out = [{"group": "mem.bw", "routine": k, "impl": None, "points": sorted(mem[k])} for k in order]
    rows, failures = table_rows(results)
    lines: dict[tuple[str, str], list[list[Any]]] = {}
    for routine, size, ns, *_ in rows:
        for impl, t in ns.items():
            if size and t:
                lines.setdefault((routine, impl), []).append([size, size * 1000.0 / t])
    impls = list(IMPLS.values())
    for (routine, impl), pts in sorted(
        lines.items(), key=lambda kv: (kv[0][0], impls.index(kv[0][1]) if kv[0][1] in impls else 9)
    ):
        out.append(
            {
                "group": f"memfn.{routine}",
                "routine": routine,
                "impl": impl,
                "points": sorted(pts),
                "failed": failures.get((routine, impl)),
            }
        )
    return out


ICOUNT_NBENCH = (
    "QEMU -icount: time is virtual (1 ns = 1 guest instruction), so these rates are iterations per "
    "10^9 guest instructions; BYTEmark indices compare times with a real Pentium 90 and AMD K6/233, "
    "so none is computed"
)


def nbench_series(store: StoreReader, results: list[Row], fp: Fingerprint | None = None) -> NbenchFigures | None:
    """The nbench figures of a run's cpu.* kernels (nbench_figures, samples from the store)."""
    return nbench_figures(results, lambda r: store.samples(r["id"]), fp)


def nbench_figures(results: list[Row], samples_of: SamplesOf, fp: Fingerprint | None = None) -> NbenchFigures | None:
    """The nbench figures of a run's cpu.* kernels (analysis/nbench.py: rates and indices on
    process CPU time where task-clock was counted, else wall time, said in "basis"); under QEMU
    -icount (instructions, not time) the rates with a caveat and no BYTEmark index. None
    without cpu.* results."""
    from ...analysis import nbench

    mine = [r for r in results if r["key"] in nbench.NAMES]
    if not mine:
        return None
    rows, (orig, linux) = nbench.summarize(mine, samples_of)
    out: NbenchFigures = {
        "rows": [
            {
                k: row.get(k)
                for k in ("name", "label", "status", "reason", "rate", "old", "new", "ci", "n", "basis", "certain")
            }
            for row in rows
        ],
        "original_groups": orig,
        "linux_groups": linux,
        "partial_groups": nbench.partial_groups({row["name"]: row["rate"] for row in rows if "rate" in row}),
        "basis": nbench.basis_of(rows),
        "basis_text": nbench.BASIS_TEXT.get(nbench.basis_of(rows)),
        "caveat": None,
    }
    fp = fp or {}
    if exact_counts(fp):
        for row in out["rows"]:
            row["old"] = row["new"] = None
        out["original_groups"] = {g: None for g in orig}
        out["linux_groups"] = {g: None for g in linux}
        out["partial_groups"] = ({}, {})
        out["caveat"] = ICOUNT_NBENCH
    return out


def nbench_comparison(sides: Sequence[Side]) -> dict[str, Any] | None:
    """The nbench index table of compared runs side by side (analysis/nbench.side_by_side), for
    two runs or more with cpu.* results; else None."""
    from ...analysis import nbench

    figs = [
        (s.label, nbench_figures(list(s.results.values()), lambda r: r.get("samples"), s.fingerprint)) for s in sides
    ]
    had = [(label, f) for label, f in figs if f is not None]
    if len(had) < 2:
        return None
    t = nbench.side_by_side([(label, f["rows"], f["original_groups"], f["linux_groups"]) for label, f in had])
    # every run counted instructions (QEMU -icount): the rates are per 10^9 instructions, not per second
    t["icount"] = all(f["caveat"] == ICOUNT_NBENCH for _, f in had)
    # each kernel checks its own output: "ok" is a verified result, per run
    t["verified"] = [sum(1 for k in t["kernels"] if k["status"][i] == "ok") for i in range(len(had))]
    return t


def profile_series(store: StoreReader, run: Row, top: int = 15) -> list[dict[str, Any]] | None:
    """Stored profiles (tickmark profile): per benchmark, its routines ranked by their own
    share of the sampled time, with the time per operation that share stands for."""
    from ...profile.model import GROUPS, group_shares

    profs = store.profiles(run["id"])
    out = []
    for key in sorted(profs or {}):
        p = profs[key]
        ns = p.get("ns_per_op")
        ranked = sorted((r for r in p.get("routines") or [] if r.get("self", 0) > 0), key=lambda r: -r["self"])
        shares = group_shares(p)
        out.append(
            {
                "key": key,
                "tool": p.get("tool"),
                "event": p.get("event"),
                "hits": p.get("hits"),
                "ns_per_op": ns,
                "unit": p.get("unit") or "op",
                "kernel": p.get("kernel"),
                "notes": list(p.get("notes") or []),
                "groups": [[g, shares.get(g, 0.0)] for g in GROUPS],
                "routines": [
                    {
                        "name": r["name"],
                        "group": r.get("group"),
                        "self": r["self"],
                        "total": r.get("total"),
                        "ns_per_op": r["self"] * ns if ns is not None else None,
                    }
                    for r in ranked[:top]
                ],
                "more": max(0, len(ranked) - top),
            }
        )
    return out or None
