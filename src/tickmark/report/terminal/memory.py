"""Terminal views of the memory family, rendered from their models (model.bandwidth_model,
model.memfn_model): the bandwidth table (mem.bw_*: size, cache level, MB/s per way of moving the
bytes) and the memfn.* comparison (winner per routine and size)."""

import sys
import textwrap

from rich.table import Table

from ...fmt import fmt_size, fmt_time
from ..console import console, fit_table


def mb_cell(v):
    return "-" if v is None else f"{v:,.0f}"


def show_bandwidth(results, run=None, file=None, store=None):
    """The bandwidth tables of a run's results (model.bandwidth_model) -> False when it has none."""
    from ..model import bandwidth_model

    return render_bandwidth(bandwidth_model(results, run, store), file)


def render_bandwidth(m, file=None):
    """One table of MB/s per size and way of moving the bytes (one CPU), then one for all CPUs
    (total and its gain over one CPU, in a column of its own: a cell never wraps)."""
    rows, cores = m["rows"], m["cores"]
    if not rows and not cores["rows"]:
        return False
    con = console(file or sys.stdout)
    con.print(
        f"bandwidth in MB/s (10^6 bytes/s), bytes counted once, the best sample of the rounds "
        f"(levels: {m['levels_from']})"
    )
    if rows:
        t = Table(box=None, pad_edge=False)
        t.add_column("size")
        t.add_column("level")
        for h in m["header"]:
            t.add_column(h, justify="right", no_wrap=True)
        for row in rows:
            t.add_row(fmt_size(row["size"]), row["level"], *[mb_cell(row["cells"].get(h)) for h in m["header"]])
        fit_table(con, t)
        con.print(t)
    if cores["rows"]:
        ops = cores["ops"]
        title = f"{cores['threads']} CPUs at once, each on its own buffer"
        t = Table(box=None, pad_edge=False, title=title, title_justify="left")
        t.add_column("size")
        t.add_column("level")
        for op in ops:
            t.add_column(op, justify="right", no_wrap=True)
            t.add_column("x of 1", justify="right", no_wrap=True)
        for row in cores["rows"]:
            cells = []
            for op in ops:
                total, gain = row["cells"].get(op, (None, None))
                cells += [mb_cell(total), f"x{gain:.2f}" if gain else "-"]
            t.add_row(fmt_size(row["size"]), row["level"], *cells)
        fit_table(con, t)
        con.print(t)
    width = max(60, con.width or 100)
    for note in m["notes"]:
        con.print(textwrap.fill(note, width, subsequent_indent="  ", break_on_hyphens=False))
    return True


def show_memfn(results, file=None):
    """The memfn.* comparison of a run's results (model.memfn_model)."""
    from ..model import memfn_model

    render_memfn(memfn_model(results), file)


def render_memfn(m, file=None):
    con = console(file)
    if not m["rows"] and not m["failures"]:
        con.print("(no memfn.* results in this run)")
        return
    for f in m["failures"]:
        con.print(f"FAILED verification, not timed: {f['routine']}[{f['impl']}]: {f['reason']}", markup=False)
    if not m["rows"]:  # every implementation failed: nothing was timed, no table
        return
    impls = m["impls"]
    t = Table(box=None, pad_edge=False)
    t.add_column("routine")
    t.add_column("size", justify="right")
    for i in impls:
        t.add_column(i, justify="right")
    t.add_column("winner")
    t.add_column("by", justify="right")
    for row in m["rows"]:
        ns = row["ns"]
        t.add_row(
            row["routine"],
            fmt_size(row["size"]),
            *[fmt_time(ns[i]) if i in ns else "-" for i in impls],
            row["winner"],
            f"x{row['margin']:.2f}" if row["margin"] else "-",
        )
    fit_table(con, t)
    con.print(t)
    con.print("time per call (median; geometric mean over alignments and directions); 'by' = second best / winner")
