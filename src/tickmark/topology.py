"""Memory hierarchy detection from the latency sweeps (`tickmark topology`).

The detection reads only the measured curves, never what the OS says, so it works on a board
whose OS reports nothing; the OS values are read separately and shown beside it.

* Cache levels come from the minimum-latency curve of `mem.lat_rand` over the working-set size.
  Noise on a busy machine only ever makes a load slower, and the true curve never goes down as
  the set grows, so the curve is first replaced by its lower non-decreasing envelope (the
  minimum over this and all larger sets); a noisy point is thereby replaced by a later one.
  Where huge pages were measured (`thp=1`) the smaller of the two values is used, which takes
  most TLB misses out of the cache curve. A *transition* is a run of consecutive steps where the
  latency rises by more than RISE per step; the cache size is the last size before it (the
  largest set that still fits), and the level's latency is read on its plateau where at most a
  quarter of the loads can still hit the level below. The last plateau is memory.
* Confidence of a level = jump score (how large the latency step is) x flatness of the plateau
  below it x resolution (are there points closely around the knee) x noise (how many raw points
  had to be replaced by the envelope). Each factor is in [0, 1].
* The line size comes from `mem.lat_stride`: the first stride whose pair costs LINE_RISE more
  than the smallest strides (the second load stopped hitting the line of the first).
* The TLB reach is the largest set at which 4 KiB pages cost no more than TLB_RISE over huge
  pages, with divergence after it.
"""
import json
import math
import re
from pathlib import Path

RISE = 1.25       # a step (half an octave or less) rising more than this is part of a transition
PLATEAU_OK = 1.25  # latency spread along a plateau that still counts as perfectly flat
LINE_RISE = 1.3
TLB_RISE = 1.12
NICE = (1.0, 1.25, 1.5, 1.75)


def fmt_size(n):
    if n is None:
        return "-"
    for unit, k in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= k:
            return f"{n / k:.2f}".rstrip("0").rstrip(".") + unit
    return f"{n}B"


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
    rising = [lat[i + 1] / lat[i] > RISE for i in range(n - 1)]
    # transitions: maximal runs of rising steps -> (a, b): a = last point before, b = first after
    trans, i = [], 0
    while i < n - 1:
        if rising[i]:
            j = i
            while j + 1 < n - 1 and rising[j + 1]:
                j += 1
            trans.append((i, j + 1))
            i = j + 1
        else:
            i += 1
    levels, start = [], 0
    for k, (a, b) in enumerate(trans):
        plateau = list(range(start, a + 1))
        prev_size = levels[-1]["size"] if levels else 0
        lat_i = _plateau_point(sizes, plateau, prev_size)
        conf, why = _confidence(sizes, lat, raw, plateau, lat_i, a, b)
        levels.append({"name": f"L{len(levels) + 1}", "size": sizes[a], "next_size": sizes[a + 1],
                       "latency_ns": lat[lat_i], "at_size": sizes[lat_i], "confidence": conf,
                       "why": why})
        start = b
    plateau = list(range(start, n))
    prev_size = levels[-1]["size"] if levels else 0
    mem_i = plateau[-1]
    still_rising = len(plateau) < 2 or lat[-1] / lat[plateau[0]] > RISE
    levels.append({"name": "memory", "size": None, "latency_ns": lat[mem_i], "at_size": sizes[mem_i],
                   "confidence": None, "still_rising": still_rising})
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
    flat_s = 1.0 if spread <= PLATEAU_OK else _clamp(1 - math.log(spread / PLATEAU_OK) / math.log(2))
    if len(plateau) < 2:
        flat_s *= 0.6
    res_s = 1.0 if sizes[a + 1] / sizes[a] <= 1.2 else 0.85
    span = range(plateau[0], b + 1)
    replaced = sum(1 for i in span if raw[i] > lat[i] * 1.1)
    noise_s = 1 - 0.5 * replaced / max(1, len(span))
    conf = round(jump_s * flat_s * res_s * noise_s, 2)
    why = f"jump x{jump:.2f}, plateau spread x{spread:.2f}, knee between {fmt_size(sizes[a])} and " \
          f"{fmt_size(sizes[a + 1])}, {replaced} noisy point(s)"
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
    base = min(v for _, v in pts[:2])
    for i, (s, v) in enumerate(pts):
        if v >= LINE_RISE * base:
            below = [w for _, w in pts[:i]]
            if not below:
                return {"bytes": s, "confidence": 0.1,
                        "why": "already the smallest stride costs more: the line may be smaller"}
            jump = v / max(below)
            # the step should persist: strides past it are not cheaper again
            later = [w for _, w in pts[i + 1:]]
            persist = 1.0 if all(w >= LINE_RISE * base for w in later) else 0.5
            flat = max(below) / min(below)
            flat_s = 1.0 if flat <= 1.1 else _clamp(1 - (flat - 1.1) / 0.4)
            conf = round(_clamp((jump - 1) / 0.6) * flat_s * persist, 2)
            return {"bytes": s, "confidence": conf,
                    "why": f"pair cost x{jump:.2f} from stride {pts[i - 1][0]} to {s}"}
    return {"bytes": None, "confidence": 0.0, "why": "no stride up to the largest measured made the pair cost more"}


