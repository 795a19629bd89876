"""Terminal table of the RTOS study across systems (analysis/rtos_table.py builds it): per figure,
each system's cost per operation with its determinism, and the ratio of the second system to the
first ("13x")."""

import sys

from ...analysis.rtos_table import grid
from ..console import console, dropped_note, fitted, print_table, styled_table


def build_table(d, plain=False, drop=()):
    """The table, without the columns named in drop; words wrap, the numbers not."""
    header, rows = grid(d)
    t = styled_table(
        plain,
        title=f"The RTOS study on {d['board']}: {', '.join(d['labels'])}",
    )
    keep = [i for i, col in enumerate(header) if col not in drop]
    for i in keep:  # a number with its det stays on one line; words (a skip's reason) wrap
        col = header[i]
        numbers = [len(row[i]) for row in rows if row[i][:1].isdigit()]
        if col in ("figure", "benchmark"):
            t.add_column(col, no_wrap=col == "benchmark")
        else:
            t.add_column(col, justify="right", min_width=max(numbers, default=None))
    for row in rows:
        t.add_row(*[row[i] for i in keep])
    return t


def show(d, file=None):
    """Print the table (to_dict form) and what its numbers are; on a narrow terminal without the
    benchmark column (a note says so)."""
    con = console(file or sys.stdout)
    plain = not con.is_terminal
    t, drop = fitted(con, lambda drop: build_table(d, plain, drop), [(), ("benchmark",)])
    print_table(con, t)
    if drop:
        con.print(dropped_note(drop, "tickmark report has every column"))
    unit = "guest instructions (QEMU -icount)" if d["unit"] == "insn" else f"cycles ({d['unit']})"
    con.print(f"per operation, in {unit}; det = largest deviation of a round's median from the overall median.")
    for note in d["notes"]:
        con.print("note: " + note)
