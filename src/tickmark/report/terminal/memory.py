"""Terminal views of the memory family: the bandwidth table (mem.bw_*: size, cache level, MB/s
per way of moving the bytes) and the memfn.* comparison (winner per routine and size)."""

import sys
import textwrap

from rich.table import Table

from ...analysis.bandwidth import caches_for, cores_rows, table_rows
from ...analysis.memfn import IMPLS
from ...analysis.memfn import table_rows as memfn_rows
from ...fmt import fmt_size, fmt_time
from ..console import console, fit_table


def mb_cell(v):
    return "-" if v is None else f"{v:,.0f}"


def show_bandwidth(results, run=None, file=None):
    """One table of MB/s per size and way of moving the bytes (one CPU), then one for all CPUs
    (total and its gain over one CPU, in a column of its own: a cell never wraps)."""
    caches, src = caches_for(run)
    header, rows = table_rows(results, caches)
    n, crows = cores_rows(results, caches)
    if not rows and not crows:
        return False
    con = console(file or sys.stdout)
    con.print(f"bandwidth in MB/s (10^6 bytes/s), bytes counted once, the best sample of the rounds (levels: {src})")
    if rows:
        t = Table(box=None, pad_edge=False)
        t.add_column("size")
        t.add_column("level")
        for h in header:
            t.add_column(h, justify="right", no_wrap=True)
        for size, lvl, row in rows:
            t.add_row(fmt_size(size), lvl, *[mb_cell(row.get(h)) for h in header])
        fit_table(con, t)
        con.print(t)
    if crows:
        ops = [op for op in ("read", "write", "copy") if any(op in r for _, _, r in crows)]
        t = Table(box=None, pad_edge=False, title=f"{n} CPUs at once, each on its own buffer", title_justify="left")
        t.add_column("size")
        t.add_column("level")
        for op in ops:
            t.add_column(op, justify="right", no_wrap=True)
            t.add_column("x of 1", justify="right", no_wrap=True)
        for size, lvl, row in crows:
            cells = []
            for op in ops:
                total, gain = row.get(op, (None, None))
                cells += [mb_cell(total), f"x{gain:.2f}" if gain else "-"]
            t.add_row(fmt_size(size), lvl, *cells)
        fit_table(con, t)
        con.print(t)
    notes = []
    if "move" in header:
        notes.append("move: memmove 256 bytes down inside one buffer (in place: no read for ownership)")
    if any(s == 32 << 20 for s, _, _ in rows):
        notes.append(
            "tinymembench: its 'standard memcpy' and 'standard memset' are the 32M row's copy and memset, "
            "best of runs of at least 0.5 s (tickmark run 'mem.bw_*' --sample-ms 500 for the same method)"
        )
    width = max(60, con.width or 100)
    for note in notes:
        con.print(textwrap.fill(note, width, subsequent_indent="  ", break_on_hyphens=False))
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
