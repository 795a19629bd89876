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
"""

import json
import math

from ..fmt import fmt_size
from ..units import parse_size
from . import evidence, hierarchy
from .knees import envelope
from .stats import Stats

LINE_RISE = 1.15
TLB_RISE = 1.12
TLB_MIN = 1 << 20
TLB_STEP = 0.5  # a TLB level ends where the translation cost rises by half an L1 hit or more


def _clamp(x):
    return max(0.0, min(1.0, x))


def refine_sizes(knees, measured, page=4096):
    """Extra sizes inside each knee's range (the last size on the plateau below to the first on
    the plateau above): nice sizes (x1.125 .. x1.75 of its start, and x0.875) not measured yet."""
    extra = set()
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


def detect_line(points):
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


def detect_tlb(p4k, phuge):
    """{size: ns} with 4 KiB pages and with huge pages -> {"bytes", "bound", "confidence", "why"}."""
    # below TLB_MIN the page sizes differ mostly by how frames spread over the cache sets
    both = sorted(s for s in p4k if s in phuge and s >= TLB_MIN and p4k[s] > 0 and phuge[s] > 0)
    if len(both) < 2:
        return {"bytes": None, "confidence": 0.0, "why": "no huge-page measurements"}
    ratio = [(s, p4k[s] / phuge[s]) for s in both]
    # the divergence must hold from some size on: find the first size after which every ratio is high
    first_bad = None
    for i in range(len(ratio)):
        tail = [r for _, r in ratio[i:]]
        if tail[0] > TLB_RISE and sum(r > TLB_RISE for r in tail) >= 0.75 * len(tail):
            first_bad = i  # diverged from here on (a noisy point or two may dip)
            break
    top = max(r for _, r in ratio)
    if first_bad is None:
        return {
            "bytes": None,
            "confidence": round(_clamp(1 - (top - 1) / 0.3), 2),
            "why": f"4 KiB pages cost at most x{top:.2f} over huge pages up to {fmt_size(both[-1])}",
        }
    conf = _clamp((top - 1) / 0.3)
    if first_bad == 0:
        return {
            "bytes": both[0],
            "bound": "at most",
            "confidence": round(conf * 0.5, 2),
            "why": f"4 KiB pages already cost x{ratio[0][1]:.2f} at the smallest huge-page set",
        }
    if len(ratio) - first_bad < 2:
        conf *= 0.6
    return {
        "bytes": ratio[first_bad - 1][0],
        "confidence": round(conf, 2),
        "why": f"4 KiB/huge x{ratio[first_bad - 1][1]:.2f} at {fmt_size(ratio[first_bad - 1][0])}, "
        f"x{ratio[first_bad][1]:.2f} at {fmt_size(ratio[first_bad][0])}, up to x{top:.2f}",
    }


def _without_dips(pts, step):
    """[(pages, ns)] less the points that lie a TLB step below both neighbours. Noise only slows
    a chase; a count that is much cheaper than the counts on either side had pages the TLB could
    merge (physically contiguous 4 KiB pages that a core coalesces into one entry, as AMD's do,
    in the round whose minimum it is), so it says nothing of the entries. Left in, the envelope
    would carry it down to the smaller counts and move the step."""
    return [
        p for i, p in enumerate(pts) if not (0 < i < len(pts) - 1 and p[1] < min(pts[i - 1][1], pts[i + 1][1]) - step)
    ]


def detect_tlb_levels(spread, packed, page=4096):
    """{pages: ns} one line per page and {lines: ns} the same lines packed -> TLB levels.

    The translation cost d(N) = spread(N) - packed(N') (N' the largest reference point <= N; the
    reference is a cache curve, flat between its knees) is made non-decreasing like the cache
    curves; a level ends where d rises by at least TLB_STEP x the L1 hit (runs of rising steps
    count as one step). Returns [{"name", "entries", "next", "reach", "miss_ns", "confidence",
    "why"}]: one per TLB level found, the last one's miss_ns being the page-walk cost."""
    pts = sorted((int(n), float(v)) for n, v in spread.items() if v and v > 0)
    ref = sorted((int(n), float(v)) for n, v in packed.items() if v and v > 0)
    if len(pts) < 4 or not ref:
        return []
    rf = envelope(ref)
    pts = _without_dips(pts, TLB_STEP * rf[0][1])
    sp = envelope(pts)

    def ref_at(n):
        below = [v for m, v in rf if m <= n]
        return below[-1] if below else rf[0][1]

    # a point where the reference itself is half-way up one of its knees is left out: there a
    # few lines more or less decide between two cache levels, not the translations
    rv = [v for _, v in rf]
    moving = {rf[i][0] for i in range(1, len(rf) - 1) if rv[i] > 1.1 * rv[i - 1] and rv[i] < 0.9 * rv[i + 1]}
    sp = [(n, v) for n, v in sp if n not in moving]
    if len(sp) < 4:
        return []
    ns = [n for n, _ in sp]
    d = envelope([(n, max(0.0, v - ref_at(n))) for n, v in sp])
    dv = [v for _, v in d]
    raw = {n: v - ref_at(n) for n, v in pts}
    l1 = rf[0][1]
    step = TLB_STEP * l1
    levels, i, k = [], 0, len(d)

    def up(x):  # the cost rises from point x to x+1 (by a third of a step, and by 5 % of itself)
        return dv[x + 1] - dv[x] >= max(step / 3, 0.05 * dv[x])

    while i < k - 1:
        if up(i):
            j = i
            while j + 1 < k - 1 and up(j + 1):
                j += 1
            rise = dv[j + 1] - dv[i]
            if rise >= step:
                levels.append((i, j + 1))
            i = j + 1
        else:
            i += 1
    # a step is a TLB level when it is large against the cost so far (a slower page walk as the
    # page tables leave the caches raises the cost by less) and a plateau follows it (1.2x of
    # page counts before the next step or the end of the sweep)
    # (a later level's miss at least doubles the cost: a page walk against a second-level hit)
    big = [(a, b) for a, b in levels if dv[b] - dv[a] >= dv[a]]
    kept = []
    for lv, (a, b) in enumerate(big):
        nxt = big[lv + 1][0] if lv + 1 < len(big) else k - 1
        # (the last step may run into the end of the sweep: a page walk needs no plateau after it)
        if ns[nxt] >= 1.2 * ns[b] or (lv == len(big) - 1 and lv > 0):
            kept.append((a, b, nxt))
    # at most two levels: no data TLB we know of has more, and past the last one the walks
    # themselves grow dearer in steps as the page tables leave the caches
    if len(kept) > 2:
        kept = kept[:1] + [(kept[1][0], kept[1][1], kept[2][0])]
    out = []
    for a, b, end in kept:
        plateau = dv[b : end + 1]
        cost = plateau[len(plateau) // 2] if plateau else dv[b]
        half = (dv[a] + cost) / 2
        e = max(i for i in range(a, b + 1) if dv[i] <= half)
        # between two measured counts: where the cost crosses half the step, linearly
        # a gradual step (the count before the crossing already pays a tenth of it: random
        # replacement, other code's translations) is read between two counts, where the cost
        # crosses half the step; a sharp one at the last count that pays nothing
        entries = ns[e]
        gradual = dv[e] - dv[a] > 0.1 * (cost - dv[a])
        if gradual and dv[e + 1] > dv[e] and ns[e + 1] <= 1.5 * ns[e]:  # (not across a gap in the sweep)
            entries = round(ns[e] + (half - dv[e]) / (dv[e + 1] - dv[e]) * (ns[e + 1] - ns[e]))
        jump = cost - dv[a]
        jump_s = _clamp(jump / (2 * step))
        res_s = 1.0 if ns[e + 1] / ns[e] <= 1.15 else 0.85 if ns[e + 1] / ns[e] <= 1.3 else 0.7
        span = range(max(0, a - 2), min(k, b + 3))
        noisy = sum(1 for x in span if raw.get(ns[x], 0) > dv[x] + step)
        noise_s = 1 - 0.5 * noisy / max(1, len(span))
        out.append(
            {
                "name": f"L{len(out) + 1} TLB",
                "entries": entries,
                "next": ns[e + 1],
                "reach": entries * page,
                "miss_ns": round(cost, 3),
                "confidence": round(jump_s * res_s * noise_s, 2),
                "why": f"translation cost {dv[a]:.2f} ns up to {ns[a]} pages, {cost:.2f} ns on the plateau "
                f"after; half-way up between {ns[e]} and {ns[e + 1]} pages, {noisy} noisy point(s)",
            }
        )
    if out:  # the last level ends where page walks begin
        out[-1]["walk"] = True
        if dv[-1] > 1.5 * out[-1]["miss_ns"]:
            out[-1]["why"] += f"; walks cost {dv[-1]:.1f} ns at {ns[-1]} pages (page tables leave the caches)"
    return out


def huge_honoured(spread, huge, levels):
    """Does the TLB hold huge translations? Compares the one-line-per-page chase in huge pages
    with small pages just past the first TLB level (where small pages already miss it)."""
    if not levels or not huge:
        return {"honoured": None, "why": "not measured"}
    n0 = levels[0]["entries"]
    past = [n for n in sorted(huge) if n > n0 and n in spread and (len(levels) < 2 or n <= levels[1]["entries"])]
    if not past:
        return {"honoured": None, "why": "no huge-page point past the first TLB level"}
    n = past[0]
    env = dict(envelope(sorted(spread.items())))
    base = min(v for m, v in spread.items() if m <= n0)
    extra_4k, extra_huge = env[n] - base, huge[n] - base
    if extra_4k <= 0:
        return {"honoured": None, "why": f"small pages cost nothing extra at {n} pages"}
    honoured = extra_huge < 0.5 * extra_4k
    return {
        "honoured": honoured,
        "at_pages": n,
        "why": f"at {n} pages (past {n0} entries) small pages cost {extra_4k:+.2f} ns over an L1 hit, "
        f"huge pages {extra_huge:+.2f} ns"
        + ("" if honoured else ": the TLB still sees small pages (a hypervisor backing this guest with small pages)"),
    }


ROUND_BENCHES = ("mem.lat_rand", "mem.lat_pagelocal", "mem.lat_tlb", "mem.lat_stride")


def _curve_of(r):
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


def round_minima(per_round):
    """round_points' rows -> ({curve: {x: [each round's minimum]}}, {(curve, x): instance key})."""
    minima, keys = {}, {}
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


def round_points(store, results):
    """Per round: results whose headline is that round's own minimum (for stability checks)."""
    per = {}
    for r in results:
        if r.get("status") != "ok" or r["bench"] not in ROUND_BENCHES:
            continue
        by = {}
        for smp in store.samples(r["id"]):
            if smp.get("ops"):
                v = smp["ns"] / smp["ops"]
                by[smp["round"]] = min(v, by.get(smp["round"], math.inf))
        for rnd, v in by.items():
            per.setdefault(rnd, []).append(dict(r, stats={"": {"min": v}}))
    return per


def tlb_stability(tlb, per_round):
    """Detect the TLB levels on each round alone; a level whose entries differ between rounds by
    more than 15 % loses confidence (x0.6) and says what the rounds found."""
    if len(per_round) < 2:
        return {"rounds": len(per_round), "stable": None, "why": "fewer than two rounds: stability not measured"}
    found = []
    for _, res in sorted(per_round.items()):
        t = tlb_curves(res)
        if len(t["spread"]) >= 8:  # (a round of another sweep has no TLB points)
            found.append([x["entries"] for x in detect_tlb_levels(t["spread"], t["packed"])])
    if len(found) < 2:
        return {"rounds": len(found), "stable": None, "why": "fewer than two rounds: stability not measured"}
    stable = True
    for t in tlb or []:
        got = [min(e, key=lambda x, s=t["entries"]: abs(math.log(x / s))) if e else None for e in found]
        t["rounds"] = got
        if not all(g and max(g, t["entries"]) / min(g, t["entries"]) <= 1.15 for g in got):
            stable = False
            t["confidence"] = round(t["confidence"] * 0.6, 2)
            t["why"] += "; rounds alone found " + ", ".join(str(g) if g else "none" for g in got)
    return {"rounds": len(per_round), "stable": stable}


def _headline(r):
    st = Stats.of(r).main
    if not st:
        return None
    return st.min if st.min is not None else st.value


def tlb_curves(results):
    """Stored results -> {"spread": {pages: ns}, "packed": {lines: ns}, "huge": {pages: ns}}."""
    out = {"spread": {}, "packed": {}, "huge": {}}
    for r in results:
        v = _headline(r)
        p = r.get("params") or {}
        if r.get("status") != "ok" or v is None or r["bench"] != "mem.lat_tlb" or "pages" not in p:
            continue
        d = out["huge"] if p.get("thp") == 1 else out["packed"] if p.get("packed") == 1 else out["spread"]
        d[p["pages"]] = min(v, d.get(p["pages"], math.inf))
    return out


def huge_not_granted(results):
    """{size: percent} of the mem.lat_rand thp=1 points where the OS did not back the whole set
    with huge pages (-1: it could not tell)."""
    out = {}
    for r in results:
        p = r.get("params") or {}
        info = (r.get("meta") or {}).get("info") or {}
        if r["bench"] == "mem.lat_rand" and p.get("thp") == 1 and "huge_pct" in info and info["huge_pct"] < 100:
            out[p["size"]] = min(info["huge_pct"], out.get(p["size"], 100))
    return out


def shared_points(results):
    out = {}
    for r in results:
        v = _headline(r)
        p = r.get("params") or {}
        if r.get("status") == "ok" and v is not None and r["bench"] == "mem.lat_shared":
            k = (p["size"], p["hog"])
            out[k] = min(v, out.get(k, math.inf))
    return out


def page_walk_costs(p4k, phuge):
    """[(size, ns with 4 KiB pages, ns with huge pages)] where both were measured (each curve on
    its lower non-decreasing envelope: a noisy point of either would fake a cost or a gain)."""
    e4 = dict(envelope(sorted((s, v) for s, v in p4k.items() if v > 0)))
    eh = dict(envelope(sorted((s, v) for s, v in phuge.items() if v > 0)))
    return [(s, e4[s], eh[s]) for s in sorted(set(e4) & set(eh))]


# ---- what the OS reports ----


def _count(text):
    t = str(text if text is not None else "").strip()
    return int(t) if t.isdigit() and len(t) <= 9 else None


def os_report(fp):
    """Caches, line size and TLB reach as the target's OS reports them, from the run's
    fingerprint (sysfs or the device tree, and /proc/cpuinfo's TLB size, as read on the target:
    fingerprint.py), never from the machine running this. Empty lists/None where it reports
    nothing."""
    fp = fp or {}
    levels = []
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


def compare(detected, osr):
    """Rows (what, detected, os, verdict) side by side (see _rows)."""
    return [row[:4] for row in _rows(detected, osr)]


def doubts(detected, osr):
    """[(what, why)] of the figures flagged doubtful, with the values that make them so."""
    return [(row[0], row[4]) for row in _rows(detected, osr) if row[3].startswith("doubtful")]


def _rows(detected, osr):
    """Rows (what, detected, os, verdict, why) side by side. verdict: 'agree'; 'DISAGREE'; for the last
    level the OS reports, 'not measurable' (a share of it, or no level; the cause is in the
    verdict's evidence); 'scattered' (a physically indexed cache found smaller where huge pages are not
    contiguous); for a figure that contradicts the measurement and another source,
    'doubtful: SOURCE'; '' where there is nothing to compare."""
    rows = []
    caches = cache_levels(detected)
    oslv = osr.get("levels", [])
    llc = detected.get("llc") or {}
    for i in range(max(len(caches), len(oslv))):
        d = caches[i] if i < len(caches) else None
        o = oslv[i] if i < len(oslv) else None
        name = (o or {}).get("name") or (d or {}).get("name")
        v = _verdict(d and d["size"], o and o["size"], 1.3)
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


def cache_levels(detected):
    """The detected cache levels (memory left out), those not measurable under the load included
    (their size None, "unclear" saying why), smallest first."""
    return [lv for lv in detected.get("levels", []) if lv["name"] != "memory"]


def _verdict(d, o, tol):
    if not d or not o:
        return ""
    return "agree" if max(d, o) / min(d, o) <= tol else "DISAGREE"


# ---- from stored results ----


def curves(results):
    """Stored results -> ({size: ns} 4K pages, {size: ns} huge pages, {stride: ns}, cycles/ns).
    (The page-local chase: pagelocal_curve.)"""
    p4k, phuge, stride, ratio = {}, {}, {}, []
    for r in results:
        st = Stats.of(r).main
        if r.get("status") != "ok" or not st:
            continue
        v = st.min if st.min is not None else st.value
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


def pagelocal_curve(results):
    """{size: ns} of mem.lat_pagelocal (small pages)."""
    out = {}
    for r in results:
        v = _headline(r)
        p = r.get("params") or {}
        if r.get("status") == "ok" and v is not None and r["bench"] == "mem.lat_pagelocal" and not p.get("thp"):
            out[p["size"]] = min(v, out.get(p["size"], math.inf))
    return out


def analyse(results, fcore_khz=0, hello=None, per_round=None, osr=None):
    """Everything detected from stored results (the public entry point).

    results: result rows (bench, params, status, stats, meta); hello: the core's hello record
    (cpuid's TLB figures); per_round: {round: results} from round_points() for the stability
    check; osr: os_report(fingerprint) for the last-level verdict and the cross-checks. Returns {"levels",
    "line_size", "tlb", "tlb_knees", "huge", "page_walk", "stability", "llc", "curve", "flags",
    ...}; levels are the caches (each with its knee's "range") then memory."""
    p4k, phuge, stride, cyc_per_ns = curves(results)
    if cyc_per_ns and not fcore_khz:
        fcore_khz = cyc_per_ns * 1e6
    flags = []
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
    rounds = []
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
    det = {
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
    return det


def hold(det, cv, minima, keys, honoured, shared, oslv):
    """The evidence check (analysis/evidence.py): every cache level, the line size and every TLB
    level is detected again with the points whose rounds disagree left out; a figure not found
    again is not measurable under this load: its number goes ("size", "bytes", "entries" None,
    with "unclear" saying so and its evidence what each reading gave). -> [{"what", "noisy",
    "keys"}] of the figures that did not hold, with the instance keys of their noisy points (the
    points to measure again)."""
    bad = {c: evidence.noisy_points(m) for c, m in minima.items()}
    if not any(bad.values()):
        return []
    less = {c: evidence.without(v, bad.get(c, ())) for c, v in cv.items()}
    out = []

    def refuse(what, obj, pts, field, shown, extra=()):
        n = len(pts)
        obj["unclear"] = evidence.refusal(n)
        obj["why"] = (
            f"{obj['unclear']}: {shown} with every point, but not with the {n} point(s) whose rounds disagree "
            f"by more than x{evidence.CONFIRM} left out ({', '.join(_x_text(c, x) for c, x in pts)}); " + obj["why"]
        )
        for f in (field, *extra):
            obj[f] = None
        obj["confidence"] = 0.0
        out.append({"what": what, "noisy": n, "keys": sorted({keys[p] for p in pts if p in keys})})

    # cache levels: the hierarchy again on the curves without their noisy points
    tlb_less = detect_tlb_levels(less["tlb_spread"], less["tlb_packed"])
    name = det["curve"]
    again = hierarchy.assign(
        {k: less[k] for k in ("rand_huge", "rand_4k", "pagelocal")}, tlb_less, honoured, shared, oslv
    )["levels"]
    for lv in det["levels"]:
        if not lv.get("size"):
            continue
        if evidence.cache_holds(lv, again) is None:
            xs = evidence.near(bad.get(name, []), *lv["range"]) or bad.get(name, [])
            if xs:
                shown = f"the step reads {fmt_size(lv['size'])}"
                gone = ("latency_ns", "at_size", "latency_cycles")
                refuse(lv["name"], lv, [(name, x) for x in xs], "size", shown, gone)
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


def _x_text(curve, x):
    return f"{x} B" if curve == "stride" else f"{x} pages" if curve.startswith("tlb") else fmt_size(x)


def cpuid_tlb(hello):
    """The data TLBs for 4 KiB pages that cpuid reported in the hello record, smallest level first."""
    hello = hello or {}
    rows = [t for t in hello.get("tlb") or [] if t.get("page_kb") == 4 and t.get("type") in ("data", "load", "unified")]
    rows.sort(key=lambda t: (t["level"], t["type"] != "load"))
    out = []
    for t in rows:
        if all(o["level"] != t["level"] for o in out):
            out.append(t)
    return {"levels": out, "source": hello.get("tlb_src")}


def short_sweep(curves, oslv):
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


def has_sweep(results):
    """Do these results hold a latency sweep that levels can be detected on?"""
    return any(r.get("status") == "ok" and r["bench"] in ("mem.lat_rand", "mem.lat_pagelocal") for r in results)


def of_runs(store, runs, results=None):
    """The one topology of stored runs: their results analysed with the first run's target's own
    figures (the OS's caches from its fingerprint, cpuid's TLBs from its hello), every round
    alone for the stability check -> (detected, os_report). `topology`, `show`, `report` and
    `bandwidth` all take it from here. store: anything with results(run_id) and samples(id)."""
    if results is None:
        results = [r for run in runs for r in store.results(run["id"])]
    fp = runs[0].get("fingerprint") or {}
    hello = runs[0].get("hello") or {}
    osr = os_report(fp)
    fcore = hello.get("fcore_khz") or fp.get("fcore_khz") or 0
    return analyse(results, fcore, hello, round_points(store, results), osr), osr


def document(detected, osr, run_ids):
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


def to_json(detected, osr, run_ids):
    return json.dumps(document(detected, osr, run_ids), indent=1)


# the cache-only reference of mem.lat_tlb needs fewer points: it is flat between cache knees


def cycle_warning(det):
    """L1 load-to-use is 3-5 cycles on every core we target (methodology sanity bound)."""
    l1 = next((lv for lv in det.get("levels", []) if lv["name"] == "L1" and lv["size"]), None)
    c = l1 and l1.get("latency_cycles")
    if c and not 2.5 <= c <= 6:
        return (
            f"warning: L1 latency is {c:.1f} cycles (expected 3-5): the core-frequency estimate "
            "was probably disturbed (a busy or throttled machine); trust the ns figures"
        )
    return None
