"""Figures derived from the event counters of the core's samples (`ctr` deltas over `ctr_ops`
operations): per operation counts, and the ratios the studies quote (IPC, front/back-end stall
fractions, branch-miss rate, cache-miss rate). Each figure is computed per sample and summarised
by the median over the samples. What a machine cannot count is reported, never guessed.
"""

from __future__ import annotations

from typing import Any

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


# what an exact-count run (QEMU -icount) cannot show honestly: a time (task-clock counts the
# guest's virtual nanoseconds, i.e. instructions) and what is over "cycles" (there the cycle
# counter counts instructions too: an IPC of 1.00, cycles that are the headline again)
NOT_COUNTS = ("task_clock", "cycles", "on_cpu") + tuple(n for n, (_, den) in RATIOS.items() if den == "cycles")


def counts_only(figures: dict[str, Any]) -> dict[str, Any]:
    """Counter figures (derived()'s) of an exact-count run without those that are times or over
    cycles (NOT_COUNTS); the counts per operation that are counts stay -> dict ({} stays {})."""
    if not figures:
        return figures
    out = {k: v for k, v in figures.items() if k not in NOT_COUNTS}
    if "per_op" in figures:
        out["per_op"] = {k: v for k, v in figures["per_op"].items() if k not in NOT_COUNTS}
    return out if out.get("per_op") or set(out) - {"per_op", "multiplexed"} else {}


def _ctr_ops(s: dict[str, Any]) -> Any:
    return s.get("ctr_ops") or s.get("ops")


def derived(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """{"per_op": {counter: median per op}, "ipc": .., "stall_fe": .., ..., "multiplexed": frac}
    from samples with `ctr`; {} when no sample has counters."""
    with_ctr = [s for s in samples if s.get("ctr") and _ctr_ops(s)]
    if not with_ctr:
        return {}
    names = sorted({k for s in with_ctr for k in s["ctr"]})
    per_op: dict[str, float] = {}
    out: dict[str, Any] = {"per_op": per_op}
    for k in names:
        vals = [s["ctr"][k] / _ctr_ops(s) for s in with_ctr if k in s["ctr"]]
        per_op[k] = float(np.median(vals))
    for name, (num, den) in RATIOS.items():
        vals = [s["ctr"][num] / s["ctr"][den] for s in with_ctr if s["ctr"].get(den) and num in s["ctr"]]
        if vals:
            out[name] = float(np.median(vals))
    out["multiplexed"] = sum(1 for s in with_ctr if s.get("multiplexed")) / len(with_ctr)
    return out


# under QEMU -icount, whatever the system opened (Linux perf's cycles and instructions, an RTOS's
# cycle counter): every hardware counter counts the guest instructions the figures already are
ICOUNT_STATUS = "guest instructions only: under QEMU -icount the cycle and instruction counters count them"


def availability(hello: dict[str, Any] | None, cycles_method: str | None = None) -> dict[str, Any]:
    """What the core could count on the machine of a run, from its hello record (and the run's
    cycles method: under QEMU -icount a board's "cycles" counter counts instructions):
    {"hardware": [...], "software": [...], "unsupported": [...], "hardware_status": text,
     "kernel_excluded": bool, "grouped": int}."""
    hello = hello or {}
    opened = list(hello.get("counters") or [])
    if cycles_method == "icount-insns":
        opened = [c for c in opened if c != "cycles"]
    unsup = [x for x in (hello.get("counters_unsupported") or "").split(",") if x]
    hw = [c for c in opened if c in HARDWARE]
    sw = [c for c in opened if c in SOFTWARE]
    if cycles_method == "icount-insns" and hello:
        status = ICOUNT_STATUS
    elif hw:
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
