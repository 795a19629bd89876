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

from ..base.names import decimal, numeric_environ, printable

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
    """A renderable as Rich lays it out, its text escaped (the console's render hook); in a pipe
    (plain), each line without the spaces that pad it to the table's width."""

    def __init__(self, renderable, plain=False):
        self.renderable = renderable
        self.plain = plain

    def __rich_console__(self, con, options):
        from rich.segment import Segment

        segs = (
            seg if seg.control or not _CONTROL.search(seg.text) else Segment(lines_printable(seg.text), seg.style)
            for seg in con.render(self.renderable, options)
        )
        yield from _trimmed(segs) if self.plain else segs

    def __rich_measure__(self, con, options):
        from rich.measure import Measurement

        return Measurement.get(con, options, self.renderable)


def _trimmed(segments):
    """Segments with the spaces at the end of each line left out (a line is what comes before a
    segment that holds a newline)."""
    from rich.segment import Segment

    line = []
    for seg in segments:
        if seg.control or "\n" not in seg.text:
            line.append(seg)
            continue
        *ended, rest = seg.text.split("\n")
        for part in ended:
            line.append(Segment(part, seg.style))
            yield from _rstripped(line)
            yield Segment("\n", seg.style)
            line = []
        if rest:
            line.append(Segment(rest, seg.style))
    yield from _rstripped(line)


def _rstripped(line):
    """One line's segments without its trailing spaces."""
    from rich.segment import Segment

    while line and not line[-1].control and not line[-1].text.rstrip(" "):
        line.pop()
    if line and not line[-1].control:
        line[-1] = Segment(line[-1].text.rstrip(" "), line[-1].style)
    return line


def _escape_hook(plain=False):
    from rich.console import RenderHook

    class EscapeHook(RenderHook):
        def process_renderables(self, renderables):
            return [_Escaped(r, plain) for r in renderables]

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
    con.push_render_hook(_escape_hook(plain))
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


FOLD_MIN = 10  # a column that wraps is never narrower than this (or its min_width): longer words fold


