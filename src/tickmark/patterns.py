"""Benchmark patterns, read everywhere as the core reads them: `*` and `?` are wildcards and every
other character stands for itself (the brackets of a result's key name its parameters:
mem.lat_rand[size=4096]); a parameter's value may carry the binary suffix K, M or G, as on the
command line and in `tickmark list` (mem.bw_copy[size=32M] is mem.bw_copy[size=33554432])."""

import re
from functools import lru_cache

_SHIFT = {"k": 10, "m": 20, "g": 30}
_SUFFIXED = re.compile(r"(?<=[=,])(-?\d+)([KkMmGg])(?=[,\]])")


def normalized(pattern):
    """The pattern with each suffixed parameter value written out in full."""
    head, bracket, rest = pattern.partition("[")
    if not bracket:
        return pattern
    return head + bracket + _SUFFIXED.sub(lambda m: str(int(m[1]) << _SHIFT[m[2].lower()]), rest)


@lru_cache(maxsize=512)
def _regex(pattern):
    parts = (".*" if c == "*" else "." if c == "?" else re.escape(c) for c in normalized(pattern))
    return re.compile("".join(parts), re.S)


def matches(text, pattern):
    """Whether a benchmark name or result key is selected by the pattern."""
    return _regex(pattern).fullmatch(text) is not None
