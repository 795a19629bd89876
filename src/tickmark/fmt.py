"""Numbers as text: times, rates, sizes, percentages, parameter sweeps (plain strings, no
terminal; the console every command prints through is report/console.py)."""

from .exact import COUNT_UNIT, TIME_UNIT
from .exact import unit as shown_unit
from .names import printable


def known(x, missing="unknown"):
    """A stored setting in words: `missing` where it was not recorded (None, empty text), a
    yes/no setting as on/off, anything else as text with its control characters escaped. Python's
    None never reaches the reader."""
    if x is None or x == "" or x == []:
        return missing
    if isinstance(x, bool):
        return "on" if x else "off"
    return printable(x)


def fmt_it_rate(x):
    """An iteration rate (nbench's it/s): 4 significant digits in exponent form from a million
    up, whole numbers from 100, 3 significant digits below."""
    if x is None:
        return "-"
    return f"{x:.4g}" if x >= 1e6 else f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def sig(x):
    """Three significant digits, no exponent."""
    if x is None:
        return "-"
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    if abs(x) >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def _scaled(x, steps, rest):
    """x in the largest unit of steps ((suffix, scale), largest first) that it reaches, with three
    significant digits; rest(x) below them all."""
    if x is None:
        return "-"
    for suffix, scale in steps:
        if abs(x) >= scale:
            return f"{sig(x / scale)} {suffix}"
    return rest(x)


def fmt_time(ns):
    return _scaled(ns, (("s", 1e9), ("ms", 1e6), ("us", 1e3)), lambda v: f"{sig(v)} ns")


def fmt_count(n):
    """A count with a decimal suffix: 1250000 -> '1.25 M', 675 -> '675'."""
    return _scaled(n, (("G", 1e9), ("M", 1e6), ("k", 1e3)), sig)


def listed(texts, most=5):
    """The first `most` texts joined by commas, with ', ...' when there are more."""
    texts = list(texts)
    return ", ".join(printable(t) for t in texts[:most]) + (", ..." if len(texts) > most else "")


def fmt_rate(per_s):
    if per_s is None:
        return "-"
    for suffix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if per_s >= scale:
            return f"{sig(per_s / scale)}{suffix}/s"
    return f"{sig(per_s)}/s"


def fmt_pct(x):
    return "-" if x is None else f"{x * 100:.1f}%"


def fmt_size(n):
    """Bytes with a binary suffix: 1536 -> 1.5K, 1048576 -> 1M."""
    if n is None:
        return "-"
    for unit, k in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= k:
            return f"{n / k:.2f}".rstrip("0").rstrip(".") + unit
    return f"{n}B"


def _get(d, k):
    return d.get(k) if isinstance(d, dict) else getattr(d, k, None)


def fmt_in(x, unit):
    """A value in its unit (no '/op'): a time for ns/op, guest instructions for insn/op (exact
    counts under QEMU -icount), MB/s, or a figure's own unit."""
    if unit in (None, TIME_UNIT):
        return fmt_time(x)
    if unit == COUNT_UNIT:
        return f"{fmt_count(x)} insn"
    return f"{sig(x)} {unit}".rstrip()


def fmt_value(d, exact=False):
    """The headline of one metric's statistics (a stats.Summary or its stored dict): MB/s for
    bandwidth, a figure in its own unit, guest instructions per operation where the run counted
    them (exact: exact.exact_counts of the run, QEMU -icount), else time per operation."""
    unit = shown_unit(_get(d, "unit"), exact)
    if unit == COUNT_UNIT:
        return f"{fmt_count(_get(d, 'value'))} insn/op"
    if unit not in (None, TIME_UNIT):
        return fmt_in(_get(d, "value"), unit)
    return fmt_time(_get(d, "value")) + "/op"


def ci_pct(d):
    """Half-width of the 95 % CI of the median relative to the median, or None."""
    lo, hi, med = _get(d, "ci95_lo"), _get(d, "ci95_hi"), _get(d, "median")
    if lo is None or hi is None or not med:
        return None
    return (hi - lo) / 2 / med


def fmt_sweep(sweep, limit=24):
    """A parameter sweep ("1K,1536,2K,...") short enough for a table cell: as it is when it fits
    in `limit` characters, else "first..last (N values)"."""
    vals = [v for v in str(sweep).split(",") if v]
    if len(sweep) <= limit or len(vals) < 3:
        return sweep
    return f"{vals[0]}..{vals[-1]} ({len(vals)} values)"


# Markdown's inline markup (emphasis, code, links and images, autolinks and HTML, strikethrough,
# table columns), each written as the character itself
_MD = str.maketrans(
    {c: "\\" + c for c in "\\`*_[]|~!#$"} | {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": " ", "\r": " "}
)


def md_text(s):
    """Any text for a Markdown document (a table cell, a heading, a list item): shown as
    written, never as markup (no link, image, emphasis or HTML of a run name, a label or a
    board's words), control and invisible characters as escapes (names.plain), on one line."""
    return printable("" if s is None else str(s).replace("\n", " ").replace("\r", " ")).translate(_MD)
