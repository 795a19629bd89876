"""Terminal view of a run's topology (`tickmark topology`, the topology section of `tickmark
show`), rendered from its model (model.topology_model): a compact table of the detected cache
levels, line size and TLB levels beside what the OS reports, then the evidence for each on lines
of its own under the table (never a squeezed column), so that it reads at 80 columns and in a
pipe."""

import sys
import textwrap

from rich.table import Table

from ..console import console, print_table

RIGHT = ("latency", "cycles", "conf")


def print_text(det, osr, runs, file=None):
    """The view of a detection `det` beside the OS report `osr` (what topology_model builds)."""
    from ..model import topology_model

    render(topology_model(det, osr, runs), file)


def table(m):
    t = Table(box=None, pad_edge=False, collapse_padding=True)
    for c in m["columns"]:
        t.add_column(c, justify="right" if c in RIGHT else "left", no_wrap=True)
    for row in m["table"]:
        t.add_row(*row)
    return t


def render(m, file=None, evidence=True):
    """The title, the table, then (evidence=True) the evidence and the notes."""
    con = console(file or sys.stdout)
    con.print(m["title"])
    t = table(m)
    print_table(con, t)
    if not evidence:
        return
    width = max(60, con.width or 100)
    con.print("evidence:")
    for name, text in m["evidence"]:
        con.print(
            textwrap.fill(
                text, width, initial_indent=f"  {name:<7} ", subsequent_indent=" " * 10, break_on_hyphens=False
            )
        )
    for n in m["notes"]:
        con.print(textwrap.fill(n, width, initial_indent="  ", subsequent_indent="    "))
