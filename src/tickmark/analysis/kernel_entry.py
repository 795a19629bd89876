"""The kernel-entry table: what it costs to enter the kernel and come back, one way per row (a
system call, a data abort, an undefined instruction, a software-raised interrupt: the trap.*
benchmarks), with the control loop they were measured against, from one run's results, to be
put beside another run's (bare metal beside Linux on the same CPU). Each figure already has the
control loop subtracted; a row says what the benchmark did where it skipped (Linux has no
software interrupt for user space; a port that owns no vectors)."""

from __future__ import annotations

from typing import Any

from ..base.shapes import Row
from .stats import Stats

# (figure, benchmark key)
FIGURES = [
    ("system call", "trap.syscall"),
    ("data abort", "trap.abort"),
    ("undefined instr.", "trap.undef"),
    ("software interrupt", "trap.irq"),
    ("control loop", "loop.control"),
]


def present(results: list[Row]) -> bool:
    """Whether a run has kernel-entry results to show."""
    return any(r["key"].startswith("trap.") for r in results)


def rows(results: list[Row]) -> list[dict[str, Any]]:
    """One dict per figure: figure, key, ns, per_s, cycles, cycles_method, status, reason."""
    by_key = {r["key"]: r for r in results}
    out: list[dict[str, Any]] = []
    for figure, key in FIGURES:
        r = by_key.get(key)
        row: dict[str, Any] = {
            "figure": figure,
            "key": key,
            "ns": None,
            "per_s": None,
            "cycles": None,
            "cycles_method": None,
        }
        row["status"], row["reason"] = ("missing", "not run") if r is None else (r["status"], r.get("reason") or "")
        main = Stats.of(r).main if r is not None and r["status"] == "ok" else None
        if main is not None and main.median:
            row.update(ns=main.median, per_s=1e9 / main.median, cycles=main.cycles_per_op)
            row["cycles_method"] = main.cycles_method
        out.append(row)
    return out