def _layout(con, table, width=None):
    """The content width of each column of a table drawn within width (default: the console's):
    each as wide as its widest cell, then the columns that wrap narrowed (the one with the most
    to give first, the first column last) down to FOLD_MIN (or their min_width; a longer word
    folds), while a no_wrap column keeps its widest cell (keep_whole) -> (widths, the table's
    width with them)."""
    keep_whole(table)
    options = con.options.update_width(10_000)
    pads = [table._get_padding_width(i) for i in range(len(table.columns))]
    chrome = sum(pads) + table._extra_width
    widths, least = [], []
    for col, pad in zip(table.columns, pads):
        most = max(1, table._measure_column(con, options, col).maximum - pad)
        widths.append(most)
        least.append(most if col.no_wrap else min(most, max(FOLD_MIN, col.min_width or 0)))
    over = sum(widths) + chrome - (con.width if width is None else width)
    for first in (1, 0):  # the first column (what a row is) wraps last
        while over > 0:
            i = max(range(first, len(widths)), key=lambda i: widths[i] - least[i], default=0)
            if widths[i] <= least[i]:
                break
            cut = min(over, widths[i] - least[i], max(1, (widths[i] - least[i]) // 2))
            widths[i] -= cut
            over -= cut
    return widths, sum(widths) + chrome


def need_width(con, table):
    """The narrowest the table can be drawn without cutting a cell of a no_wrap column (each as
    wide as its widest cell: keep_whole) or folding a column that wraps below FOLD_MIN."""
    return _layout(con, table, width=0)[1]


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
    return table


def fitted(con, build, steps):
    """The first table `build(step)` makes, for step in steps, that fits the console (each step
    leaves more columns out or lets more of them wrap). -> (table, the step taken); the last
    step's table when none fits (print it with print_table: it comes in parts)."""
    for step in steps:
        table = build(step)
        if need_width(con, table) <= con.width:
            return table, step
    return table, step


def _columns(table, which):
    """A copy of table with the columns of the indices `which` only."""
    import copy

    part = copy.copy(table)
    part.columns = [table.columns[i] for i in which]
    return part


def _drawn(con, table):
    """Print a table with the column widths of _layout (Rich's own layout would cut a column
    that does not wrap before it narrows the others), wider than the console where it must."""
    widths, need = _layout(con, table)
    for col, w in zip(table.columns, widths):
        col.width = w
        if not col.no_wrap:
            col.overflow = "fold"  # a word longer than its column folds (Rich would cut it with '…')
    width = con.width
    con.width = max(width, need)
    con.print(table)
    con.width = width


def print_table(con, table, keep=1):
    """Print a table within the console's width: columns that wrap fold down to FOLD_MIN, and a
    table still too wide comes in parts, one below the other, each with the first `keep` columns
    (the benchmark) and as many of the others as fit, then a note. A number is never cut: a part
    that cannot fit (the keys and one column) runs longer than the width."""
    if need_width(con, table) <= con.width:
        _drawn(con, table)
        return
    rest, parts = list(range(keep, len(table.columns))), []
    while rest:
        take = [rest[0]]
        for i in rest[1:]:
            if need_width(con, _columns(table, [*range(keep), *take, i])) > con.width:
                break
            take.append(i)
        parts.append(take)
        rest = rest[len(take) :]
    for n, take in enumerate(parts):
        if n:
            con.print()
        _drawn(con, _columns(table, [*range(keep), *take]))
    if len(parts) > 1:
        con.print(f"(too wide for {con.width} columns: in {len(parts)} parts, one below the other)")


def key_pieces(key, bracket=True):
    """A benchmark's key in the pieces it may break between: after each ',' of its parameters
    and (bracket) before its '[' ('mem.lat_rand', '[size=4096,', 'thp=0]')."""
    return [p for p in re.split(r"(?<=,)|(?=\[)" if bracket else r"(?<=,)", key) if p]


def key_width(keys, cap=40, bracket=True):
    """The narrowest a column of these keys can be, broken at their pieces (at most cap)."""
    return min(cap, max((len(p) for k in keys for p in key_pieces(k, bracket)), default=1))


def wrap_key(key, width, bracket=True):
    """A key as lines of at most width, broken between its pieces only (a piece longer than
    width stays whole)."""
    lines = [""]
    for piece in key_pieces(key, bracket):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
    return "\n".join(lines)


def wrap_words(text, width, indent="", rest="    "):
    """Text as lines of at most width (words wrap; a word longer than the line is cut), the
    first indented by indent, the others by rest."""
    import textwrap

    return textwrap.wrap(text, width=max(width, len(rest) + 10), initial_indent=indent, subsequent_indent=rest) or [
        indent.rstrip()
    ]


def print_wrapped(con, text, indent="", rest="    "):
    """A line of words on the console, wrapped to its width with a hanging indent (rest)."""
    for line in wrap_words(printable(text), con.width, indent, rest):
        con.print(line, markup=False, highlight=False, soft_wrap=True)


def wrap_parts(parts, width, sep=" | "):
    """Parts of one line ('CPU ...', 'kernel ...', ...) joined by sep into lines of at most
    width, broken between parts (never after a separator); a part longer than a line wraps."""
    lines = []
    for part in parts:
        if lines and len(lines[-1]) + len(sep) + len(part) <= width:
            lines[-1] += sep + part
        else:
            lines += wrap_words(part, width, rest="  ")
    return lines


_ANSI = {"green": "32", "red": "31", "yellow": "33", "dim": "2", "bold": "1"}


def _split(text, how):
    """The pieces a cell may break between: a key's ('key'), or words ('words')."""
    return key_pieces(text) if how == "key" else re.findall(r"\S+\s*", text) or [""]


def _cell_lines(text, width, how):
    """A cell's text as lines of at most width, broken between its pieces (a piece longer than
    width is cut: only text wraps, never a number)."""
    if how is None or len(text) <= width:
        return [text]
    lines = [""]
    for piece in _split(text, how):
        if lines[-1] and len(lines[-1]) + len(piece.rstrip()) > width:
            lines[-1] = lines[-1].rstrip()
            lines.append("")
        while len(piece.rstrip()) > width:
            lines[-1] += piece[:width]
            piece = piece[width:]
            lines.append("")
        lines[-1] += piece
    return [line.rstrip() for line in lines]


def _widths(headers, rows, cols, wrap, width):
    """Column widths for the columns cols within width: every one as wide as its widest cell,
    then the columns that wrap narrowed (the widest first) down to their longest piece ->
    (widths, fits)."""
    natural = {i: max(len(x) for x in [headers[i]] + [r[i] for r in rows]) for i in cols}
    least = {
        i: max([len(headers[i])] + [len(p.rstrip()) for r in rows for p in _split(r[i], wrap[i])])
        if i in wrap
        else natural[i]
        for i in cols
    }
    w = dict(natural)
    over = sum(w.values()) + 3 * (len(cols) - 1) - width
    while over > 0:
        i = max((i for i in cols if w[i] > least[i]), key=lambda i: w[i] - least[i], default=None)
        if i is None:
            break
        w[i] -= 1
        over -= 1
    return w, over <= 0


def fixed_table(headers, rows, right, width, styles=None, plain=True, keep=1, wrap=None, optional=()):
    """A table of text cells as lines (Rich's Table costs milliseconds a row; a comparison of a
    whole suite prints hundreds), fitted to width: columns that wrap (wrap: {index: 'key' or
    'words'}) break between their pieces, then the columns in `optional` (indices) are left out
    in that order, then what is still too wide comes in parts, one below the other, each with
    the first `keep` columns. A number is never cut. -> (lines, headers left out)."""
    headers = [printable(h) for h in headers]
    rows = [[printable(c) for c in r] for r in rows]
    wrap = wrap or {}
    cols = list(range(len(headers)))
    dropped = []
    for i in optional:
        w, fits = _widths(headers, rows, cols, wrap, width)
        if fits:
            break
        cols.remove(i)
        dropped.append(headers[i])
    parts, rest = [], cols[keep:]
    while rest:  # as many columns beside the first ones as fit, part by part
        n = 1
        while n < len(rest) and _widths(headers, rows, cols[:keep] + rest[: n + 1], wrap, width)[1]:
            n += 1
        parts.append(cols[:keep] + rest[:n])
        rest = rest[n:]
    lines = []
    for k, part in enumerate(parts or [cols]):
        if k:
            lines.append("")
        w, _ = _widths(headers, rows, part, wrap, width)

        def cell(i, text, style=None, w=w):
            text = text.rjust(w[i]) if right[i] else text.ljust(w[i])
            return f"\x1b[{_ANSI[style]}m{text}\x1b[0m" if style and not plain else text

        lines.append(" | ".join(cell(i, headers[i], "bold") for i in part).rstrip())
        lines.append("-+-".join("-" * w[i] for i in part))
        for n, r in enumerate(rows):
            st = styles[n] if styles else [None] * len(r)
            cells = {i: _cell_lines(r[i], w[i], wrap.get(i)) for i in part}
            for j in range(max(len(c) for c in cells.values())):
                lines.append(
                    " | ".join(cell(i, cells[i][j] if j < len(cells[i]) else "", st[i]) for i in part).rstrip()
                )
    if len(parts) > 1:
        lines.append(f"(too wide for {width} columns: in {len(parts)} parts, one below the other)")
    return lines, dropped


def dropped_note(dropped, where=""):
    """The line under a table that left columns out (where: what shows them, e.g. 'tickmark report
    has every column'), or None when it left none."""
    return f"(left out at this width: {', '.join(dropped)}{'; ' + where if where else ''})" if dropped else None
