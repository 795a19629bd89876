"""The report model: everything a report says about stored runs, built once from the store as
plain JSON-ready data, and rendered by every view (terminal, Markdown, HTML, JSON). A view reads
the model it is given and nothing else: no store, no statistics of its own.

    model = build(store, ["o2", "os"])
    model["runs"][i]      header, machine (fingerprint in words), environment flags with their
                          meaning, one row per benchmark metric (value, CI, spread, determinism,
                          flags), the nbench indices, the RTOS-study figures, and the series the
                          plots draw
    model["compare"]      for two runs or more: the first run against each other (compare.py)
    model["rtos_study"]   for two runs or more of the rtos-study suite: the study's table across
                          them (analysis/rtos_table.py), else None

and the models of the other terminal views: counters_model (show --counters), bandwidth_model
and memfn_model (the memory family's tables), comparison (compare, matrix), campaign_model (a
campaign's summary), topology_model (tickmark topology).

Nothing here formats for a medium beyond short texts shared by all views (value_text etc.).
"""

import math

from .. import fingerprint, fmt
from ..analysis import hostclock, kernel_entry, rtos_table
from ..analysis.stats import Stats
from ..errors import TickmarkError
from ..fmt import known
from ..names import decimal, printable, when

FORMAT = "tickmark-report"
VERSION = 1

# What each flag means, in words (the views print the ones that occur).
FLAG_MEANINGS = {
    "unstable": "samples spread widely (robust CV of the samples at least 10 %)",
    "noisy": "rounds disagree (CV of the round medians above 3 %)",
    "outliers": "some samples lie far from the median (more than 14.8 MADs, or 50 %)",
    "preempted": "samples hit by a context switch or a CPU migration even after one retake moved "
    "the median (outside the clean samples' 95 % CI), or too few clean samples are left",
    "few-samples": "fewer than 9 samples: the CI is wide or uncovered",
    "multiplexed": "the kernel time-shared the hardware counters: counts are scaled estimates",
    "virtualized": "the run was in a virtual machine or container: a neighbour can steal time, "
    "and the timer and counters may be emulated",
    "freq-scaling": "the CPU frequency may change during the run (governor not 'performance', or "
    "turbo boost on): times can drift between samples",
    "kernel-excluded": "the hardware counters count user space only (perf_event_paranoid), so "
    "cycles miss the time spent in the kernel",
    "emulated": "the core ran under an emulator: times are the emulator's, not the target processor's",
    "host-clock": "timed on the host, from the arrival of the core's marks on its console, not by the "
    "board's clock (the host-clock table states the resolution)",
}

IMPL_NAMES = {0: "libc", 1: "ref", 2: "word", 3: "user"}


def build(store, refs=("latest",), with_compare=True):
    """The model of the runs `refs` (ids, names or 'latest') from `store`."""
    runs = [store.run(r) for r in (refs or ("latest",))]
    model = {"format": FORMAT, "version": VERSION, "runs": [run_model(store, run) for run in runs], "compare": []}
    if with_compare and len(runs) >= 2:
        model["compare"] = compare_model(store, [str(r["id"]) for r in runs])
    study = rtos_table.from_runs(store, runs)
    model["rtos_study"] = rtos_table.to_dict(study) if study is not None else None
    return model


