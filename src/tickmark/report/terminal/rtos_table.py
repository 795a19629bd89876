"""Terminal table of the RTOS study across systems (analysis/rtos_table.py builds it): per figure
and system, the cost per operation, each boot's, and how many times it the reference system's
cost is ("Linux is 11.4x"); under it, the settings of each system that move the figures. The
benchmarks' keys are in the results table above it (and in the reports' version of this one)."""

import sys

from ...analysis.rtos_table import grid
from ..console import console, print_table, styled_table


def build_table(d, plain=False):
    header, rows = grid(d, keys=False)
    t = styled_table(
        plain,
        title=f"The RTOS study on {d['board']}: {', '.join(d['labels'])}",
    )
    for i, col in enumerate(header):  # the figure's name folds; the numbers never do
        t.add_column(col, justify="right" if i in (2, 4) else "left", no_wrap=i > 0, overflow="fold")
    for row in rows:
        t.add_row(*row)
    return t


def unit_words(d):
    return "guest instructions (QEMU -icount)" if d["unit"] == "insn" else f"cycles ({d['unit']})"


def show(d, file=None):
    """Print the table (to_dict form), what its numbers are and what each system ran with."""
    con = console(file or sys.stdout)
    print_table(con, build_table(d, plain=not con.is_terminal))
    con.print(
        f"Per operation, in {unit_words(d)}; each boot: the median of each round (one boot); "
        f"{d['reference']} is: {d['reference']}'s cost over the system's (26.5\u00d7: {d['reference']} takes "
        "26.5 times as many).",
        markup=False,
    )
    for s in d.get("settings") or []:
        con.print(f"{s['label']}: {s['text']}", markup=False)
    for note in d["notes"]:
        con.print("note: " + note, markup=False)