def detect_tlb(p4k, phuge):
    """{size: ns} with 4 KiB pages and with huge pages -> {"bytes", "bound", "confidence", "why"}."""
    both = sorted(s for s in p4k if s in phuge and p4k[s] > 0 and phuge[s] > 0)
    if len(both) < 2:
        return {"bytes": None, "confidence": 0.0, "why": "no huge-page measurements"}
    ratio = [(s, p4k[s] / phuge[s]) for s in both]
    # the divergence must hold from some size on: find the first size after which every ratio is high
    first_bad = None
    for i in range(len(ratio)):
        if all(r > TLB_RISE for _, r in ratio[i:]):
            first_bad = i
            break
    top = max(r for _, r in ratio)
    if first_bad is None:
        return {"bytes": None, "confidence": round(_clamp(1 - (top - 1) / 0.3), 2),
                "why": f"4 KiB pages cost at most x{top:.2f} over huge pages up to {fmt_size(both[-1])}"}
    conf = _clamp((top - 1) / 0.3)
    if first_bad == 0:
        return {"bytes": both[0], "bound": "at most", "confidence": round(conf * 0.5, 2),
                "why": f"4 KiB pages already cost x{ratio[0][1]:.2f} at the smallest huge-page set"}
    if len(ratio) - first_bad < 2:
        conf *= 0.6
    return {"bytes": ratio[first_bad - 1][0], "confidence": round(conf, 2),
            "why": f"4 KiB/huge x{ratio[first_bad - 1][1]:.2f} at {fmt_size(ratio[first_bad - 1][0])}, "
                   f"x{ratio[first_bad][1]:.2f} at {fmt_size(ratio[first_bad][0])}, up to x{top:.2f}"}


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
            levels.append({"name": f"L{lvl}" + ("d" if typ == "Data" else ""), "level": int(lvl),
                           "size": size, "line": int(line) if line and line.isdigit() else None})
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
    return {"source": source, "levels": levels, "line_size": line, "tlb_reach": tlb,
            "tlb_source": "cpuinfo" if tlb else None}


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
    """Rows (what, detected, os, verdict) side by side; verdict 'agree', 'DISAGREE' or ''."""
    rows = []
    caches = [lv for lv in detected.get("levels", []) if lv["size"] is not None]
    oslv = osr.get("levels", [])
    for i in range(max(len(caches), len(oslv))):
        d = caches[i] if i < len(caches) else None
        o = oslv[i] if i < len(oslv) else None
        name = (o or {}).get("name") or (d or {}).get("name")
        rows.append((f"{name} size", d and d["size"], o and o["size"], _verdict(d and d["size"], o and o["size"], 1.3)))
    line = detected.get("line_size") or {}
    rows.append(("line size", line.get("bytes"), osr.get("line_size"), _verdict(line.get("bytes"), osr.get("line_size"), 1.01)))
    tlb = detected.get("tlb_reach") or {}
    v = _verdict(tlb.get("bytes"), osr.get("tlb_reach"), 2.0)
    if tlb.get("bound") == "at most" and tlb.get("bytes") and osr.get("tlb_reach"):
        v = "agree" if osr["tlb_reach"] <= tlb["bytes"] * 2.0 else "DISAGREE"
    rows.append(("TLB reach (4K pages)", tlb.get("bytes"), osr.get("tlb_reach"), v))
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
        st = (r.get("stats") or {}).get("")
        if r.get("status") != "ok" or not st:
            continue
        v = st.get("min", st.get("value"))
        p = r.get("params") or {}
        if r["bench"] == "mem.lat_rand" and "size" in p:
            d = phuge if p.get("thp") == 1 else p4k
            d[p["size"]] = min(v, d.get(p["size"], math.inf))
        elif r["bench"] == "mem.lat_stride" and "stride" in p:
            stride[p["stride"]] = min(v, stride.get(p["stride"], math.inf))
        else:
            continue
        if st.get("cycles_per_op") and st.get("ns_per_op"):
            ratio.append(st["cycles_per_op"] / st["ns_per_op"])
    ratio.sort()
    return p4k, phuge, stride, (ratio[len(ratio) // 2] if ratio else None)


def analyse(results, fcore_khz=0):
    p4k, phuge, stride, cyc_per_ns = curves(results)
    if cyc_per_ns and not fcore_khz:
        fcore_khz = cyc_per_ns * 1e6
    levels = detect_levels(merge_thp(p4k, phuge), fcore_khz)
    mem = levels[-1] if levels else None
    if mem and phuge:
        big = max(phuge)
        mem["latency_ns_4k"] = p4k.get(big)
        mem["latency_ns_huge"] = phuge.get(big)
    return {"levels": levels, "line_size": detect_line(stride.items()),
            "tlb_reach": detect_tlb(p4k, phuge), "fcore_khz": fcore_khz or None,
            "points": {"lat_4k": sorted(p4k.items()), "lat_huge": sorted(phuge.items()),
                       "stride": sorted(stride.items())}}


def measured_sizes(results):
    p4k, phuge, _, _ = curves(results)
    return set(p4k) | set(phuge)


def to_json(detected, osr, run_ids):
    det = {k: v for k, v in detected.items() if k != "points"}
    return json.dumps({"runs": run_ids, "detected": det, "os": osr,
                       "comparison": [{"what": w, "detected": d, "os": o, "verdict": v}
                                      for w, d, o, v in compare(detected, osr)],
                       "points": detected.get("points")}, indent=1)