# ---------------------------------------------------------------- one run
def run_model(store, run, with_series=True, beside=None):
    """The model of one run; with_series=False leaves out the plot series (the terminal view).
    beside: another run (bare metal, another OS) whose RTOS-study figures go beside this one's."""
    results = store.results(run["id"])
    fp = run.get("fingerprint") or {}
    notes = run.get("notes") or {}
    env = list(fp.get("flags") or [])
    if fp.get("emulated") and "emulated" not in env:
        env.append("emulated")
    rows = result_rows(results, env)
    used = sorted({f for r in rows for f in r["flags"]})
    nb = nbench_series(store, results, fp)
    study = None
    if run.get("suite") == "rtos-study" or (beside is not None and has_rtos_figures(results)):
        study = {"rows": rtos_study_rows(results), "beside": None}
        if beside is not None:
            bfp = beside.get("fingerprint") or {}
            label = bfp.get("board") or beside.get("name") or f"run {beside['id']}"
            study["beside"] = {"label": label, "rows": rtos_study_rows(store.results(beside["id"]))}
    entry = None
    if kernel_entry.present(results):
        entry = {"label": short_label(run), "rows": kernel_entry_rows(results), "beside": None}
        entry["host_clock"] = bool(fp.get("host_clock"))  # then nothing was subtracted
        if beside is not None:
            entry["beside"] = {"label": short_label(beside), "rows": kernel_entry_rows(store.results(beside["id"]))}
    return {
        "id": run["id"],
        "name": run.get("name"),
        "label": run_label(run),
        "started": when(run["started"], "%Y-%m-%d %H:%M"),
        "status": run["status"],
        "suite": run.get("suite"),
        "patterns": run.get("patterns") or [],
        "rounds": notes.get("rounds"),
        "incomplete": incomplete_text(run, len(results)),
        "machine": machine(fp, run.get("hello") or {}),
        "env_flags": [{"flag": f, "meaning": FLAG_MEANINGS.get(f, "")} for f in env],
        "flag_meanings": {f: FLAG_MEANINGS.get(f, "") for f in used},
        "preemption": preemption_note(results),
        "problems": problems(notes),
        "malformed": notes.get("malformed") or 0,
        "rows": rows,
        "families": families(rows),
        "essentials": essentials(run),
        "nbench": nb,
        "rtos_study": study,
        "kernel_entry": entry,
        "host_clock": hostclock.agreement(results),
        "series": series(store, run, results, nb) if with_series else {},
    }


def short_label(run):
    """A run in a column heading: its name, else its board, else its id."""
    return run.get("name") or (run.get("fingerprint") or {}).get("board") or f"run {run['id']}"


def kernel_entry_rows(results):
    """The kernel-entry figures of a run (analysis/kernel_entry.py), each with its cycles tag."""
    return [
        dict(r, tag=cycles_tag(r["cycles_method"]) if r["cycles_method"] else "") for r in kernel_entry.rows(results)
    ]


def has_rtos_figures(results):
    """Whether a run has any RTOS-study figure but the control loop (a run of the kernel-entry
    benchmarks alone puts only their table beside another run's)."""
    from ..analysis.rtos_study import PATTERNS

    return any(r["key"] in PATTERNS and r["key"] != "loop.control" for r in results)


SHOWN_PROBLEMS = 10


def problems(notes):
    """What went wrong in a run, first few first: the problems its rounds recorded, then those
    found while reading its log (an ingested run) -> {"first": [...], "more": how many not listed}."""
    ingested = notes.get("ingested") if isinstance(notes.get("ingested"), dict) else {}
    found = [str(p) for p in list(notes.get("problems") or []) + list(ingested.get("problems") or [])]
    found = list(dict.fromkeys(found))  # once each, in order
    total = len(found) + max(0, (_int(ingested.get("problem_count")) or 0) - len(ingested.get("problems") or []))
    return {"first": found[:SHOWN_PROBLEMS], "more": total - min(len(found), SHOWN_PROBLEMS)}


def _int(x):
    return x if isinstance(x, int) and not isinstance(x, bool) else None


# the fingerprint keys of a run's one-line header (the terminal's `show`)
HEADER_KEYS = ("cpu_model", "arch", "cpus_online", "kernel", "compiler", "cflags", "clock", "clock_res_ns")
HEADER_KEYS += ("cycles_method", "virtualization", "qemu_icount", "flags", "target_uri", "host", "ingested_on")


def essentials(run):
    """What a run's header says: id, name, start, status, rounds, and the fingerprint's
    essentials (those it has), the cycles method with its short tag."""
    fp = run.get("fingerprint") or {}
    out = {k: fp[k] for k in HEADER_KEYS if k in fp}
    method = fp.get("cycles_method") or "none"
    out["cycles_method"] = method
    out["cycles_tag"] = cycles_tag(method)
    return {
        "id": run["id"],
        "name": run.get("name"),
        "started": when(run["started"], "%Y-%m-%d %H:%M"),
        "status": run["status"],
        "rounds": (run.get("notes") or {}).get("rounds", "?"),
        "samples": _samples(run),
        "where": where(fp),
        "fingerprint": out,
    }


