"""The models of the memory family's terminal views: the bandwidth tables (`tickmark bandwidth`),
the memfn.* comparison (`tickmark memfn`) and the detected topology (`tickmark topology`, and
the topology section of `show` and `report`)."""

from __future__ import annotations

from typing import Any, TypedDict

from ...base.fmt import fmt_size, fmt_time
from ...base.shapes import Row, SamplesOf, StoreReader


class BandwidthRow(TypedDict):
    """One size of a bandwidth table: its cache level, a cell per column, the disturbed columns."""

    size: int
    level: str
    cells: dict[str, Any]
    disturbed: list[str]


class Cores(TypedDict):
    threads: int | None
    ops: list[str]
    rows: list[BandwidthRow]


class BandwidthModel(TypedDict):
    """The bandwidth tables of a run (`tickmark bandwidth`)."""

    levels_from: str | None
    header: list[str]
    rows: list[BandwidthRow]
    cores: Cores
    notes: list[str]


class MemfnRow(TypedDict):
    routine: str
    size: int
    ns: dict[str, float]
    fastest: str | None
    margin: float | None
    verdict: str | None
    winner: str | None


class MemfnFailure(TypedDict):
    routine: str
    impl: str
    reason: str


class MemfnModel(TypedDict):
    """The memfn.* comparison (`tickmark memfn`)."""

    impls: list[str]
    rows: list[MemfnRow]
    failures: list[MemfnFailure]


def bandwidth_model(results: list[Row], run: Row | None = None, store: StoreReader | None = None) -> BandwidthModel:
    """The bandwidth tables of a run (analysis/bandwidth.py): MB/s per size and way of moving the
    bytes with one CPU, and with every CPU at once ([total, x of one CPU] per operation), each
    size with the cache level it fits (detected from the run's latency sweeps when `store` is given
    and the run has them, else what the run's target's OS reports); the notes that explain a
    column."""
    from ...analysis.bandwidth import caches_for, cores_rows, table_rows
    from ...analysis.stats import CONFIRMED_ROUND, DISTURBED_ON_CPU

    topo = topology_of(store, [run], results) if store is not None and run else None
    caches, src = caches_for(run, topo and topo["detected"])
    header, rows = table_rows(results, caches)
    n, crows = cores_rows(results, caches)
    notes: list[str] = []
    unclear = sorted({lvl for _, lvl, _, _ in rows + crows if lvl.endswith("?")})
    if any(bad for *_, bad in rows + crows):
        notes.append(
            "*: disturbed: the process was on a CPU less than "
            f"{DISTURBED_ON_CPU * 100:g} % of the figure's best round (task-clock against wall time), or no other "
            f"round came within {CONFIRMED_ROUND * 100 - 100:g} % of it: other work took the CPU, the caches or the "
            "memory bus, so the rate is not what this machine gives quietly"
        )
    if unclear:
        notes.append(
            f"{', '.join(unclear)}: that level was not measurable under the load of the run's latency sweep, so "
            "whether it or a larger level holds the size is not known"
        )
    if "move" in header:
        notes.append("move: memmove 256 bytes down inside one buffer (in place: no read for ownership)")
    if any(size == 32 << 20 for size, *_ in rows):
        notes.append(
            "tinymembench: its 'standard memcpy' and 'standard memset' are the 32M row's copy and memset, "
            "best of runs of at least 0.5 s (here: best of rounds of 5 samples of 10 ms; "
            "tickmark run 'mem.bw_*' --sample-ms 100 for rounds of 0.5 s)"
        )
    return {
        "levels_from": src,
        "header": header,
        "rows": [{"size": size, "level": lvl, "cells": row, "disturbed": bad} for size, lvl, row, bad in rows],
        "cores": {
            "threads": n,
            "ops": [op for op in ("read", "write", "copy") if any(op in r for _, _, r, _ in crows)],
            "rows": [
                {"size": size, "level": lvl, "cells": {op: list(v) for op, v in row.items()}, "disturbed": bad}
                for size, lvl, row, bad in crows
            ],
        },
        "notes": notes,
    }


