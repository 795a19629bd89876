"""Terminal view of a run's cold and warm figures (model/cold.py: cold_model): per result, the
headline, the median of its cold calls and their ratio; the model's notes under it."""

import textwrap

from ...base.names import printable
from ..console import print_table, styled_table

COLUMNS = (("benchmark", "key"), ("warm", "warm_text"), ("cold", "cold_text"), ("cold/warm", "ratio_text"),
           ("calls", "calls"))  # fmt: skip


def build_table(cm, plain=False):
    t = styled_table(plain, title=cm["title"])
    for col, _ in COLUMNS:
        t.add_column(col, justify="left" if col == "benchmark" else "right", no_wrap=col != "benchmark")
    for r in cm["rows"]:
        t.add_row(*[printable(str(r[field])) for _, field in COLUMNS])
    return t


def show(cm, console):
    if cm["rows"]:
        print_table(console, build_table(cm, plain=not console.is_terminal))
    for note in cm["notes"]:
        for line in textwrap.wrap(note, max(40, console.width)):
            console.print(line)