def _samples(run):
    """'5 of 10 ms' per round: what the core said it ran (its hello), else the run's options ->
    text or None when neither recorded it."""
    hello, opts = run.get("hello") or {}, run.get("options") or {}
    n = hello.get("samples", opts.get("samples"))
    ms = hello.get("sample_ms", opts.get("sample_ms"))
    if not isinstance(n, int) or isinstance(n, bool):
        return None
    return f"{n} of {ms} ms" if isinstance(ms, int) and not isinstance(ms, bool) else str(n)


def cycles_tag(method):
    """The short tag of a cycles method for a table column ('cal', 'insn'); the method itself
    when the registry does not know it."""
    return fingerprint.CYCLES_METHODS.get(method or "none", (method or "",))[0]


def rtos_study_rows(results):
    """The RTOS-vs-Linux study figures of a run (analysis/rtos_study.py), each with the cycles
    the study published."""
    from ..analysis.rtos_study import STUDY_CYCLES, rows

    out = []
    for row in rows(results):
        study = STUDY_CYCLES.get(row["figure"])
        out.append(dict(row, study=list(study) if study else None))
    return out


def run_label(run):
    fp = run.get("fingerprint") or {}
    base = run.get("name") or f"run {run['id']}"
    v = fp.get("variant")
    return f"{base} ({v})" if v and v != run.get("name") else base


def incomplete_text(run, n_results):
    if run["status"] == "complete":
        return None
    notes = run.get("notes") or {}
    planned = notes.get("planned")
    of = f" of {planned}" if planned else ""
    rnd = notes.get("round_in_progress")
    where = f" in round {rnd}" if rnd else ""
    how = "interrupted" if run["status"] == "incomplete" else "killed or still running"
    if run["status"] == "incomplete" and notes.get("incomplete"):  # the reason the run recorded
        how = str(notes["incomplete"])
        where = "" if how.startswith("round ") else where
    return printable(f"INCOMPLETE: {how}{where} after {n_results}{of} instances")


def machine(fp, hello):
    """The fingerprint essentials as (what, value) pairs, in words (a setting that was not
    recorded reads 'unknown', never None)."""

    def j(*xs):
        return " ".join(str(x) for x in xs if x not in (None, "")) or "unknown"

    timer = known(fp.get("clock"))
    if fp.get("clock_res_ns") is not None:
        timer += f", resolution {fp['clock_res_ns']} ns"
    if fp.get("timer_overhead_ps"):
        timer += f", read costs {fp['timer_overhead_ps'] / 1000:.1f} ns"
    cyc = fp.get("cycles_method") or "none"
    cyc_words = fingerprint.CYCLES_METHODS.get(cyc, ("", cyc))[1]
    if cyc == "calibrated-freq" and fp.get("fcore_khz"):
        cyc_words += f", {fp['fcore_khz'] / 1e6:.2f} GHz"
    caches = (
        ", ".join(
            f"L{c.get('level')} {c.get('type', '').lower()} {c.get('size')}".replace("  ", " ")
            for c in fp.get("caches") or []
            if c.get("size")
        )
        or "not reported"
    )
    out = [
        ("CPU", j(fp.get("cpu_model"), f"({known(fp.get('arch'))}, {known(fp.get('cpus_online'), '?')} CPUs)")),
        ("caches (OS)", caches),
        ("OS", j(fp.get("os"), "kernel", known(fp.get("kernel")), fp.get("libc") and f"({fp['libc']})")),
        ("compiler", j(fp.get("compiler"), fp.get("cflags"))),
        ("variant", fp.get("variant") or "-"),
        ("timer", timer),
        ("cycles", cyc_words),
        ("frequency", f"governor {known(fp.get('governor'))}, boost {known(fp.get('boost'))}"),
        ("virtualization", known(fp.get("virtualization"))),
        ("memory", f"page {known(fp.get('page_size'), '?')} B, transparent huge pages {known(fp.get('thp'))}"),
        ("target", where(fp)),
    ]
    if fp.get("board"):
        out.append(("board", str(fp["board"])))
    if fp.get("qemu_icount"):
        out.append(("time base", f"QEMU -icount {fp['qemu_icount']}: virtual time, 1 ns = 1 guest instruction"))
    if fp.get("target"):
        out.append(("target triple", str(fp["target"])))
    if fp.get("binary_sha256"):
        out.append(("core binary", f"sha256 {fp['binary_sha256'][:16]}"))
    return [[k, printable(v)] for k, v in out]


