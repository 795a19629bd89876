"""Memory hierarchy detection from the latency sweeps (`tickmark topology`).

The detection reads only the measured curves, never what the OS says, so it works on a board
whose OS reports nothing; the OS values (sysfs, device tree, cpuid in the core's hello record)
are read separately, shown beside it and cross-checked (any source may be wrong). The public
entry point is `analyse(results, ...)`.

* Cache levels: every knee of the TLB-neutral cache curve (analysis.knees: a segmented fit on
  log-size; analysis.hierarchy: which knee is a cache, which a TLB reach). That curve is the
  page-local chase `mem.lat_pagelocal` (one translation per 128 loads) where it was measured,
  else `mem.lat_rand` with huge pages (points where the core says the huge pages were not all
  granted are left out), else with 4 KiB pages. Latencies are read on `mem.lat_rand`.
* TLB levels come from `mem.lat_tlb`: a chase with one line per page (packed=0) against the
  same lines packed 64 to a page (packed=1). Their difference is the translation cost; each
  step of it is a TLB level (entries = the page count where the cost has risen half the step,
  interpolated; miss cost = the step's height). Whether huge pages reach the TLB is measured
  (thp=1 just past the first level's entries).
* The line size comes from `mem.lat_stride` (on its lower non-decreasing envelope): the first
  stride whose pair costs LINE_RISE times the smallest strides (the second load stopped hitting
  the line of the first). The pairs run in a span that misses L1 and hits L2 (8x the L1 found,
  at most half the L2): a miss to DRAM gives region prefetchers time to bring the neighbouring
  lines before the dependent second load issues.
* The last-level cache the OS reports is found (size, latency), or not measurable with the
  measured reason: a level far smaller than the OS says is this CPU's share of it, reported as
  such with its cause (`mem.lat_shared`: its latency with another CPU streaming against idle;
  the rounds alone).

The TLB detection itself is tlb.py's; what the OS reports, the cross-checks against it and the
detection's document are os_topology.py's; the topology of stored runs (read from a store) is
store/analyses.py's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..base.fmt import fmt_size
from ..base.shapes import Row
from . import evidence, hierarchy
from .hierarchy import Level
from .knees import Curve, Knee, envelope
from .stats import Stats
from .tlb import _clamp, detect_tlb, detect_tlb_levels, huge_honoured, page_walk_costs

LINE_RISE = 1.15


def refine_sizes(knees: Iterable[Knee], measured: Iterable[int], page: int = 4096) -> list[int]:
    """Extra sizes inside each knee's range (the last size on the plateau below to the first on
    the plateau above): nice sizes (x1.125 .. x1.75 of its start, and x0.875) not measured yet."""
    extra: set[int] = set()
    for k in knees:
        if not k.get("range"):
            continue
        a, b = k["range"]
        for f in (0.875, 1.125, 1.25, 1.375, 1.5, 1.75):
            s = int(a * f)
            s -= s % (page if s >= 4 * page else 64)
            if s > 0 and s not in measured and (f < 1 or a < s < b):
                extra.add(s)
    return sorted(extra)


def detect_line(points: Iterable[tuple[Any, Any]]) -> dict[str, Any] | None:
    """points: [(stride, min_ns)] of mem.lat_stride -> {"bytes", "confidence", "why"} or None."""
    pts = sorted((int(s), float(v)) for s, v in points if v and v > 0)
    if len(pts) < 3:
        return None
    pts = envelope(pts)  # a longer stride never makes the pair cheaper: noise only adds
    base = min(v for _, v in pts[:2])
    for i, (s, v) in enumerate(pts):
        if v >= LINE_RISE * base:
            below = [w for _, w in pts[:i]]
            if not below:
                return {
                    "bytes": s,
                    "confidence": 0.1,
                    "why": "already the smallest stride costs more: the line may be smaller",
                }
            # against the floor of the smaller strides: noise only slows a pair, so one slow
            # point just below the step (3.34 ns between 2.94 and 3.72) is no smaller step
            jump = v / min(below)
            # the step should persist: strides past it are not cheaper again
            later = [w for _, w in pts[i + 1 :]]
            persist = 1.0 if all(w >= LINE_RISE * base for w in later) else 0.5
            flat = max(below) / min(below)
            flat_s = 1.0 if flat <= 1.1 else _clamp(1 - (flat - 1.1) / 0.4)
            conf = round(_clamp((jump - 1) / 0.3) * flat_s * persist, 2)
            return {
                "bytes": s,
                "confidence": conf,
                "why": f"pair cost x{jump:.2f} at stride {s} over the smaller strides ({min(below):.2f} ns)",
            }
    return {"bytes": None, "confidence": 0.0, "why": "no stride up to the largest measured made the pair cost more"}


ROUND_BENCHES = ("mem.lat_rand", "mem.lat_pagelocal", "mem.lat_tlb", "mem.lat_stride")


def _curve_of(r: Row) -> tuple[str, int] | None:
    """(curve, x) a sweep result is a point of, or None: the page-local chase, the random chase
    in huge or small pages (by size), the stride pairs (by stride), the TLB chase one line per
    page or packed (by page count)."""
    p = r.get("params") or {}
    b = r["bench"]
    if b == "mem.lat_pagelocal" and not p.get("thp") and "size" in p:
        return "pagelocal", p["size"]
    if b == "mem.lat_rand" and "size" in p:
        return ("rand_huge" if p.get("thp") == 1 else "rand_4k"), p["size"]
    if b == "mem.lat_stride" and "stride" in p:
        return "stride", p["stride"]
    if b == "mem.lat_tlb" and "pages" in p and p.get("thp") != 1:
        return ("tlb_packed" if p.get("packed") == 1 else "tlb_spread"), p["pages"]
    return None


def round_minima(
    per_round: Mapping[Any, list[Row]] | None,
) -> tuple[dict[str, dict[int, list[float]]], dict[tuple[str, float], str]]:
    """round_points' rows -> ({curve: {x: [each round's minimum]}}, {(curve, x): instance key})."""
    minima: dict[str, dict[int, list[float]]] = {}
    keys: dict[tuple[str, float], str] = {}
    for _, res in sorted((per_round or {}).items()):
        for r in res:
            c = _curve_of(r)
            v = _headline(r)
            if c is None or v is None:
                continue
            minima.setdefault(c[0], {}).setdefault(c[1], []).append(v)
            if r.get("key"):
                keys[c] = r["key"]
    return minima, keys


def tlb_stability(tlb: list[Level] | None, per_round: Mapping[Any, list[Row]]) -> dict[str, Any]:
    """Detect the TLB levels on each round alone; a level whose entries differ between rounds by
    more than 15 % loses confidence (x0.6) and says what the rounds found."""
    if len(per_round) < 2:
        return {"rounds": len(per_round), "stable": None, "why": "fewer than two rounds: stability not measured"}
    found: list[list[int]] = []
    for _, res in sorted(per_round.items()):
        tc = tlb_curves(res)
        if len(tc["spread"]) >= 8:  # (a round of another sweep has no TLB points)
            found.append([x["entries"] for x in detect_tlb_levels(tc["spread"], tc["packed"])])
    if len(found) < 2:
        return {"rounds": len(found), "stable": None, "why": "fewer than two rounds: stability not measured"}
    stable = True
    for t in tlb or []:
        got = [_nearest(e, t["entries"]) if e else None for e in found]
        t["rounds"] = got
        if not all(g and max(g, t["entries"]) / min(g, t["entries"]) <= 1.15 for g in got):
            stable = False
            t["confidence"] = round(t["confidence"] * 0.6, 2)
            t["why"] += "; rounds alone found " + ", ".join(str(g) if g else "none" for g in got)
    return {"rounds": len(per_round), "stable": stable}


def _nearest(entries: list[int], to: int) -> int:
    """The entries nearest (by ratio) to a level's."""
    return min(entries, key=lambda x: abs(math.log(x / to)))


