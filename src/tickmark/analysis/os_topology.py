"""What the target's OS reports of its memory hierarchy (caches, line size, TLB reach, from the
run's fingerprint), and the cross-checks of the detection (topology.py) against it: the rows side
by side, their verdicts, and the detection's document (`tickmark topology --json`)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from ..base.fmt import fmt_size
from ..base.shapes import Fingerprint
from ..base.units import parse_size
from . import hierarchy
from .hierarchy import Level
from .tlb import TLB_STEP
from .topology import cycle_warning


def _count(text: object) -> int | None:
    t = str(text if text is not None else "").strip()
    return int(t) if t.isdigit() and len(t) <= 9 else None


def os_report(fp: Fingerprint | None) -> dict[str, Any]:
    """Caches, line size and TLB reach as the target's OS reports them, from the run's
    fingerprint (sysfs or the device tree, and /proc/cpuinfo's TLB size, as read on the target:
    fingerprint.py), never from the machine running this. Empty lists/None where it reports
    nothing."""
    fp = fp or {}
    levels: list[Level] = []
    for c in fp.get("caches") or []:
        if not isinstance(c, dict) or c.get("type") == "Instruction":
            continue
        lvl, size, line = _count(c.get("level")), parse_size(c.get("size")), _count(c.get("coherency_line_size"))
        if lvl and size:
            name = f"L{lvl}" + ("d" if c.get("type") == "Data" else "")
            levels.append({"name": name, "level": lvl, "size": size, "line": line or None})
    levels.sort(key=lambda x: (x["level"], x["size"]))
    pages = fp.get("tlb_pages")
    tlb = pages * 4096 if isinstance(pages, int) and not isinstance(pages, bool) and pages > 0 else None
    source = fp.get("caches_source") if isinstance(fp.get("caches_source"), str) else "sysfs"
    return {
        "source": source if levels else None,
        "levels": levels,
        "line_size": next((lv["line"] for lv in levels if lv.get("line")), None),
        "tlb_reach": tlb,
        "tlb_source": "cpuinfo" if tlb else None,
    }


def compare(detected: dict[str, Any], osr: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Rows (what, detected, os, verdict) side by side (see _rows)."""
    return [row[:4] for row in _rows(detected, osr)]


def doubts(detected: dict[str, Any], osr: dict[str, Any]) -> list[tuple[str, str]]:
    """[(what, why)] of the figures flagged doubtful, with the values that make them so."""
    return [(row[0], row[4]) for row in _rows(detected, osr) if row[3].startswith("doubtful")]


