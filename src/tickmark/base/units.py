"""Units: every unit tickmark shows, which way is better in it, and how a number in it is shown;
and the one grammar of sizes (the K/M/G suffixes) with its one formatter.

A base module: every layer may import it, and it imports nothing of tickmark's. pyperf's unit
formatters and google/benchmark's counter flags are the model: a unit says what a figure is
(a time, a count, a rate, a size), whether more of it is better, and how to write it.

    UNITS[MB_S].higher            True: more bandwidth is better
    show(1250.0, MB_S)            '1250 MB/s'
    show(1250.0, NS_OP)           '1.25 us'
    parse_size("32M")             33554432        (also 32m, 32 M, 32MB, 32MiB)
    fmt_size(1536)                '1.5K'

A count of guest instructions (QEMU -icount, INSN_OP) is a count wherever it appears: it is
never written as a time, a rate per second or a time ratio.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

# ---------------------------------------------------------------- the units' names
NS_OP = "ns/op"  # time per operation (the core's per-sample value: ns / ops)
INSN_OP = "insn/op"  # guest instructions per operation (QEMU -icount: 1 ns of virtual time is one instruction)
CYCLES_OP = "cycles/op"  # cycles per operation (a counter, or time x a core frequency)
MB_S = "MB/s"  # bandwidth, 10^6 bytes per second
GB_S = "GB/s"  # bandwidth, 10^9 bytes per second (a plot's axis above 1000 MB/s)
OPS_S = "ops/s"  # operations per second
IT_S = "it/s"  # iterations per second (nbench's rates)
NS = "ns"  # a time (a latency, a timer's resolution)
BYTES = "B"  # a size in bytes (binary suffixes: K = 1024)
PERCENT = "%"  # a fraction shown as a percentage
COUNT = ""  # a plain count (events, instances)


def sig(x: float | None) -> str:
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


def _scaled(x: float | None, steps: tuple[tuple[str, float], ...], rest: Callable[[float], str]) -> str:
    """x in the largest unit of steps ((suffix, scale), largest first) that it reaches, with three
    significant digits; rest(x) below them all."""
    if x is None:
        return "-"
    for suffix, scale in steps:
        if abs(x) >= scale:
            return f"{sig(x / scale)} {suffix}"
    return rest(x)


def fmt_time(ns: float | None) -> str:
    """A time in ns in the largest of s, ms, us, ns it reaches: 1250 -> '1.25 us'."""
    return _scaled(ns, (("s", 1e9), ("ms", 1e6), ("us", 1e3)), lambda v: f"{sig(v)} {NS}")


def fmt_count(n: float | None) -> str:
    """A count with a decimal suffix: 1250000 -> '1.25 M', 675 -> '675'."""
    return _scaled(n, (("G", 1e9), ("M", 1e6), ("k", 1e3)), sig)


def fmt_rate(per_s: float | None) -> str:
    """A rate per second with a decimal suffix: 1250000 -> '1.25M/s'."""
    if per_s is None:
        return "-"
    for suffix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if per_s >= scale:
            return f"{sig(per_s / scale)}{suffix}/s"
    return f"{sig(per_s)}/s"


def fmt_pct(x: float | None) -> str:
    """A fraction as a percentage with one decimal: 0.123 -> '12.3%'."""
    return "-" if x is None else f"{x * 100:.1f}{PERCENT}"


def fmt_bandwidth(mb_s: float | None) -> str:
    """A bandwidth in MB/s, three significant digits: '1250 MB/s'."""
    return "-" if mb_s is None else f"{sig(mb_s)} {MB_S}"


def fmt_bandwidth_tick(mb_s: float) -> str:
    """A bandwidth on a plot's axis: MB/s below 1000, GB/s (10^9 B/s) above."""
    return f"{mb_s:g} {MB_S}" if mb_s < 1000 else f"{mb_s / 1000:g} {GB_S}"


def fmt_insns(n: float | None) -> str:
    """Guest instructions (an exact count): '1.25 M insn'."""
    return "-" if n is None else f"{fmt_count(n)} insn"


# ---------------------------------------------------------------- sizes
_SHIFT = {"": 0, "K": 10, "M": 20, "G": 30}
MAX_SIZE_DIGITS = 20  # more digits than any 64-bit value has: refused, never read (int() of 5,000 digits is slow)