def _headline(r: Row) -> float | None:
    st = Stats.of(r).main
    if not st:
        return None
    return st.min if st.min is not None else st.value


def tlb_curves(results: Iterable[Row]) -> dict[str, Curve]:
    """Stored results -> {"spread": {pages: ns}, "packed": {lines: ns}, "huge": {pages: ns}}."""
    out: dict[str, Curve] = {"spread": {}, "packed": {}, "huge": {}}
    for r in results:
        v = _headline(r)
        p = r.get("params") or {}
        if r.get("status") != "ok" or v is None or r["bench"] != "mem.lat_tlb" or "pages" not in p:
            continue
        d = out["huge"] if p.get("thp") == 1 else out["packed"] if p.get("packed") == 1 else out["spread"]
        d[p["pages"]] = min(v, d.get(p["pages"], math.inf))
    return out


def huge_not_granted(results: Iterable[Row]) -> dict[int, int]:
    """{size: percent} of the mem.lat_rand thp=1 points where the OS did not back the whole set
    with huge pages (-1: it could not tell)."""
    out: dict[int, int] = {}
    for r in results:
        p = r.get("params") or {}
        info = (r.get("meta") or {}).get("info") or {}
        if r["bench"] == "mem.lat_rand" and p.get("thp") == 1 and "huge_pct" in info and info["huge_pct"] < 100:
            out[p["size"]] = min(info["huge_pct"], out.get(p["size"], 100))
    return out


