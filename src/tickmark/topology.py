"""Memory hierarchy detection from the latency sweeps (`tickmark topology`).

The detection reads only the measured curves, never what the OS says, so it works on a board
whose OS reports nothing; the OS values are read separately and shown beside it.

* Cache levels come from the minimum-latency curve of `mem.lat_rand` over the working-set size.
  Noise on a busy machine only ever makes a load slower, and the true curve never goes down as
  the set grows, so the curve is first replaced by its lower non-decreasing envelope (the
  minimum over this and all larger sets); a noisy point is thereby replaced by a later one.
  Where huge pages were measured (`thp=1`) the smaller of the two values is used, which takes
  most TLB misses out of the cache curve. A *transition* is a run of consecutive steps where the
  latency rises faster than RISE_PER_OCTAVE, TRANSITION times in total; the cache size is the
  last size before it (the largest set that still fits), and the level's latency is read on its plateau where at most a
  quarter of the loads can still hit the level below. The last plateau is memory.
* Confidence of a level = jump score (how large the latency step is) x flatness of the plateau
  below it x resolution (are there points closely around the knee) x noise (how many raw points
  had to be replaced by the envelope). Each factor is in [0, 1].
* The line size comes from `mem.lat_stride` (on its lower non-decreasing envelope, as above):
  the first stride whose pair costs LINE_RISE times the smallest strides (the second load
  stopped hitting the line of the first). The pairs run in a span that misses L1 and hits L2
  (8x the L1 found, at most half the L2): a miss to DRAM gives region prefetchers time to bring
  the neighbouring lines before the dependent second load issues.
* The TLB reach is the largest set at which 4 KiB pages cost no more than TLB_RISE over huge
  pages, with divergence after it.
"""
import json
import math
import re
from pathlib import Path

from .stats import Stats

RISE_PER_OCTAVE = 1.2  # a step whose latency rises faster than this per octave of size is rising
TRANSITION = 1.5       # a run of rising steps is a transition when it rises at least this much
PLATEAU_OK = 1.1   # latency spread (half size .. size) that still counts as a flat plateau
LINE_RISE = 1.15
TLB_RISE = 1.12
TLB_MIN = 1 << 20
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
    # slope of log latency per octave of size (points need not be evenly spaced)
    rising = [math.log(lat[i + 1] / lat[i]) / math.log2(sizes[i + 1] / sizes[i]) > math.log(RISE_PER_OCTAVE)
              for i in range(n - 1)]
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
    levels, start = [], 0
    for a, b in trans:
        plateau = list(range(start, a + 1))
        prev_size = levels[-1]["size"] if levels else 0
        lat_i = _plateau_point(sizes, plateau, prev_size)
        conf, why = _confidence(sizes, lat, raw, plateau, lat_i, a, b)
        levels.append({"name": f"L{len(levels) + 1}", "size": sizes[a], "next_size": sizes[a + 1],
                       "latency_ns": lat[lat_i], "at_size": sizes[lat_i], "confidence": conf,
                       "why": why})
        start = b
    plateau = list(range(start, n))
    mem_i = plateau[-1]
    still_rising = len(plateau) < 2 or lat[-1] / lat[plateau[0]] > 1.25
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
    flat_s = 1.0 if spread <= PLATEAU_OK else _clamp(1 - math.log(spread / PLATEAU_OK) / math.log(2 / PLATEAU_OK))
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
    pts = envelope(pts)  # a longer stride never makes the pair cheaper: noise only adds
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
            conf = round(_clamp((jump - 1) / 0.3) * flat_s * persist, 2)
            return {"bytes": s, "confidence": conf,
                    "why": f"pair cost x{jump:.2f} from stride {pts[i - 1][0]} to {s}"}
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
    rows.append(("line size", line.get("bytes"), osr.get("line_size"),
                 _verdict(line.get("bytes"), osr.get("line_size"), 1.01)))
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
    det["warning"] = cycle_warning(detected)
    return json.dumps({"runs": run_ids, "detected": det, "os": osr,
                       "comparison": [{"what": w, "detected": d, "os": o, "verdict": v}
                                      for w, d, o, v in compare(detected, osr)],
                       "points": detected.get("points")}, indent=1)


# ---- the command ----

def _parse_size(text):
    m = re.fullmatch(r"(\d+)([KMG]?)", text.strip(), re.I)
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()] if m else None


