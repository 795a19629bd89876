"""The thread-metric suite's table: Thread-Metric's eight figures (docs/thread-metric.md) of one
run or of several side by side (FreeRTOS, NuttX, Linux on one board), each as its cost per
operation and divided by basic processing's cost in the same run.

Thread-Metric counts how many operations a test completes in a fixed interval and divides that
by the basic-processing count of the same board. tickmark times operations instead, so a figure
here is a cost per operation (guest instructions under QEMU -icount, else time), and its
normalised value is that cost over one basic-processing pass: "message 14.2" means one message
sent and received costs as much as 14.2 passes of the yardstick. It is Thread-Metric's
normalised count turned over (1/14.2), dimensionless, so it compares systems on one board
whatever the unit.

This module only builds the table; report/terminal/thread_metric.py lays it out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import units
from ..base.exact import exact_counts
from ..base.exact import unit as shown_unit
from ..base.shapes import Row
from .rtos_table import distinct_labels, side_label
from .stats import Stats

SUITE = "thread-metric"
BASIC = "threadmetric.basic"
# (figure, benchmark key), in Thread-Metric's order; basic processing, the yardstick, last
FIGURES = [
    ("cooperative scheduling", "threadmetric.cooperative"),
    ("preemptive scheduling", "threadmetric.preemptive"),
    ("interrupt processing", "threadmetric.interrupt"),
    ("interrupt preemption processing", "threadmetric.interrupt_preempt"),
    ("message processing", "threadmetric.message"),
    ("synchronization processing", "threadmetric.sync"),
    ("memory allocation", "threadmetric.memory"),
    ("basic processing", BASIC),
]
BY_SIGNAL = "a signal the thread sends itself stands in for the interrupt (its user space takes none)"


@dataclass
class Cell:
    value: float | None = None  # cost per operation, in the table's unit
    normalised: float | None = None  # value / basic processing's value of the same run
    note: str = ""  # why there is no value ("skip: ...")
    by_signal: bool = False


@dataclass
class Table:
    unit: str  # units.INSN_OP or units.NS_OP; "mixed" when the runs differ
    labels: list[str]
    side_units: list[str] = field(default_factory=list)  # the unit of each side's values
    rows: list[tuple[str, str, list[Cell]]] = field(default_factory=list)  # (figure, key, [Cell per side])
    notes: list[str] = field(default_factory=list)


def cells(results: Iterable[Row], exact: bool = False) -> tuple[list[Cell], str | None]:
    """One Cell per figure of one run's results, and the unit of their values (exact: the run
    counted guest instructions, exact.exact_counts)."""
    by_key = {r["key"]: r for r in results}
    found: list[Cell] = []
    unit: str | None = None
    for _, key in FIGURES:
        r = by_key.get(key)
        if r is None:
            found.append(Cell(note="not run"))
            continue
        main = Stats.of(r).main
        if r["status"] != "ok" or main is None or main.value is None:
            found.append(Cell(note=f"{r['status']}: {r.get('reason') or ''}".strip(": ")))
            continue
        unit = unit or shown_unit(main.unit, exact)
        info = (r.get("meta") or {}).get("info") or {}
        found.append(Cell(main.value, by_signal=bool(info.get("by_signal"))))
    basic = found[-1].value
    for c in found:
        if c.value is not None and basic:
            c.normalised = c.value / basic
    return found, unit


def build(runs_results: Sequence[tuple[Row, Sequence[Row]]]) -> Table:
    """runs_results: [(run, results)] -> Table."""
    per_side = [cells(results, exact_counts(run.get("fingerprint"))) for run, results in runs_results]
    side_units = {u for _, u in per_side if u}
    labels = distinct_labels([side_label(run) for run, _ in runs_results], [run for run, _ in runs_results])
    t = Table(
        unit=side_units.pop() if len(side_units) == 1 else ("mixed" if side_units else units.NS_OP), labels=labels
    )
    t.side_units = [u or units.NS_OP for _, u in per_side]
    for i, (figure, key) in enumerate(FIGURES):
        t.rows.append((figure, key, [side[0][i] for side in per_side]))
    signalled = [label for label, (side, _) in zip(labels, per_side) if any(c.by_signal for c in side)]
    if signalled:
        t.notes.append(f"{', '.join(signalled)}: {BY_SIGNAL}")
    if t.unit == "mixed":
        t.notes.append(
            "the runs count in different units (guest instructions beside time): compare the normalised values only"
        )
    return t


def value_text(x: float | None, unit: str, mixed: bool = False) -> str:
    """A cost per operation: guest instructions whole ('1,235', or '1,235 insn' in a table of
    mixed units), a time with its unit ('1.23 us')."""
    if x is None:
        return "-"
    if unit == units.INSN_OP:
        return f"{x:,.0f}" + (" insn" if mixed else "")
    return units.show(x, unit) if unit == units.NS_OP else units.sig(x)


def norm_text(x: float | None) -> str:
    """A normalised value to three significant figures, alike in every row: '0.130', '1.00',
    '40.6', '1,234'; '-' for none."""
    if x is None:
        return "-"
    return f"{x:,.0f}" if x >= 99.95 else f"{x:#.3g}"


def to_dict(t: Table) -> dict[str, Any]:
    """The table as plain data for the report model: per row the figure, the key and per side the
    value's text, the normalised value's text, or the note."""
    return {
        "unit": t.unit,
        "labels": list(t.labels),
        "notes": list(t.notes),
        "rows": [
            {
                "figure": figure,
                "key": key,
                "cells": [
                    {
                        "value": c.value,
                        "normalised": c.normalised,
                        "text": value_text(c.value, unit, t.unit == "mixed") if c.value is not None else c.note,
                        "norm_text": norm_text(c.normalised),
                    }
                    for c, unit in zip(cells_, t.side_units)
                ],
            }
            for figure, key, cells_ in t.rows
        ],
    }
