"""The kernel-entry table and the host-clock table as plain data, with the texts every view
shows (terminal, Markdown, HTML and JSON render these and compute nothing of their own).

kernel_entry_model: one row per system (a run: bare metal on a board, FreeRTOS, Linux under
qemu-system, this machine's Linux), one cell per way into the kernel (analysis/kernel_entry.py):
the cost of one entry with the control loop subtracted, in guest instructions under QEMU -icount,
in counted cycles where a cycle counter was open, else in time, and the entries per second; a
cell without a figure says why (numbered notes under the table hold the reasons).

host_clock_model: a host-timed run's figures (analysis/hostclock.py): per result the time per
operation by the host and by the board's clock over the same chunks, and what they mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, TypedDict

from ...analysis import hostclock, kernel_entry, rtos_table
from ...base import fmt
from ...base.exact import ICOUNT_METHOD
from ...base.fmt import fmt_rate, fmt_time
from ...base.shapes import Row, StoreReader
from ...facts.fingerprint import CYCLES_METHODS

# the cycle methods that count (a figure in them is not time in other units): QEMU's guest
# instructions and the hardware cycle counters
COUNTED = (ICOUNT_METHOD, "perf", "pmu")
# the units of a figure (the tags of COUNTED's methods), in words
UNIT_WORDS = {
    "insn": "guest instructions counted by QEMU -icount (the same on every run with one seed; a count, "
    "not a time, so no rate): the instructions of the trap and its handler, not the hardware's "
    "exception entry, which QEMU does not count; a data abort's faulting load is not counted either "
    "(it never completes), while a system call's and an undefined instruction's trapping instruction is",
    "perf": "cycles (hardware counter, perf)",
    "pmu": "cycles (hardware counter, PMU registers)",
}
# a table whose rows count unlike things says so
MIXED = (
    "the rows are in different units (guest instructions of an emulated board, cycles or times of a "
    "real machine): compare a row's figures with each other, not across units"
)
HOST_CLOCK_NOTE = "host clock: timed from the host, the control loop included (time loop.control beside it)"


class System(TypedDict):
    """One system (a run) of the kernel-entry table: a cell per way into the kernel."""

    run: int
    name: str | None
    label: str
    host_clock: bool
    cells: list[dict[str, Any]]


class KernelEntryTable(TypedDict):
    title: str
    figures: list[dict[str, str]]
    systems: list[System]
    notes: list[dict[str, Any]]
    units: str
    host_clock_note: str | None


class HostClockTable(TypedDict):
    title: str
    rows: list[dict[str, Any]]
    notes: list[str]


def system_label(run: Row) -> str:
    """A run as a system in a word and where it ran: 'bare metal, mps2-an385', 'Linux, x86_64'."""
    fp = run.get("fingerprint") or {}
    return f"{rtos_table.side_label(run)}, {fp.get('board') or fp.get('arch') or '?'}"


def _figure(row: dict[str, Any]) -> tuple[str, str | None, str | None]:
    """(text, rate, unit) of one way into the kernel in one run: its cost per entry in its unit
    ('insn', 'perf', 'pmu' or 'time') and the entries per second; without a figure the text says
    why, and rate and unit are None."""
    if row["status"] == "missing":
        return "not run", None, None
    if row["ns"] is None:
        status = "no data" if row["status"] == "ok" else row["status"]
        return f"{status}: {row['reason']}".strip(": "), None, None
    if row["cycles_method"] == ICOUNT_METHOD:  # a count: no time, no rate; the headline's own figure
        return f"{fmt.sig(row['ns'])} insn", None, "insn"
    if row["cycles"] is not None and row["cycles_method"] in COUNTED:
        unit = CYCLES_METHODS[row["cycles_method"]][0]
        return f"{fmt.sig(row['cycles'])} {unit}", fmt_rate(row["per_s"]), unit
    return fmt_time(row["ns"]), fmt_rate(row["per_s"]), "time"


def kernel_entry_model(sides: Sequence[tuple[Row, list[Row]]]) -> KernelEntryTable | None:
    """sides: (run, its results) per system -> the table (dict), or None without any side."""
    if not sides:
        return None
    labels = rtos_table.distinct_labels([system_label(run) for run, _ in sides], [run for run, _ in sides])
    notes: list[str] = []
    systems: list[System] = []
    for label, (run, results) in zip(labels, sides):
        host = bool((run.get("fingerprint") or {}).get("host_clock"))
        cells = []
        for row in kernel_entry.rows(results):
            text, rate, unit = _figure(row)
            note = None
            if unit is None and row["status"] != "missing":  # a reason, numbered under the table
                if text not in notes:
                    notes.append(text)
                note = notes.index(text) + 1
                text = f"{row['status']} [{note}]"
            cells.append(dict(row, text=text, rate=rate, unit=unit, note=note))
        systems.append({"run": run["id"], "name": run.get("name"), "label": label, "host_clock": host, "cells": cells})
    every_host = all(s["host_clock"] for s in systems)
    loop = "control loop included (host clock)" if every_host else "control loop subtracted"
    for s in systems:  # a host-timed system among others says so where its figures are
        s["label"] += " (host clock)" if s["host_clock"] and not every_host else ""
    return {
        "title": f"Into the kernel and back, {loop}",
        "figures": [{"figure": figure, "key": key} for figure, key in kernel_entry.FIGURES],
        "systems": systems,
        "notes": [{"n": i + 1, "text": text} for i, text in enumerate(notes)],
        "units": units_text(systems),
        "host_clock_note": HOST_CLOCK_NOTE if any(s["host_clock"] for s in systems) and not every_host else None,
    }


def units_text(systems: list[System]) -> str:
    """What the figures of the table count, in words: the units it uses, that they differ where
    they do, and the rate under a figure where there is one (a time or cycles, never a count of
    guest instructions)."""
    used = {c["unit"] for s in systems for c in s["cells"]} - {None}
    words = [f"{u}: {w}" for u, w in UNIT_WORDS.items() if u in used]
    if "time" in used:
        words.append("a time: where no instruction or cycle was counted")
    if len(used) > 1:
        words.append(MIXED)
    rated = any(c["rate"] for s in systems for c in s["cells"])
    return "; ".join(words + (["under a time or cycles: entries per second"] if rated else []))


def report_kernel_entry(store: StoreReader, runs: list[Row]) -> KernelEntryTable | None:
    """The one kernel-entry table of a report: every run with trap.* results, in the report's
    order -> dict or None."""
    sides = [(run, store.results(run["id"])) for run in runs]
    return kernel_entry_model([(run, results) for run, results in sides if kernel_entry.present(results)])


def _pct(x: float | None, sign: bool = False) -> str:
    return "-" if x is None else (f"{x:+.2f}%" if sign else f"±{x:.2f}%")


def host_clock_model(results: list[Row], samples_of: Callable[[Row], list[Row]] | None = None) -> HostClockTable | None:
    """The host-clock table of a run's results -> {"rows", "notes"}, or None when the run was
    not timed from the host. samples_of(result) -> its samples: the host's figure is then the
    result's headline, and the board's over the same samples (hostclock.agreement)."""
    rows = hostclock.agreement(results, samples_of)
    if not rows:
        return None
    for r in rows:
        r.update(
            host_text=fmt_time(r["host_ns"]),
            board_text=fmt_time(r["board_ns"]),
            differ_text=_pct(r["differ_pct"], sign=True),
            sample_text=_pct(r["sample_pct"]),
            res_text="-" if r["res_ns"] is None else fmt_time(r["res_ns"]),
        )
    char = next((r["char_ns"] for r in rows if r.get("char_ns")), 0)
    said = f"one character on the line takes {fmt.sig(char / 1000)} us; " if char else ""
    notes = [
        "host, board: time per operation by each clock over the same chunks (the control loop not "
        "subtracted); sample: a sample's uncertainty from the resolution, "
        + said
        + "resolution: one timestamp's, the larger of a character and the jitter measured on the marks"
    ]
    need = max((r["needed_ms"] for r in rows if r["sample_pct"] and r["sample_pct"] > 1 and r["needed_ms"]), default=0)
    if need:
        notes.append(f"for ±1 % a sample must last {need} ms with this resolution: --sample-ms {min(need, 10000)}")
    return {"title": "Host clock against the board's", "rows": rows, "notes": notes}
