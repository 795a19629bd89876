"""Any program as a benchmark (`tickmark exec`): the core's exec mode (src/exec.c) runs the
program on the target, a round at a time, each run one sample of one instance, exec.NAME; the
run engine stores it like any run (its rounds, extra rounds for a noisy result, its statistics),
so compare, the gates, history and the reports read it unchanged.

Figures the program prints (a regular expression or a JSON field, analysis/figures.py) are read
here from each run's output (the core sends it with --capture) and stored as instances of their
own, exec.NAME.FIGURE, whose samples carry the values, with the figure's unit and direction in
their meta record.

Several commands, targets or kernel images are cells, run a round at a time in a fresh random
order (run/matrix.py's Matrix), each stored as its own run, so that drift of the machine hits
every cell alike."""

from __future__ import annotations

import copy
import os
import re
import shlex
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..analysis.figures import FigureMissing
from ..base.errors import TickmarkError
from ..base.names import printable
from .engine import Run
from .matrix import Matrix, MatrixCell, built_core

if TYPE_CHECKING:
    from ..analysis.figures import Figure
    from ..analysis.stats import Stats
    from ..base.shapes import Row
    from ..store import Store
    from ..targets.base import Core, Target
    from .plan import Plan, RunConfig

RUN_UNIT = "run"
MAX_ARG = 4096
FIGURE_LIMIT = 10  # seconds a figure may take to be found in one run's output (at most --timeout)


@dataclass
class ExecSpec:
    """What to run: the program and its arguments, the benchmark's name, warm-up runs per round,
    the figures to read from its output (analysis.figures.Figure) and the files it needs."""

    argv: list[str]
    bench: str
    warmup: int = 1
    figures: tuple[Figure, ...] = ()
    files: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return f"exec.{self.bench}"

    def figure_key(self, f: Figure) -> str:
        return f"{self.key}.{f.name}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "argv": list(self.argv),
            "command": shlex.join(self.argv),
            "bench": self.bench,
            "warmup": self.warmup,
            "figures": [f.as_dict() for f in self.figures],
            "files": [os.path.basename(f) for f in self.files],
        }


def bench_name(argv: Sequence[str], given: str | None = None) -> str:
    """The benchmark's name: the one given, else the program's file name; any character but
    letters, digits and '._-' becomes '_' (the core's rule for the key)."""
    name = given if given is not None else os.path.basename(argv[0]) or "program"
    if not name or len(name) > 60:
        raise TickmarkError(f"bad --bench '{printable(name)[:60]}': 1 to 60 characters")
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def check_argv(argv: Sequence[str]) -> list[str]:
    """A command's words: at least the program; no word with a NUL or a line break (the core takes
    its arguments one per line on a kernel image) or longer than MAX_ARG characters."""
    if not argv or not argv[0]:
        raise TickmarkError("no command to run (tickmark exec [OPTIONS] -- PROGRAM [ARGS...], or -c 'COMMAND')")
    for a in argv:
        if any(c in a for c in "\0\n\r"):
            raise TickmarkError(f"bad command word '{printable(a)[:40]}': it holds a line break or a NUL")
        if len(a) > MAX_ARG:
            raise TickmarkError(f"bad command word '{printable(a)[:40]}...': longer than {MAX_ARG} characters")
    return list(argv)


def check_file(path: str) -> str:
    """A file a command needs (--file): a regular file (never a device, a FIFO or a terminal,
    which would be copied until the disk is full) -> its path."""
    import stat

    try:
        st = os.stat(path)
    except OSError as e:
        raise TickmarkError(f"--file {printable(path)[:60]}: {e.strerror}")
    if not stat.S_ISREG(st.st_mode):
        raise TickmarkError(
            f"--file {printable(path)[:60]} is not a regular file (a device, a FIFO or a terminal): give a file to copy"
        )
    return path


LABEL_MAX = 40


