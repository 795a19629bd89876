"""The one exception type the command line turns into `tickmark: error: ...` (exit 2), and the
interrupts (Ctrl-C, SIGTERM, SIGHUP) as exceptions that let the code they stop clean up."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any


class TickmarkError(Exception):
    """A user-facing error: a one-line message, plus optional detail lines (e.g. compiler output)."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class CorruptStore(TickmarkError):
    """A store whose file or rows are damaged (or were edited by hand into something tickmark never writes)."""


class NoRun(TickmarkError):
    """A run reference that names no stored run (as opposed to a store that cannot be read)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or a signal) at a point that has something to say about it, e.g. what was cleaned up."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@contextlib.contextmanager
def interrupted_by_signals(exc: type[BaseException] = KeyboardInterrupt) -> Iterator[None]:
    """While it lasts, SIGTERM and SIGHUP (a kill, a terminal closed) raise exc("interrupted by
    SIGTERM") as Ctrl-C raises KeyboardInterrupt, so that what they stop cleans up. A signal
    that is ignored (SIGHUP under nohup) stays ignored. Only the main thread can take signals;
    elsewhere this does nothing."""

    def on_signal(signum: int, frame: FrameType | None) -> None:
        raise exc(f"interrupted by {signal.Signals(signum).name}")

    old: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(sig) != signal.SIG_IGN:
                old[sig] = signal.signal(sig, on_signal)
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