def memfn_model(results: list[Row], samples_of: SamplesOf | None = None) -> MemfnModel:
    """The memfn.* comparison (analysis/memfn.py): per routine and size, the time of each
    implementation, the fastest, its margin over the second, and whether the comparison
    statistics call it faster (samples_of(result) gives the samples they need); the
    implementations that failed verification."""
    from ...analysis.compare import FASTER
    from ...analysis.memfn import IMPLS, table_rows

    rows, failures = table_rows(results, samples_of)
    impls = [i for i in IMPLS.values() if any(i in row[2] for row in rows)]
    return {
        "impls": impls,
        "rows": [
            {
                "routine": routine,
                "size": size,
                "ns": ns,
                "fastest": fastest,
                "margin": margin,
                "verdict": said,
                "winner": fastest if said == FASTER else None,
            }
            for routine, size, ns, fastest, margin, said in rows
        ],
        "failures": [
            {"routine": routine, "impl": impl, "reason": reason} for (routine, impl), reason in sorted(failures.items())
        ],
    }


def topology_of(store: StoreReader, runs: list[Row], results: list[Row] | None = None) -> dict[str, Any] | None:
    """The topology of stored runs, as every view shows it (`topology --from`, `show`, `report`,
    `bandwidth`): analysis/topology.py's one detection from their results and the first run's
    target (its fingerprint's OS figures, its hello) -> topology_model, or None when the runs
    have no latency sweep (mem.lat_rand, mem.lat_pagelocal) to detect levels on."""
    from ...analysis import topology
    from ...store.analyses import topology_of_runs

    if results is None:
        results = [r for run in runs for r in store.results(run["id"])]
    if not topology.has_sweep(results):
        return None
    det, osr = topology_of_runs(store, runs, results)
    return topology_model(det, osr, [run["id"] for run in runs])


def _sz(n: float | None) -> str:
    """A size in three significant digits (436K, 2.21M): the table's sizes are estimates."""
    return fmt_size(n, digits=3)


def _range(r: Any) -> str:
    return f"{_sz(r[0])}-{_sz(r[1])}" if r else ""


def _ns(ns: float | None, sign: str = "") -> str:
    return f"{sign}{fmt_time(ns)}" if ns else ""


def _cyc(det: dict[str, Any], ns: float | None) -> str:
    k = det.get("fcore_khz")
    if not (k and ns):
        return ""
    c = ns * k / 1e6
    return f"{c:.1f}" if c < 100 else f"{c:.0f}"


CHECK_WORDS = {
    "agree": "=",
    "DISAGREE": "DISAGREE",
    "shared": "smaller: shared",
    "varies": "smaller: varies",
    "partition": "smaller: part",
    "scattered": "smaller: pages",
    "not measurable": "not measurable",
    "not found": "not found",
}

CURVE = {
    "pagelocal": "the page-local chase (TLB-neutral)",
    "rand_huge": "the random chase in huge pages",
    "rand_4k": "the random chase in 4 KiB pages (TLB misses included)",
}

TOPOLOGY_COLUMNS = ("level", "detected", "knee", "latency", "cycles", "conf", "OS", "check")


def topology_model(det: dict[str, Any], osr: dict[str, Any], runs: list[Any]) -> dict[str, Any]:
    """What `tickmark topology` found (analysis/topology.py's detection `det` over the runs)
    beside what the OS reports (`osr`), with the verdict of each comparison: the detection as
    `tickmark topology --json` prints it (analysis/os_topology.document, without the curves' points),
    and the table, the evidence and the notes every view shows."""
    from ...analysis import os_topology, topology

    doc = os_topology.document(det, osr, runs)
    points = doc.pop("points")
    checks = [list(c) for c in os_topology.compare(det, osr)]
    doubts = [list(d) for d in os_topology.doubts(det, osr)]
    warning = topology.cycle_warning(det)
    table, evidence = _topology_table(det, osr, checks, points)
    return dict(
        doc,
        checks=checks,
        doubts=doubts,
        cycle_warning=warning,
        title=f"memory hierarchy detected from run{'s' if len(runs) > 1 else ''} {', '.join(map(str, runs))}; "
        f"caches read on {CURVE.get(det.get('curve') or '', det.get('curve'))}; OS values from "
        f"{osr.get('source') or 'nothing (the OS reports no caches)'}",
        columns=list(TOPOLOGY_COLUMNS),
        table=table,
        evidence=evidence,
        notes=_topology_notes(det, doubts, warning),
    )


