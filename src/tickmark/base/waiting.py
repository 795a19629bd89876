"""Waiting with a limit, the one way every layer does it: a Watchdog that acts when a stream stays
silent too long (or, never fed, when a time is up), and retry() for loops that poll something
until it answers or a deadline passes."""

import os
import threading
import time

from .errors import TickmarkError
from .names import decimal, printable


def environ_seconds(name, default, whole=False):
    """A wait a user may set in the environment variable `name` (seconds, more than 0, at most a
    day; whole seconds when whole) -> the value, or default when it is unset or empty; anything
    else is a one-line error."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if whole:
        value = decimal(text, 5)
    else:
        try:
            value = float(text)
        except ValueError:
            value = None
    if value is None or not 0 < value <= 86400:  # (NaN too)
        kind = "whole seconds, 1 to 86400" if whole else "seconds, more than 0, at most 86400"
        raise TickmarkError(f"bad {name} '{printable(text)}' (expected {kind})")
    return value


class Watchdog:
    """Calls `action` once when `seconds` pass without a beat(): a core or an emulated machine
    that went silent. A watchdog that is never fed is a plain deadline. cancel() when done."""

    def __init__(self, seconds, action):
        self.seconds, self.action, self.fired = seconds, action, False
        self._last = time.monotonic()
        self._done = threading.Event()
        threading.Thread(target=self._run, name="watchdog", daemon=True).start()

    def _run(self):
        while not self._done.wait(min(1.0, self.seconds / 4)):
            if time.monotonic() - self._last > self.seconds:
                if self._done.is_set():
                    return
                self.fired = True
                self.action()
                return

    def beat(self):
        self._last = time.monotonic()

    def watch(self, lines):
        """The lines of a stream, each one a beat."""
        for line in lines:
            self.beat()
            yield line

    def cancel(self):
        self._done.set()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cancel()


class Again(Exception):
    """Raised by an attempt of retry() that should be made again. `error` is what retry() raises
    when the time is up: an exception, or a function that makes one (said only if needed)."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


def retry(seconds, attempt, interval=0.5):
    """attempt() until it returns (its value is returned) or `seconds` have passed since the
    first attempt; an attempt raises Again to be made again. When the time is up, the last
    Again's error is raised."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return attempt()
        except Again as e:
            if time.monotonic() >= deadline:
                err = e.error() if callable(e.error) and not isinstance(e.error, BaseException) else e.error
                raise err from None
        time.sleep(interval)
