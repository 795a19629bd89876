"""Figures a program prints about itself (netperf's throughput, a test suite's own score), read
from its standard output by `tickmark exec --figure` (a regular expression) or `--json-figure`
(a field of a JSON document), each with its unit and its direction (is higher better?).

    f = Figure.parse("throughput:Mbit/s:higher=([0-9.]+) Mbit", "regex")
    f.value("... 941.5 Mbit/s\\n")        # -> 941.5 (the last match; its first group)
    Figure.parse("bw:bit/s:higher=end.sum_received.bits_per_second", "json").value(iperf3_json)

A figure missing from an output, or one that is not a number, raises FigureMissing with the
reason; the spec itself is checked when it is parsed (one line, TickmarkError)."""

from __future__ import annotations

import json
import math
import re
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from types import FrameType
from typing import Any

from ..base.errors import TickmarkError

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,39}")
_NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
DIRECTIONS = {"higher": True, "lower": False}
FORMS = {"regex": "NAME[:UNIT]:higher|lower=REGEX", "json": "NAME[:UNIT]:higher|lower=FIELD.PATH"}


class FigureMissing(ValueError):
    """A figure that one run's output did not give (the reason says what was missing)."""


@dataclass(frozen=True)
class Figure:
    name: str
    unit: str
    higher: bool
    source: str  # "regex" or "json"
    expr: str  # the regular expression, or the dotted path of the JSON field

    @classmethod
    def parse(cls, text: str, source: str = "regex") -> Figure:
        """'NAME[:UNIT]:higher|lower=EXPR' -> Figure; TickmarkError naming what is wrong."""
        opt = "--figure" if source == "regex" else "--json-figure"
        head, eq, expr = text.partition("=")
        parts = head.split(":")
        if not eq or not expr or len(parts) not in (2, 3):
            raise TickmarkError(f"bad {opt} '{text[:60]}' (expected {FORMS[source]})")
        name, direction = parts[0], parts[-1]
        unit = parts[1].strip() if len(parts) == 3 else ""
        if not _NAME.fullmatch(name):
            raise TickmarkError(f"bad {opt} '{text[:60]}': the name is a word (letters, digits, '_', '-')")
        if direction not in DIRECTIONS:
            raise TickmarkError(f"bad {opt} '{text[:60]}': say whether higher or lower is better (…:higher=…)")
        if len(unit) > 20 or any(not c.isprintable() for c in unit):
            raise TickmarkError(f"bad {opt} '{text[:60]}': a unit is at most 20 printable characters")
        if source == "regex":
            try:
                re.compile(expr)
            except re.error as e:
                raise TickmarkError(f"bad {opt} '{text[:60]}': not a regular expression ({e})")
        elif not all(expr.split(".")):
            raise TickmarkError(f"bad {opt} '{text[:60]}': a field path is KEY[.KEY|.INDEX...]")
        return cls(name, unit, DIRECTIONS[direction], source, expr)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def value(self, out: str, limit: float | None = None) -> float:
        """The figure in one run's output -> float; FigureMissing when it is not there, or
        when finding it takes longer than `limit` seconds (a regular expression that backtracks
        without end)."""
        with _time_limit(limit, f"/{self.expr[:40]}/" if self.source == "regex" else f"field {self.expr[:40]}"):
            if self.source == "regex":
                return _from_regex(self.expr, out)
            return _from_json(self.expr, out)


class _TooLong(Exception):
    pass


@contextmanager
def _time_limit(seconds: float | None, what: str) -> Iterator[None]:
    """FigureMissing when the block takes longer than `seconds` (a timer signal: Python's regular
    expressions look for signals while they match; only the main thread has one to take)."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        raise _TooLong

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _TooLong:
        raise FigureMissing(f"{what} took longer than {seconds:g} s to search the output (it backtracks without end)")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _number(x: object, what: str) -> float:
    """A JSON number, or the first number in a text ("1,234.5 Mbit/s" -> 1234.5) -> float."""
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        v = float(x)
    else:
        m = _NUMBER.search(str(x).replace(",", ""))
        if not m:
            raise FigureMissing(f"{what} is not a number: {str(x)[:40]!r}")
        v = float(m.group())
    if not math.isfinite(v):
        raise FigureMissing(f"{what} is not a finite number: {str(x)[:40]!r}")
    return v


def _from_regex(expr: str, out: str) -> float:
    """The last match of expr in out: its first group, else the whole match, read as a number."""
    last = next(iter(reversed(list(re.finditer(expr, out, re.M)))), None)
    if last is None:
        raise FigureMissing(f"no match of /{expr[:40]}/ in the output")
    text = last.group(1) if last.re.groups else last.group(0)
    if text is None:
        raise FigureMissing(f"/{expr[:40]}/ matched without its group")
    return _number(text, f"the match of /{expr[:40]}/")


def json_document(out: str) -> Any:
    """The output as one JSON document, else the last line that is one -> object, or None;
    FigureMissing for a document nested too deeply to read."""
    try:
        return json.loads(out)
    except ValueError:
        pass
    except RecursionError:
        raise FigureMissing("the output's JSON is nested too deeply to read")
    for line in reversed(out.splitlines()):
        line = line.strip()
        if line.startswith(("{", "[")):
            try:
                return json.loads(line)
            except ValueError:
                continue
            except RecursionError:
                raise FigureMissing("the output's JSON is nested too deeply to read")
    return None


def _from_json(path: str, out: str) -> float:
    doc = json_document(out)
    if doc is None:
        raise FigureMissing("the output holds no JSON document")
    at = doc
    for i, step in enumerate(path.split(".")):
        where = ".".join(path.split(".")[: i + 1])
        if isinstance(at, dict) and step in at:
            at = at[step]
        elif isinstance(at, list) and re.fullmatch(r"-?[0-9]+", step) and -len(at) <= int(step) < len(at):
            at = at[int(step)]
        else:
            raise FigureMissing(f"no field {where} in the output's JSON")
    if isinstance(at, (dict, list)) or isinstance(at, bool) or at is None:
        raise FigureMissing(f"field {path} is not a number")
    return _number(at, f"field {path}")