def where(fp):
    """Where a run ran, in words: its target (local, ssh://..., serial:..., a log it was read
    from) and the host that drove it."""
    uri = fp.get("target_uri")
    text = known(uri, "not recorded")
    if fp.get("host"):
        text += f" (driven from {known(fp['host'])})"
    elif fp.get("ingested_on"):
        text += f" (read on {known(fp['ingested_on'])})"
    return text


def preemption_note(results):
    """One sentence on preemption for the run header (None when no sample was preempted)."""
    hit = moved = 0
    for r in results:
        d = Stats.of(r).main
        if d is None:
            continue
        n = d.preempted_samples
        if n is None:  # statistics without this count: the flag is all there is
            n = 1 if "preempted" in d.flags else 0
        if n:
            hit += 1
            moved += "preempted" in d.flags
    if not hit:
        return None
    return preemption_text(hit, len(results), moved)


def preemption_text(hit, n, moved):
    """The header's sentence on preemption: how many results had preempted samples, and in how
    many of them that changed the result (those are flagged)."""
    said = f"{hit} of {n} results had samples preempted by a context switch or a CPU migration, even after one retake; "
    if not moved:
        return said + "none of these results changed because of it"
    return said + f"it changed {moved} of these results (flagged 'preempted')"


def _num(x):
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return None
    return x


def _metric_row(r, sub, d, env):
    """One table row of a metric (d: a stats.Summary)."""
    return {
        "key": r["key"],
        "bench": r["bench"],
        "family": r["bench"].split(".", 1)[0],
        "params": r.get("params") or {},
        "metric": sub,
        "status": "ok",
        "reason": "",
        "unit": d.unit,
        "stat": r.get("stat"),
        "value": _num(d.value),
        "value_text": fmt.fmt_value(d),
        "ns_per_op": _num(d.ns_per_op),
        "cycles_per_op": _num(d.cycles_per_op),
        "cycles_method": d.cycles_method,
        "cycles_tag": cycles_tag(d.cycles_method) if d.cycles_method else "",
        "ops_per_s": _num(d.ops_per_s),
        "median": _num(d.median),
        "ci95_lo": _num(d.ci95_lo),
        "ci95_hi": _num(d.ci95_hi),
        "ci_pct": _num(d.ci_rel),
        "rcv": _num(d.rcv),
        "round_cv": _num(d.round_cv),
        "determinism": _num(d.determinism),
        "n": d.n,
        "rounds": d.rounds,
        "flags": [f for f in d.flags if f not in env],
        "hist": d.hist if not sub else None,
    }


def result_rows(results, env=()):
    """One row per benchmark instance (its headline) and one per sub-metric, ordered by
    benchmark name then parameters in numeric order; failed, skipped and crashed instances
    keep their status and reason."""
    rows = []
    for r in sorted(results, key=_order):
        st = Stats.of(r)
        main = st.main
        if r["status"] != "ok" or not main:
            rows.append(
                {
                    "key": r["key"],
                    "bench": r["bench"],
                    "family": r["bench"].split(".", 1)[0],
                    "params": r.get("params") or {},
                    "metric": "",
                    "status": r["status"] if r["status"] != "ok" else "no data",
                    "reason": r.get("reason") or "",
                    "flags": [],
                    "hist": None,
                }
            )
            continue
        rows.append(_metric_row(r, "", main, env))
        for sub, d in st.subs.items():
            rows.append(_metric_row(r, sub, d, env))
    return rows


def _order(r):
    return (
        r["bench"],
        [
            (k, (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v)))
            for k, v in sorted((r.get("params") or {}).items())
        ],
    )