def short_label(argv: Iterable[str], whole: bool = False) -> str:
    """A command as a cell's label: its words, the program's path cut to its file name (the whole
    command is stored with the run; an argument is shown as given: `echo a/b` is not `echo b`),
    at most LABEL_MAX characters. whole: the program's path too (two commands whose programs
    have one file name: /usr/bin/true and ./bld/true)."""
    words = list(argv)
    if words and not whole and "/" in words[0] and not words[0].endswith("/"):
        words[0] = os.path.basename(words[0])
    text = " ".join(words)
    return text if len(text) <= LABEL_MAX else text[: LABEL_MAX - 3] + "..."


def labels(argvs: Sequence[Sequence[str]]) -> list[str]:
    """The labels of several commands (short_label), with the program's whole path for those
    whose short labels would be the same."""
    short = [short_label(a) for a in argvs]
    return [short_label(a, whole=short.count(t) > 1) for a, t in zip(argvs, short)]


def split_command(text: str, shell: bool = False) -> list[str]:
    """A command line (-c) -> its words: split as a POSIX shell would, never run by one; with
    shell, `sh -c TEXT` (pipes, redirections and globs, with the shell's start in the time)."""
    if shell:
        return ["sh", "-c", text]
    try:
        return shlex.split(text)
    except ValueError as e:
        raise TickmarkError(f"bad command '{printable(text)[:60]}': {e}")


SHELL_PUNCTUATION = set("();<>|&")


