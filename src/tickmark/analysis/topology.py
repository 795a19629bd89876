"""Memory hierarchy detection from the latency sweeps (`tickmark topology`).

The detection reads only the measured curves, never what the OS says, so it works on a board
whose OS reports nothing; the OS values (sysfs, device tree, cpuid in the core's hello record)
are read separately and shown beside it. The public entry point is `analyse(results, ...)`.

* Cache levels come from the minimum-latency curve of `mem.lat_rand` with huge pages (`thp=1`,
  every size from the smallest up; the core checks that the huge pages were granted and says
  so per point). Noise on a busy machine only ever makes a load slower, and the true curve
  never goes down as the set grows, so the curve is first replaced by its lower
  non-decreasing envelope (the minimum over this and all larger sets). A *transition* is a run
  of consecutive steps where the latency rises faster than RISE_PER_OCTAVE, TRANSITION times in
  total; the cache size is the last size before it (the largest set that still fits), and the
  level's latency is read on its plateau where at most a quarter of the loads can still hit
  the level below. The last plateau is memory. The 4 KiB-page curve (`thp=0`) gives the
  page-walk cost on top.
* TLB levels come from `mem.lat_tlb`: a chase with one line per page (packed=0) against the
  same lines packed 64 to a page (packed=1). Their difference is the translation cost; each
  step of it is a TLB level (entries = the last page count before the step, miss cost = the
  step's height). When huge pages do not take the steps away (thp=1 at twice the first
  level's entries costs like small pages: a hypervisor backing the guest with small pages),
  the cache curve is not TLB-neutral, and a cache knee that sits at a TLB level's reach
  (entries x page) is reported as that TLB level, not as a cache.
* Confidence of a level = jump score (how large the latency step is) x flatness of the plateau
  below it x resolution (are there points closely around the knee) x noise (how many raw points
  had to be replaced by the envelope) x stability (does every round, on its own, find it at the
  same size). Each factor is in [0, 1].
* The line size comes from `mem.lat_stride` (on its lower non-decreasing envelope, as above):
  the first stride whose pair costs LINE_RISE times the smallest strides (the second load
  stopped hitting the line of the first). The pairs run in a span that misses L1 and hits L2
  (8x the L1 found, at most half the L2): a miss to DRAM gives region prefetchers time to bring
  the neighbouring lines before the dependent second load issues.
* A last-level cache found smaller than the OS says is tested for the cause (`mem.lat_shared`):
  the latency on its plateau with another CPU streaming through a large buffer against idle,
  and the knee of each round on its own.
"""

import json
import math
import re
from pathlib import Path

from ..fmt import fmt_size
from .stats import Stats

RISE_PER_OCTAVE = 1.2  # a step whose latency rises faster than this per octave of size is rising
TRANSITION = 1.5  # a run of rising steps is a transition when it rises at least this much
MIN_PLATEAU = 1.25  # a level's plateau spans at least this factor of sizes
PLATEAU_OK = 1.1  # latency spread (half size .. size) that still counts as a flat plateau
LINE_RISE = 1.15
TLB_RISE = 1.12
TLB_MIN = 1 << 20
TLB_STEP = 0.5  # a TLB level ends where the translation cost rises by half an L1 hit or more


def envelope(points):
    """[(x, y)] sorted by x -> [(x, min of y over this and every later point)]."""
    out, m = [], math.inf
    for x, y in reversed(points):
        m = min(m, y)
        out.append((x, m))
    return out[::-1]


def _clamp(x):
    return max(0.0, min(1.0, x))


def merge_thp(p4k, phuge):
    """{size: ns} with 4 KiB pages and {size: ns} with huge pages -> [(size, ns)] using the smaller."""
    sizes = sorted(set(p4k) | set(phuge))
    return [(s, min(v for v in (p4k.get(s), phuge.get(s)) if v is not None)) for s in sizes]


