"""The ranges of the core's benchmark parameters, read from its source, so that a --param value
the core would refuse is refused before anything is built (a cross build of the core and an RTOS
image take minutes). A TM_BENCH descriptor declares them as `.ranges = "NAME=LO..HI[,...]"`
(bench.h), a string or a macro of one (twoparty.h: TP_MSG_RANGE); the core checks the same text
when it expands the sweep, and its `list` gives each parameter's range too (a test holds the two
readings to each other)."""

import re

from ..base.units import parse_size
from .build import core_dir
from .sizes import BENCH_NAME, DESCRIPTOR

_DEFINE = re.compile(r"^#define (\w+)[ \t]+(.*)$", re.M)
_RANGES = re.compile(r'\.ranges = "([^"]*)"')
_WORD = re.compile(r"\b[A-Z][A-Z0-9_]*\b")


def _macros(texts):
    """#define NAME BODY of every source (continued lines joined) -> {NAME: BODY}."""
    out = {}
    for text in texts:
        for m in _DEFINE.finditer(text):
            out[m.group(1)] = m.group(2)
    return out


def _expanded(body, macros, depth=3):
    for _ in range(depth):
        body = _WORD.sub(lambda m: macros.get(m.group(0), m.group(0)), body)
    return body


def declared(root=None):
    """{bench name: {param name: "LO..HI"}} for every parameter with a range in the core's
    source (root: the core's folder)."""
    root = core_dir() if root is None else root
    texts = [p.read_text(encoding="utf-8", errors="replace").replace("\\\n", " ") for p in sorted(root.rglob("*.[ch]"))]
    macros = _macros(texts)
    out = {}
    for text in texts:
        for d in DESCRIPTOR.finditer(text):
            name = BENCH_NAME.search(d.group(1))
            ranges = _RANGES.search(_expanded(d.group(1), macros))
            if name and ranges:
                out[name.group(1)] = dict(e.split("=", 1) for e in ranges.group(1).split(","))
    return out


def bounds(text):
    """A range 'LO..HI' -> (lo, hi) in integers (K/M/G suffixes as the core reads them)."""
    lo, _, hi = text.partition("..")
    return parse_size(lo, signed=True), parse_size(hi, signed=True)
