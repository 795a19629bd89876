"""Variant builds: the cells of compiler x flag set x routine file, each built into its own cached
build directory (build.py keys it by compiler version, flags and sources), then run with rounds
interleaved across the variants in a random order, so that drift of the machine hits every
variant alike. Each variant is stored as its own run (run/engine.py) with the variant in its
fingerprint. A cell that fails to build is reported with the compiler's message and the others
still run; a cell whose core dies in a round is stored incomplete, and the others still run.
"""

from __future__ import annotations

import itertools
import os
import random
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from ..base.errors import TickmarkError
from ..facts import fingerprint
from . import engine
from .engine import Run, TransportLost, extra_budget, signals

if TYPE_CHECKING:
    from ..store import Store
    from ..targets.base import Core, Target, Variant
    from .plan import Plan, RunConfig


class Progress(engine.Progress, Protocol):
    """What a matrix tells of its progress: a run's, and the cell whose round starts."""

    def doing(self, who: str) -> None: ...


class MatrixCell(Protocol):
    """What a Matrix drives of a cell (Cell, exec.ExecCell): its label, its core once built (None:
    its build failed) and the run the Matrix made of it."""

    label: str
    core: Core | None
    run: Run | None


# the kind of cell a Matrix drives
C = TypeVar("C", bound=MatrixCell)


def _run(c: MatrixCell) -> Run:
    """A driven cell's run (the Matrix made one for each cell it drives)."""
    assert c.run is not None, "Matrix made the cell's run"
    return c.run


def built_core(c: MatrixCell) -> Core:
    """A driven cell's core (a Matrix drives the cells that were built)."""
    assert c.core is not None, "a Matrix drives built cells"
    return c.core


@dataclass
class Cell:
    cc: str | None = None
    cflags: str | None = None
    memfn: str | None = None  # None: the libc routines
    label: str = ""
    core: Core | None = None  # targets.Core once built
    error: str | None = None  # one line (and detail) when the build failed
    detail: str = ""
    run: Run | None = None  # engine.Run


def cells(ccs: Iterable[str], cflags_list: Iterable[str], memfns: Iterable[str] | None) -> list[Cell]:
    """The cartesian product of the axes; a routine axis always has the libc baseline first."""
    from ..targets.build import DEFAULT_CFLAGS

    cc_axis: list[str | None] = [*ccs] or [None]
    fl_axis: list[str | None] = [*cflags_list] or [None]
    mf_axis: list[str | None] = [None, *memfns] if memfns else [None]
    out = []
    for cc, fl, mf in itertools.product(cc_axis, fl_axis, mf_axis):
        cc_name = cc or os.environ.get("CC") or "cc"
        if cc and cc.endswith("-"):  # a cross prefix such as aarch64-linux-gnu-
            cc_name = cc + "gcc"
        label = fingerprint.variant_label(cc_name, fl if fl is not None else os.environ.get("CFLAGS", DEFAULT_CFLAGS))
        if memfns:
            label += f" memfn={os.path.basename(mf) if mf else 'libc'}"
        out.append(Cell(cc=cc, cflags=fl, memfn=mf, label=label))
    seen: dict[str, Cell] = {}
    for c in out:
        if c.label in seen:
            raise TickmarkError(f"variant '{c.label}' is given twice")
        seen[c.label] = c
    return out


def compiler_message(err: TickmarkError) -> str:
    """The compiler's own error lines from a failed build (else its last lines)."""
    lines = [ln.strip() for ln in (err.detail or "").splitlines() if ln.strip()]
    errs = [ln for ln in lines if re.search(r"\berror\b", ln) and not ln.startswith("make")]
    return "; ".join(errs[:3]) or (lines[-1] if lines else str(err))


def variant(**fields: str | None) -> Variant:
    """A targets.Variant of these fields (cc, cflags, memfn, cross_compile; None: the target's
    default). targets.Variant declares them str with None defaults (targets is not annotated
    yet): it is called here as a function of any arguments until it declares them str | None."""
    from ..targets import Variant

    make: Callable[..., Variant] = Variant
    return make(**fields)