def detect_levels(points, fcore_khz=0):
    """points: [(size_bytes, min_ns)] -> list of level dicts (caches, then 'memory')."""
    pts = sorted((int(s), float(v)) for s, v in points if v and v > 0)
    if len(pts) < 4:
        return []
    env = envelope(pts)
    sizes = [s for s, _ in env]
    lat = [v for _, v in env]
    raw = [v for _, v in pts]
    n = len(env)
    # slope of log latency per octave of size (points need not be evenly spaced)
    rising = [
        math.log(lat[i + 1] / lat[i]) / math.log2(sizes[i + 1] / sizes[i]) > math.log(RISE_PER_OCTAVE)
        for i in range(n - 1)
    ]
    # transitions: maximal runs of rising steps -> (a, b): a = last point before, b = first after;
    # a run that rises less than TRANSITION in total is a sloping plateau (e.g. TLB misses)
    trans, i = [], 0
    while i < n - 1:
        if rising[i]:
            j = i
            while j + 1 < n - 1 and rising[j + 1]:
                j += 1
            if lat[j + 1] / lat[i] >= TRANSITION:
                trans.append((i, j + 1))
            i = j + 1
        else:
            i += 1
    # a plateau narrower than MIN_PLATEAU between two transitions is no level of its own (a
    # noisy point split one knee in two; real levels lie at least 2x apart): merge them
    merged = []
    for a, b in trans:
        if merged and sizes[a] / sizes[merged[-1][1]] < MIN_PLATEAU:
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    trans = merged
    levels, start = [], 0
    for a, b in trans:
        plateau = list(range(start, a + 1))
        prev_size = levels[-1]["size"] if levels else 0
        lat_i = _plateau_point(sizes, plateau, prev_size)
        conf, why = _confidence(sizes, lat, raw, plateau, lat_i, a, b)
        levels.append(
            {
                "name": f"L{len(levels) + 1}",
                "size": sizes[a],
                "next_size": sizes[a + 1],
                "latency_ns": lat[lat_i],
                "at_size": sizes[lat_i],
                "confidence": conf,
                "why": why,
            }
        )
        start = b
    plateau = list(range(start, n))
    mem_i = plateau[-1]
    still_rising = len(plateau) < 2 or lat[-1] / lat[plateau[0]] > 1.25
    levels.append(
        {
            "name": "memory",
            "size": None,
            "latency_ns": lat[mem_i],
            "at_size": sizes[mem_i],
            "confidence": None,
            "still_rising": still_rising,
        }
    )
    for lv in levels:
        lv["latency_cycles"] = lv["latency_ns"] * fcore_khz / 1e6 if fcore_khz else None
    return levels


