"""Numbers as text: times, rates, sizes, percentages, parameter sweeps (plain strings, no
terminal; the console every command prints through is report/console.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import units
from .exact import unit as shown_unit
from .names import printable
from .units import INSN_OP, NS_OP, show

# the units' formatters (units.py), where the views have always taken them
sig, fmt_time, fmt_count, fmt_rate, fmt_pct, fmt_size = (
    units.sig,
    units.fmt_time,
    units.fmt_count,
    units.fmt_rate,
    units.fmt_pct,
    units.fmt_size,
)


def known(x: object, missing: str = "unknown") -> str:
    """A stored setting in words: `missing` where it was not recorded (None, empty text), a
    yes/no setting as on/off, anything else as text with its control characters escaped. Python's
    None never reaches the reader."""
    if x is None or x == "" or x == []:
        return missing
    if isinstance(x, bool):
        return "on" if x else "off"
    return printable(x)


def fmt_it_rate(x: float | None) -> str:
    """An iteration rate (nbench's it/s): 4 significant digits in exponent form from a million
    up, whole numbers from 100, 3 significant digits below."""
    if x is None:
        return "-"
    return f"{x:.4g}" if x >= 1e6 else f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def listed(texts: Iterable[object], most: int = 5) -> str:
    """The first `most` texts joined by commas, with ', ...' when there are more."""
    shown = list(texts)
    return ", ".join(printable(t) for t in shown[:most]) + (", ..." if len(shown) > most else "")


def _get(d: object, k: str) -> Any:
    return d.get(k) if isinstance(d, dict) else getattr(d, k, None)


def fmt_in(x: float | None, unit: str | None) -> str:
    """A value in its unit (no '/op'): a time for ns/op, guest instructions for insn/op (exact
    counts under QEMU -icount), MB/s, or a figure's own unit (units.show)."""
    return show(x, unit)


def fmt_value(d: object, exact: bool = False) -> str:
    """The headline of one metric's statistics (a stats.Summary or its stored dict): MB/s for
    bandwidth, a figure in its own unit, guest instructions per operation where the run counted
    them (exact: exact.exact_counts of the run, QEMU -icount), else time per operation."""
    unit = _get(d, "unit")
    exact = exact or _get(d, "cycles_method") == "icount-insns"  # 1 ns of virtual time = 1 insn
    unit = shown_unit(unit, exact)
    if unit == INSN_OP:
        return f"{fmt_count(_get(d, 'value'))} {INSN_OP}"
    if unit not in (None, NS_OP):
        return fmt_in(_get(d, "value"), unit)
    return fmt_time(_get(d, "value")) + "/op"


def ci_pct(d: object) -> float | None:
    """Half-width of the 95 % CI of the median relative to the median, or None."""
    lo, hi, med = _get(d, "ci95_lo"), _get(d, "ci95_hi"), _get(d, "median")
    if lo is None or hi is None or not med:
        return None
    return (hi - lo) / 2 / med


def fmt_sweep(sweep: str, limit: int = 24) -> str:
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


def md_text(s: object) -> str:
    """Any text for a Markdown document (a table cell, a heading, a list item): shown as
    written, never as markup (no link, image, emphasis or HTML of a run name, a label or a
    board's words), control and invisible characters as escapes (names.plain), on one line."""
    return printable("" if s is None else str(s).replace("\n", " ").replace("\r", " ")).translate(_MD)