def build_all(target: Target, cs: Iterable[Cell], echo: Callable[[str], object]) -> None:
    """Prepare every cell's core on the target; a cell that fails keeps its compiler message."""
    for c in cs:
        try:
            if c.cc and c.cc.endswith("-"):  # a cross prefix: run under qemu-user on this machine
                v = variant(cc=c.cc + "gcc", cflags=c.cflags, memfn=c.memfn, cross_compile=c.cc)
            else:
                v = variant(cc=c.cc, cflags=c.cflags, memfn=c.memfn)
            c.core = target.prepare(v)
            echo(f"built   {c.label}  ({(c.core.build or {}).get('hash', 'prebuilt')})")
        except TickmarkError as e:
            c.core = None
            c.error = compiler_message(e)
            c.detail = e.detail
            echo(f"FAILED  {c.label}: {c.error}")


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+=-]+", "_", label).strip("_")


def run_name(name: str | None, c: MatrixCell) -> str | None:
    """The run name of a cell under --name NAME: NAME-<variant>, or None without a name."""
    return f"{name}-{_slug(c.label)}" if name else None


class Matrix(Generic[C]):
    """Drive one engine.Run per built cell, a round at a time, in a fresh random order each round."""

    def __init__(
        self,
        store: Store,
        cs: Iterable[C],
        plan: Plan,
        name: str | None = None,
        progress: Progress | None = None,
    ) -> None:
        """plan: the run plan (run/plan.py) every cell's run follows, named NAME-<variant>; each
        cell's configuration is checked with its own core before any run starts. progress: the
        command's progress (report/progress.py), shared by every cell's run."""
        self.store, self.progress = store, progress
        self.cells = [c for c in cs if c.core is not None]
        self.group = name or time.strftime("matrix-%Y%m%d-%H%M%S")
        cfgs = [self.config(plan, c, self.run_name(name, c)) for c in self.cells]
        self.cfg = cfgs[0]
        self.rng: random.Random = random.Random(self.cfg.seed) if self.cfg.seed is not None else random.SystemRandom()
        for c, ccfg in zip(self.cells, cfgs):
            c.run = self.make_run(c, ccfg)

    def run_name(self, name: str | None, c: C) -> str | None:
        return run_name(name, c)

    def config(self, plan: Plan, c: C, name: str | None) -> RunConfig:
        """The configuration of one cell's run, checked with the cell's own core."""
        return plan.config(c.core, name)

    def make_run(self, c: C, cfg: RunConfig) -> Run:
        """The engine.Run of one cell: a build variant, its label stored as the variant."""
        core = built_core(c)
        if core.build is not None:
            core.build = dict(core.build, variant=c.label)
        return Run(self.store, core, cfg, progress=self.progress, notes={"matrix": self.group})

    def _order(self) -> list[C]:
        order = list(self.cells)
        self.rng.shuffle(order)
        return order

    def execute(self) -> list[int]:
        """Every cell's run, closed: complete, or incomplete with its reason -> run ids. A lost
        target ends every run incomplete (the command exits 1); another error or an interrupt
        closes every run before it goes on up."""
        cfg = self.cfg
        with signals():
            ids = [_run(c).open() for c in self.cells]
            t0 = time.monotonic()
            try:
                for _ in range(cfg.rounds):
                    for c in self._order():
                        if self.progress:
                            self.progress.doing(c.label)
                        _run(c).round()
                self._extend(time.monotonic() - t0)
            except TransportLost as e:  # the target is gone: every run ends incomplete, like any other
                for c in self.cells:
                    _run(c).close(e)
                return ids
            except BaseException as e:
                for c in self.cells:
                    _run(c).close(e)
                raise
            for c in self.cells:
                _run(c).close()
        return ids

    def _extend(self, base_s: float) -> None:
        """Extra rounds (interleaved too) for the instances whose round-to-round CV is above 3 %,
        within the engine's budget for the base rounds' time and all the cells' instances."""
        budget = self.cfg.budget_s
        if budget is None:
            budget = extra_budget(base_s, sum(len(_run(c).iters) for c in self.cells))
        spent = 0.0
        while True:
            did = False
            for c in self._order():
                t = time.monotonic()
                if self.progress:
                    self.progress.doing(c.label)
                chosen = _run(c).extend(budget - spent)
                if chosen:
                    spent += time.monotonic() - t
                    did = True
            if not did:
                break