def families(rows):
    """[{family, n, ok, unstable, max_det}] in name order: the per-family summary line."""
    out = {}
    for r in rows:
        if r["metric"]:
            continue
        f = out.setdefault(r["family"], {"family": r["family"], "n": 0, "ok": 0, "flagged": 0, "max_determinism": None})
        f["n"] += 1
        if r["status"] == "ok":
            f["ok"] += 1
            f["flagged"] += bool(r["flags"])
            det = r.get("determinism")
            if det is not None and (f["max_determinism"] is None or det > f["max_determinism"]):
                f["max_determinism"] = det
    return [out[k] for k in sorted(out)]


# ---------------------------------------------------------------- series for the plots
def _ok(results, pred):
    """(result, headline Summary) of the results that are ok and match pred."""
    for r in results:
        if r["status"] != "ok" or not pred(r):
            continue
        main = Stats.of(r).main
        if main is not None:
            yield r, main


def series(store, run, results, nb=None):
    out = {}
    lat = latency_series(run, results)
    if lat:
        out["latency"] = lat
    ring = ctx_ring_series(results)
    if ring:
        out["ctx_ring"] = ring
    hists = hist_series(store, results)
    if hists:
        out["hists"] = hists
    bw = bandwidth_series(results)
    if bw:
        out["bandwidth"] = bw
    if nb:
        out["nbench"] = nb
    prof = profile_series(store, run)
    if prof:
        out["profiles"] = prof
    return out


def os_levels(fp):
    """The cache levels the target's OS reported (from the run's fingerprint)."""
    out = []
    for c in fp.get("caches") or []:
        if (c.get("type") or "").lower() == "instruction":
            continue
        size = parse_size(c.get("size"))
        if size and decimal(str(c.get("level", "")), 2) is not None:
            out.append({"name": f"L{c['level']}", "size": size})
    return sorted(out, key=lambda x: x["size"])


def parse_size(text):
    if text is None:
        return None
    t = str(text).strip().upper().rstrip("B").rstrip("I")
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:], 1)
    num = t[:-1] if t[-1:] in "KMG" else t
    return decimal(num) * mult if decimal(num) is not None else None


def latency_series(run, results):
    """mem.lat_rand: minimum latency over the working set (4 KiB and huge pages; the page-local
    chase mem.lat_pagelocal beside them where it was run), the levels
    detected from the curve (topology.analyse) and the levels the OS reports."""
    from ..analysis import topology

    if not any(r["bench"] == "mem.lat_rand" and r["status"] == "ok" for r in results):
        return None
    fp = run.get("fingerprint") or {}
    det = topology.analyse(results, fp.get("fcore_khz") or 0)
    levels = [
        {
            "name": lv["name"],
            "size": lv.get("size"),
            "latency_ns": lv.get("latency_ns"),
            "at_size": lv.get("at_size"),
            "confidence": lv.get("confidence"),
            "latency_cycles": lv.get("latency_cycles"),
        }
        for lv in det.get("levels", [])
    ]
    line = det.get("line_size") or {}
    tlb = det.get("tlb_reach") or {}
    return {
        "points_4k": [list(p) for p in det["points"]["lat_4k"]],
        "points_huge": [list(p) for p in det["points"]["lat_huge"]],
        "points_pagelocal": [list(p) for p in det["points"]["pagelocal"]],
        "levels": levels,
        "os_levels": os_levels(fp),
        "line_size": line.get("bytes"),
        "tlb_reach": tlb.get("bytes"),
    }


def ctx_ring_series(results):
    """sched.ctx_ring: time per hop over the ring size, one line per private data size."""
    lines = {}
    for r, d in _ok(results, lambda r: r["bench"] == "sched.ctx_ring"):
        p = r.get("params") or {}
        if "procs" not in p:
            continue
        lines.setdefault(p.get("size", 0), []).append([p["procs"], d.value, d.ci95_lo, d.ci95_hi])
    return [{"size_kib": s, "points": sorted(pts)} for s, pts in sorted(lines.items())]


