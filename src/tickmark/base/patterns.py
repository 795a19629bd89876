"""Benchmark patterns, read everywhere as the core reads them: `*` and `?` are wildcards and every
other character stands for itself (the brackets of a result's key name its parameters:
mem.lat_rand[size=4096]); a parameter's value may carry the binary suffix K, M or G, as on the
command line and in `tickmark list` (mem.bw_copy[size=32M] is mem.bw_copy[size=33554432])."""

from __future__ import annotations

import re
from functools import lru_cache

from .units import parse_size

# a parameter value with a suffix, in the core's form (tm_parse_int: an optional "-", digits, K/M/G)
_SUFFIXED = re.compile(r"(?<=[=,])-?[0-9]+[KkMmGg](?=[,\]])")


def normalized(pattern: str) -> str:
    """The pattern with each suffixed parameter value written out in full."""
    head, bracket, rest = pattern.partition("[")
    if not bracket:
        return pattern
    return head + bracket + _SUFFIXED.sub(_in_full, rest)


def _in_full(m: re.Match[str]) -> str:
    n = parse_size(m[0], signed=True)
    return m[0] if n is None else str(n)  # None: more digits than any 64-bit value, left as written


@lru_cache(maxsize=512)
def _regex(pattern: str) -> re.Pattern[str]:
    parts = (".*" if c == "*" else "." if c == "?" else re.escape(c) for c in normalized(pattern))
    return re.compile("".join(parts), re.S)


def matches(text: str, pattern: str) -> bool:
    """Whether a benchmark name or result key is selected by the pattern."""
    return _regex(pattern).fullmatch(text) is not None
