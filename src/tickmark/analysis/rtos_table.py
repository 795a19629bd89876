"""The RTOS study's table across systems: the rtos-study suite run on one board under FreeRTOS,
NuttX, Linux and bare metal, side by side per primitive.

Each side is one stored run (its rounds are the separate boots). A row is one figure of the
study (rtos_study.FIGURES): per side its cost per operation (cycles, which under QEMU -icount
are guest instructions), the cost in each boot (the median of each round), and the ratio of the
reference system's cost to this one ("Linux is 11.4x": Linux takes 11.4 times the
instructions). The reference is Linux where a side is Linux, else the first side. A side that
could not run a figure (bare metal has no threads) says why instead. Under the table: the
settings of each side that move the figures (heap, stack fill, assertions, tick, kernel), from
its fingerprint.

This module only builds the table; the terminal, Markdown and HTML views lay it out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .rtos_study import FIGURES, rows


@dataclass
class Side:
    label: str  # "FreeRTOS", "NuttX", "Linux", "bare metal"
    run: dict[str, Any]  # the stored run (its fingerprint says the system)
    results: list[dict[str, Any]]  # its stored results


@dataclass
class Cell:
    value: float | None = None  # cycles (instructions under icount) per operation
    det: float | None = None  # deviation of the worst round, a fraction of the median
    boots: list[float] = field(default_factory=list)  # the value of each round (boot)
    note: str = ""  # why there is no value ("skip: the baremetal port lacks threads")

    @property
    def rounds(self) -> int:
        return len(self.boots)


@dataclass
class Row:
    figure: str
    key: str
    cells: list[Cell]  # one Cell per side
    ratios: list[float | None] = field(default_factory=list)  # per side: reference / this side, or None


@dataclass
class Table:
    board: str
    unit: str  # "insn" (QEMU icount), else the cycles method
    labels: list[str]
    reference: int = 0  # the side the ratios are taken against
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    settings: list[tuple[str, str]] = field(default_factory=list)  # (label, what moves its figures) per side


def unit_of(run: dict[str, Any]) -> str:
    method = (run.get("fingerprint") or {}).get("cycles_method") or "none"
    return "insn" if method == "icount-insns" else method


def side_label(run: dict[str, Any]) -> str:
    """The system of a run in a word: FreeRTOS, NuttX, Linux or bare metal (from its
    fingerprint)."""
    fp = run.get("fingerprint") or {}
    osname = (fp.get("os") or "").lower()
    rtos = fp.get("rtos")
    if not isinstance(rtos, dict):
        rtos = {}
    if rtos.get("name"):
        return str(rtos["name"])
    if osname.startswith("freertos"):
        return "FreeRTOS"
    if osname.startswith("nuttx") or (run.get("hello") or {}).get("port") == "nuttx":
        return "NuttX"
    if osname.startswith("bare metal"):
        return "bare metal"
    if osname.startswith("linux") or (run.get("hello") or {}).get("port") == "linux":
        return "Linux"
    return fp.get("os") or run.get("name") or "?"


def distinct_labels(labels: list[str], runs: Sequence[dict[str, Any]]) -> list[str]:
    """The labels, each one that repeats told apart by its run (the campaign's target name, or
    the run's name): "FreeRTOS (freertos-v10)" beside "FreeRTOS (freertos)"."""
    out: list[str] = []
    for label, run in zip(labels, runs):
        if labels.count(label) > 1:
            name = run.get("name") or f"run {run.get('id')}"
            parts = name.split(":")
            out.append(f"{label} ({parts[1] if len(parts) == 4 else name})")
        else:
            out.append(label)
    return out


def settings_text(run: dict[str, Any]) -> str:
    """What moves a side's figures, in one line: the heap, the stack fill, assertions, the
    tick and the kernel's build for an RTOS; the kernel and its command line for Linux."""
    fp = run.get("fingerprint") or {}
    rtos = fp.get("rtos") if isinstance(fp.get("rtos"), dict) else None
    core = f"core {fp.get('compiler') or '?'} {fp.get('cflags') or ''}".strip()
    if rtos:
        opts = rtos.get("options") or {}
        parts = [
            rtos.get("kernel") or f"{rtos.get('name')} {rtos.get('version') or rtos.get('commit', '')[:12]}".strip()
        ]
        # what the kernel's record has of these (SylixOS's names its heap check and FPU instead)
        for words, value in (
            ("heap", rtos.get("heap")),
            ("stack fill", opts.get("stack_fill", rtos.get("stack_fill"))),
            ("assertions", opts.get("assertions", rtos.get("assertions"))),
            ("heap check", rtos.get("heap_check")),
            ("FPU", rtos.get("fpu") if "heap_check" in rtos else None),
        ):
            if value is not None:
                parts.append(f"{words} {value}")
        if opts.get("stack_check") is not None:
            parts.append(f"stack overflow check {opts['stack_check']}")
        if opts.get("fpu_context"):
            parts.append(f"FPU context: {opts['fpu_context']}")
        if rtos.get("tick"):
            parts.append(f"tick {rtos['tick']}")
        if rtos.get("optimization"):
            parts.append(f"kernel {rtos['optimization']}")
        return ", ".join(parts + [core])
    if (fp.get("os") or "").lower().startswith("linux"):
        return f"Linux {fp.get('kernel') or '?'}, command line: {fp.get('kernel_cmdline') or '?'}, {core}"
    return f"{fp.get('os') or '?'}, {core}"


def build(sides: list[Side]) -> Table:
    """sides: Side for each system -> Table (ratios against Linux, or against the first side)."""
    units = {unit_of(s.run) for s in sides}
    boards = {(s.run.get("fingerprint") or {}).get("board") or "?" for s in sides}
    t = Table(board=", ".join(sorted(boards)), unit=units.pop() if len(units) == 1 else "mixed", labels=[])
    t.labels = distinct_labels([s.label for s in sides], [s.run for s in sides])
    t.reference = next((i for i, s in enumerate(sides) if s.label == "Linux"), 0)
    t.settings = [(label, settings_text(s.run)) for label, s in zip(t.labels, sides)]
    if len(boards) > 1:
        t.notes.append(
            f"the runs are of different boards ({t.board}): two different CPUs, each counted in its own"
            + (" guest instructions (QEMU -icount)" if t.unit == "insn" else " units")
            + "; a ratio is how many times the instructions, not the time. The same-CPU comparison:"
            " the rtos-study campaign of one board (campaigns/rtos-study-virt-aarch64.toml)"
        )
    if t.unit == "mixed":
        t.notes.append(
            "the runs count in different units ("
            + ", ".join(f"{label}: {unit_of(s.run)}" for label, s in zip(t.labels, sides))
            + "): no ratio is given"
        )
    per_side = [rows(s.results) for s in sides]
    for i, (figure, key, sub) in enumerate(FIGURES):
        cells: list[Cell] = []
        for side_rows in per_side:
            r = side_rows[i]
            if r["cycles"] is not None:
                cells.append(Cell(r["cycles"], r["det"], list(r["boots"])))
            else:
                cells.append(Cell(note=f"{r['status']}: {r['reason']}".strip(": ")))
        row = Row(figure, key + (f" {sub}" if sub else ""), cells)
        ref = cells[t.reference] if cells else Cell()
        for k, c in enumerate(cells):
            ok = t.unit != "mixed" and k != t.reference
            row.ratios.append(ref.value / c.value if ok and ref.value is not None and c.value else None)
        t.rows.append(row)
    return t


def ratio_text(x: float | None) -> str:
    """A ratio to three significant figures, the same way in every row: '2.97x', '11.4x',
    '351x', '0.512x'; '-' for none."""
    if x is None:
        return "-"
    if x >= 99.95:
        return f"{x:,.0f}\u00d7"
    if x >= 9.995:
        return f"{x:.1f}\u00d7"
    if x >= 0.9995:
        return f"{x:.2f}\u00d7"
    return f"{x:#.3g}\u00d7"


def to_dict(t: Table) -> dict[str, Any]:
    """The table as plain JSON-ready data for the report model (every view renders it)."""
    return {
        "board": t.board,
        "unit": t.unit,
        "labels": list(t.labels),
        "reference": t.labels[t.reference] if t.labels else None,
        "notes": list(t.notes),
        "settings": [{"label": label, "text": text} for label, text in t.settings],
        "rows": [
            {
                "figure": r.figure,
                "key": r.key,
                "ratios": list(r.ratios),
                "ratio_texts": [ratio_text(x) for x in r.ratios],
                "cells": [{"value": c.value, "det": c.det, "boots": list(c.boots), "note": c.note} for c in r.cells],
            }
            for r in t.rows
        ],
    }


def boots_text(values: Iterable[float]) -> str:
    """Each boot's figure: '3,360 3,358 3,360', or '3,360 x3' when they are all the same."""
    texts = [f"{v:,.0f}" for v in values]
    if len(texts) > 1 and len(set(texts)) == 1:
        return f"{texts[0]} \u00d7{len(texts)}"
    return " ".join(texts)


def note_text(note: str) -> str:
    """A side's reason for no figure, short: 'skip: the baremetal port lacks threads' ->
    'skip: lacks threads'."""
    return re.sub(r"^(\w+): the \S+ port (lacks|has no) ", r"\1: \2 ", note)


def grid(d: dict[str, Any], keys: bool = True) -> tuple[list[str], list[list[str]]]:
    """The table (to_dict form) as short texts, the same for every view -> (header, rows): one
    line per figure and system (with keys, the benchmark's key under the figure's name), its
    cost per operation, each boot's, and how many times it the reference's cost is ("Linux
    is 26.5x")."""
    ref = d.get("reference") or "first"
    header = ["figure", "system", f"{d['unit']}/op", "each boot", f"{ref} is"]
    out: list[list[str]] = []
    for r in d["rows"]:
        for i, (label, c) in enumerate(zip(d["labels"], r["cells"])):
            first = r["figure"] if i == 0 else r["key"] if i == 1 and keys else ""
            if c["value"] is None:
                out.append([first, label, "-", note_text(c["note"]), ""])
            else:
                out.append([first, label, f"{c['value']:,.0f}", boots_text(c["boots"]), r["ratio_texts"][i]])
        if len(r["cells"]) == 1 and keys:
            out.append([r["key"], "", "", "", ""])
    return header, out
