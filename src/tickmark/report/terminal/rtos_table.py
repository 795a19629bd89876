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
    # the figure's name folds, and so does a side's reason for no figure (in the boots' column,
    # never narrower than its widest figures); the numbers never do
    boots = max((len(row[3]) for row in rows if row[2] != "-"), default=0)
    for i, col in enumerate(header):
        t.add_column(
            col,
            justify="right" if i in (2, 4) else "left",
            no_wrap=i not in (0, 3),
            overflow="fold",
            min_width=max(boots, len(col)) if i == 3 else None,
        )
    for row in rows:
        t.add_row(*row)
    return t


def unit_words(d):
    return "guest instructions (QEMU -icount)" if d["unit"] == "insn" else f"cycles ({d['unit']})"


def show(d, file=None):
    """Print the table (to_dict form), what its numbers are and what each system ran with."""
    con = console(file or sys.stdout)
    print_table(con, build_table(d, plain=not con.is_terminal), keep=2)  # a part names the system
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
