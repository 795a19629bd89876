"""Run names: the rules they follow (for --name and for imported runs), safe display of any
stored text on a terminal, and decimal numbers read from text people type or boards print."""

import re

from .errors import TickmarkError

MAX_NAME = 100
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_DECIMAL = re.compile(r"[0-9]+")


def decimal(text, digits=18):
    """An unsigned decimal number of ASCII digits (at most `digits` of them) -> int, else None.
    str.isdigit() also takes '²' and '١', which int() then refuses or reads as another number."""
    if isinstance(text, str) and len(text) <= digits and _DECIMAL.fullmatch(text):
        return int(text)
    return None


def numeric_environ(names=("COLUMNS", "LINES")):
    """The environment for a library that reads numbers from it (Rich calls int() on COLUMNS),
    without such a variable when it is not a plain number ('²', 5,000 digits)."""
    import os

    return {k: v for k, v in os.environ.items() if k not in names or decimal(v, 5) is not None}


def _invisible(name):
    """The first character of name that changes how text around it shows without showing itself:
    a format character (right-to-left override, zero-width space or joiner, byte order mark), a
    line or paragraph separator, a lone surrogate, an unassigned code point -> it, or None."""
    import unicodedata

    for ch in name:
        if ord(ch) > 0x7F and unicodedata.category(ch) in ("Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            return ch
    return None


def check_name(name, what="--name"):
    """A run name: 1..100 characters, no control characters, no invisible ones (right-to-left
    override, zero-width, ...), not a number, not 'latest' (those select runs by id and by age).
    -> name, or a one-line TickmarkError."""
    if not isinstance(name, str) or not name.strip():
        raise TickmarkError(f"bad {what}: empty (a name needs a letter or a sign besides digits)")
    shown = printable(name)[:60]
    if _CONTROL.search(name):
        raise TickmarkError(f"bad {what} '{shown}': control characters (newline, escape, ...) are not allowed")
    ch = _invisible(name)
    if ch is not None:
        shown = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in shown)
        raise TickmarkError(
            f"bad {what} '{shown}': invisible character U+{ord(ch):04X} (right-to-left, zero-width, ...) not allowed"
        )
    if len(name) > MAX_NAME:
        raise TickmarkError(f"bad {what} '{shown}...': longer than {MAX_NAME} characters")
    if decimal(name, MAX_NAME) is not None or name == "latest":
        raise TickmarkError(f"bad {what} '{shown}': not a number and not 'latest' (they select runs by id and age)")
    return name


def printable(text):
    """Text for a terminal: control characters (ESC, newline, ...) shown as \\xNN escapes."""
    text = str(text)
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text) if _CONTROL.search(text) else text


def when(t, fmt="%Y-%m-%d %H:%M:%S"):
    """A stored time (seconds since the epoch) for people; '?' for one the clock cannot show."""
    import time

    try:
        return time.strftime(fmt, time.localtime(t))
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"


LABEL_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")
MAX_LABEL = 200


def check_label(key, value, what="--label"):
    """A run label KEY=VALUE (history orders and filters by them): a key of letters, digits,
    '_', '.', '-' and a value of 1..200 characters without control characters -> (key, value)."""
    if not isinstance(key, str) or not LABEL_KEY.fullmatch(key):
        raise TickmarkError(
            f"bad {what} key '{printable(key)[:40]}': letters, digits, '_', '.', '-' (starting with a letter)"
        )
    if not isinstance(value, str) or not value or len(value) > MAX_LABEL or _CONTROL.search(value):
        raise TickmarkError(
            f"bad {what} {key}='{printable(value)[:40]}': 1..{MAX_LABEL} characters without control characters"
        )
    return key, value


def run_labels(run):
    """A stored run's labels (run --label, a campaign's [labels]) -> {key: value}, {} without any."""
    labels = (run.get("notes") or {}).get("labels")
    return dict(labels) if isinstance(labels, dict) else {}


def labels_text(labels):
    """{key: value} -> 'key=value key=value' (by key), '' for none."""
    return " ".join(f"{k}={v}" for k, v in sorted(labels.items()))


def parse_labels(texts, what="--label"):
    """['KEY=VALUE', ...] -> {key: value}; each key once."""
    out = {}
    for t in texts:
        key, eq, value = t.partition("=")
        if not eq:
            raise TickmarkError(f"bad {what} '{printable(t)[:40]}' (expected KEY=VALUE, e.g. build=1234)")
        check_label(key, value, what)
        if key in out:
            raise TickmarkError(f"{what} {key} given twice")
        out[key] = value
    return out
