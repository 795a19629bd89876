"""The ranges of the core's benchmark parameters, read from its source, so that a --param value
the core would refuse is refused before anything is built (a cross build of the core and an RTOS
image take minutes). A parameter declares its range in its definition as `.range = "LO..HI"`
(bench.h: tm_param_def), either in the TM_BENCH descriptor or in a macro of parameters the
descriptor names (twoparty.h: TP_LAT_MSG_PARAM); the core checks the same text when it expands
the sweep, and its `list` gives it too (a test holds the two readings to each other)."""

import re

from ..units import parse_size
from .build import core_dir

_DESCRIPTOR = re.compile(r"^TM_BENCH\(\w+\) = \{(.*?)^\};", re.M | re.S)
_NAME = re.compile(r'\.name = "([^"]+)"')
_DEFINE = re.compile(r"^#define (\w+)[ \t]+(.*)$", re.M)
_ENTRY = re.compile(r'\{\s*"(\w+)"\s*,[^{}]*?\.range = "([^"]*)"[^{}]*\}')
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
        for d in _DESCRIPTOR.finditer(text):
            name = _NAME.search(d.group(1))
            ranges = dict(_ENTRY.findall(_expanded(d.group(1), macros)))
            if name and ranges:
                out[name.group(1)] = ranges
    return out


def bounds(text):
    """"LO..HI" -> (lo, hi) in integers (K/M/G suffixes as the core reads them)."""
    lo, _, hi = text.partition("..")
    return parse_size(lo, signed=True), parse_size(hi, signed=True)
