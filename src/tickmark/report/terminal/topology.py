"""Terminal view of `tickmark topology`, rendered from its model (model.topology_model): the
detected cache levels, line size and TLB reach beside what the OS reports, with the evidence for
each."""

import sys

from rich.table import Table

from ...fmt import fmt_size
from ..console import console


def print_text(det, osr, runs):
    from ..model import topology_model

    render(topology_model(det, osr, runs))


def render(m, file=None):
    det, osr, runs, checks = m["detected"], m["os"], m["runs"], m["checks"]
    con = console(file or sys.stdout)
    cyc = "calibrated-freq" if det.get("fcore_khz") else None
    con.print(
        f"memory hierarchy detected from runs {', '.join(map(str, runs))} "
        f"(OS values from {osr.get('source') or 'nothing: the OS reports no caches'})"
    )
    t = Table(box=None, pad_edge=False)
    for c in ("level", "detected", "OS reports", "", "latency", "cycles", "confidence", "evidence"):
        t.add_column(c, justify="right" if c in ("latency", "cycles", "confidence") else "left")
    rows = {w: (o, v) for w, d, o, v in checks}
    oslv = osr.get("levels", [])
    caches = [lv for lv in det["levels"] if lv["size"]]
    for i, lv in enumerate(det["levels"]):
        if lv["size"] is None:
            lat = f"{lv['latency_ns']:.1f} ns"
            if lv.get("latency_ns_4k"):
                lat = f"{lv['latency_ns_4k']:.1f} ns 4K pages / {lv.get('latency_ns_huge', 0):.1f} ns huge"
            note = f"at {fmt_size(lv['at_size'])}"
            if lv.get("still_rising"):
                note += " (still rising: larger sets would cost more)"
            t.add_row("memory", "", "", "", lat, _cyc(lv, "latency_ns"), "", note)
            continue
        o = oslv[i] if i < len(oslv) else None
        key = f"{(o or {}).get('name') or lv['name']} size"
        verdict = rows.get(key, (None, ""))[1]
        t.add_row(
            lv["name"],
            fmt_size(lv["size"]),
            (f"{fmt_size(o['size'])} ({o['name']})" if o else "-"),
            _flag(verdict),
            f"{lv['latency_ns']:.2f} ns",
            _cyc(lv, "latency_ns"),
            f"{lv['confidence']:.2f}",
            f"read at {fmt_size(lv['at_size'])}; {lv['why']}",
        )
    llc = det.get("llc") or {}
    for lv in oslv[len(caches) :]:
        v = llc["cause"] if llc.get("cause") and llc.get("level") == lv["name"] else "DISAGREE"
        t.add_row("-", "not found", f"{fmt_size(lv['size'])} ({lv['name']})", _flag(v), "", "", "", "")
    line = det.get("line_size") or {}
    o, v = rows.get("line size", (None, ""))
    t.add_row(
        "line",
        f"{line.get('bytes')} B" if line.get("bytes") else "not found",
        f"{o} B" if o else "-",
        _flag(v),
        "",
        "",
        f"{line.get('confidence', 0):.2f}",
        line.get("why", ""),
    )
    cpuid = det.get("tlb_cpuid") or {}
    for i, tl in enumerate(det.get("tlb") or []):
        o, v = rows.get(f"L{i + 1} TLB entries", (None, ""))
        what = "page walk" if tl.get("walk") else f"L{i + 2} TLB hit"
        t.add_row(
            tl["name"],
            f"{tl['entries']} x 4K",
            f"{o} (cpuid)" if o else "-",
            _flag(v),
            f"+{tl['miss_ns']:.2f} ns",
            _cyc({"latency_cycles": tl["miss_ns"] * det["fcore_khz"] / 1e6} if det.get("fcore_khz") else {}, ""),
            f"{tl['confidence']:.2f}",
            f"a miss costs a {what}; reach {fmt_size(tl['reach'])}; {tl['why']}",
        )
    if not det.get("tlb"):
        t.add_row(
            "TLB",
            "not found",
            "-",
            "",
            "",
            "",
            "",
            "no mem.lat_tlb results"
            if not det.get("points", {}).get("tlb_spread")
            else "no step in the translation cost",
        )
    if "TLB reach (4K pages)" in rows:
        o, v = rows["TLB reach (4K pages)"]
        t.add_row(
            "TLB reach",
            fmt_size(det["tlb"][-1]["reach"]) if det.get("tlb") else "-",
            f"{fmt_size(o)} (cpuinfo)",
            _flag(v),
            "",
            "",
            "",
            "",
        )
    for k in det.get("tlb_knees") or []:
        t.add_row(
            "(TLB)",
            fmt_size(k["size"]),
            "",
            "",
            f"{k['latency_ns']:.2f} ns",
            "",
            "",
            f"a knee of the cache curve that is the {k['tlb']}'s reach, not a cache; {k['why']}",
        )
    con.print(t)
    if cpuid.get("source") and not cpuid.get("levels"):
        con.print(f"cpuid TLB figures: {cpuid['source']}")
    walk = det.get("page_walk") or []
    if walk:
        con.print(
            "4 KiB pages over huge pages (page-walk cost): "
            + ", ".join(f"{fmt_size(sz)} {a - b:+.1f} ns" for sz, a, b in walk)
        )
    hon = det.get("huge") or {}
    if hon.get("honoured") is not None:
        con.print(f"huge pages in the TLB: {'yes' if hon['honoured'] else 'no'} ({hon['why']})")
    if any(v == "scattered" for _, _, _, v in checks):
        con.print(
            "smaller: scattered pages = the huge pages do not reach the TLB, so they are not contiguous in "
            "physical memory either, and a physically indexed cache fills some of its page colours before "
            "it is full"
        )
    llc = det.get("llc")
    if llc:
        con.print(f"{llc['level']} smaller than the OS says: {llc['why']}")
    stab = det.get("stability") or {}
    if stab.get("why"):
        con.print(f"stability over {stab.get('rounds')} round(s): {stab['why']}")
    for f in det.get("flags") or []:
        con.print(f"note: {f}")
    if cyc:
        con.print(f"cycles: ns x {det['fcore_khz'] / 1e6:.2f} GHz ({cyc}, the core's dependent-add estimate)")
    if m["cycle_warning"]:
        con.print(m["cycle_warning"])


def _cyc(lv, k):
    return f"{lv['latency_cycles']:.1f}" if lv.get("latency_cycles") else "-"


def _flag(v):
    return {
        "agree": "=",
        "DISAGREE": "DISAGREE",
        "shared": "shared (measured)",
        "varies": "varies (measured)",
        "partition": "partitioned (measured)",
        "scattered": "smaller: scattered pages",
    }.get(v, "")