def _rows(detected: dict[str, Any], osr: dict[str, Any]) -> list[tuple[str, Any, Any, str, str]]:
    """Rows (what, detected, os, verdict, why) side by side. verdict: 'agree'; 'DISAGREE'; 'not
    found' (an OS level the sweep went past without a step there); for the last
    level the OS reports, 'not measurable' (a share of it, or no level; the cause is in the
    verdict's evidence); 'scattered' (a physically indexed cache found smaller where huge pages are not
    contiguous); for a figure that contradicts the measurement and another source,
    'doubtful: SOURCE'; '' where there is nothing to compare."""
    rows: list[tuple[str, Any, Any, str, str]] = []
    llc = detected.get("llc") or {}
    top = max(
        (x for c in ("lat_4k", "lat_huge", "pagelocal") for x, _ in (detected.get("points") or {}).get(c) or ()),
        default=0,
    )
    for d, o in pair_levels(cache_levels(detected), osr.get("levels", [])):
        name = (o or {}).get("name") or (d or {}).get("name")
        v = _verdict(d["size"] if d else None, o["size"] if o else None, 1.3)
        if not d and o and top >= 1.5 * o["size"]:
            v = "not found"  # the sweep went a step past it and no step was there
        if d and d.get("unclear"):
            v = "not measurable"
        if o and llc.get("level") == o["name"] and llc.get("verdict") == "not measurable":
            v = "agree" if d and _verdict(d["size"], o["size"], 1.3) == "agree" else "not measurable"
        elif (
            v == "DISAGREE"
            and d
            and o
            and d["size"] < o["size"]
            and not detected.get("tlb_neutral")
            and (detected.get("huge") or {}).get("honoured") is False
        ):
            # huge pages that do not reach the TLB are not contiguous in physical memory either:
            # a physically indexed cache then overflows some of its page colours before it is full
            v = "scattered"
        rows.append((f"{name} size", d and d["size"], o and o["size"], v, ""))
    line = detected.get("line_size") or {}
    v = "not measurable" if line.get("unclear") else _verdict(line.get("bytes"), osr.get("line_size"), 1.01)
    rows.append(("line size", line.get("bytes"), osr.get("line_size"), v, ""))
    cpuid = (detected.get("tlb_cpuid") or {}).get("levels") or []
    spread = dict((detected.get("points") or {}).get("tlb_spread") or [])
    l1 = min(spread.values()) if spread else None
    tlbs = detected.get("tlb") or []
    for i, t in enumerate(tlbs):
        c = next((x for x in cpuid if x["level"] == i + 1), None)
        # /proc/cpuinfo's TLB size (AMD) speaks of the last level only
        info = osr["tlb_reach"] // 4096 if osr.get("tlb_reach") and i == len(tlbs) - 1 else None
        chk = hierarchy.tlb_cross_check(
            i + 1, t["entries"], c and c["entries"], info, cost=spread, step_ns=TLB_STEP * l1 if l1 else None
        )
        if t.get("unclear"):
            chk = {"verdict": "not measurable", "why": t["unclear"]}
        rows.append((f"L{i + 1} TLB entries", t["entries"], c and c["entries"], chk["verdict"], chk["why"]))
    for c in cpuid:
        if c["level"] > len(detected.get("tlb") or []):
            rows.append((f"L{c['level']} TLB entries", None, c["entries"], "", ""))
    if osr.get("tlb_reach"):
        # /proc/cpuinfo's "TLB size" (AMD) may count more than the data TLB: cpuid's last level
        # is a second opinion, and the one that contradicts the other two is the doubtful one
        tlb = detected.get("tlb") or []
        reach = tlb[-1]["reach"] if tlb else None
        c = next((x["entries"] for x in cpuid if tlb and x["level"] == len(tlb)), None)
        chk = hierarchy.cross_check(
            "TLB reach", reach, {"cpuinfo": osr["tlb_reach"], "cpuid": c * 4096 if c else None}, 1.3, fmt_size
        )
        rows.append(("TLB reach (4K pages)", reach, osr["tlb_reach"], chk["verdict"], chk["why"]))
    return rows


def cache_levels(detected: dict[str, Any]) -> list[Level]:
    """The detected cache levels (memory left out), those not measurable under the load included
    (their size None, "unclear" saying why), smallest first."""
    return [lv for lv in detected.get("levels", []) if lv["name"] != "memory"]


def pair_levels(caches: list[Level], oslv: list[Level]) -> list[tuple[Level | None, Level | None]]:
    """[(detected cache level or None, OS level or None)], smallest first: in order, except that a
    level not measurable under the load goes beside the OS level nearest what its step read
    ("read"), and the OS levels it passes have none (a step refused at 2.1M is the L2's, not the
    L1's that the load hid)."""
    out: list[tuple[Level | None, Level | None]] = []
    j = 0
    for d in caches:
        r = d.get("read") if d.get("size") is None else None
        while r and j + 1 < len(oslv) and abs(math.log(r / oslv[j + 1]["size"])) < abs(math.log(r / oslv[j]["size"])):
            out.append((None, oslv[j]))
            j += 1
        out.append((d, oslv[j] if j < len(oslv) else None))
        j += 1
    return out + [(None, o) for o in oslv[j:]]


def _verdict(d: float | None, o: float | None, tol: float) -> str:
    if not d or not o:
        return ""
    return "agree" if max(d, o) / min(d, o) <= tol else "DISAGREE"


# ---- from stored results ----


def document(detected: dict[str, Any], osr: dict[str, Any], run_ids: Iterable[Any]) -> dict[str, Any]:
    """The detection as `tickmark topology --json` prints it (and the report's JSON holds it)."""
    det = {k: v for k, v in detected.items() if k != "points"}
    det["warning"] = cycle_warning(detected)
    return {
        "runs": list(run_ids),
        "detected": det,
        "os": osr,
        "comparison": [{"what": w, "detected": d, "os": o, "verdict": v} for w, d, o, v in compare(detected, osr)],
        "points": detected.get("points"),
    }


def to_json(detected: dict[str, Any], osr: dict[str, Any], run_ids: Iterable[Any]) -> str:
    return json.dumps(document(detected, osr, run_ids), indent=1)


# the cache-only reference of mem.lat_tlb needs fewer points: it is flat between cache knees
