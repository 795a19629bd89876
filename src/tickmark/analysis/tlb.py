"""TLB detection from the chases of mem.lat_tlb (one line per page against the same lines packed)
and from mem.lat_rand in small and huge pages: the levels, their entries and miss costs, whether
huge pages reach the TLB, and what a page walk costs (topology.py reads the curves and calls these)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base.fmt import fmt_size
from .hierarchy import Level
from .knees import envelope


def _clamp(x: float) -> float:
    return max(0.0, min(1.0, x))


TLB_RISE = 1.12


TLB_MIN = 1 << 20


TLB_STEP = 0.5  # a TLB level ends where the translation cost rises by half an L1 hit or more


def detect_tlb(p4k: Mapping[int, float], phuge: Mapping[int, float]) -> dict[str, Any]:
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


def _without_dips(pts: list[tuple[int, float]], step: float) -> list[tuple[int, float]]:
    """[(pages, ns)] less the points that lie a TLB step below both neighbours. Noise only slows
    a chase; a count that is much cheaper than the counts on either side had pages the TLB could
    merge (physically contiguous 4 KiB pages that a core coalesces into one entry, as AMD's do,
    in the round whose minimum it is), so it says nothing of the entries. Left in, the envelope
    would carry it down to the smaller counts and move the step."""
    return [
        p for i, p in enumerate(pts) if not (0 < i < len(pts) - 1 and p[1] < min(pts[i - 1][1], pts[i + 1][1]) - step)
    ]


def detect_tlb_levels(spread: Mapping[Any, Any], packed: Mapping[Any, Any], page: int = 4096) -> list[Level]:
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

    def ref_at(n: int) -> float:
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
    levels: list[tuple[int, int]] = []
    i, k = 0, len(d)

    def up(x: int) -> bool:  # the cost rises from point x to x+1 (by a third of a step, and by 5 % of itself)
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
    kept: list[tuple[int, int, int]] = []
    for lv, (a, b) in enumerate(big):
        nxt = big[lv + 1][0] if lv + 1 < len(big) else k - 1
        # (the last step may run into the end of the sweep: a page walk needs no plateau after it)
        if ns[nxt] >= 1.2 * ns[b] or (lv == len(big) - 1 and lv > 0):
            kept.append((a, b, nxt))
    # at most two levels: no data TLB we know of has more, and past the last one the walks
    # themselves grow dearer in steps as the page tables leave the caches
    if len(kept) > 2:
        kept = kept[:1] + [(kept[1][0], kept[1][1], kept[2][0])]
    out: list[Level] = []
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


def huge_honoured(spread: Mapping[int, float], huge: Mapping[int, float], levels: list[Level]) -> dict[str, Any]:
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


def page_walk_costs(p4k: Mapping[int, float], phuge: Mapping[int, float]) -> list[tuple[int, float, float]]:
    """[(size, ns with 4 KiB pages, ns with huge pages)] where both were measured (each curve on
    its lower non-decreasing envelope: a noisy point of either would fake a cost or a gain)."""
    e4 = dict(envelope(sorted((s, v) for s, v in p4k.items() if v > 0)))
    eh = dict(envelope(sorted((s, v) for s, v in phuge.items() if v > 0)))
    return [(s, e4[s], eh[s]) for s in sorted(set(e4) & set(eh))]


# ---- what the OS reports ----
