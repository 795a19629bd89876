"""Terminal views of the memory family, rendered from their models (model.bandwidth_model,
model.memfn_model): the bandwidth table (mem.bw_*: size, cache level, MB/s per way of moving the
bytes) and the memfn.* comparison (winner per routine and size)."""

import sys
import textwrap

from rich.table import Table

from ...analysis.compare import FASTER, FEW, INCONCLUSIVE, SAME
from ...base.fmt import fmt_size, fmt_time
from ...base.units import MB_S
from ..console import console, print_table


def mb_cell(v, disturbed=False):
    return "-" if v is None else f"{v:,.0f}" + ("*" if disturbed else "")


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
        textwrap.fill(
            f"bandwidth in {MB_S} (10^6 bytes/s), bytes counted once; the best round: all of its samples' "
            f"bytes over their time (levels: {m['levels_from']})",
            max(60, con.width or 100),
            break_on_hyphens=False,
        )
    )
    if rows:
        t = Table(box=None, pad_edge=False)
        t.add_column("size")
        t.add_column("level")
        for h in m["header"]:
            t.add_column(h, justify="right", no_wrap=True)
        for row in rows:
            cells = [mb_cell(row["cells"].get(h), h in row["disturbed"]) for h in m["header"]]
            t.add_row(fmt_size(row["size"]), row["level"], *cells)
        print_table(con, t)
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
                cells += [mb_cell(total, op in row["disturbed"]), f"x{gain:.2f}" if gain else "-"]
            t.add_row(fmt_size(row["size"]), row["level"], *cells)
        print_table(con, t)
    width = max(60, con.width or 100)
    for note in m["notes"]:
        con.print(textwrap.fill(note, width, subsequent_indent="  ", break_on_hyphens=False))
    return True


def show_memfn(results, samples_of=None, file=None):
    """The memfn.* comparison of a run's results (model.memfn_model); samples_of(result) gives
    the samples the verdicts need."""
    from ..model import memfn_model

    render_memfn(memfn_model(results, samples_of), file)


VERDICT_WORDS = {FASTER: "faster", SAME: "noise", INCONCLUSIVE: "unsure", FEW: "few"}


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
    t.add_column("fastest")
    t.add_column("by", justify="right")
    t.add_column("verdict")
    for row in m["rows"]:
        ns = row["ns"]
        t.add_row(
            row["routine"],
            fmt_size(row["size"]),
            *[fmt_time(ns[i]) if i in ns else "-" for i in impls],
            row["fastest"],
            f"x{row['margin']:.2f}" if row["margin"] else "-",
            VERDICT_WORDS.get(row["verdict"], "-"),
        )
    print_table(con, t)
    width = max(60, con.width or 100)
    for note in (
        "time per call: median, geometric mean over alignments and directions; by: second best / fastest",
        "verdict: tickmark compare's verdict on the fastest against the second best at each alignment: "
        "faster (a winner), noise (no difference beyond noise), unsure (inconclusive), few (too few "
        "samples to call); only 'faster' names a winner",
    ):
        con.print(textwrap.fill(note, width, subsequent_indent="  ", break_on_hyphens=False))
