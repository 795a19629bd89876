"""Terminal view of the stored runs (`tickmark runs`): one row per run, fitted to the width (the
text columns wrap; at a narrow width the results count, then the start time and the labels, are
left out, with a note)."""

from rich.text import Text

from ...base.names import printable
from ..console import console, dropped_note, fitted, print_table, styled_table

COLUMNS = ("id", "started", "status", "results", "name", "target", "labels", "benchmarks")
NUMBERS = ("id", "results")
# what gives way, step by step, until the table fits: (columns left out, columns kept whole);
# the columns not kept whole wrap (labels and benchmarks always may)
STEPS = (
    ((), ("name", "target")),
    (("results",), ("name", "target")),
    (("results",), ()),
    (("results", "started"), ()),
    (("results", "started", "labels"), ()),
)


def show(rows, file=None, empty="no runs stored yet"):
    con = console(file)
    if not rows:
        con.print(empty)
        return
    plain = not con.is_terminal
    shown = [c for c in COLUMNS if c != "labels" or any(r["labels"] for r in rows)]

    def build(step):
        dropped, whole = step
        t = styled_table(plain)
        cols = [c for c in shown if c not in dropped]
        for c in cols:
            if c in ("name", "target", "labels", "benchmarks") and c not in whole:
                t.add_column(c, overflow="fold")
            else:
                t.add_column(c, no_wrap=True, justify="right" if c in NUMBERS else "left")
        for r in rows:
            t.add_row(*[Text(printable(str(r[c]))) for c in cols])
        return t

    table, (dropped, _) = fitted(con, build, STEPS)
    print_table(con, table)
    note = dropped_note([c for c in dropped if c in shown])
    if note:
        con.print(note)
