"""The progress bar of a run (round N/M, the instance being measured) on stderr, shown only on a
terminal; the run engine calls round_started() and advance()."""

import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RP

from ..names import numeric_environ


class Progress:
    """Rich progress bar on stderr, shown only on a terminal."""

    def __init__(self, rounds, enabled=None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.rounds = rounds
        self.rp = RP(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True, _environ=numeric_environ()),
            transient=True,
            disable=not self.enabled,
        )
        self.task = None

    def __enter__(self):
        self.rp.__enter__()
        return self

    def __exit__(self, *a):
        return self.rp.__exit__(*a)

    def round_started(self, rnd, n):
        label = f"round {rnd}/{self.rounds}" if rnd <= self.rounds else f"extra round {rnd}"
        if self.task is None:
            self.task = self.rp.add_task(label, total=n)
        else:
            self.rp.reset(self.task, total=n, description=label)

    def advance(self, key, rnd):
        if self.task is not None:
            task = next(t for t in self.rp.tasks if t.id == self.task)
            if task.total is not None and task.completed + 1 > task.total:  # sweeps: more instances
                self.rp.update(self.task, total=task.completed + 1)
            self.rp.update(self.task, advance=1, description=f"round {rnd}: {key}")
