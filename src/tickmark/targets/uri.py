"""The options of a target URI (`SCHEME:BODY?name=value&...`), parsed in one place: each target
declares its options (a class attribute `options`, a tuple of Option) and parse() returns them
typed, defaults filled in. Every mistake is one line that names the option.

    options = (Option("baud", "choice", 115200, choices=BAUDS), Option("silence", "int", 60, 1, 86400, "seconds"))
    body, opts = uri.parse("serial:/dev/ttyUSB0?baud=9600", options, "serial:DEVICE[?baud=N]")
"""

import re
import urllib.parse
from dataclasses import dataclass

from ..base.errors import TickmarkError
from ..base.names import decimal
from .base import shown

_TRUE = ("1", "yes", "true", "")
_FALSE = ("0", "no", "false")
_PLAIN_PATH = re.compile(r"[A-Za-z0-9._/,:@-]+")


@dataclass(frozen=True)
class Option:
    """One URI option. kind: "int" (lo..hi, in `what` units), "flag" (1/0, yes/no, true/false; a
    bare `?name` is 1), "choice" (one of `choices`; ints when the choices are ints), "path" (a
    plain path on the target: no spaces, quotes or shell signs), "text" (anything)."""

    name: str
    kind: str
    default: object = None
    lo: int = None
    hi: int = None
    what: str = ""
    choices: tuple = ()

    def value(self, text, bad):
        if self.kind == "flag":
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
            bad(f"{self.name} is 0 or 1")
        if self.kind == "int":
            n = decimal(text, 9)
            if n is None or not self.lo <= n <= self.hi:
                bad(f"{self.name} wants {self.what + ', ' if self.what else ''}{self.lo}..{self.hi}")
            return n
        if self.kind == "choice":
            n = decimal(text, 9)
            typed = n if n is not None else text
            if typed not in self.choices:
                bad(f"{self.name} must be one of {', '.join(map(str, self.choices))}")
            return typed
        if self.kind == "path":
            if not _PLAIN_PATH.fullmatch(text) or text.startswith("-"):
                bad(f"{self.name} must be a plain path on the board (no spaces or shell signs)")
            return text
        return text


def parse(uri, options, usage):
    """'scheme:body?a=1&b=2' -> (body, {option name: typed value}) with every declared option
    present (its default when not given). usage: the URI's form, for the error of a malformed one."""
    rest = uri.partition(":")[2]
    body, _, query = rest.partition("?")

    def bad(what):
        raise TickmarkError(f"bad --target '{shown(uri)}': {what}")

    names = ", ".join(o.name for o in options)
    try:
        given = urllib.parse.parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise TickmarkError(f"bad --target '{shown(uri)}' (expected {usage}; options: {names or 'none'})")
    declared = {o.name: o for o in options}
    out = {o.name: o.default for o in options}
    seen = set()
    for name, text in given:
        o = declared.get(name)
        if o is None:
            bad(f"unknown option {shown(name, 30)} (options: {names or 'none'})")
        if name in seen:
            bad(f"option {name} given twice")
        seen.add(name)
        out[name] = o.value(text, bad)
    return body, out