def _plateau_point(sizes, plateau, prev_size):
    """Index on the plateau where the level is read: the largest set of at most half the
    level's size that is at least 4x the level below (at most 1/4 of the loads hit below)."""
    cap = sizes[plateau[-1]]
    good = [i for i in plateau if sizes[i] >= 4 * prev_size and sizes[i] <= cap // 2]
    return good[-1] if good else plateau[-1]


def _confidence(sizes, lat, raw, plateau, lat_i, a, b):
    jump = lat[b] / lat[a]
    jump_s = _clamp(math.log(jump) / math.log(1.8))
    spread = lat[a] / lat[lat_i]
    flat_s = 1.0 if spread <= PLATEAU_OK else _clamp(1 - math.log(spread / PLATEAU_OK) / math.log(2 / PLATEAU_OK))
    if len(plateau) < 2:
        flat_s *= 0.6
    res_s = 1.0 if sizes[a + 1] / sizes[a] <= 1.2 else 0.85
    span = range(plateau[0], b + 1)
    replaced = sum(1 for i in span if raw[i] > lat[i] * 1.1)
    noise_s = 1 - 0.5 * replaced / max(1, len(span))
    conf = round(jump_s * flat_s * res_s * noise_s, 2)
    why = (
        f"jump x{jump:.2f}, plateau spread x{spread:.2f}, knee between {fmt_size(sizes[a])} and "
        f"{fmt_size(sizes[a + 1])}, {replaced} noisy point(s)"
    )
    return conf, why


def refine_sizes(levels, measured, page=4096):
    """Extra sizes around each knee: nice sizes strictly between the last fitting size and the
    first size past it, plus one just below, that are not measured yet."""
    extra = set()
    for lv in levels:
        if lv["size"] is None:
            continue
        a, b = lv["size"], lv["next_size"]
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
            jump = v / max(below)
            # the step should persist: strides past it are not cheaper again
            later = [w for _, w in pts[i + 1 :]]
            persist = 1.0 if all(w >= LINE_RISE * base for w in later) else 0.5
            flat = max(below) / min(below)
            flat_s = 1.0 if flat <= 1.1 else _clamp(1 - (flat - 1.1) / 0.4)
            conf = round(_clamp((jump - 1) / 0.3) * flat_s * persist, 2)
            return {"bytes": s, "confidence": conf, "why": f"pair cost x{jump:.2f} from stride {pts[i - 1][0]} to {s}"}
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
    sp, rf = envelope(pts), envelope(ref)

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
        # the entries: the last page count that pays at most half the step (a sharp LRU step
        # has it right before the step; random replacement spreads the step over several points)
        half = (dv[a] + cost) / 2
        e = max(i for i in range(a, b + 1) if dv[i] <= half)
        jump = cost - dv[a]
        jump_s = _clamp(jump / (2 * step))
        res_s = 1.0 if ns[e + 1] / ns[e] <= 1.15 else 0.85 if ns[e + 1] / ns[e] <= 1.3 else 0.7
        span = range(max(0, a - 2), min(k, b + 3))
        noisy = sum(1 for x in span if raw.get(ns[x], 0) > dv[x] + step)
        noise_s = 1 - 0.5 * noisy / max(1, len(span))
        out.append(
            {
                "name": f"L{len(out) + 1} TLB",
                "entries": ns[e],
                "next": ns[e + 1],
                "reach": ns[e] * page,
                "miss_ns": round(cost, 3),
                "confidence": round(jump_s * res_s * noise_s, 2),
                "why": f"translation cost {dv[a]:.2f} ns up to {ns[a]} pages, {cost:.2f} ns on the plateau "
                f"after; half-way between {ns[e]} and {ns[e + 1]} pages, {noisy} noisy point(s)",
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


def attribute_tlb_knees(levels, tlb_levels, honoured):
    """Cache knees that are TLB reaches: when huge pages do not take the TLB out of the cache
    curve, a knee within a sweep step of a TLB level's reach is that TLB level. Returns
    (cache levels renamed L1.., knees moved out)."""
    if honoured is not False or not tlb_levels:
        return levels, []
    keep, moved = [], []
    for lv in levels:
        hit = None
        if lv["size"]:
            for t in tlb_levels:
                lo, hi = t["reach"], t["next"] * t["reach"] // t["entries"]
                if lo / 1.5 <= lv["size"] <= hi * 1.34:  # a random chase slows a little before the reach
                    hit = t
        if hit:
            moved.append(
                dict(
                    lv,
                    tlb=hit["name"],
                    why=f"{lv['why']}; at the {hit['name']}'s reach ({hit['entries']} x 4K = {fmt_size(hit['reach'])})",
                )
            )
        else:
            keep.append(lv)
    n = 0
    for lv in keep:
        if lv["size"]:
            n += 1
            lv["name"] = f"L{n}"
    return keep, moved


def round_points(store, results):
    """Per round: results whose headline is that round's own minimum (for stability checks)."""
    per = {}
    for r in results:
        if r.get("status") != "ok" or r["bench"] not in ("mem.lat_rand", "mem.lat_tlb"):
            continue
        by = {}
        for smp in store.samples(r["id"]):
            if smp.get("ops"):
                v = smp["ns"] / smp["ops"]
                by[smp["round"]] = min(v, by.get(smp["round"], math.inf))
        for rnd, v in by.items():
            per.setdefault(rnd, []).append(dict(r, stats={"": {"min": v}}))
    return per


def stability(levels, per_round, tlb=None):
    """Detect on each round alone; a level whose size differs between rounds by more than one
    sweep step (x1.5) loses confidence (x0.6) and says which sizes the rounds found."""
    if len(per_round) < 2:
        return {"rounds": len(per_round), "stable": None, "why": "one round: stability not measured"}
    found, tlbs = {}, {}
    for rnd, res in sorted(per_round.items()):
        p4k, phuge, _, _ = curves(res)
        lv = detect_levels(sorted(phuge.items()) if phuge else sorted(p4k.items()))
        found[rnd] = [x["size"] for x in lv if x["size"]]
        t = tlb_curves(res)
        tlbs[rnd] = [x["entries"] for x in detect_tlb_levels(t["spread"], t["packed"])]
    stable = True
    caches = [lv for lv in levels if lv["size"]]
    for lv in caches:
        got = [min(sz, key=lambda x, s=lv["size"]: abs(math.log(x / s))) if sz else None for sz in found.values()]
        ok = all(g and max(g, lv["size"]) / min(g, lv["size"]) <= 1.5 for g in got)
        lv["rounds"] = [g for g in got]
        if not ok:
            stable = False
            lv["confidence"] = round(lv["confidence"] * 0.6, 2)
            lv["why"] += "; rounds alone found " + ", ".join(fmt_size(g) if g else "none" for g in got)
    for t in tlb or []:
        got = [min(e, key=lambda x, s=t["entries"]: abs(math.log(x / s))) if e else None for e in tlbs.values()]
        t["rounds"] = got
        if not all(g and max(g, t["entries"]) / min(g, t["entries"]) <= 1.15 for g in got):
            stable = False
            t["confidence"] = round(t["confidence"] * 0.6, 2)
            t["why"] += "; rounds alone found " + ", ".join(str(g) if g else "none" for g in got)
    return {
        "rounds": len(per_round),
        "stable": stable,
        "why": "every round alone finds the same sizes"
        if stable
        else "rounds alone disagree (see the levels' evidence): confidence lowered",
    }


def llc_pair(caches, oslv):
    """(detected level, OS level) for a last-level cache found smaller than the OS says, or
    (None, OS level) when the curve has no such level at all; (None, None) otherwise."""
    if len(oslv) < 2 or not caches:
        return None, None
    olast = oslv[-1]
    if len(caches) >= len(oslv):
        last = caches[len(oslv) - 1]
        return (last, olast) if last["size"] * 1.3 < olast["size"] else (None, None)
    return None, olast


def llc_cause(det, osr, shared, per_round_llc=None):
    """Why the last cache level came out smaller than the OS says: `shared` is {(size, hog): ns}
    of mem.lat_shared (hog 0: the other CPU idle). Returns {"cause", "why"} or None."""
    caches = [lv for lv in det.get("levels", []) if lv["size"]]
    last, olast = llc_pair(caches, osr.get("levels", []))
    if not olast:
        return None
    if not last:  # not found at all: say what is known of it
        last = {"name": olast["name"], "size": None}
    parts, cause = [], None
    sizes = sorted({s for s, _ in shared})
    effect = []
    for s in sizes:
        idle = shared.get((s, 0))
        busy = [v for (t, h), v in shared.items() if t == s and h]
        if idle and busy:
            effect.append((s, idle, min(busy)))
    if effect:
        s, idle, busy = max(effect, key=lambda e: e[2] / e[1])
        ratio = busy / idle
        parts.append(
            f"with another CPU streaming through a large buffer a {fmt_size(s)} set costs "
            f"{busy:.1f} ns against {idle:.1f} ns idle (x{ratio:.2f})"
        )
        if ratio >= 1.3:
            cause = "shared"
    if per_round_llc and len(per_round_llc) > 1:
        lo, hi = min(per_round_llc), max(per_round_llc)
        parts.append(f"the rounds alone put the knee at {', '.join(fmt_size(x) for x in per_round_llc)}")
        if hi / lo > 1.5:
            cause = cause or "varies"
            parts[-1] += " (it moves with what else runs)"
    if cause == "shared":
        text = (
            f"capacity taken by others: the {olast['name']} is shared, and other cores' traffic evicts "
            f"this core's lines; of the {fmt_size(olast['size'])} the OS reports, "
            f"{'about ' + fmt_size(last['size']) if last['size'] else 'no distinct part'} was usable during the sweep"
        )
    elif cause == "varies":
        text = "capacity taken by others: the usable size changes from round to round"
    elif effect and not last["size"]:
        text = (
            f"no knee of its own, and another CPU's traffic changes nothing: this core does not see the "
            f"{fmt_size(olast['size'])} as a level of its own (a cache outside this guest's share, or memory-side)"
        )
        cause = "partition"
    elif effect:
        text = (
            f"not taken by the other CPU here, and stable: this core can use about {fmt_size(last['size'] or 0)} "
            f"of the {fmt_size(olast['size'])} (a partitioned cache, or the OS reports a whole "
            f"socket's cache of which this core or guest gets a part)"
        )
        cause = "partition"
    else:
        text = "cause not measured (no mem.lat_shared results)"
        cause = None
    return {
        "cause": cause,
        "level": last["name"],
        "detected": last["size"],
        "os": olast["size"],
        "why": text + (" — " + "; ".join(parts) if parts else ""),
    }


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


def _read(p):
    try:
        return Path(p).read_text().strip()
    except OSError:
        return None


def _size(text):
    m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", text or "", re.I)
    if not m:
        return None
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]


def os_report(root="/"):
    """Caches, line size and TLB reach as the OS reports them: sysfs, then the device tree,
    then /proc/cpuinfo. Empty lists/None where it reports nothing."""
    root = Path(root)
    levels, source = [], None
    base = root / "sys/devices/system/cpu/cpu0/cache"
    for d in sorted(base.glob("index*")):
        typ = _read(d / "type")
        if typ == "Instruction":
            continue
        lvl, size = _read(d / "level"), _size(_read(d / "size"))
        line = _read(d / "coherency_line_size")
        if lvl and lvl.isdigit() and size:
            levels.append(
                {
                    "name": f"L{lvl}" + ("d" if typ == "Data" else ""),
                    "level": int(lvl),
                    "size": size,
                    "line": int(line) if line and line.isdigit() else None,
                }
            )
            source = "sysfs"
    if not levels:
        levels = _device_tree(root)
        source = "device tree" if levels else None
    levels.sort(key=lambda x: x["level"])
    tlb = None
    cpuinfo = _read(root / "proc/cpuinfo") or ""
    m = re.search(r"^TLB size\s*:\s*(\d+)\s*4K pages", cpuinfo, re.M)
    if m:
        tlb = int(m.group(1)) * 4096
    line = next((lv["line"] for lv in levels if lv.get("line")), None)
    return {
        "source": source,
        "levels": levels,
        "line_size": line,
        "tlb_reach": tlb,
        "tlb_source": "cpuinfo" if tlb else None,
    }


def _be32(p):
    try:
        b = Path(p).read_bytes()
    except OSError:
        return None
    return int.from_bytes(b[:4], "big") if len(b) >= 4 else None


def _device_tree(root):
    cpus = root / "proc/device-tree/cpus"
    cpu = next(iter(sorted(cpus.glob("cpu@*"))), None) if cpus.is_dir() else None
    if cpu is None:
        return []
    out = []
    size = _be32(cpu / "d-cache-size")
    if size:
        out.append({"name": "L1d", "level": 1, "size": size, "line": _be32(cpu / "d-cache-line-size")})
    # next-level caches: nodes with cache-level and cache-size anywhere under cpus/ or the root
    for node in sorted(set(cpus.glob("**/cache-level")) | set((root / "proc/device-tree").glob("*/cache-level"))):
        lvl, size = _be32(node), _be32(node.parent / "cache-size")
        if lvl and size and lvl > 1 and all(o["level"] != lvl for o in out):
            out.append({"name": f"L{lvl}", "level": lvl, "size": size, "line": _be32(node.parent / "cache-line-size")})
    return out


def compare(detected, osr):
    """Rows (what, detected, os, verdict) side by side; verdict 'agree', 'DISAGREE', a measured
    cause ('shared', 'varies', 'partition') or ''."""
    rows = []
    caches = [lv for lv in detected.get("levels", []) if lv["size"] is not None]
    oslv = osr.get("levels", [])
    llc = detected.get("llc") or {}
    for i in range(max(len(caches), len(oslv))):
        d = caches[i] if i < len(caches) else None
        o = oslv[i] if i < len(oslv) else None
        name = (o or {}).get("name") or (d or {}).get("name")
        v = _verdict(d and d["size"], o and o["size"], 1.3)
        if v == "DISAGREE" and llc.get("cause") and d and d["name"] == llc.get("level"):
            v = llc["cause"]
        elif (
            v == "DISAGREE"
            and d
            and o
            and d["size"] < o["size"]
            and (detected.get("huge") or {}).get("honoured") is False
        ):
            # huge pages that do not reach the TLB are not contiguous in physical memory either:
            # a physically indexed cache then overflows some of its page colours before it is full
            v = "scattered"
        rows.append((f"{name} size", d and d["size"], o and o["size"], v))
    line = detected.get("line_size") or {}
    rows.append(
        ("line size", line.get("bytes"), osr.get("line_size"), _verdict(line.get("bytes"), osr.get("line_size"), 1.01))
    )
    cpuid = (detected.get("tlb_cpuid") or {}).get("levels") or []
    for i, t in enumerate(detected.get("tlb") or []):
        c = next((x for x in cpuid if x["level"] == i + 1), None)
        rows.append(
            (f"L{i + 1} TLB entries", t["entries"], c and c["entries"], _verdict(t["entries"], c and c["entries"], 1.1))
        )
    if osr.get("tlb_reach"):
        tlb = detected.get("tlb") or []
        reach = tlb[-1]["reach"] if tlb else None
        rows.append(("TLB reach (4K pages)", reach, osr["tlb_reach"], _verdict(reach, osr["tlb_reach"], 1.3)))
    return rows


def _verdict(d, o, tol):
    if not d or not o:
        return ""
    return "agree" if max(d, o) / min(d, o) <= tol else "DISAGREE"


# ---- from stored results ----


def curves(results):
    """Stored results -> ({size: ns} 4K pages, {size: ns} huge pages, {stride: ns}, cycles/ns)."""
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


def analyse(results, fcore_khz=0, hello=None, per_round=None, osr=None):
    """Everything detected from stored results (the public entry point).

    results: result rows (bench, params, status, stats, meta); hello: the core's hello record
    (cpuid's TLB figures); per_round: {round: results} from round_points() for the stability
    check; osr: os_report() for the last-level-cache cause. Returns {"levels", "line_size",
    "tlb", "tlb_knees", "huge", "page_walk", "stability", "llc", "tlb_reach", "flags", ...}."""
    p4k, phuge, stride, cyc_per_ns = curves(results)
    if cyc_per_ns and not fcore_khz:
        fcore_khz = cyc_per_ns * 1e6
    flags = []
    missing = huge_not_granted(results)
    if phuge:
        granted = {s: v for s, v in phuge.items() if s not in missing}
        if missing:
            flags.append(
                "huge pages not granted at "
                + ", ".join(f"{fmt_size(s)} ({'unknown' if v < 0 else f'{v}%'})" for s, v in sorted(missing.items()))
                + ": those points left out of the cache curve"
            )
        cache_pts = sorted(granted.items()) if len(granted) >= 4 else merge_thp(p4k, phuge)
    else:
        cache_pts = sorted(p4k.items())
        if p4k:
            flags.append("no huge-page points: the cache curve carries TLB misses (knees may be TLB reaches)")
    levels = detect_levels(cache_pts, fcore_khz)
    t = tlb_curves(results)
    tlb = detect_tlb_levels(t["spread"], t["packed"])
    hon = huge_honoured(t["spread"], t["huge"], tlb)
    caches, knees = attribute_tlb_knees([lv for lv in levels if lv["size"]], tlb, hon["honoured"])
    if hon["honoured"] is False:
        flags.append("huge pages granted, but the TLB still holds small translations: " + hon["why"])
    levels = caches + [lv for lv in levels if not lv["size"]]
    mem = levels[-1] if levels else None
    if mem and phuge:
        big = max(phuge)
        mem["latency_ns_4k"] = p4k.get(big)
        mem["latency_ns_huge"] = phuge.get(big)
    stab = stability(levels, per_round or {}, tlb)
    det = {
        "levels": levels,
        "line_size": detect_line(stride.items()),
        "tlb": tlb,
        "tlb_knees": knees,
        "huge": hon,
        "page_walk": page_walk_costs(p4k, phuge),
        "stability": stab,
        "flags": flags,
        "tlb_cpuid": cpuid_tlb(hello),
        "tlb_reach": detect_tlb(p4k, phuge),
        "fcore_khz": fcore_khz or None,
        "points": {
            "lat_4k": sorted(p4k.items()),
            "lat_huge": sorted(phuge.items()),
            "stride": sorted(stride.items()),
            "tlb_spread": sorted(t["spread"].items()),
            "tlb_packed": sorted(t["packed"].items()),
            "tlb_huge": sorted(t["huge"].items()),
        },
    }
    if osr is not None:
        llc_rounds = None
        if per_round and len(per_round) > 1 and llc_pair(caches, osr.get("levels", []))[0]:
            llc_rounds = []
            for res in per_round.values():
                _, ph, _, _ = curves(res)
                sz = [x["size"] for x in detect_levels(sorted(ph.items())) if x["size"]]
                near = [x for x in sz if x >= caches[-1]["size"] / 4]
                llc_rounds.append(min(near, key=lambda x: abs(math.log(x / caches[-1]["size"]))) if near else None)
            llc_rounds = [x for x in llc_rounds if x]
        det["llc"] = llc_cause(det, osr, shared_points(results), llc_rounds)
    return det


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


def to_json(detected, osr, run_ids):
    det = {k: v for k, v in detected.items() if k != "points"}
    det["warning"] = cycle_warning(detected)
    return json.dumps(
        {
            "runs": run_ids,
            "detected": det,
            "os": osr,
            "comparison": [{"what": w, "detected": d, "os": o, "verdict": v} for w, d, o, v in compare(detected, osr)],
            "points": detected.get("points"),
        },
        indent=1,
    )


# the cache-only reference of mem.lat_tlb needs fewer points: it is flat between cache knees


def cycle_warning(det):
    """L1 load-to-use is 3-5 cycles on every core we target (methodology sanity bound)."""
    l1 = next((lv for lv in det.get("levels", []) if lv["size"]), None)
    c = l1 and l1.get("latency_cycles")
    if c and not 2.5 <= c <= 6:
        return (
            f"warning: L1 latency is {c:.1f} cycles (expected 3-5): the core-frequency estimate "
            "was probably disturbed (a busy or throttled machine); trust the ns figures"
        )
    return None


def mem_available():
    """Bytes of memory available on this machine (MemAvailable), or None."""
    for line in (_read("/proc/meminfo") or "").splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return None
