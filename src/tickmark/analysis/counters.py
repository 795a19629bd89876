"""Figures derived from the event counters of the core's samples (`ctr` deltas over `ctr_ops`
operations): per operation counts, and the ratios the studies quote (IPC, front/back-end stall
fractions, branch-miss rate, cache-miss rate). Each figure is computed per sample and summarised
by the median over the samples. What a machine cannot count is reported, never guessed.
"""

import numpy as np

HARDWARE = (
    "cycles",
    "instructions",
    "branches",
    "branch_misses",
    "stalled_frontend",
    "stalled_backend",
    "cache_references",
    "cache_misses",
)
SOFTWARE = ("task_clock", "context_switches", "cpu_migrations", "page_faults")
NOT_SUPPORTED = "not supported here"

# name -> (numerator, denominator); a ratio needs both counters in the same sample.
RATIOS = {
    "ipc": ("instructions", "cycles"),
    "stall_fe": ("stalled_frontend", "cycles"),
    "stall_be": ("stalled_backend", "cycles"),
    "branch_miss_rate": ("branch_misses", "branches"),
    "cache_miss_rate": ("cache_misses", "cache_references"),
}


def _ctr_ops(s):
    return s.get("ctr_ops") or s.get("ops")


def derived(samples):
    """{"per_op": {counter: median per op}, "ipc": .., "stall_fe": .., ..., "multiplexed": frac}
    from samples with `ctr`; {} when no sample has counters."""
    with_ctr = [s for s in samples if s.get("ctr") and _ctr_ops(s)]
    if not with_ctr:
        return {}
    names = sorted({k for s in with_ctr for k in s["ctr"]})
    out = {"per_op": {}}
    for k in names:
        vals = [s["ctr"][k] / _ctr_ops(s) for s in with_ctr if k in s["ctr"]]
        out["per_op"][k] = float(np.median(vals))
    for name, (num, den) in RATIOS.items():
        vals = [s["ctr"][num] / s["ctr"][den] for s in with_ctr if s["ctr"].get(den) and num in s["ctr"]]
        if vals:
            out[name] = float(np.median(vals))
    out["multiplexed"] = sum(1 for s in with_ctr if s.get("multiplexed")) / len(with_ctr)
    return out


def availability(hello):
    """What the core could count on the machine of a run, from its hello record:
    {"hardware": [...], "software": [...], "unsupported": [...], "hardware_status": text,
     "kernel_excluded": bool, "grouped": int}."""
    hello = hello or {}
    opened = list(hello.get("counters") or [])
    unsup = [x for x in (hello.get("counters_unsupported") or "").split(",") if x]
    hw = [c for c in opened if c in HARDWARE]
    sw = [c for c in opened if c in SOFTWARE]
    if hw:
        status = ", ".join(hw)
        if hello.get("counters_grouped"):
            status += f" (grouped: {hello['counters_grouped']})"
        if hello.get("kernel_excluded"):
            status += ", kernel-excluded"
    elif not hello:
        status = "unknown (no hello record)"
    else:
        status = NOT_SUPPORTED
    return {
        "hardware": hw,
        "software": sw,
        "unsupported": unsup,
        "hardware_status": status,
        "kernel_excluded": bool(hello.get("kernel_excluded")),
        "grouped": hello.get("counters_grouped", 0),
    }


def fmt_ratio(name, v):
    if v is None:
        return "-"
    if name == "ipc":
        return f"{v:.2f}"
    return f"{v * 100:.1f}%"


def fmt_per_op(name, v):
    """A per-operation counter value: task_clock in time units, others as counts."""
    from .fmt import fmt_time
    from .fmt import sig as _sig

    if v is None:
        return "-"
    if name == "task_clock":
        return fmt_time(v)
    return _sig(v)


def show(store, run, file=None):
    """Table of the counter-derived figures of a stored run (tickmark show --counters)."""
    import sys

    from rich import box
    from rich.table import Table

    from .fmt import console, fit_table
    from .stats import Stats

    con = console(file or sys.stdout)
    plain = not con.is_terminal
    av = availability(run.get("hello"))
    con.print(
        f"hardware counters: {av['hardware_status']}; software counters: {', '.join(av['software']) or NOT_SUPPORTED}",
        markup=False,
    )
    t = Table(
        box=box.ASCII2 if plain else box.SIMPLE_HEAD,
        pad_edge=False,
        show_edge=False,
        header_style=None if plain else "bold",
    )
    cols = [
        ("IPC", "ipc", None),
        ("FE stall", "stall_fe", None),
        ("BE stall", "stall_be", None),
        ("br-miss", "branch_miss_rate", None),
        ("cache-miss", "cache_miss_rate", None),
        ("instr/op", None, "instructions"),
        ("misses/op", None, "cache_misses"),
        ("task-clock/op", None, "task_clock"),
        ("ctx-sw/op", None, "context_switches"),
        ("migr/op", None, "cpu_migrations"),
        ("faults/op", None, "page_faults"),
    ]
    rows = []
    for r in store.results(run["id"]):
        main = Stats.of(r).main
        d = main.counter_figures() if main and main.counters_per_op else derived(store.samples(r["id"]))
        if d:
            rows.append((r["key"], d))
    used = [c for c in cols if any((c[1] and c[1] in d) or (c[2] and c[2] in d.get("per_op", {})) for _, d in rows)]
    t.add_column("benchmark", no_wrap=True)
    for head, _, _ in used:
        t.add_column(head, justify="right", no_wrap=True)
    t.add_column("multiplexed", justify="right")
    for key, d in sorted(rows):
        cells = [
            fmt_ratio(c[1], d.get(c[1])) if c[1] else fmt_per_op(c[2], d.get("per_op", {}).get(c[2])) for c in used
        ]
        t.add_row(key, *cells, f"{d.get('multiplexed', 0) * 100:.0f}%" if d.get("multiplexed") else "-")
    if rows:
        fit_table(con, t)
        con.print(t)
    else:
        con.print("(no counter data in this run)")
    if av["kernel_excluded"]:
        con.print("kernel-excluded: counters count user space only (perf_event_paranoid)")
