"""Knees to levels: which step of the latency curves is a cache, which a TLB reach, and what the
last-level cache honestly is; cross-checks of the OS's and cpuid's figures that may be wrong too.

Input is what tickmark measures (plain dicts, no store): the random chase `mem.lat_rand` with
huge pages and with 4 KiB pages, the page-local chase `mem.lat_pagelocal` (one translation per
page/32 loads), the TLB levels found from `mem.lat_tlb`, whether huge pages reach the TLB, and
`mem.lat_shared`. The OS's and cpuid's figures are used only to cross-check, never as answers.

* The cache curve is the TLB-neutral one: the page-local chase where it was measured; else the
  huge-page chase when huge pages reach the TLB; else the random chase with a note that its
  knees may be TLB reaches. Its knees (analysis.knees) are the cache levels, smallest first.
* A knee of the random chase that the cache curve does not have, at a TLB level's reach
  (entries x 4 KiB), is that TLB's reach. When there is no TLB-neutral curve, a knee at a TLB
  reach cannot be told from a cache that ends there: it is reported as the TLB's reach, and the
  level above it as one whose size is not measurable here.
* A level's latency is read on the random chase (a true load-to-use time) at the largest set of
  at most half its size that is at least 4x the level below (at most a quarter of the loads hit
  below), where no TLB reach lies between: past the first-level DTLB's reach every load of a
  random chase in small pages pays an L2 TLB hit, so it is read at most at that reach when the
  level's plateau reaches back to it.
* The last-level cache verdict: found (size, latency) when within MATCH of what the OS says;
  else not measurable, with the measured reason: a level far smaller than the OS says is this
  CPU's share of it (reported as such, never as the cache's size: others' traffic moves it from
  run to run), with the measured cause (another CPU's streaming raises its latency: shared; the
  rounds put it at different sizes: varies; else a part of it); or no level of its own, and what
  hides it.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..base.units import fmt_size
from .knees import Curve, Knee, find_knees

Level = dict[str, Any]  # a cache or TLB level, or memory: name, size, range, latency_ns, why, ...

MATCH = 1.5  # two knees within this factor of size are the same step
SHARED = 1.3  # the other CPU streaming raises a load this much: the capacity is shared
CURVES = {
    "pagelocal": "the page-local chase",
    "rand_huge": "the random chase in huge pages",
    "rand_4k": "the random chase in 4 KiB pages",
}


def _near(a: float, b: float, f: float = MATCH) -> bool:
    return max(a, b) / min(a, b) <= f


def _same_step(knee: Knee, level: Level) -> bool:
    """A knee of another curve is the level's step when their sizes are within MATCH or their
    ranges (widened by MATCH) meet: noise and the TLB move a step around on one curve."""
    lo, hi = level["range"]
    return _near(knee["size"], level["size"]) or (knee["lo"] <= hi * MATCH and knee["hi"] >= lo / MATCH)


def _tlb_at(knee: Knee, tlb: list[Level] | None) -> Level | None:
    """The TLB level whose reach lies in a knee's range (from 1/1.5 of its last plateau size, as a
    random chase slows a little before the reach, to the first size past it), or None."""
    for t in tlb or []:
        if knee["lo"] / MATCH <= t["reach"] <= knee["hi"]:
            return t
    return None


def cache_curve(curves: dict[str, Curve], huge_honoured: bool | None) -> tuple[str, Curve, bool]:
    """-> (name, {size: ns}, TLB-neutral?) of the curve the caches are read from."""
    if len(curves.get("pagelocal") or {}) >= 6:
        return "pagelocal", curves["pagelocal"], True
    if curves.get("rand_huge") and huge_honoured is not False:
        return "rand_huge", curves["rand_huge"], huge_honoured is True
    name = "rand_huge" if curves.get("rand_huge") else "rand_4k"
    return name, curves.get(name) or {}, False


def _read_latency(rand: Curve, size: int, prev_size: int, tlb: list[Level]) -> tuple[Any, float | None]:
    """(size read at, ns) on the random chase: the largest measured set <= size/2 that is >= 4x
    the level below, kept inside the first DTLB's reach when the plateau reaches back to it."""
    pts = sorted((s, v) for s, v in rand.items() if v and v > 0)
    if not pts:
        return None, None
    good = [s for s, _ in pts if s <= size // 2 and s >= 4 * prev_size]
    if tlb:
        reach = tlb[0]["reach"]
        inside = [s for s in good if s <= reach]
        if inside:
            good = inside
    if not good:  # levels close together: the largest set of at most half the size above the level below
        good = [s for s, _ in pts if prev_size < s <= size // 2] or [s for s, _ in pts if s <= size] or [pts[0][0]]
    s = good[-1]
    return s, min(v for t, v in pts if t >= s)  # on the envelope


def assign(
    curves: dict[str, Curve],
    tlb: list[Level] | None = None,
    huge_honoured: bool | None = None,
    shared: dict[tuple[Any, Any], float] | None = None,
    os_levels: list[Level] | None = None,
    per_round: list[Curve] | None = None,
) -> dict[str, Any]:
    """-> {"curve", "tlb_neutral", "levels": [cache levels, then memory], "tlb_knees", "other_knees",
    "llc": verdict or None, "notes"}.

    curves: {"rand_huge", "rand_4k", "pagelocal": {size: ns}}; tlb: TLB levels [{"name", "entries",
    "next", "reach", "miss_ns"}]; huge_honoured: True/False/None; shared: {(size, hog): ns} of
    mem.lat_shared; os_levels: [{"name", "size"}] of the OS (for the last level's verdict only);
    per_round: [{size: ns}] of the cache curve, one per round (stability)."""
    tlb = tlb or []
    name, curve, neutral = cache_curve(curves, huge_honoured)
    rand = curves.get("rand_huge") or curves.get("rand_4k") or {}
    notes: list[str] = []
    found = find_knees(curve)
    knees = found["knees"]
    levels: list[Level] = []
    tlb_knees: list[Knee] = []
    prev = 0
    for k in knees:
        t = None if neutral else _tlb_at(k, tlb)
        if t and not k["open"]:
            tlb_knees.append(
                dict(k, tlb=t["name"], why=f"{k['why']}; at the {t['name']}'s reach ({fmt_size(t['reach'])})")
            )
            continue
        at, ns = _read_latency(rand or curve, k["size"], prev, tlb)
        lv: Level = {
            "name": f"L{len(levels) + 1}",
            "size": k["size"],
            "range": [k["lo"], k["hi"]],
            "latency_ns": ns,
            "at_size": at,
            "confidence": k["confidence"],
            "open": k["open"],
            "why": k["why"],
            "plateau": [k["from"], k["lo"], k["level_ns"]],
        }
        if name == "pagelocal" and curve.get(at):
            lv["pagelocal_ns"] = curve[at]
        levels.append(lv)
        prev = k["size"]
    # knees of the random chase that the cache curve does not have
    other: list[Knee] = []
    if neutral and rand:
        for k in find_knees(rand)["knees"]:
            if any(_same_step(k, lv) for lv in levels):
                continue
            t = _tlb_at(k, tlb)
            if t:
                tlb_knees.append(dict(k, tlb=t["name"], why=f"{k['why']}; at the {t['name']}'s reach"))
            else:
                other.append(k)
    if not neutral:
        notes.append(
            f"the caches are read from {CURVES[name]}, which carries TLB misses: a knee at a TLB "
            "reach is reported as that reach"
        )
    mem_plat = found["plateaus"][-1] if found["plateaus"] else None
    env = found["envelope"]
    still = bool(knees and knees[-1]["open"])
    if still and levels and levels[-1]["open"]:
        levels.pop()  # still climbing at the end: memory not reached, the climb is no level
    mem: Level = {
        "name": "memory",
        "size": None,
        # memory's latency on the TLB-neutral curve where there is one (the random chase in small
        # pages adds a page walk to every load past the TLB's reach), else on the random chase
        "latency_ns": (env[-1][1] if neutral or not rand else rand[max(rand)]) if env else None,
        "at_size": (env[-1][0] if neutral or not rand else max(rand)) if env else None,
        "curve": name if neutral or not rand else ("rand_huge" if curves.get("rand_huge") else "rand_4k"),
        "confidence": None,
        "still_rising": still,
        "plateau_from": mem_plat["first"] if mem_plat and not still else None,
    }
    if per_round:
        _stability(levels, per_round)
    out: dict[str, Any] = {
        "curve": name,
        "tlb_neutral": neutral,
        "levels": levels + [mem],
        "tlb_knees": tlb_knees,
        "other_knees": other,
        "notes": notes,
    }
    out["llc"] = llc_verdict(out, tlb, shared, os_levels, huge_honoured, rand)
    if out["llc"] and out["llc"].get("share"):
        out["levels"].remove(out["llc"]["share"])  # a share, not a level whose size is known
    return out


def _stability(levels: list[Level], per_round: list[Curve]) -> None:
    """Each round alone: a level whose size moves by more than one sweep step (x1.5) between
    rounds loses confidence (x0.6) and says where the rounds put it."""
    found = [[k["size"] for k in find_knees(r)["knees"]] for r in per_round if r]
    for lv in levels:
        got = [_nearest(f, lv["size"]) if f else None for f in found]
        lv["rounds"] = got
        if len(got) > 1 and not all(g and _near(g, lv["size"]) for g in got):
            lv["confidence"] = round(lv["confidence"] * 0.6, 2)
            lv["why"] += "; rounds alone found " + ", ".join(fmt_size(g) if g else "none" for g in got)


def _nearest(sizes: list[int], z: int) -> int:
    """The size nearest z (in log)."""
    return min(sizes, key=lambda s: abs(math.log(s / z)))


def _shared_effect(shared: dict[tuple[Any, Any], float] | None) -> tuple[Any, float, float] | None:
    """(size, idle ns, busy ns) with the largest busy/idle ratio, or None."""
    best: tuple[Any, float, float] | None = None
    for (s, hog), v in (shared or {}).items():
        idle = (shared or {}).get((s, 0))
        if hog and idle and (best is None or v / idle > best[2] / best[1]):
            best = (s, idle, v)
    return best


def llc_verdict(
    det: dict[str, Any],
    tlb: list[Level],
    shared: dict[tuple[Any, Any], float] | None,
    os_levels: list[Level] | None,
    huge_honoured: bool | None,
    rand: Curve,
) -> dict[str, Any] | None:
    """The last-level cache the OS reports, measured: {"level", "verdict", "size", "latency_ns",
    "why"}; verdict "found" (within MATCH of the OS's size), or "not measurable": a level far
    smaller than the OS says (with "cause" and the level as "share"), or none (with the reason
    that hides it). None when the OS reports no cache beyond the levels found, or nothing at all."""
    os_levels = os_levels or []
    caches = [lv for lv in det["levels"] if lv["size"]]
    if len(os_levels) < 2:
        return None
    olast = os_levels[-1]
    idx = len(os_levels) - 1
    # a share: only a set that an idle machine serves from it tells whether others take it; one
    # whose idle cost on the random chase (mem.lat_shared runs that chase) is nearer memory's than
    # the level's (in log) is past it
    cap = math.inf
    if len(caches) > idx and caches[idx]["size"] * MATCH < olast["size"] and caches[idx]["latency_ns"] and rand:
        cap = math.sqrt(caches[idx]["latency_ns"] * rand[max(rand)])
    idle_ns = {k[0]: v for k, v in (shared or {}).items() if not k[1]}
    eff = _shared_effect({k: v for k, v in (shared or {}).items() if idle_ns.get(k[0], math.inf) <= cap})
    past = sorted(s for s, v in idle_ns.items() if v > cap)
    share = ""
    if eff:
        s, idle, busy = eff
        share = (
            f"with the other CPU streaming through a large buffer a {fmt_size(s)} set costs {busy:.1f} ns "
            f"against {idle:.1f} ns idle (x{busy / idle:.2f})"
        )
    out: dict[str, Any] = {"level": olast["name"], "os_size": olast["size"]}
    if len(caches) > idx:
        lv = caches[idx]
        out.update(latency_ns=lv["latency_ns"], range=lv["range"])
        if lv["size"] * MATCH >= olast["size"]:
            out.update(
                size=lv["size"],
                verdict="found",
                why=f"{fmt_size(lv['size'])} at {lv['latency_ns']:.1f} ns; {lv['why']}",
            )
            return out
        # far from what the OS says: this CPU's share of it, which others' traffic moves from run
        # to run (1-9M of a 32M L3 on a guest); its size is not measurable here, the share is
        # reported as such
        cause = "shared" if eff and eff[2] / eff[1] >= SHARED else None
        rounds = [g for g in lv.get("rounds") or [] if g]
        if not cause and len(rounds) > 1 and max(rounds) / min(rounds) > MATCH:
            cause = "varies"
        text = {
            "shared": "other cores' traffic takes its capacity (it is shared)",
            "varies": "the rounds alone put its end at "
            + ", ".join(fmt_size(g) for g in rounds)
            + " (others take part of it)",
            None: "only a part of it serves this CPU (the share of a cache that other cores or guests use "
            "too, or a partitioned cache)",
        }[cause]
        first, last, ns = lv["plateau"]
        out.update(
            verdict="not measurable",
            cause=cause or "partition",
            share=lv,
            why=f"this CPU keeps only a share of the {fmt_size(olast['size'])}: a plateau at {ns:.1f} ns on "
            f"{CURVES.get(det['curve'], det['curve'])} "
            f"from {fmt_size(first)} to {fmt_size(last)}, then the step to memory "
            f"({fmt_size(lv['range'][0])}-{fmt_size(lv['range'][1])}); {text}"
            + (f"; {share}" if share else "")
            + (
                f"; (mem.lat_shared at {', '.join(fmt_size(x) for x in past)} is past this plateau: it says "
                "nothing of it)"
                if past and not share
                else ""
            ),
        )
        return out
    # not found as a level of its own: say what hides it
    reasons: list[str] = []
    hidden = [k for k in det["tlb_knees"] if caches and k["lo"] >= caches[-1]["size"]]
    if hidden:
        k = hidden[-1]
        plat = f"a plateau at {k['level_ns']:.1f} ns up to {fmt_size(k['lo'])}, then "
        reasons.append(
            f"{plat}a climb from {fmt_size(k['lo'])} to {fmt_size(k['hi'])} that sits on the {k['tlb']}'s reach: "
            "past it every load pays a page walk, and without a TLB-neutral curve the cache's end is hidden"
        )
        out.update(latency_ns=k["level_ns"], plateau_to=k["lo"])
    if eff and eff[2] / eff[1] >= SHARED:
        reasons.append(f"its capacity is shared: {share}")
    elif share:
        reasons.append(f"another CPU's traffic changes nothing ({share}): no part of it is seen as a level here")
    if not reasons:
        top = caches[-1]["size"] if caches else 0
        reasons.append(
            f"no plateau between {fmt_size(top)} and memory in the cache curve"
            + ("" if huge_honoured is not False else " (huge pages do not reach the TLB here)")
        )
    out.update(verdict="not measurable", why="; ".join(reasons))
    return out


# ---- cross-checks: every source may be wrong ----


def cross_check(
    what: str,
    measured: float | None,
    sources: dict[str, Any],
    tol: float | dict[str, float],
    show: Callable[[Any], str] = str,
) -> dict[str, str]:
    """measured value and {source: value} (sysfs, cpuid, cpuinfo...) -> {"what", "verdict", "why"}.

    verdict: "agree" (every source within tol of the measurement), "doubtful: SOURCE" (the
    measurement and another source agree and this one contradicts both), "DISAGREE" (the
    measurement contradicts the sources), or "" (nothing to compare). tol: a factor, or
    {source: factor} where sources are known to differ by more. show formats a value."""
    given = {k: v for k, v in sources.items() if v}
    if not measured or not given:
        return {"what": what, "verdict": "", "why": ""}
    agree = {k for k, v in given.items() if _near(v, measured, tol[k] if isinstance(tol, dict) else tol)}
    if agree == set(given):
        return {"what": what, "verdict": "agree", "why": ", ".join(f"{k} {show(v)}" for k, v in given.items())}
    off = sorted(set(given) - agree)
    if agree:
        return {
            "what": what,
            "verdict": "doubtful: " + ", ".join(off),
            "why": f"{', '.join(f'{k} {show(given[k])}' for k in off)} contradicts the measurement "
            f"({show(measured)}) and {', '.join(f'{k} {show(given[k])}' for k in sorted(agree))}",
        }
    return {"what": what, "verdict": "DISAGREE", "why": ", ".join(f"{k} {show(v)}" for k, v in given.items())}


def tlb_cross_check(
    level: int,
    measured: int | None,
    cpuid: int | None,
    cpuinfo_entries: int | None = None,
    cost: dict[int, float] | None = None,
    step_ns: float | None = None,
) -> dict[str, str]:
    """One TLB level: the measured entries against cpuid's and /proc/cpuinfo's. cost: {pages: ns}
    of the measured translation cost; a cpuid figure at whose page count the cost shows no step
    (flat from 0.8x to 1.5x of it, within step_ns) is doubtful by measurement even alone."""
    # /proc/cpuinfo's TLB size (AMD) may count a little more than the data TLB: 1.3x, as its reach
    r = cross_check(
        f"L{level} TLB entries", measured, {"cpuid": cpuid, "cpuinfo": cpuinfo_entries}, {"cpuid": 1.1, "cpuinfo": 1.3}
    )
    if r["verdict"] == "DISAGREE" and cpuid and cost and step_ns:
        near = [v for n, v in sorted(cost.items()) if 0.8 * cpuid <= n <= 1.5 * cpuid]
        if len(near) >= 2 and max(near) - min(near) < step_ns:
            r["verdict"] = "doubtful: cpuid"
            r["why"] = (
                f"cpuid says {cpuid}, but the measured translation cost is flat from {int(0.8 * cpuid)} to "
                f"{int(1.5 * cpuid)} pages ({min(near):.2f}-{max(near):.2f} ns): no TLB ends there; "
                f"measured {measured}"
            )
    return r
