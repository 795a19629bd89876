"""Terminal views of the memory family: the bandwidth table (mem.bw_*: size, cache level, MB/s
per way of moving the bytes) and the memfn.* comparison (winner per routine and size)."""

import sys

from rich.table import Table

from ...analysis.bandwidth import caches_for, table_rows
from ...analysis.memfn import IMPLS
from ...analysis.memfn import table_rows as memfn_rows
from ...fmt import fmt_size, fmt_time
from ..console import console, fit_table


def mb_cell(v):
    if v is None:
        return "-"
    if isinstance(v, tuple):
        total, per, one = v
        scale = f", x{total / one:.2f} of 1" if one else ""
        return f"{total:,.0f} ({per:,.0f}/CPU{scale})"
    return f"{v:,.0f}"


def show_bandwidth(results, run=None, file=None):
    caches, src = caches_for(run)
    header, rows = table_rows(results, caches)
    if not rows:
        return False
    con = console(file or sys.stdout)
    con.print(f"bandwidth in MB/s, best of the rounds, bytes counted once (levels: {src})")
    t = Table(box=None, pad_edge=False)
    t.add_column("size")
    t.add_column("level")
    for h in header:
        t.add_column(h, justify="right")
    for size, lvl, row in rows:
        t.add_row(fmt_size(size), lvl, *[mb_cell(row.get(h)) for h in header])
    fit_table(con, t)
    con.print(t)
    return True


def show_memfn(results, file=None):
    rows, failures = memfn_rows(results)
    con = console(file)
    if not rows and not failures:
        con.print("(no memfn.* results in this run)")
        return
    for (routine, impl), reason in sorted(failures.items()):
        con.print(f"FAILED verification, not timed: {routine}[{impl}]: {reason}", markup=False)
    impls = [i for i in IMPLS.values() if any(i in ns for _, _, ns, _, _ in rows)]
    t = Table(box=None, pad_edge=False)
    t.add_column("routine")
    t.add_column("size", justify="right")
    for i in impls:
        t.add_column(i, justify="right")
    t.add_column("winner")
    t.add_column("by", justify="right")
    for routine, size, ns, win, margin in rows:
        t.add_row(
            routine,
            fmt_size(size),
            *[fmt_time(ns[i]) if i in ns else "-" for i in impls],
            win,
            f"x{margin:.2f}" if margin else "-",
        )
    fit_table(con, t)
    con.print(t)
    con.print("time per call (median; geometric mean over alignments and directions); 'by' = second best / winner")