def _topology_table(
    det: dict[str, Any], osr: dict[str, Any], checks: list[list[Any]], points: dict[str, Any]
) -> tuple[list[list[str]], list[list[str]]]:
    from ...analysis import os_topology

    """The rows of the topology table (texts, TOPOLOGY_COLUMNS) and the evidence of each level
    ([name, text]): cache levels beside the OS's, the OS's levels not found, memory, the line,
    the TLB levels and the knees that are not caches."""
    rows = {w: (o, v) for w, _, o, v in checks}
    oslv = osr.get("levels", [])
    table: list[list[str]] = []
    evidence: list[list[str]] = []
    llc = det.get("llc") or {}
    for lv, o in os_topology.pair_levels(os_topology.cache_levels(det), oslv):
        if lv is None:
            assert o is not None
            v = rows.get(f"{o['name']} size", (None, ""))[1]
            lat = llc.get("latency_ns") if llc.get("level") == o["name"] else None
            part = llc.get("share") if llc.get("level") == o["name"] else None
            table.append(
                [
                    "-",
                    f"share {_sz(part['size'])}" if part else "not found" if v else "not reached",
                    _range(part["range"]) if part else "",
                    _ns(lat),
                    _cyc(det, lat),
                    "",
                    f"{fmt_size(o['size'])} {o['name']}",
                    CHECK_WORDS.get(v, v),
                ]
            )
            if llc.get("level") == o["name"]:
                evidence.append([o["name"], f"{llc['verdict']}: {llc['why']}"])
            continue
        v = rows.get(f"{(o or {}).get('name') or lv['name']} size", (None, ""))[1]
        table.append(
            [
                lv["name"],
                _sz(lv["size"]) if lv["size"] else "not measurable",
                "" if lv.get("unclear") else _range(lv.get("range")),
                _ns(lv.get("latency_ns")),
                _cyc(det, lv.get("latency_ns")),
                "" if lv.get("unclear") else f"{lv['confidence']:.2f}",
                f"{fmt_size(o['size'])} {o['name']}" if o else "-",
                CHECK_WORDS.get(v, v or ""),
            ]
        )
        why = f"{lv['why']}; latency read at {fmt_size(lv['at_size'])}" if lv.get("at_size") else lv["why"]
        if o and llc.get("level") == o["name"]:
            why += f". {llc['why']}"
        evidence.append([lv["name"], why])
    mem = det["levels"][-1] if det["levels"] else None
    if mem and mem["size"] is None:
        lat = mem.get("latency_ns")
        table.append(
            [
                "memory",
                "",
                f"from {fmt_size(mem['plateau_from'])}" if mem.get("plateau_from") else "",
                _ns(lat),
                _cyc(det, lat),
                "",
                "",
                "",
            ]
        )
        note = f"{lat:.1f} ns at {fmt_size(mem['at_size'])} on {CURVE.get(mem.get('curve'), '?')}" if lat else ""
        if mem.get("curve") == "pagelocal":
            note += " (a prefetcher that fetches the rest of a page may lower it)"
        if mem.get("latency_ns_4k") and mem.get("latency_ns_huge"):
            note += (
                f"; the random chase at {fmt_size(mem['random_at'])}: {mem['latency_ns_4k']:.1f} ns with 4 KiB pages, "
                f"{mem['latency_ns_huge']:.1f} ns with huge pages (page walks included where the TLB misses)"
            )
        if mem.get("still_rising"):
            note += " (still rising: larger sets would cost more)"
        evidence.append(["memory", note])
    line = det.get("line_size") or {}
    o, v = rows.get("line size", (None, ""))
    table.append(
        [
            "line",
            f"{line['bytes']} B" if line.get("bytes") else "not measurable" if line.get("unclear") else "not found",
            "",
            "",
            "",
            "" if line.get("unclear") else f"{line.get('confidence', 0):.2f}",
            f"{o} B" if o else "-",
            CHECK_WORDS.get(v, v or ""),
        ]
    )
    if line.get("why"):
        evidence.append(["line", line["why"]])
    for i, tl in enumerate(det.get("tlb") or []):
        o, v = rows.get(f"L{i + 1} TLB entries", (None, ""))
        what = "page walk" if tl.get("walk") else f"L{i + 2} TLB hit"
        table.append(
            [
                tl["name"],
                f"{tl['entries']}x4K" if tl["entries"] else "not measurable",
                f"reach {_sz(tl['reach'])}" if tl["reach"] else "",
                "" if tl.get("unclear") else _ns(tl["miss_ns"], "+"),
                "" if tl.get("unclear") else _cyc(det, tl["miss_ns"]),
                "" if tl.get("unclear") else f"{tl['confidence']:.2f}",
                f"{o} cpuid" if o else "-",
                CHECK_WORDS.get(v, v or ""),
            ]
        )
        evidence.append([tl["name"], f"a miss costs a {what}; {tl['why']}"])
    found = [f"L{i + 1}" for i in range(len(det.get("tlb") or []))]
    for key, (o, _v) in rows.items():
        if key.endswith("TLB entries") and key.split()[0] not in found:
            table.append([key.split()[0] + " TLB", "not found", "", "", "", "", f"{o} cpuid", ""])
    if not det.get("tlb"):
        evidence.append(
            ["TLB", "no mem.lat_tlb results" if not points.get("tlb_spread") else "no step in the translation cost"]
        )
    if "TLB reach (4K pages)" in rows:
        o, v = rows["TLB reach (4K pages)"]
        reach = det["tlb"][-1]["reach"] if det.get("tlb") else None
        table.append(
            [
                "reach",
                _sz(reach) if reach else "-",
                "",
                "",
                "",
                "",
                f"{fmt_size(o)} cpuinfo",
                CHECK_WORDS.get(v, v or ""),
            ]
        )
    for k in det.get("tlb_knees") or []:
        table.append(["(TLB)", _sz(k["size"]), _range((k["lo"], k["hi"])), "", "", f"{k['confidence']:.2f}", "", ""])
        evidence.append(
            ["(TLB)", f"a knee of the random chase that is the {k['tlb']}'s reach, not a cache: {k['why']}"]
        )
    for k in det.get("other_knees") or []:
        evidence.append(
            [
                "(knee)",
                f"a knee of the random chase at {_sz(k['size'])} that neither the cache curve nor a TLB "
                f"reach explains: {k['why']}",
            ]
        )
    return table, evidence