def shared_points(results: Iterable[Row]) -> dict[tuple[Any, Any], float]:
    out: dict[tuple[Any, Any], float] = {}
    for r in results:
        v = _headline(r)
        p = r.get("params") or {}
        if r.get("status") == "ok" and v is not None and r["bench"] == "mem.lat_shared":
            k = (p["size"], p["hog"])
            out[k] = min(v, out.get(k, math.inf))
    return out


def curves(results: Iterable[Row]) -> tuple[Curve, Curve, Curve, float | None]:
    """Stored results -> ({size: ns} 4K pages, {size: ns} huge pages, {stride: ns}, cycles/ns).
    (The page-local chase: pagelocal_curve.)"""
    p4k: Curve = {}
    phuge: Curve = {}
    stride: Curve = {}
    ratio: list[float] = []
    for r in results:
        st = Stats.of(r).main
        if r.get("status") != "ok" or not st:
            continue
        v = st.min if st.min is not None else st.value
        if v is None:  # a headline without a value (statistics edited by hand in the store): no point
            continue
        p = r.get("params") or {}
        if r["bench"] == "mem.lat_rand" and "size" in p:
            d = phuge if p.get("thp") == 1 else p4k
            d[p["size"]] = min(v, d.get(p["size"], math.inf))
        elif r["bench"] == "mem.lat_stride" and "stride" in p:
            stride[p["stride"]] = min(v, stride.get(p["stride"], math.inf))
        else:
            continue
        if st.cycles_per_op and st.ns_per_op:
            ratio.append(st.cycles_per_op / st.ns_per_op)
    ratio.sort()
    return p4k, phuge, stride, (ratio[len(ratio) // 2] if ratio else None)


def pagelocal_curve(results: Iterable[Row]) -> Curve:
    """{size: ns} of mem.lat_pagelocal (small pages)."""
    out: Curve = {}
    for r in results:
        v = _headline(r)
        p = r.get("params") or {}
        if r.get("status") == "ok" and v is not None and r["bench"] == "mem.lat_pagelocal" and not p.get("thp"):
            out[p["size"]] = min(v, out.get(p["size"], math.inf))
    return out


def analyse(
    results: Sequence[Row],
    fcore_khz: float = 0,
    hello: dict[str, Any] | None = None,
    per_round: Mapping[Any, list[Row]] | None = None,
    osr: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything detected from stored results (the public entry point).

    results: result rows (bench, params, status, stats, meta); hello: the core's hello record
    (cpuid's TLB figures); per_round: {round: results} from round_points() for the stability
    check; osr: os_report(fingerprint) for the last-level verdict and the cross-checks. Returns {"levels",
    "line_size", "tlb", "tlb_knees", "huge", "page_walk", "stability", "llc", "curve", "flags",
    ...}; levels are the caches (each with its knee's "range") then memory."""
    p4k, phuge, stride, cyc_per_ns = curves(results)
    if cyc_per_ns and not fcore_khz:
        fcore_khz = cyc_per_ns * 1e6
    flags: list[str] = []
    missing = huge_not_granted(results)
    granted = {s: v for s, v in phuge.items() if s not in missing}
    if missing:
        flags.append(
            "huge pages not granted at "
            + ", ".join(f"{fmt_size(s)} ({'unknown' if v < 0 else f'{v}%'})" for s, v in sorted(missing.items()))
            + ": those points left out of the huge-page curve"
        )
    t = tlb_curves(results)
    tlb = detect_tlb_levels(t["spread"], t["packed"])
    hon = huge_honoured(t["spread"], t["huge"], tlb)
    if hon["honoured"] is False:
        flags.append("huge pages granted, but the TLB still holds small translations: " + hon["why"])
    pl = pagelocal_curve(results)
    cv = {"rand_huge": granted if len(granted) >= 4 else {}, "rand_4k": p4k, "pagelocal": pl}
    name, _, _ = hierarchy.cache_curve(cv, hon["honoured"])
    rounds: list[Curve] = []
    for _, res in sorted((per_round or {}).items()):
        r4, rh, _, _ = curves(res)
        rounds.append({"rand_huge": rh, "rand_4k": r4, "pagelocal": pagelocal_curve(res)}[name])
    oslv = (osr or {}).get("levels") or []
    # a round with few points of the curve (e.g. one that only refined a knee) cannot place knees
    full = len(cv[name])
    rounds = [r for r in rounds if len(r) >= max(6, full // 2)]
    h = hierarchy.assign(cv, tlb, hon["honoured"], shared_points(results), oslv, rounds)
    levels = h["levels"]
    for lv in levels:
        lv["latency_cycles"] = lv["latency_ns"] * fcore_khz / 1e6 if fcore_khz and lv.get("latency_ns") else None
    mem = levels[-1]
    if phuge or p4k:
        big = max(set(phuge) | set(p4k))
        mem["latency_ns_4k"] = p4k.get(big)
        mem["latency_ns_huge"] = phuge.get(big)
        mem["random_at"] = big
    if not h["tlb_neutral"]:
        flags += h["notes"]
    short = short_sweep(cv, oslv)
    if short:
        flags.append(short)
    hidden = no_step_found(levels, cv[name], name, results)
    if hidden:
        flags.append(hidden)
    stab = tlb_stability(tlb, per_round or {})
    caches = [lv for lv in levels if lv["size"]]
    moved = [lv["name"] for lv in caches if lv.get("rounds") and lv["why"].find("rounds alone found") >= 0]
    stab["stable"] = stab["stable"] and not moved if stab["stable"] is not None else None
    stab["why"] = (
        "fewer than two rounds: stability not measured"
        if stab["stable"] is None
        else "every round alone finds the same sizes"
        if stab["stable"]
        else "rounds alone disagree (see the levels' evidence): confidence lowered"
    )
    det: dict[str, Any] = {
        "levels": levels,
        "curve": name,
        "tlb_neutral": h["tlb_neutral"],
        "line_size": detect_line(stride.items()),
        "tlb": tlb,
        "tlb_knees": h["tlb_knees"],
        "other_knees": h["other_knees"],
        "huge": hon,
        "page_walk": page_walk_costs(p4k, phuge),
        "stability": stab,
        "flags": flags,
        "llc": h["llc"],
        "tlb_cpuid": cpuid_tlb(hello),
        "tlb_reach": detect_tlb(p4k, phuge),
        "fcore_khz": fcore_khz or None,
        "points": {
            "lat_4k": sorted(p4k.items()),
            "lat_huge": sorted(phuge.items()),
            "pagelocal": sorted(pl.items()),
            "stride": sorted(stride.items()),
            "tlb_spread": sorted(t["spread"].items()),
            "tlb_packed": sorted(t["packed"].items()),
            "tlb_huge": sorted(t["huge"].items()),
        },
    }
    if per_round:
        minima, keys = round_minima(per_round)
        curves_now = dict(cv, stride=stride, tlb_spread=t["spread"], tlb_packed=t["packed"])
        det["unclear"] = hold(det, curves_now, minima, keys, hon["honoured"], shared_points(results), oslv)
        det["confirm"] = line_deciders(det["line_size"], minima.get("stride", {}), keys)
    return det


CURVE_WORDS = {"pagelocal": "the page-local chase"}

LINE_ROUNDS = 4  # the two strides that decide the line size, measured in at least this many rounds


def line_deciders(
    line: dict[str, Any] | None, minima: dict[int, list[float]], keys: dict[tuple[str, float], str]
) -> list[str]:
    """The instance keys of the two strides that decide the line size (the step and the stride
    below it) while either was measured in fewer than LINE_ROUNDS rounds: a busy machine can
    slow one stride in every round of a short run (x1.43 at 32 B on a 64-B line, both rounds
    alike), and only more rounds of the two bring its minimum down. [] when they have them."""
    if not line or not line.get("bytes"):
        return []
    strides = sorted(minima)
    if line["bytes"] not in strides:
        return []
    i = strides.index(line["bytes"])
    pair = strides[max(0, i - 1) : i + 1]
    if all(len(minima[x]) >= LINE_ROUNDS for x in pair):
        return []
    return sorted(keys[("stride", x)] for x in pair if ("stride", x) in keys)


def hold(
    det: dict[str, Any],
    cv: dict[str, Curve],
    minima: dict[str, dict[int, list[float]]],
    keys: dict[tuple[str, float], str],
    honoured: bool | None,
    shared: dict[tuple[Any, Any], float],
    oslv: list[Level],
) -> list[dict[str, Any]]:
    """The evidence check (analysis/evidence.py): every cache level, the line size and every TLB
    level is detected again with the points whose rounds disagree left out; a figure not found
    again is not measurable under this load: its number goes ("size", "bytes", "entries" None,
    with "unclear" saying so and its evidence what each reading gave). -> [{"what", "noisy",
    "keys"}] of the figures that did not hold, with the instance keys of their noisy points (the
    points to measure again)."""
    bad = {c: evidence.noisy_points(m) for c, m in minima.items()}
    out: list[dict[str, Any]] = []
    name = det["curve"]
    rand = cv.get("rand_huge") or cv.get("rand_4k") or {}
    several = any(len(v) > 1 for m in minima.values() for v in m.values())  # one round: not checked
    for lv in det["levels"] if several and name not in ("rand_huge", "rand_4k") else ():
        hit = evidence.contradicted(lv, rand) if lv.get("size") and not lv.get("open") else None
        if hit:  # slowed in every round: no noisy point says it, the other curve does
            pts: list[tuple[str, float]] = [(name, x) for x in sorted(cv.get(name, {})) if lv["size"] <= x <= hit[0]]
            lv["unclear"] = "not measurable under this load (the curves disagree)"
            lv["why"] = (
                f"{lv['unclear']}: the step reads {fmt_size(lv['size'])} on {CURVE_WORDS.get(name, name)}, "
                f"but the random chase reads a "
                f"{fmt_size(hit[0])} set at {hit[1]:.2f} ns, within x{evidence.STILL_HITS} of the level's "
                f"{hit[2]:.2f} ns: a hit in it; " + lv["why"]
            )
            lv["read"] = lv["size"]
            for f in ("size", "latency_ns", "at_size", "latency_cycles"):
                lv[f] = None
            lv["confidence"] = 0.0
            out.append({"what": lv["name"], "noisy": len(pts), "keys": sorted({keys[p] for p in pts if p in keys})})
    if not any(bad.values()):
        return out
    less = {c: evidence.without(v, bad.get(c, ())) for c, v in cv.items()}

    def refuse(
        what: str,
        obj: dict[str, Any],
        pts: list[tuple[str, float]],
        field: str,
        shown: str,
        extra: Sequence[str] = (),
        because: str | None = None,
    ) -> None:
        n = len(pts)
        obj["unclear"] = evidence.refusal(n)
        because = because or (
            f"{shown} with every point, but not with the {n} point(s) whose rounds disagree "
            f"by more than x{evidence.CONFIRM} left out"
        )
        obj["why"] = f"{obj['unclear']}: {because} ({', '.join(_x_text(c, x) for c, x in pts)}); " + obj["why"]
        if field == "size":
            obj["read"] = obj["size"]  # what the refused step read: where it sits beside the OS's levels
        for f in (field, *extra):
            obj[f] = None
        obj["confidence"] = 0.0
        out.append({"what": what, "noisy": n, "keys": sorted({keys[p] for p in pts if p in keys})})

    # cache levels: the hierarchy again on the curves without their noisy points
    tlb_less = detect_tlb_levels(less["tlb_spread"], less["tlb_packed"])
    again = hierarchy.assign(
        {k: less[k] for k in ("rand_huge", "rand_4k", "pagelocal")}, tlb_less, honoured, shared, oslv
    )["levels"]
    gone = ("latency_ns", "at_size", "latency_cycles")
    for lv in det["levels"]:
        if not lv.get("size"):
            continue
        lo, hi = lv["range"]
        inside = [x for x in bad.get(name, []) if lo <= x <= hi]
        if evidence.cache_holds(lv, again) is None:
            xs = evidence.near(bad.get(name, []), *lv["range"]) or bad.get(name, [])
            if xs:
                shown = f"the step reads {fmt_size(lv['size'])}"
                refuse(lv["name"], lv, [(name, x) for x in xs], "size", shown, gone)
        elif inside and not lv.get("open") and hi / lo > evidence.CACHE_TOL**3:
            # a climb over more than three sweep steps places its size by the shape of the climb,
            # and points whose rounds disagree inside it move that shape
            because = (
                f"the step climbs from {fmt_size(lo)} to {fmt_size(hi)}, more than three sweep steps, "
                f"through points whose rounds disagree by more than x{evidence.CONFIRM}"
            )
            refuse(lv["name"], lv, [(name, x) for x in inside], "size", "", gone, because)
    line = det.get("line_size")
    if line and line.get("bytes") and bad.get("stride"):
        if not evidence.line_holds(line, detect_line(less["stride"].items())):
            shown = f"the pairs step up at {line['bytes']} B"
            refuse("line", line, [("stride", x) for x in bad["stride"]], "bytes", shown)
    for t in det.get("tlb") or []:
        if t.get("entries") and evidence.tlb_holds(t, tlb_less) is None:
            lo, hi = t["entries"] / 2, 2 * t["next"]
            pts = [(c, x) for c in ("tlb_spread", "tlb_packed") for x in bad.get(c, []) if lo <= x <= hi]
            if pts:
                refuse(t["name"], t, pts, "entries", f"the cost steps at {t['entries']} pages", ("reach",))
    return out


def _x_text(curve: str, x: float) -> str:
    return f"{x} B" if curve == "stride" else f"{x} pages" if curve.startswith("tlb") else fmt_size(x)


def cpuid_tlb(hello: dict[str, Any] | None) -> dict[str, Any]:
    """The data TLBs for 4 KiB pages that cpuid reported in the hello record, smallest level first."""
    hello = hello or {}
    rows = [t for t in hello.get("tlb") or [] if t.get("page_kb") == 4 and t.get("type") in ("data", "load", "unified")]
    rows.sort(key=lambda t: (t["level"], t["type"] != "load"))
    out: list[dict[str, Any]] = []
    for t in rows:
        if all(o["level"] != t["level"] for o in out):
            out.append(t)
    return {"levels": out, "source": hello.get("tlb_src")}


def short_sweep(curves: Mapping[str, Curve], oslv: list[Level]) -> str | None:
    """A warning when the sweep ended inside the last cache the OS reports (--max-size, or a
    quarter of the target's free memory), so that what it calls memory may be that cache."""
    top = max((s for c in curves.values() for s in c), default=None)
    last = max(oslv, key=lambda o: o["size"]) if oslv else None
    if top is None or last is None or top > last["size"]:
        return None
    return (
        f"the sweep ends at {fmt_size(top)}, inside the {fmt_size(last['size'])} {last['name']} the OS reports: "
        f"larger levels and memory were not reached (the last plateau may be that cache; measure to "
        f"{fmt_size(4 * last['size'])} or more)"
    )


def no_step_found(levels: list[Level], curve: Curve, name: str, results: Iterable[Row]) -> str | None:
    """A warning when the cache curve has no step at all and some of its points were preempted
    in a sample even after its retake: other processes on the CPU evict the caches between loads
    and can flatten every step, so 'no cache' is then not a finding. None otherwise."""
    if not curve or any(lv["name"] != "memory" for lv in levels):
        return None
    hit: set[int] = set()
    for r in results:
        at = _curve_of(r)
        if at and at[0] == name and _preempted(r):
            hit.add(at[1])
    if not hit:
        return None
    return (
        f"no cache step found up to {fmt_size(max(curve))}, and {len(hit)} of the curve's {len(curve)} points "
        "were hit by a context switch even after a retake: a busy machine can hide every step (run again "
        "on a quieter machine, or with more --rounds)"
    )


def _preempted(r: Row) -> bool:
    st = Stats.of(r).main
    return bool(r.get("status") == "ok" and st and st.preempted_samples)


def has_sweep(results: Iterable[Row]) -> bool:
    """Do these results hold a latency sweep that levels can be detected on?"""
    return any(r.get("status") == "ok" and r["bench"] in ("mem.lat_rand", "mem.lat_pagelocal") for r in results)


def cycle_warning(det: dict[str, Any]) -> str | None:
    """L1 load-to-use is 3-5 cycles on every core we target (methodology sanity bound)."""
    l1 = next((lv for lv in det.get("levels", []) if lv["name"] == "L1" and lv["size"]), None)
    c = l1 and l1.get("latency_cycles")
    if c and not 2.5 <= c <= 6:
        return (
            f"warning: L1 latency is {c:.1f} cycles (expected 3-5): the core-frequency estimate "
            "was probably disturbed (a busy or throttled machine); trust the ns figures"
        )
    return None
