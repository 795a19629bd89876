"""Run names: the rules they follow (for --name and for imported runs), safe display of any
stored text on a terminal, and decimal numbers read from text people type or boards print."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import TickmarkError

MAX_NAME = 100
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_DECIMAL = re.compile(r"[0-9]+")


def decimal(text: object, digits: int = 18) -> int | None:
    """An unsigned decimal number of ASCII digits (at most `digits` of them) -> int, else None.
    str.isdigit() also takes '²' and '١', which int() then refuses or reads as another number."""
    if isinstance(text, str) and len(text) <= digits and _DECIMAL.fullmatch(text):
        return int(text)
    return None


def numeric_environ(names: tuple[str, ...] = ("COLUMNS", "LINES")) -> dict[str, str]:
    """The environment for a library that reads numbers from it (Rich calls int() on COLUMNS),
    without such a variable when it is not a plain number ('²', 5,000 digits)."""
    import os

    return {k: v for k, v in os.environ.items() if k not in names or decimal(v, 5) is not None}


# One rule for every text that enters a store (a name, a label, a board's words, a log's
# record, an imported document): no control characters (C0, DEL, C1), and nothing that changes
# how the text around it shows without showing itself: format characters (right-to-left
# overrides, zero-width spaces and joiners, byte order marks), line and paragraph separators,
# lone surrogates (half a UTF-16 pair: no UTF-8 can hold one), private-use and unassigned code
# points. text_problem() says what breaks it (a name, a label or a document is refused with
# that); plain() writes each such character as a visible escape (\x1b, \u202e), for text that
# cannot be refused: what a board prints, what a store read from disk holds.
_HIDDEN = ("Cf", "Cs", "Co", "Cn", "Zl", "Zp")
MAX_WORD = 300  # a short text: a fingerprint field, a key, a unit


def _hidden(ch: str) -> bool:
    import unicodedata

    return ord(ch) > 0x9F and unicodedata.category(ch) in _HIDDEN


def _escape(ch: str) -> str:
    n = ord(ch)
    return f"\\x{n:02x}" if n <= 0xFF else f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}"


def text_problem(text: str) -> str | None:
    """What keeps a text out of a store by the one rule above, as words for a message, or None."""
    if _CONTROL.search(text):
        return "control characters (newline, escape, ...) are not allowed"
    if not text.isascii():
        ch = next((c for c in text if _hidden(c)), None)
        if ch is not None and 0xD800 <= ord(ch) <= 0xDFFF:
            return f"a lone surrogate U+{ord(ch):04X} (half of a UTF-16 pair) is not allowed"
        if ch is not None:
            return f"invisible character U+{ord(ch):04X} (right-to-left, zero-width, ...) not allowed"
    return None


def plain(text: object) -> str:
    """text with every character the rule above keeps out written as a visible escape."""
    text = str(text)
    if text.isascii():
        return _CONTROL.sub(lambda m: _escape(m.group()), text) if _CONTROL.search(text) else text
    if not any(_CONTROL.match(c) or _hidden(c) for c in text):
        return text
    return "".join(_escape(c) if _CONTROL.match(c) or _hidden(c) else c for c in text)


def plain_all(value: Any) -> Any:
    """Every text in a JSON-like value (keys too) made plain(); other values as they are."""
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, dict):
        return {plain(k) if isinstance(k, str) else k: plain_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_all(v) for v in value]
    return value


def word(text: object, limit: int = MAX_WORD) -> str:
    """A short text from outside (a board's kernel name, its CPU model) as a store keeps it:
    plain, and cut to `limit` characters."""
    text = plain(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_name(name: object, what: str = "--name") -> str:
    """A run name: 1..100 characters, no control characters, no invisible ones (right-to-left
    override, zero-width, ...), not a number, not 'latest' (those select runs by id and by age).
    -> name, or a one-line TickmarkError."""
    if not isinstance(name, str) or not name.strip():
        raise TickmarkError(f"bad {what}: empty (a name needs a letter or a sign besides digits)")
    shown = plain(name)[:60]
    bad = text_problem(name)
    if bad:
        raise TickmarkError(f"bad {what} '{shown}': {bad}")
    if name != name.strip():
        raise TickmarkError(f"bad {what} '{shown}': spaces at its start or end (it would look like another name)")
    if len(name) > MAX_NAME:
        raise TickmarkError(f"bad {what} '{shown}...': longer than {MAX_NAME} characters")
    if decimal(name, MAX_NAME) is not None or name == "latest":
        raise TickmarkError(f"bad {what} '{shown}': not a number and not 'latest' (they select runs by id and age)")
    return name


def numbered(name: str, n: int) -> str:
    """The n-th run of a name that is taken ('board' -> 'board-2'), cut so that it is still a
    name (at most MAX_NAME characters)."""
    suffix = f"-{n}"
    return name[: MAX_NAME - len(suffix)] + suffix


def printable(text: object) -> str:
    """Text for a terminal or a document: control characters (ESC, newline, ...) and invisible
    ones shown as escapes (plain)."""
    return plain(text)


def when(t: Any, fmt: str = "%Y-%m-%d %H:%M:%S") -> str:
    """A stored time (seconds since the epoch) for people; '?' for one the clock cannot show."""
    import time

    try:
        return time.strftime(fmt, time.localtime(t))
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"


LABEL_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")
MAX_LABEL = 200


def check_label(key: object, value: object, what: str = "--label") -> tuple[str, str]:
    """A run label KEY=VALUE (history orders and filters by them): a key of letters, digits,
    '_', '.', '-' and a value of 1..200 characters without control characters -> (key, value)."""
    if not isinstance(key, str) or not LABEL_KEY.fullmatch(key):
        raise TickmarkError(
            f"bad {what} key '{printable(key)[:40]}': letters, digits, '_', '.', '-' (starting with a letter)"
        )
    ok = isinstance(value, str) and value.strip() == value != "" and len(value) <= MAX_LABEL
    if not ok or not isinstance(value, str) or text_problem(value):
        raise TickmarkError(
            f"bad {what} {key}='{plain(value)[:40]}': 1..{MAX_LABEL} characters without control characters, "
            "invisible ones (right-to-left, zero-width, ...) or spaces at its start or end"
        )
    return key, value


def run_labels(run: Mapping[str, Any]) -> dict[str, Any]:
    """A stored run's labels (run --label, a campaign's [labels]) -> {key: value}, {} without any."""
    labels = (run.get("notes") or {}).get("labels")
    return dict(labels) if isinstance(labels, dict) else {}


def labels_text(labels: Mapping[str, Any]) -> str:
    """{key: value} -> 'key=value key=value' (by key), '' for none."""
    return " ".join(f"{k}={v}" for k, v in sorted(labels.items()))


def parse_labels(texts: Iterable[str], what: str = "--label") -> dict[str, str]:
    """['KEY=VALUE', ...] -> {key: value}; each key once."""
    out: dict[str, str] = {}
    for t in texts:
        key, eq, value = t.partition("=")
        if not eq:
            raise TickmarkError(f"bad {what} '{printable(t)[:40]}' (expected KEY=VALUE, e.g. build=1234)")
        check_label(key, value, what)
        if key in out:
            raise TickmarkError(f"{what} {key} given twice")
        out[key] = value
    return out