# A size as tickmark reads it anywhere (a pattern's size=32M, --param, the sweeps the core
# lists, the sizes an OS reports): digits, then optionally a binary suffix K, M or G (either
# case, K = 1024), and an optional "B" or "iB" after it ("32K", "32k", "32 KiB", "32KB", "512B").
SIZE = r"(-?)([0-9]+)\s*(?:([KMGkmg])(?:[iI]?[bB])?|[bB])?"
_SIZE = re.compile(r"\s*" + SIZE + r"\s*")


def parse_size(text: object, signed: bool = False) -> int | None:
    """A size in words -> bytes (int), else None: '32M' -> 33554432, '4096' -> 4096, '32 KiB'
    -> 32768. A leading '-' only with signed (a pattern's parameter value may be negative); at
    most MAX_SIZE_DIGITS digits. An int is taken as it is."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text if signed or text >= 0 else None
    m = _SIZE.fullmatch(text) if isinstance(text, str) else None
    if not m or (m[1] and not signed) or len(m[2]) > MAX_SIZE_DIGITS:
        return None
    n = int(m[2]) << _SHIFT[(m[3] or "").upper()]
    return -n if m[1] else n


def fmt_size(n: float | None, digits: int | None = None) -> str:
    """Bytes with a binary suffix: 1536 -> '1.5K', 1048576 -> '1M', 512 -> '512B' (two decimals
    at most); with digits=3, three significant digits (436K, 2.21M: a size that is an estimate)."""
    if n is None:
        return "-"
    for suffix in ("G", "M", "K"):
        scale = 1 << _SHIFT[suffix]
        if n >= scale:
            v = n / scale
            if digits == 3:
                return (f"{v:.3g}" if v < 100 else f"{v:.0f}") + suffix
            return f"{v:.2f}".rstrip("0").rstrip(".") + suffix
    return f"{n}{BYTES}"


# ---------------------------------------------------------------- the registry
@dataclass(frozen=True)
class Unit:
    """One unit: what a number in it is, which way is better, and how it is shown.

    kind    "time", "count", "rate", "size" or "fraction"
    higher  True: more is better (bandwidth, rates); False: less is better (times, counts of
            work, sizes of code); None: the unit does not say (a figure says it itself)
    show    number -> text, the unit written in (a value in a table, a headline)
    words   the unit in words (a legend, an axis)"""

    name: str
    kind: str
    higher: bool | None
    show: Callable[[Any], str]
    words: str


_UNITS = (
    Unit(NS_OP, "time", False, fmt_time, "time per operation"),
    Unit(INSN_OP, "count", False, fmt_insns, "guest instructions per operation (QEMU -icount: an exact count)"),
    Unit(CYCLES_OP, "count", False, sig, "cycles per operation"),
    Unit(MB_S, "rate", True, fmt_bandwidth, "bandwidth (10^6 bytes per second)"),
    Unit(OPS_S, "rate", True, fmt_rate, "operations per second"),
    Unit(IT_S, "rate", True, fmt_rate, "iterations per second"),
    Unit(NS, "time", False, fmt_time, "time"),
    Unit(BYTES, "size", False, fmt_size, "bytes"),
    Unit(PERCENT, "fraction", None, fmt_pct, "percent"),
    Unit(COUNT, "count", None, fmt_count, "count"),
)
UNITS = {u.name: u for u in _UNITS}


def higher_is_better(unit: str | None, said: object = None) -> bool:
    """Is a higher value better in this unit? What a figure says of itself (said: True/False)
    wins; else the unit's own direction; a unit that does not say (a program's own figure
    without a direction, a count) is lower-is-better, as a time is."""
    if said is not None:
        return bool(said)
    u = UNITS.get(unit if unit is not None else NS_OP)
    return bool(u and u.higher)


def show(x: float | None, unit: str | None) -> str:
    """A value in its unit, as a person reads it: a time for ns/op (no '/op'), guest
    instructions for insn/op, MB/s, or a program's own figure as three digits and its unit."""
    u = UNITS.get(unit if unit is not None else NS_OP)
    if u is not None and u.name in (NS_OP, INSN_OP, MB_S):
        return u.show(x)
    return f"{sig(x)} {unit or ''}".rstrip()