def hist_series(store, results):
    """Event-latency histograms (timer.cyclic*, ping-pongs): merged buckets and percentiles."""
    out = []
    for r, d in _ok(sorted(results, key=_order), lambda r: True):
        if not d.hist:
            continue
        counts = {}
        for h in store.hists(r["id"]):
            for lower, count in h.get("buckets", []):
                counts[lower] = counts.get(lower, 0) + count
        h = d.hist
        out.append(
            {
                "key": r["key"],
                "buckets": [[b, counts[b]] for b in sorted(counts)],
                "count": h.get("count"),
                "min": h.get("min"),
                "p50": h.get("p50"),
                "p99": h.get("p99"),
                "p99.9": h.get("p99.9"),
                "max": h.get("max"),
            }
        )
    return out


def bandwidth_series(results):
    """Bandwidth over size: mem.bw_* (one line per routine) and memfn.* (one panel per routine,
    one line per implementation; MB/s = bytes per call / time per call, geometric mean over the
    alignments and directions)."""
    from ..analysis.memfn import table_rows

    mem = {}
    for r, d in _ok(results, lambda r: r["bench"].startswith("mem.bw_")):
        p = dict(r.get("params") or {})
        size = p.pop("size", None)
        if not size or not d.is_bandwidth or "threads" in p:  # thread scaling is not a size sweep
            continue
        label = " ".join([r["bench"].split("_", 1)[1]] + [f"{k}={v}" for k, v in sorted(p.items())])
        mem.setdefault(label, []).append([size, d.value])
    out = [{"group": "mem.bw", "routine": k, "impl": None, "points": sorted(v)} for k, v in sorted(mem.items())]
    rows, failures = table_rows(results)
    lines = {}
    for routine, size, ns, _, _ in rows:
        for impl, t in ns.items():
            if size and t:
                lines.setdefault((routine, impl), []).append([size, size * 1000.0 / t])
    order = list(IMPL_NAMES.values())
    for (routine, impl), pts in sorted(
        lines.items(), key=lambda kv: (kv[0][0], order.index(kv[0][1]) if kv[0][1] in order else 9)
    ):
        out.append(
            {
                "group": f"memfn.{routine}",
                "routine": routine,
                "impl": impl,
                "points": sorted(pts),
                "failed": failures.get((routine, impl)),
            }
        )
    return out


ICOUNT_NBENCH = (
    "QEMU -icount: time is virtual (1 ns = 1 guest instruction), so these rates are iterations per "
    "10^9 guest instructions; BYTEmark indices compare times with a real Pentium 90 and AMD K6/233, "
    "so none is computed"
)


def nbench_series(store, results, fp=None):
    """The nbench figures of a run's cpu.* kernels; under QEMU -icount (instructions, not time)
    the rates with a caveat and no BYTEmark index."""
    from ..analysis import nbench

    mine = [r for r in results if r["key"] in nbench.NAMES]
    if not mine:
        return None
    rows, (orig, linux) = nbench.summarize(mine, lambda r: store.samples(r["id"]))
    out = {
        "rows": [
            {
                k: row.get(k)
                for k in ("name", "label", "status", "reason", "rate", "old", "new", "ci", "n", "basis", "certain")
            }
            for row in rows
        ],
        "original_groups": orig,
        "linux_groups": linux,
        "caveat": None,
    }
    fp = fp or {}
    if fp.get("qemu_icount") or fp.get("cycles_method") == "icount-insns":
        for row in out["rows"]:
            row["old"] = row["new"] = None
        out["original_groups"] = {g: None for g in orig}
        out["linux_groups"] = {g: None for g in linux}
        out["caveat"] = ICOUNT_NBENCH
    return out