def shell_program(text: str) -> list[str]:
    """The program a shell line starts first, as its words: 'true; true' -> ['true'], 'FOO=1 gzip
    f | cat' -> ['gzip', 'f'], '(cd x && make)' -> ['cd', 'x'] (the shell's punctuation and
    leading assignments are no program); ['sh'] when there is none."""
    lex = shlex.shlex(text, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    try:
        words = list(lex)
    except ValueError:  # an unclosed quote: sh says so when it runs
        words = text.split()
    first: list[str] = []
    for w in words:
        if set(w) <= SHELL_PUNCTUATION:
            if first:
                break
            continue
        if not first and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", w):
            continue
        first.append(w)
    return first or ["sh"]


class ExecRun(Run):
    """One command on one core, stored as a run: each round is one start of the core's exec mode
    (the warm-up runs, then cfg.samples runs, each a sample)."""

    def __init__(
        self, store: Store, core: Core, cfg: RunConfig, spec: ExecSpec, notes: dict[str, Any] | None = None, **kw: Any
    ) -> None:
        super().__init__(store, core, cfg, notes=notes, **kw)
        self.spec = spec

    def open(self, hello: dict[str, Any] | None = None, options: dict[str, Any] | None = None) -> int:
        return super().open(hello, dict(options or {}, exec=self.spec.as_dict()))

    def _argv(
        self, patterns: Iterable[str], seed: int, keys: Iterable[str] | None = None, samples: int | None = None
    ) -> list[str]:
        c, s = self.cfg, self.spec
        argv = ["exec", "--name", s.bench, "--samples", str(samples or c.samples), "--warmup", str(s.warmup)]
        argv += ["--seed", str(seed), "--timeout", str(c.timeout or 600)]
        if s.figures:
            argv.append("--capture")
        return argv + ["--", *s.argv]

    def silence_limit(self) -> float:
        """A round writes nothing while the warm-up runs: every one of them may take the time
        limit of a run, and so may the run after them."""
        return (self.spec.warmup + 1) * (self.cfg.timeout or 600) + 30

    def record(
        self,
        rnd: int,
        key: str,
        meta: dict[str, Any],
        samples: Sequence[Row] = (),
        hists: Iterable[Row] = (),
        end: dict[str, Any] | None = None,
    ) -> Stats:
        """The program's instance, and each figure read from the outputs of its runs."""
        if not self.spec.figures:
            return super().record(rnd, key, meta, samples, hists, end)
        main = [{k: v for k, v in s.items() if k not in ("out", "out_cut")} for s in samples]
        st = super().record(rnd, key, meta, main, hists, end)
        limit = min(self.cfg.timeout or 600, FIGURE_LIMIT)
        for f in self.spec.figures:
            fkey = self.spec.figure_key(f)
            found: list[Row] = []
            missing: list[str] = []
            for s in samples:
                if missing and "longer than" in missing[0]:  # the same search on the next output: as long
                    missing.append(f"run {s['i'] + 1}: not searched")
                    continue
                try:
                    value = f.value(s.get("out", ""), limit)
                    found.append({"i": s["i"], "iters": 1, "ops": 1, "ns": s["ns"], "value": value})
                except FigureMissing as e:
                    cut = " (the output was cut at 1 MiB)" if s.get("out_cut") else ""
                    missing.append(f"run {s['i'] + 1}: {e}{cut}")
            if not found and not missing:
                continue  # the program did not run in this round (its own status says why)
            fmeta = {
                "bench": fkey,
                "key": fkey,
                "unit": f.unit,
                "stat": "median",
                "method": "figure",
                "iters": 1,
                "ops_per_iter": 1,
                "figure": f.as_dict(),
            }
            fend = {"status": "ok", "reason": ""}
            if missing:
                fend = {"status": "failed", "reason": f"figure {f.name} missing: {missing[0]}"}
            super().record(rnd, fkey, fmeta, found, (), fend)
            self.iters.pop(fkey, None)  # a figure comes with the program's runs, never on its own
        return st


@dataclass
class ExecCell:
    """One cell of an exec: a command on a target (a kernel image is a target of its own)."""

    label: str
    spec: ExecSpec
    uri: str
    kernel: str | None = None
    target: Target | None = None
    core: Core | None = None
    run: Run | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def cells(
    commands: Sequence[tuple[str, ExecSpec]], targets: Sequence[str], kernels: Iterable[str | None]
) -> list[ExecCell]:
    """commands: [(label, ExecSpec)]; targets: URIs; kernels: kernel images (None: none) -> the
    cells, every command on every target and kernel; each labelled by what tells it apart."""
    out = []
    kernel_axis = [*kernels] or [None]
    for uri in targets:
        for k in kernel_axis:
            for label, spec in commands:
                parts = [label if len(commands) > 1 else None]
                parts.append(uri if len(targets) > 1 else None)
                parts.append(os.path.basename(k) if k and len(kernel_axis) > 1 else None)
                out.append(ExecCell(" ".join(p for p in parts if p) or label, spec, uri, k))
    seen: set[str] = set()
    for c in out:
        if c.label in seen:
            raise TickmarkError(f"'{printable(c.label)}' is given twice")
        seen.add(c.label)
    return out


def default_group(cs: Sequence[ExecCell], name: str | None) -> str | None:
    """The name of a group of cells: --name, else exec-DATE-TIME when there are several (a
    run's own name tells the cells apart in a comparison), else none."""
    if name or len(cs) == 1:
        return name
    return time.strftime("exec-%Y%m%d-%H%M%S")


class ExecMatrix(Matrix[ExecCell]):
    """The cells of an exec, a round at a time in a fresh random order each round."""

    def run_name(self, name: str | None, c: ExecCell) -> str | None:
        return cell_run_name(name, c, len(self.cells))

    def config(self, plan: Plan, c: ExecCell, name: str | None) -> RunConfig:
        """The plan's configuration without asking the core (exec.NAME is no benchmark of the core)."""
        return plan.config(None, name)

    def make_run(self, c: ExecCell, cfg: RunConfig) -> Run:
        """The run of one cell, its label (the command, target or kernel image that tells it
        apart) stored as its variant; cells on one target share the target's core."""
        core = copy.copy(built_core(c))  # the core's own size says nothing about the program: left out
        core.build = {k: v for k, v in (core.build or {}).items() if k != "code_size"}
        core.build["variant"] = c.label
        return ExecRun(self.store, core, cfg, c.spec, notes={"exec_group": self.group}, progress=self.progress)


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+=-]+", "_", label).strip("_")[:60] or "cell"


def cell_run_name(name: str | None, c: MatrixCell, n_cells: int) -> str | None:
    """The run name of a cell: NAME for a single cell, NAME-<cell> for several, None without NAME."""
    if not name:
        return None
    return name if n_cells == 1 else f"{name}-{_slug(c.label)}"