def _topology_notes(det: dict[str, Any], doubts: list[list[Any]], warning: str | None) -> list[str]:
    """The lines under the evidence: doubtful figures, page-walk costs, huge pages in the TLB,
    stability, the detection's flags, how cycles were had."""
    notes = [f"{what}: {why}" for what, why in doubts]
    cpuid = det.get("tlb_cpuid") or {}
    if cpuid.get("source") and not cpuid.get("levels"):
        notes.append(f"cpuid TLB figures: {cpuid['source']}")
    walk = det.get("page_walk") or []
    if walk:
        notes.append(
            "4 KiB pages over huge pages (page-walk cost): "
            + ", ".join(f"{fmt_size(sz)} {a - b:+.1f} ns" for sz, a, b in walk)
        )
    hon = det.get("huge") or {}
    if hon.get("honoured") is not None:
        notes.append(f"huge pages in the TLB: {'yes' if hon['honoured'] else 'no'} ({hon['why']})")
    stab = det.get("stability") or {}
    if stab.get("why"):
        notes.append(f"stability over {stab.get('rounds')} round(s): {stab['why']}")
    notes += [f for f in det.get("flags") or [] if not f.startswith("huge pages granted, but")]
    if det.get("fcore_khz"):
        notes.append(
            f"cycles: ns x {det['fcore_khz'] / 1e6:.2f} GHz (calibrated-freq, the core's dependent-add estimate)"
        )
    if warning:
        notes.append(warning)
    return notes
