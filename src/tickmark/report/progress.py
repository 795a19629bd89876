"""The one progress display of every long command (run, matrix, campaign, topology, profile), on
stderr:

* on a terminal, one bar over the whole command (it does not start again each round): what it
  is doing, how much of it is done, the time spent and an estimate of the time left; the
  command's messages are printed above it;
* in a pipe or a file (a CI log), plain lines: one when a stage starts (a round, a campaign
  cell, a step of a profile) and one at least every EVERY seconds in between (a hung instance
  shows as a log that goes on counting the time), each with the count done, the time spent and
  the time left; the messages as lines of their own. A command that ends (or fails) within
  GRACE seconds prints no progress line, nor does one before its first stage;
* with --quiet (-q), nothing.

The work is counted in steps (a benchmark instance of a round, a cell, a profile's step): a
command adds the steps it knows of (add), starts stages (stage) and counts steps done (step);
the run engine calls round_started() and advance()."""

import sys
import threading
import time

from ..base.names import printable
from .console import console, is_plain, width

EVERY = 10.0  # seconds between two lines in a pipe while a stage goes on
GRACE = 2.0  # seconds before the first line in a pipe


def clock(seconds):
    """'1:05', '1:02:03'."""
    s = int(round(seconds))
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


class Progress:
    """Progress of one command (see the module doc). rounds: the rounds a run plans (the engine's
    round_started() counts round 1's instances once for each); unit: what a step is; estimate:
    False where steps take unlike times (a profile's build, measurement and reading: no time
    left is shown); quiet: show nothing; file: the stream (default stderr)."""

    def __init__(self, rounds=1, quiet=False, unit="instances", estimate=True, file=None):
        self.rounds, self.unit, self.quiet, self.estimate = rounds, unit, quiet, estimate
        self.file = file or sys.stderr
        self.bar = not quiet and not is_plain(self.file)
        self.total = self.done = 0
        self.what, self.who = "", ""
        self.staged = False  # no line before the first stage (a run's first round, a build)
        self.t0 = self.last = time.monotonic()
        self.rp = self.task = None
        self.lock = threading.RLock()  # a campaign's cells end in threads of their own
        self.stopped = threading.Event()
        self.printed = False
        if self.bar:
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
            from rich.progress import Progress as RichProgress
            from rich.table import Column

            self.rp = RichProgress(
                TextColumn("{task.description}", table_column=Column(ratio=1, no_wrap=True, overflow="ellipsis")),
                BarColumn(bar_width=20),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                *((TextColumn("spent,"), TimeRemainingColumn(), TextColumn("left")) if estimate else ()),
                console=console(self.file),
                transient=True,
                expand=True,
            )
            self.task = self.rp.add_task("", total=None)
        self.shown = False  # the bar appears with the first stage or step (not while a core builds)

    def __enter__(self):
        if self.rp is None and not self.quiet:  # a pipe: the lines of a stage that goes on
            threading.Thread(target=self._ticker, name="progress", daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        if self.shown:
            self.rp.stop()
        return False

    def _ticker(self):
        wait = GRACE
        while not self.stopped.wait(wait):
            with self.lock:
                now = time.monotonic()
                if self.staged and (not self.printed or now - self.last >= EVERY):
                    self._line()
                wait = max(0.05, EVERY - (time.monotonic() - self.last))

    def _show(self):
        if self.rp is not None and not self.shown:
            self.shown = True
            self.rp.start()

    # ------------------------------------------------------------ what commands call
    def add(self, n):
        """n more steps of work are known of."""
        self.total += n
        if self.rp is not None:
            self.rp.update(self.task, total=self.total)
            self._show()

    def stage(self, what, who=None):
        """A stage starts (round 2/3; a cell; a profile's step): a line in a pipe. who: what the
        stage is about beside the stage itself (a matrix variant), kept until the next call."""
        with self.lock:
            self.what, self.staged = what, True
            if who is not None:
                self.who = who
            if self.rp is not None:
                self.rp.update(self.task, description=printable(self._doing()))
                self._show()
            elif time.monotonic() - self.t0 >= GRACE:
                self._line()

    def doing(self, who):
        """What the next stages are about (a matrix variant), shown beside the stage."""
        self.who = who

    def step(self, detail=""):
        """A step is done (detail: which, for the bar)."""
        with self.lock:
            self.done += 1
            if self.done > self.total:  # more than was known of (a sweep of more points)
                self.add(self.done - self.total)
            if self.rp is not None:
                text = self._doing() + (f": {detail}" if detail else "")
                # drawn at once: each step done is seen, however soon the next one follows
                self.rp.update(self.task, completed=self.done, description=printable(text), refresh=True)

    def say(self, text):
        """A message of the command (above the bar; a line of its own in a pipe; none when quiet)."""
        if self.quiet:
            return
        if self.rp is not None:
            self.rp.console.print(text)
        else:
            with self.lock:
                print(printable(text), file=self.file, flush=True)

    # ------------------------------------------------------------ the run engine's calls
    def round_started(self, rnd, n):
        """Round rnd of a run starts with n instances: round 1 makes the run's work known (n for
        each planned round), an extra round adds its own."""
        if rnd == 1:
            self.add(n * self.rounds)
        elif rnd > self.rounds:
            self.add(n)
        self.stage(f"round {rnd}/{self.rounds}" if rnd <= self.rounds else f"extra round {rnd}")

    def advance(self, key, rnd):
        self.step(key)

    # ------------------------------------------------------------ the lines of a pipe
    def _doing(self):
        return f"{self.what} ({self.who})" if self.who else self.what

    def left(self):
        """Seconds left at the pace so far, or None before the first step."""
        if not self.done or self.total <= self.done:
            return None if not self.done else 0.0
        return (time.monotonic() - self.t0) / self.done * (self.total - self.done)

    def _line(self):
        if self.quiet or self.stopped.is_set():
            return
        self.printed = True
        self.last = time.monotonic()
        parts = [self._doing()]
        if self.total:
            parts.append(f"{self.done} of {self.total} {self.unit} done")
        parts.append(f"{clock(self.last - self.t0)} spent")
        left = self.left() if self.estimate else None
        if left is not None:
            parts.append(f"about {clock(left)} left")
        line = printable("tickmark: " + ", ".join(parts))
        w = width(self.file) or 80
        print(line if len(line) <= w else line[: w - 3] + "...", file=self.file, flush=True)
