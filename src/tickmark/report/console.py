"""The one terminal console of every command.

Width policy (all commands): on a terminal, the terminal's width; in a pipe or a file, $COLUMNS
when it is set, else PIPE_WIDTH. Tables wrap their text columns (summaries, flags) to fit and
never cut a number: when the numbers alone do not fit, the line runs longer than the width.
Colours only on a terminal (and never with NO_COLOR set).

Escapes: whatever a command prints through this console has its control characters (ESC,
carriage return, ...) written as \\xNN (names.printable): a board's `uname`, an imported
document or a captured log can put any text in a run, and none of it may drive the terminal.
The console's own colours are styles, added after that. Text written without the console goes
through names.printable itself.
"""

import os
import re
import sys

from ..names import decimal, numeric_environ, printable

_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")

PIPE_WIDTH = 100


def is_plain(file=None):
    file = file or sys.stdout
    try:
        return not file.isatty()
    except (AttributeError, ValueError):
        return True


def width(file=None):
    """The width every table aims at (see the module doc)."""
    if not is_plain(file):
        return None  # Rich reads the terminal
    cols = os.environ.get("COLUMNS", "")
    n = decimal(cols, 5)
    return n if n is not None and n >= 40 else PIPE_WIDTH


def lines_printable(text):
    """Text with its control characters escaped (names.printable), its line breaks kept."""
    return "\n".join(printable(part) for part in text.split("\n")) if _CONTROL.search(text) else text


class _Escaped:
    """A renderable as Rich lays it out, its text escaped (the console's render hook)."""

    def __init__(self, renderable):
        self.renderable = renderable

    def __rich_console__(self, con, options):
        from rich.segment import Segment

        for seg in con.render(self.renderable, options):
            if seg.control or not _CONTROL.search(seg.text):
                yield seg
            else:
                yield Segment(lines_printable(seg.text), seg.style)

    def __rich_measure__(self, con, options):
        from rich.measure import Measurement

        return Measurement.get(con, options, self.renderable)


def _escape_hook():
    from rich.console import RenderHook

    class EscapeHook(RenderHook):
        def process_renderables(self, renderables):
            return [_Escaped(r) for r in renderables]

    return EscapeHook()


def console(file=None, stderr=False):
    """The Rich console of every command (one width and colour policy)."""
    from rich.console import Console

    if file is None:
        file = sys.stderr if stderr else sys.stdout
    plain = is_plain(file)
    con = Console(
        file=file,
        force_terminal=not plain,
        width=width(file),
        highlight=False,
        soft_wrap=False,
        no_color=plain or bool(os.environ.get("NO_COLOR")),
        emoji=False,
        markup=False,
        _environ=numeric_environ(),
    )
    con.push_render_hook(_escape_hook())
    return con


def styled_table(plain, **kw):
    """A table in the one style of every view: ASCII rules in a pipe, a bold header on a terminal."""
    from rich import box
    from rich.table import Table

    return Table(
        box=box.ASCII2 if plain else box.SIMPLE_HEAD,
        pad_edge=False,
        show_edge=False,
        padding=(0, 1),
        header_style=None if plain else "bold",
        **kw,
    )


def fit_table(con, table):
    """Widen the console when a table's numbers cannot fit (never cut a number)."""
    from rich.measure import Measurement

    need = Measurement.get(con, con.options.update_width(1000), table).minimum
    if need > con.width:
        con.width = need


def print_whole(con, table):
    """Print a table whose cells never wrap at its full width (the lines run longer than the
    console rather than cut a figure), then give the console its width back."""
    from rich.measure import Measurement

    need = Measurement.get(con, con.options.update_width(1000), table).maximum
    width = con.width
    con.width = max(width, need)
    con.print(table)
    con.width = width


def fitted(con, build, steps):
    """The first table `build(step)` makes, for step in steps, that fits the console (each step
    leaves more columns out or lets more of them wrap; a table wraps the columns that are not
    no_wrap, and keeps each no_wrap column as wide as its widest cell). A number is never cut:
    when even the last step's table does not fit, the console widens and the lines run longer.
    -> (table, the step taken)."""
    from rich.measure import Measurement

    for step in steps:
        table = build(step)
        keep_whole(table)
        need = Measurement.get(con, con.options.update_width(10_000), table).minimum
        if need <= con.width:
            return table, step
    con.width = need
    return table, step


def keep_whole(table):
    """Every no_wrap column of a table at least as wide as its widest cell and its header (Rich
    measures such a column by its longest word, and would cut it)."""
    from rich.cells import cell_len
    from rich.text import Text

    def width(cell):
        text = cell.plain if isinstance(cell, Text) else str(cell)
        return max((cell_len(line) for line in text.split("\n")), default=0)

    for col in table.columns:
        if col.no_wrap:
            col.min_width = max([width(c) for c in col._cells] + [width(col.header), col.min_width or 0])


def dropped_note(dropped, where=""):
    """The line under a table that left columns out (where: what shows them, e.g. 'tickmark report
    has every column'), or None when it left none."""
    return f"(left out at this width: {', '.join(dropped)}{'; ' + where if where else ''})" if dropped else None