def profile_series(store, run, top=15):
    """Stored profiles (tickmark profile): per benchmark, its routines ranked by their own
    share of the sampled time, with the time per operation that share stands for."""
    from ..profile.model import GROUPS, group_shares

    profs = store.profiles(run["id"])
    out = []
    for key in sorted(profs or {}):
        p = profs[key]
        ns = p.get("ns_per_op")
        ranked = sorted((r for r in p.get("routines") or [] if r.get("self", 0) > 0), key=lambda r: -r["self"])
        shares = group_shares(p)
        out.append(
            {
                "key": key,
                "tool": p.get("tool"),
                "event": p.get("event"),
                "hits": p.get("hits"),
                "ns_per_op": ns,
                "unit": p.get("unit") or "op",
                "kernel": p.get("kernel"),
                "notes": list(p.get("notes") or []),
                "groups": [[g, shares.get(g, 0.0)] for g in GROUPS],
                "routines": [
                    {
                        "name": r["name"],
                        "group": r.get("group"),
                        "self": r["self"],
                        "total": r.get("total"),
                        "ns_per_op": r["self"] * ns if ns is not None else None,
                    }
                    for r in ranked[:top]
                ],
                "more": max(0, len(ranked) - top),
            }
        )
    return out or None


# ---------------------------------------------------------------- the other terminal views
def counters_model(store, run):
    """The counter-derived figures of a run (show --counters): what the machine could count,
    and per result its ratios, counts per operation and multiplexed share."""
    from ..analysis.counters import availability, derived

    rows = []
    for r in store.results(run["id"]):
        main = Stats.of(r).main
        d = main.counter_figures() if main and main.counters_per_op else derived(store.samples(r["id"]))
        if d:
            rows.append(dict(d, key=r["key"]))
    return {"availability": availability(run.get("hello")), "rows": sorted(rows, key=lambda x: x["key"])}


def bandwidth_model(results, run=None):
    """The bandwidth tables of a run (analysis/bandwidth.py): MB/s per size and way of moving the
    bytes with one CPU, and with every CPU at once ([total, x of one CPU] per operation), each
    size with the cache level it fits (from the run's topology notes, else the OS); the notes
    that explain a column."""
    from ..analysis.bandwidth import caches_for, cores_rows, table_rows

    caches, src = caches_for(run)
    header, rows = table_rows(results, caches)
    n, crows = cores_rows(results, caches)
    notes = []
    if "move" in header:
        notes.append("move: memmove 256 bytes down inside one buffer (in place: no read for ownership)")
    if any(size == 32 << 20 for size, _, _ in rows):
        notes.append(
            "tinymembench: its 'standard memcpy' and 'standard memset' are the 32M row's copy and memset, "
            "best of runs of at least 0.5 s (tickmark run 'mem.bw_*' --sample-ms 500 for the same method)"
        )
    return {
        "levels_from": src,
        "header": header,
        "rows": [{"size": size, "level": lvl, "cells": row} for size, lvl, row in rows],
        "cores": {
            "threads": n,
            "ops": [op for op in ("read", "write", "copy") if any(op in r for _, _, r in crows)],
            "rows": [
                {"size": size, "level": lvl, "cells": {op: list(v) for op, v in row.items()}}
                for size, lvl, row in crows
            ],
        },
        "notes": notes,
    }


def memfn_model(results):
    """The memfn.* comparison (analysis/memfn.py): per routine and size, the time of each
    implementation, the winner and its margin; the implementations that failed verification."""
    from ..analysis.memfn import IMPLS, table_rows

    rows, failures = table_rows(results)
    impls = [i for i in IMPLS.values() if any(i in ns for _, _, ns, _, _ in rows)]
    return {
        "impls": impls,
        "rows": [
            {"routine": routine, "size": size, "ns": ns, "winner": win, "margin": margin}
            for routine, size, ns, win, margin in rows
        ],
        "failures": [
            {"routine": routine, "impl": impl, "reason": reason} for (routine, impl), reason in sorted(failures.items())
        ],
    }


def topology_model(det, osr, runs):
    """What `tickmark topology` found (analysis/topology.py's detection `det` over the runs)
    beside what the OS reports (`osr`), with the verdict of each comparison."""
    from ..analysis.topology import compare, cycle_warning, doubts

    return {
        "runs": list(runs),
        "detected": det,
        "os": osr,
        "checks": [list(c) for c in compare(det, osr)],
        "doubts": [list(d) for d in doubts(det, osr)],
        "cycle_warning": cycle_warning(det),
    }


