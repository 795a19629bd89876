"""Terminal table of the RTOS study across systems (analysis/rtos_table.py builds it): per figure
and system, the cost per operation, each boot's, and the reference system's cost over it
("Linux / NuttX 11.4x"); under it, the settings of each system that move the figures."""

import sys

from ...analysis.rtos_table import grid
from ..console import console, print_whole, styled_table


def build_table(d, plain=False):
    header, rows = grid(d)
    t = styled_table(
        plain,
        title=f"The RTOS study on {d['board']}: {', '.join(d['labels'])}",
    )
    for i, col in enumerate(header):
        t.add_column(col, justify="right" if i in (2, 4) else "left", no_wrap=True)
    for row in rows:
        t.add_row(*row)
    return t


def unit_words(d):
    return "guest instructions (QEMU -icount)" if d["unit"] == "insn" else f"cycles ({d['unit']})"


def show(d, file=None):
    """Print the table (to_dict form), what its numbers are and what each system ran with."""
    con = console(file or sys.stdout)
    print_whole(con, build_table(d, plain=not con.is_terminal))
    con.print(
        f"Per operation, in {unit_words(d)}; each boot: the median of each round (one boot); "
        f"{d['reference']} / system: how many times {d['reference']}'s cost.",
        markup=False,
    )
    for s in d.get("settings") or []:
        con.print(f"{s['label']}: {s['text']}", markup=False)
    for note in d["notes"]:
        con.print("note: " + note, markup=False)
