"""Terminal view of `tickmark topology`, rendered from its model (model.topology_model): a compact
table of the detected cache levels, line size and TLB levels beside what the OS reports, then the
evidence for each on lines of its own under the table (never a squeezed column), so that it reads
at 80 columns and in a pipe."""

import sys
import textwrap

from rich.table import Table

from ...fmt import fmt_size, fmt_time
from ..console import console, fit_table


def _sz(n):
    """A size in three significant digits (436K, 2.21M): the table's sizes are estimates."""
    for unit, k in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= k:
            v = n / k
            return (f"{v:.3g}" if v < 100 else f"{v:.0f}") + unit
    return f"{n}B"


def _range(r):
    return f"{_sz(r[0])}-{_sz(r[1])}" if r else ""


def _ns(ns, sign=""):
    return f"{sign}{fmt_time(ns)}" if ns else ""


def _cyc(det, ns):
    k = det.get("fcore_khz")
    if not (k and ns):
        return ""
    c = ns * k / 1e6
    return f"{c:.1f}" if c < 100 else f"{c:.0f}"


def _flag(v):
    return {
        "agree": "=",
        "DISAGREE": "DISAGREE",
        "shared": "smaller: shared",
        "varies": "smaller: varies",
        "partition": "smaller: part",
        "scattered": "smaller: pages",
        "not measurable": "not measurable",
    }.get(v, v or "")


CURVE = {
    "pagelocal": "the page-local chase (TLB-neutral)",
    "rand_huge": "the random chase in huge pages",
    "rand_4k": "the random chase in 4 KiB pages (TLB misses included)",
}


def print_text(det, osr, runs, file=None):
    from ..model import topology_model

    render(topology_model(det, osr, runs), file)


def render(m, file=None):
    det, osr, runs = m["detected"], m["os"], m["runs"]
    con = console(file or sys.stdout)
    con.print(
        f"memory hierarchy detected from runs {', '.join(map(str, runs))}; caches read on "
        f"{CURVE.get(det.get('curve'), det.get('curve'))}; OS values from "
        f"{osr.get('source') or 'nothing (the OS reports no caches)'}"
    )
    t = Table(box=None, pad_edge=False, collapse_padding=True)
    for c in ("level", "detected", "knee", "latency", "cycles", "conf", "OS", "check"):
        t.add_column(c, justify="right" if c in ("latency", "cycles", "conf") else "left", no_wrap=True)
    rows = {w: (o, v) for w, _, o, v in m["checks"]}
    oslv = osr.get("levels", [])
    evidence = []
    caches = [lv for lv in det["levels"] if lv["size"]]
    llc = det.get("llc") or {}
    for i, lv in enumerate(caches):
        o = oslv[i] if i < len(oslv) else None
        v = rows.get(f"{(o or {}).get('name') or lv['name']} size", (None, ""))[1]
        t.add_row(
            lv["name"],
            _sz(lv["size"]),
            _range(lv.get("range")),
            _ns(lv.get("latency_ns")),
            _cyc(det, lv.get("latency_ns")),
            f"{lv['confidence']:.2f}",
            f"{fmt_size(o['size'])} {o['name']}" if o else "-",
            _flag(v),
        )
        why = f"{lv['why']}; latency read at {fmt_size(lv['at_size'])}" if lv.get("at_size") else lv["why"]
        if o and llc.get("level") == o["name"]:
            why += f". {llc['why']}"
        evidence.append((lv["name"], why))
    for o in oslv[len(caches) :]:
        v = rows.get(f"{o['name']} size", (None, ""))[1]
        lat = llc.get("latency_ns") if llc.get("level") == o["name"] else None
        part = llc.get("share") if llc.get("level") == o["name"] else None
        t.add_row(
            "-",
            f"share {_sz(part['size'])}" if part else "not found",
            _range(part["range"]) if part else "",
            _ns(lat),
            _cyc(det, lat),
            "",
            f"{fmt_size(o['size'])} {o['name']}",
            _flag(v or "DISAGREE"),
        )
        if llc.get("level") == o["name"]:
            evidence.append((o["name"], f"{llc['verdict']}: {llc['why']}"))
    mem = det["levels"][-1] if det["levels"] else None
    if mem and mem["size"] is None:
        lat = mem.get("latency_ns")
        t.add_row(
            "memory",
            "",
            f"from {fmt_size(mem['plateau_from'])}" if mem.get("plateau_from") else "",
            _ns(lat),
            _cyc(det, lat),
            "",
            "",
            "",
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
        evidence.append(("memory", note))
    line = det.get("line_size") or {}
    o, v = rows.get("line size", (None, ""))
    t.add_row(
        "line",
        f"{line['bytes']} B" if line.get("bytes") else "not found",
        "",
        "",
        "",
        f"{line.get('confidence', 0):.2f}",
        f"{o} B" if o else "-",
        _flag(v),
    )
    if line.get("why"):
        evidence.append(("line", line["why"]))
    for i, tl in enumerate(det.get("tlb") or []):
        o, v = rows.get(f"L{i + 1} TLB entries", (None, ""))
        what = "page walk" if tl.get("walk") else f"L{i + 2} TLB hit"
        t.add_row(
            tl["name"],
            f"{tl['entries']}x4K",
            f"reach {_sz(tl['reach'])}",
            _ns(tl["miss_ns"], "+"),
            _cyc(det, tl["miss_ns"]),
            f"{tl['confidence']:.2f}",
            f"{o} cpuid" if o else "-",
            _flag(v),
        )
        evidence.append((tl["name"], f"a miss costs a {what}; {tl['why']}"))
    for key, (o, _v) in rows.items():
        if key.endswith("TLB entries") and key.split()[0] not in [
            f"L{i + 1}" for i in range(len(det.get("tlb") or []))
        ]:
            t.add_row(key.split()[0] + " TLB", "not found", "", "", "", "", f"{o} cpuid", "")
    if not det.get("tlb"):
        evidence.append(
            (
                "TLB",
                "no mem.lat_tlb results"
                if not det.get("points", {}).get("tlb_spread")
                else "no step in the translation cost",
            )
        )
    if "TLB reach (4K pages)" in rows:
        o, v = rows["TLB reach (4K pages)"]
        reach = det["tlb"][-1]["reach"] if det.get("tlb") else None
        t.add_row("reach", _sz(reach) if reach else "-", "", "", "", "", f"{fmt_size(o)} cpuinfo", _flag(v))
    for k in det.get("tlb_knees") or []:
        t.add_row("(TLB)", _sz(k["size"]), _range((k["lo"], k["hi"])), "", "", f"{k['confidence']:.2f}", "", "")
        evidence.append(
            ("(TLB)", f"a knee of the random chase that is the {k['tlb']}'s reach, not a cache: {k['why']}")
        )
    for k in det.get("other_knees") or []:
        evidence.append(
            (
                "(knee)",
                f"a knee of the random chase at {_sz(k['size'])} that neither the cache curve nor a TLB "
                f"reach explains: {k['why']}",
            )
        )
    fit_table(con, t)
    con.print(t)
    notes = [f"{what}: {why}" for what, why in m["doubts"]]
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
    if m["cycle_warning"]:
        notes.append(m["cycle_warning"])
    width = max(60, con.width or 100)
    con.print("evidence:")
    for name, text in evidence:
        con.print(
            textwrap.fill(
                text, width, initial_indent=f"  {name:<7} ", subsequent_indent=" " * 10, break_on_hyphens=False
            )
        )
    for n in notes:
        con.print(textwrap.fill(n, width, initial_indent="  ", subsequent_indent="    "))