def campaign_model(store, spec, cells):
    """A campaign's summary: its cells and their states, then for each variant and workload the
    other targets' runs against the baseline target's (comparison)."""
    from ..store.refs import run_compare

    counts = {}
    for c in cells:
        counts[c.state] = counts.get(c.state, 0) + 1
    complete = {(c.target, c.variant, c.workload): c for c in cells if c.state in ("done", "finished")}
    groups = []
    for v in spec.variants:
        for wl in spec.workloads:
            order = [spec.baseline] + [t for t in spec.targets if t != spec.baseline]
            runs = [complete[(t, v, wl)].run_name for t in order if (t, v, wl) in complete]
            if len(runs) >= 2:
                g = {"variant": v, "workload": wl, "baseline": runs[0], "comparison": None, "error": None}
                try:
                    g["comparison"] = comparison(*run_compare(store, runs))
                except TickmarkError as e:  # runs in different units (QEMU icount beside time)
                    g["error"] = str(e)
                study = rtos_table.from_runs(store, [store.run(r) for r in runs])  # the rtos-study suite
                g["rtos_study"] = rtos_table.to_dict(study) if study is not None else None
                groups.append(g)
    return {
        "name": spec.name,
        "targets": len(spec.targets),
        "variants": len(spec.variants),
        "workloads": len(spec.workloads),
        "cells": [
            {
                "id": c.id,
                "state": c.state,
                "run_id": c.run_id,
                "results": c.results,
                "seconds": c.seconds,
                "message": c.message,
            }
            for c in cells
        ],
        "counts": counts,
        "groups": groups,
    }


# ---------------------------------------------------------------- comparison
def comparison(sides, pairs):
    """Compared runs (compare.py's sides and pairs) as the views read them: the runs with what
    their machines could count, and per pair (the baseline A against B) the rows, the family
    means, the fingerprint differences with their labels, and a warning when one side ran
    emulated and the other did not. Rows in compare.py's order."""
    from ..analysis import compare

    doc = compare.to_json(sides, pairs)
    by_label = {s.label: s for s in sides}
    for c in doc["comparisons"]:
        c["warning"] = compare.mixing_warning(by_label[c["a"]], by_label[c["b"]])
        if c.get("isa") and not c["warning"]:
            c["warning"] = (
                f"{c['b']} ({c['isa'][1]}) and {c['a']} ({c['isa'][0]}) counted guest instructions (QEMU -icount) "
                "of two instruction sets: the ratios compare instruction counts, not speed, and call no verdict"
            )
        for d in c["differences"]:
            d["label"] = fingerprint.KEYS[d["field"]].label
            d["a"], d["b"] = known(d["a"], "not recorded"), known(d["b"], "not recorded")
        for f in c["families"].values():
            ratio = f["geomean_time_ratio"]
            f["multiple"] = compare.insn_multiple(ratio) if c.get("isa") else compare.multiple(ratio)
    return doc


def _key_order(key):
    """'bench[a=1,b=64K]' -> a sort key with the parameters in numeric order."""
    bench, _, rest = key.partition("[")
    params = []
    for kv in rest.rstrip("]").split(","):
        k, _, v = kv.partition("=")
        params.append((k, (0, decimal(v), "") if decimal(v) is not None else (1, 0, v)))
    return (bench, params)


ROW_KEYS = (
    "metric",
    "unit",
    "median_a",
    "median_b",
    "ratio",
    "ci",
    "p",
    "verdict",
    "multiple",
    "det_a",
    "det_b",
    "rounds_needed",
    "note",
)


def compare_model(store, refs):
    """The first run against each other: rows with ratio, CI, verdict; family geometric means;
    fingerprint differences (compare.py's statistics, as its JSON)."""
    from ..store.refs import run_compare

    sides, pairs = run_compare(store, refs)
    doc = comparison(sides, pairs)
    for c in doc["comparisons"]:
        c["rows"].sort(key=lambda r: _key_order(r["key"]) + (r.get("metric") or "",))
        for r in c["rows"]:
            r["family"] = r["bench"].split(".", 1)[0]
            for k in ROW_KEYS:  # every row has every field (None where compare has nothing)
                r.setdefault(k, None)
    return doc["comparisons"]