def _sweep_of(benches, bench, param):
    for b in benches:
        if b.get("name") == bench:
            for p in b.get("params", []):
                if p["name"] == param:
                    return [_parse_size(x) for x in p["sweep"].split(",")]
    return []


def _mem_available():
    for line in (_read("/proc/meminfo") or "").splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return None


def _nice(n):
    """The largest size of the form {1, 1.5} x 2^k not above n."""
    k = max(0, n.bit_length() - 1)
    return (3 << (k - 1)) if k >= 1 and (3 << (k - 1)) <= n else (1 << k)


def measure(ctx, rounds=1, samples=7, max_size=None, refine=True, quiet=False, name=None):
    """Run the sweeps through the harness (stored like any run) -> (run ids, results, hello)."""
    from .clicommon import check_patterns, prepare_core, store_of
    from .hostrun import HostRun, Progress, RunConfig

    store = store_of(ctx)
    core = prepare_core(ctx)
    benches = check_patterns(core, ["mem.lat_rand", "mem.lat_stride"])
    runs = []

    def one(patterns, params, tag):
        cfg = RunConfig(patterns=patterns, rounds=rounds, max_rounds=rounds, samples=samples,
                        params=params, name=f"{name}-{tag}" if name else None, suite="topology")
        hr = HostRun(store, core, cfg)
        with Progress(rounds, enabled=False if quiet else None) as prog:
            hr.progress = prog
            rid = hr.execute()
        runs.append(rid)
        return store.results(rid)

    sizes = _sweep_of(benches, "mem.lat_rand", "size")
    avail = _mem_available()
    params = []
    if max_size or avail:
        cap = min(x for x in (max_size, avail // 4 if avail else None) if x)
        sizes = [s for s in sizes if s <= cap]
        params = ["size=" + ",".join(str(s) for s in sizes), "thp=0,1"]
    results = one(["mem.lat_rand"], params, "sweep")
    hello = store.run(runs[0]).get("hello") or {}
    det = analyse(results, hello.get("fcore_khz") or 0)
    caches = [lv for lv in det["levels"] if lv["size"]]
    extra = refine_sizes(caches, measured_sizes(results)) if refine else []
    mem = det["levels"][-1] if det["levels"] else None
    top = max(sizes) if sizes else 0
    # the memory plateau not reached yet: extend by up to two octaves where memory allows
    if refine and mem and mem.get("still_rising") and (not max_size or max_size > top):
        cap = min(x for x in (max_size, avail // 4 if avail else None, 4 * top) if x)
        s = top * 2
        while s <= cap:
            extra += [s]
            s *= 2
    # the line-size pairs: a span that misses L1 and hits L2 (see bench/mem/lat_stride.c)
    l1 = caches[0]["size"] if caches else 32 << 10
    span = 8 * l1
    if len(caches) > 1:
        span = max(4 * l1, min(span, _nice(caches[1]["size"] // 2)))
    params2 = [f"span={span}"]
    pats2 = ["mem.lat_stride"]
    if extra:
        pats2.append("mem.lat_rand")
        params2 += ["size=" + ",".join(str(s) for s in sorted(set(extra))), "thp=0,1"]
    results = results + one(pats2, params2, "refine")
    return runs, results, hello


def command(ctx, as_json, rounds, samples, max_size, from_runs, refine, quiet):
    from .clicommon import store_of
    from .errors import TickmarkError

    store = store_of(ctx)
    if from_runs:
        runs, results = [], []
        for ref in from_runs:
            r = store.run(ref)
            runs.append(r["id"])
            results += store.results(r["id"])
        hello = store.run(runs[0]).get("hello") or {}
    else:
        size = None
        if max_size:
            size = _parse_size(max_size)
            if not size or size < 64 << 10:
                raise TickmarkError(f"bad --max-size '{max_size}' (a size like 64M, at least 64K)")
        runs, results, hello = measure(ctx, rounds, samples, size, refine, quiet or as_json)
    det = analyse(results, hello.get("fcore_khz") or 0)
    if not det["levels"]:
        raise TickmarkError("no mem.lat_rand results to analyse in the given run(s)")
    osr = os_report()
    notes = store.run(runs[0]).get("notes") or {}
    notes["topology"] = {k: v for k, v in det.items() if k != "points"}
    store.update_run(runs[0], notes=notes)
    if as_json:
        print(to_json(det, osr, runs))
    else:
        print_text(det, osr, runs)


def print_text(det, osr, runs):
    import sys

    from rich.console import Console
    from rich.table import Table

    plain = not sys.stdout.isatty()
    con = Console(highlight=False, soft_wrap=False, width=250 if plain else None, no_color=plain)
    cyc = "calibrated-freq" if det.get("fcore_khz") else None
    con.print(f"memory hierarchy detected from runs {', '.join(map(str, runs))} "
              f"(OS values from {osr.get('source') or 'nothing: the OS reports no caches'})")
    t = Table(box=None, pad_edge=False)
    for c in ("level", "detected", "OS reports", "", "latency", "cycles", "confidence", "evidence"):
        t.add_column(c, justify="right" if c in ("latency", "cycles", "confidence") else "left")
    rows = {w: (o, v) for w, d, o, v in compare(det, osr)}
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
        t.add_row(lv["name"], fmt_size(lv["size"]), (f"{fmt_size(o['size'])} ({o['name']})" if o else "-"),
                  _flag(verdict), f"{lv['latency_ns']:.2f} ns", _cyc(lv, "latency_ns"),
                  f"{lv['confidence']:.2f}", f"read at {fmt_size(lv['at_size'])}; {lv['why']}")
    for lv in oslv[len(caches):]:
        t.add_row("-", "not found", f"{fmt_size(lv['size'])} ({lv['name']})", _flag("DISAGREE"), "", "", "", "")
    line = det.get("line_size") or {}
    o, v = rows.get("line size", (None, ""))
    t.add_row("line", f"{line.get('bytes')} B" if line.get("bytes") else "not found", f"{o} B" if o else "-",
              _flag(v), "", "", f"{line.get('confidence', 0):.2f}", line.get("why", ""))
    tlb = det.get("tlb_reach") or {}
    o, v = rows.get("TLB reach (4K pages)", (None, ""))
    d = (("<= " if tlb.get("bound") else "") + fmt_size(tlb["bytes"])) if tlb.get("bytes") else "not found"
    t.add_row("TLB reach", d, fmt_size(o) if o else "-", _flag(v), "", "", f"{tlb.get('confidence', 0):.2f}",
              tlb.get("why", ""))
    con.print(t)
    if cyc:
        con.print(f"cycles: ns x {det['fcore_khz'] / 1e6:.2f} GHz ({cyc}, the core's dependent-add estimate)")
    warn = cycle_warning(det)
    if warn:
        con.print(warn)


def cycle_warning(det):
    """L1 load-to-use is 3-5 cycles on every core we target (methodology sanity bound)."""
    l1 = next((lv for lv in det.get("levels", []) if lv["size"]), None)
    c = l1 and l1.get("latency_cycles")
    if c and not 2.5 <= c <= 6:
        return (f"warning: L1 latency is {c:.1f} cycles (expected 3-5): the core-frequency estimate "
                "was probably disturbed (a busy or throttled machine); trust the ns figures")
    return None


def _cyc(lv, k):
    return f"{lv['latency_cycles']:.1f}" if lv.get("latency_cycles") else "-"


def _flag(v):
    return {"agree": "=", "DISAGREE": "DISAGREE"}.get(v, "")


import click  # noqa: E402  (the command object, registered by cli.py)

from .clicommon import target_option  # noqa: E402


@click.command("topology")
@click.option("--json", "as_json", is_flag=True, help="Detected and OS-reported values as JSON.")
@click.option("--rounds", type=click.IntRange(1, 20), default=3, show_default=True,
              help="Rounds per sweep (each a process; the minimum over all samples is used).")
@click.option("--samples", type=click.IntRange(1, 1000), default=7, show_default=True, help="Samples per round.")
@click.option("--max-size", metavar="SIZE", help="Largest working set (e.g. 64M); default: the sweep, "
              "bounded by a quarter of the available memory.")
@click.option("--from", "from_runs", multiple=True, metavar="RUN",
              help="Analyse stored run(s) instead of measuring (repeatable).")
@click.option("--no-refine", is_flag=True, help="Skip the second pass around the knees.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@target_option
@click.pass_context
def topology_cmd(ctx, as_json, rounds, samples, max_size, from_runs, no_refine, quiet):
    """Detect cache levels, line size and TLB reach from latency sweeps; compare with the OS."""
    command(ctx, as_json, rounds, samples, max_size, from_runs, not no_refine, quiet)
