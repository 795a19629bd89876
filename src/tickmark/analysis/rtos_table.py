"""The RTOS study's table across systems: the rtos-study suite run on one board under FreeRTOS,
Linux and bare metal, side by side per primitive.

Each side is one stored run (its rounds are the separate boots the determinism comes from). A
row is one figure of the study (rtos_study.FIGURES): per side its cost per operation (cycles,
which under QEMU -icount are guest instructions) and its determinism (the largest deviation of a
round's median from the overall median, %), and the ratio of the second side to the first
("11x": Linux over FreeRTOS) where both ran in the same unit. A side that could not run a
figure (bare metal has no threads) says why instead.

This module only builds the table; the terminal, Markdown and HTML views lay it out.
"""

from dataclasses import dataclass, field

from .rtos_study import FIGURES, rows


@dataclass
class Side:
    label: str  # "FreeRTOS", "Linux", "bare metal"
    run: dict  # the stored run (its fingerprint says the system)
    results: list  # its stored results


@dataclass
class Cell:
    value: float = None  # cycles (instructions under icount) per operation
    det: float = None  # % deviation of the worst round
    rounds: int = 0
    note: str = ""  # why there is no value ("skip: the baremetal port lacks threads")


@dataclass
class Row:
    figure: str
    key: str
    cells: list  # one Cell per side
    ratio: float = None  # side 2 / side 1


@dataclass
class Table:
    board: str
    unit: str  # "insn" (QEMU icount), else the cycles method
    labels: list
    rows: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def unit_of(run):
    method = (run.get("fingerprint") or {}).get("cycles_method") or "none"
    return "insn" if method == "icount-insns" else method


def side_label(run):
    """The system of a run in a word: FreeRTOS, Linux or bare metal (from its fingerprint)."""
    fp = run.get("fingerprint") or {}
    osname = (fp.get("os") or "").lower()
    if fp.get("rtos") or osname.startswith("freertos"):
        return "FreeRTOS"
    if osname.startswith("bare metal"):
        return "bare metal"
    if osname.startswith("linux") or (run.get("hello") or {}).get("port") == "linux":
        return "Linux"
    return fp.get("os") or run.get("name") or "?"


def build(sides):
    """sides: Side for each system, the first two compared (ratio = second / first) -> Table."""
    units = {unit_of(s.run) for s in sides}
    boards = {(s.run.get("fingerprint") or {}).get("board") or "?" for s in sides}
    t = Table(board=", ".join(sorted(boards)), unit=units.pop() if len(units) == 1 else "mixed", labels=[])
    t.labels = [s.label for s in sides]
    if len(boards) > 1:
        t.notes.append(f"the runs are of different boards ({t.board}): the figures are not of one CPU")
    if t.unit == "mixed":
        t.notes.append(
            "the runs count in different units ("
            + ", ".join(f"{s.label}: {unit_of(s.run)}" for s in sides)
            + "): no ratio is given"
        )
    per_side = [rows(s.results) for s in sides]
    rounds = [_rounds(s.results) for s in sides]
    for i, (figure, key, sub) in enumerate(FIGURES):
        cells = []
        for k, side_rows in enumerate(per_side):
            r = side_rows[i]
            if r["cycles"] is not None:
                cells.append(Cell(r["cycles"], r["det"], rounds[k].get(key, 0)))
            else:
                cells.append(Cell(note=f"{r['status']}: {r['reason']}".strip(": ")))
        row = Row(figure, key + (f" {sub}" if sub else ""), cells)
        a, b = (cells + [Cell(), Cell()])[:2]
        if t.unit != "mixed" and a.value and b.value is not None:
            row.ratio = b.value / a.value
        t.rows.append(row)
    return t


def _rounds(results):
    """Rounds behind each benchmark key's figures (the most rounds of any of its stats)."""
    out = {}
    for r in results:
        stats = r.get("stats") or {}
        main = stats.get("") or {}
        out[r["key"]] = int(main.get("rounds") or 0)
    return out


def ratio_text(x):
    """'11x' for a ratio of 10 or more, '2.5x' below, '-' for none."""
    if x is None:
        return "-"
    return f"{x:,.0f}\u00d7" if x >= 10 else f"{x:.2g}\u00d7" if x >= 1 else f"{x:.2f}\u00d7"


def to_dict(t):
    """The table as plain JSON-ready data for the report model (every view renders it)."""
    return {
        "board": t.board,
        "unit": t.unit,
        "labels": list(t.labels),
        "notes": list(t.notes),
        "rows": [
            {
                "figure": r.figure,
                "key": r.key,
                "ratio": r.ratio,
                "ratio_text": ratio_text(r.ratio),
                "cells": [{"value": c.value, "det": c.det, "rounds": c.rounds, "note": c.note} for c in r.cells],
            }
            for r in t.rows
        ],
    }


def from_runs(store, runs):
    """The table of stored runs (the first two compared) -> Table, or None when fewer than two of
    them ran the rtos-study suite."""
    study = [r for r in runs if r.get("suite") == "rtos-study"]
    if len(study) < 2:
        return None
    return build([Side(side_label(r), r, store.results(r["id"])) for r in study])


def grid(d):
    """The table (to_dict form) as short texts, the same for every view -> (header, rows): one
    column per side, the ratio after the second side; a cell is "3,360 (det 0.0%)" or the
    reason there is no figure."""
    labels = d["labels"]
    header = ["figure", "benchmark"]
    for i, label in enumerate(labels):
        header.append(f"{label} {d['unit']}/op")
        if i == 1:
            header.append(f"{labels[1]} / {labels[0]}")
    rows = []
    for r in d["rows"]:
        line = [r["figure"], r["key"]]
        for i, c in enumerate(r["cells"]):
            if c["value"] is None:
                line.append(c["note"])
            else:
                line.append(f"{c['value']:,.0f}" + ("" if c["det"] is None else f" (det {c['det']:.1f}%)"))
            if i == 1:
                line.append(r["ratio_text"])
        rows.append(line)
    return header, rows
