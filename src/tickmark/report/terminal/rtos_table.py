"""Terminal table of the RTOS study across systems (analysis/rtos_table.py builds it): per figure,
each system's cost per operation with its determinism, and the ratio of the second system to the
first ("13x")."""

import sys

from ...analysis.rtos_table import grid
from ..console import console, print_whole, styled_table


def build_table(d, plain=False):
    header, rows = grid(d)
    t = styled_table(
        plain,
        title=f"The RTOS study on {d['board']}: {', '.join(d['labels'])}",
    )
    for col in header:
        t.add_column(col, justify="left" if col in ("figure", "benchmark") else "right", no_wrap=True)
    for row in rows:
        t.add_row(*row)
    return t


def show(d, file=None):
    """Print the table (to_dict form) and what its numbers are."""
    con = console(file or sys.stdout)
    print_whole(con, build_table(d, plain=not con.is_terminal))
    unit = "guest instructions (QEMU -icount)" if d["unit"] == "insn" else f"cycles ({d['unit']})"
    con.print(f"per operation, in {unit}; det = largest deviation of a round's median from the overall median.")
    for note in d["notes"]:
        con.print("note: " + note)
