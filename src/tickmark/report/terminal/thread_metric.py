"""Terminal table of the thread-metric suite (analysis/thread_metric.py builds it): per figure and
system, the cost per operation and the same over one basic-processing pass of that system."""

import sys

from ...base.units import INSN_OP
from ..console import console, print_table, styled_table


def unit_words(unit):
    if unit == INSN_OP:
        return "guest instructions per operation (QEMU -icount)"
    if unit == "mixed":
        return "each system's own unit"
    return "time per operation"


def show(d, file=None):
    """Print the table (to_dict form), what its numbers are and its notes."""
    con = console(file or sys.stdout)
    plain = not con.is_terminal
    t = styled_table(plain, title=f"Thread-Metric's figures: {', '.join(d['labels'])}")
    t.add_column("figure", overflow="fold")
    for label in d["labels"]:
        t.add_column(label if d["unit"] != INSN_OP else f"{label} insn", justify="right", no_wrap=True)
        t.add_column("\u00d7 basic", justify="right", no_wrap=True)
    for r in d["rows"]:
        row = [r["figure"]]
        for c in r["cells"]:
            row += [c["text"], c["norm_text"]]
        t.add_row(*row)
    print_table(con, t)
    con.print(
        f"Per operation, in {unit_words(d['unit'])}; \u00d7 basic: that cost over one basic-processing "
        "pass of the same run (Thread-Metric's normalised count turned over: lower is better). "
        "The benchmarks: threadmetric.* (docs/thread-metric.md).",
        markup=False,
    )
    for note in d["notes"]:
        con.print("note: " + note, markup=False)
