"""Terminal view of a host-timed run's table (`run --host-clock`; model/kernel_entry.py:
host_clock_model): per result, the time per operation by the host and by the board's own clock
over the same chunks, how far apart, and the resolution the console allowed; the model's notes
under it."""

from ...base.names import printable
from ..console import print_table, styled_table

COLUMNS = (("benchmark", "key"), ("host", "host_text"), ("board", "board_text"), ("differ", "differ_text"),
           ("sample", "sample_text"), ("resolution", "res_text"))  # fmt: skip


def build_table(hc, plain=False):
    t = styled_table(plain, title=hc["title"])
    for col, _ in COLUMNS:
        t.add_column(col, justify="left" if col == "benchmark" else "right", no_wrap=True)
    for r in hc["rows"]:
        t.add_row(*[printable(r[field]) for _, field in COLUMNS])
    return t


def show(hc, console):
    print_table(console, build_table(hc, plain=not console.is_terminal))
    for line in hc["notes"]:
        console.print(line)
