"""Variant builds: the cells of compiler x flag set x routine file, each built into its own cached
build directory (build.py keys it by compiler version, flags and sources), then run with rounds
interleaved across the variants in a random order, so that drift of the machine hits every
variant alike. Each variant is stored as its own run with the variant in its fingerprint.
A cell that fails to build is reported with the compiler's message and the others still run.
"""

import itertools
import os
import random
import re
import sys
import time
from dataclasses import dataclass

from .. import fingerprint
from ..errors import TickmarkError
from .engine import HostRun, RunConfig, split_key


@dataclass
class Cell:
    cc: str = None
    cflags: str = None
    memfn: str = None  # None: the libc routines
    label: str = ""
    core: object = None  # targets.Core once built
    error: str = None  # one line (and detail) when the build failed
    detail: str = ""
    run: object = None  # HostRun


def cells(ccs, cflags_list, memfns):
    """The cartesian product of the axes; a routine axis always has the libc baseline first."""
    from ..targets.build import DEFAULT_CFLAGS

    cc_axis = list(ccs) or [None]
    fl_axis = list(cflags_list) or [None]
    mf_axis = [None] + list(memfns) if memfns else [None]
    out = []
    for cc, fl, mf in itertools.product(cc_axis, fl_axis, mf_axis):
        cc_name = cc or os.environ.get("CC") or "cc"
        if cc and cc.endswith("-"):  # a cross prefix such as aarch64-linux-gnu-
            cc_name = cc + "gcc"
        label = fingerprint.variant_label(cc_name, fl if fl is not None else os.environ.get("CFLAGS", DEFAULT_CFLAGS))
        if memfns:
            label += f" memfn={os.path.basename(mf) if mf else 'libc'}"
        out.append(Cell(cc=cc, cflags=fl, memfn=mf, label=label))
    seen = {}
    for c in out:
        if c.label in seen:
            raise TickmarkError(f"variant '{c.label}' is given twice")
        seen[c.label] = c
    return out


def compiler_message(err):
    """The compiler's own error lines from a failed build (else its last lines)."""
    lines = [ln.strip() for ln in (err.detail or "").splitlines() if ln.strip()]
    errs = [ln for ln in lines if re.search(r"\berror\b", ln) and not ln.startswith("make")]
    return "; ".join(errs[:3]) or (lines[-1] if lines else str(err))


def build_all(target, cs, echo):
    """Prepare every cell's core on the target; a cell that fails keeps its compiler message."""
    from ..targets import Variant

    for c in cs:
        try:
            if c.cc and c.cc.endswith("-"):  # a cross prefix: run under qemu-user on this machine
                v = Variant(cc=c.cc + "gcc", cflags=c.cflags, memfn=c.memfn, cross_compile=c.cc)
            else:
                v = Variant(cc=c.cc, cflags=c.cflags, memfn=c.memfn)
            c.core = target.prepare(v)
            echo(f"built   {c.label}  ({(c.core.build or {}).get('hash', 'prebuilt')})")
        except TickmarkError as e:
            c.core = None
            c.error = compiler_message(e)
            c.detail = e.detail
            echo(f"FAILED  {c.label}: {c.error}")


def _slug(label):
    return re.sub(r"[^A-Za-z0-9_.+=-]+", "_", label).strip("_")


class Matrix:
    """Drive one HostRun per built cell, a round at a time, in a fresh random order each round."""

    def __init__(self, store, cs, cfg, name=None, echo=None):
        self.store, self.cfg, self.echo = store, cfg, echo or (lambda s: None)
        self.cells = [c for c in cs if c.core is not None]
        self.rng = random.Random(cfg.seed) if cfg.seed is not None else random.SystemRandom()
        self.group = name or time.strftime("matrix-%Y%m%d-%H%M%S")
        for c in self.cells:
            run_name = f"{name}-{_slug(c.label)}" if name else None
            if run_name and store.name_taken(run_name):
                raise TickmarkError(f"a run named '{run_name}' exists already (choose another --name)")
            ccfg = RunConfig(**{**cfg.__dict__, "name": run_name})
            if c.core.build is not None:
                c.core.build = dict(c.core.build, variant=c.label)
            c.run = HostRun(store, c.core, ccfg)

    def _start(self, hr):
        c = hr.cfg
        hr.notes["matrix"] = self.group
        hr.run_id = self.store.create_run(
            name=c.name,
            suite=c.suite,
            patterns=c.patterns,
            options=c.options(),
            fingerprint=hr.core.fingerprint(None),
            notes=hr.notes,
        )

    def _order(self):
        order = list(self.cells)
        self.rng.shuffle(order)
        return order

    def execute(self):
        cfg = self.cfg
        for c in self.cells:
            self._start(c.run)
        t0 = time.monotonic()
        try:
            for rnd in range(1, cfg.rounds + 1):
                for c in self._order():
                    hr = c.run
                    self.echo(f"round {rnd}/{cfg.rounds}: {c.label}")
                    if rnd == 1:
                        hr._round(1, cfg.patterns)
                    elif hr.iters:
                        hr._round(rnd, sorted({split_key(k)[0] for k in hr.iters}), sorted(hr.iters))
            self._extend(cfg.rounds + 1, time.monotonic() - t0)
            for c in self.cells:
                c.run.notes.pop("round_in_progress", None)
                self.store.update_run(c.run.run_id, status="complete", finished=time.time(), notes=c.run.notes)
        except TickmarkError:
            for c in self.cells:  # nothing measured: leave no empty run behind
                if c.run.run_id is not None and not self.store.results(c.run.run_id):
                    self.store.delete_run(c.run.run_id)
            raise
        except KeyboardInterrupt:
            for c in self.cells:
                if getattr(c.run, "_session", None):
                    c.run._session.stop()
                self.store.update_run(c.run.run_id, status="incomplete", finished=time.time(), notes=c.run.notes)
            raise
        return [c.run.run_id for c in self.cells]

    def _extend(self, rnd, base_s):
        """Extra rounds (interleaved too) for the instances whose round-to-round CV is above 3 %,
        within as much time again as the base rounds took."""
        budget = self.cfg.budget_s if self.cfg.budget_s is not None else max(base_s, 5.0)
        spent = 0.0
        while rnd <= self.cfg.max_rounds:
            did = False
            for c in self._order():
                hr = c.run
                chosen = hr.pick_extra(budget - spent)
                if not chosen:
                    continue
                self.echo(f"extra round {rnd}: {c.label} ({len(chosen)} noisy)")
                t = time.monotonic()
                hr._round(rnd, sorted(chosen), chosen)  # instance keys: only those points rerun
                spent += time.monotonic() - t
                for k in chosen:
                    hr.notes.setdefault("extended", {})[k] = hr.notes.get("extended", {}).get(k, 0) + 1
                did = True
            if not did:
                break
            rnd += 1


def stderr_echo(quiet):
    if quiet:
        return lambda s: None
    return lambda s: print(f"tickmark: {s}", file=sys.stderr, flush=True)
