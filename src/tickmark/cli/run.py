"""`tickmark run`: run benchmarks (patterns or a suite) on the target, store them as they arrive,
show the run."""

import re
import sys

import click

from ..errors import TickmarkError
from ..names import check_name, parse_labels, printable
from ..suites import SUITES, patterns_for
from ..targets.build import core_limit
from .options import label_option, prepare_core, round_options, store_of, target_option

_PARAM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=[0-9]+[KMGkmg]?(,[0-9]+[KMGkmg]?)*")


_SUFFIX = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def _clip(text, n=60):
    return text if len(text) <= n else text[: n - 3] + "..."


def check_params(params):
    """--param NAME=V[,V...]: integers (K/M/G suffixes) that fit 64 bits, at most as many values as the
    core sweeps (its TM_MAX_SWEEP), each NAME once; a one-line error naming the first problem."""
    max_sweep = core_limit("TM_MAX_SWEEP")
    seen = set()
    for p in params:
        if not _PARAM.fullmatch(p):
            raise TickmarkError(f"bad --param '{_clip(p)}' (expected NAME=V[,V...] with integers, e.g. size=4K,64K)")
        name, _, vals = p.partition("=")
        if name in seen:
            raise TickmarkError(f"--param {name} given twice (list every value in one: {name}=A,B)")
        seen.add(name)
        values = vals.split(",")
        if len(values) > max_sweep:
            raise TickmarkError(f"--param {name}: {len(values)} values; at most {max_sweep} per parameter")
        got = {}
        for v in values:
            digits = v.rstrip("KMGkmg")
            n = int(digits) * _SUFFIX[v[-1].lower() if v[-1].isalpha() else ""] if len(digits) <= 20 else 2**64
            if n > 2**63 - 1:
                raise TickmarkError(f"--param {name}: value {_clip(v, 30)} is too large (at most 2^63-1)")
            if n in got:
                raise TickmarkError(f"--param {name}: value {_clip(v, 30)} is the same as {got[n]} (a point runs once)")
            got[n] = v


@click.command("run")
@click.argument("patterns", nargs=-1)
@click.option("--suite", help=f"Named suite ({', '.join(sorted(SUITES))}).")
@click.option("--rounds", type=click.IntRange(1, 100), default=3, show_default=True, help="Rounds (processes).")
@round_options
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), help="Seed of the benchmark orders.")
@click.option("--name", help="Name of the run (unique).")
@click.option("--cc", help="C compiler for the core.")
@click.option("--cflags", help="CFLAGS for the core (default -O2).")
@click.option("--memfn", type=click.Path(dir_okay=False), help="C/asm file with tm_user_mem* routines.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option(
    "--host-clock",
    is_flag=True,
    help="Time on this machine, not the board: the core prints a mark after each chunk of "
    "iterations, timed as it arrives (for a board whose clock cannot be trusted or read).",
)
@label_option
@target_option
@click.pass_context
def run_cmd(
    ctx,
    patterns,
    suite,
    rounds,
    max_rounds,
    samples,
    sample_ms,
    seed,
    params,
    timeout,
    name,
    cc,
    cflags,
    memfn,
    quiet,
    host_clock,
    labels,
):
    """Run benchmarks (patterns or a suite; default suite: default)."""
    from ..report import terminal as report
    from ..report.progress import Progress
    from ..run.engine import Run, RunConfig, check_patterns, default_sample_ms, hostclock_sample_ms

    check_params(params)
    labels = parse_labels(labels)
    if max_rounds < rounds:
        max_rounds = rounds
    if patterns and suite:
        raise TickmarkError("give patterns or --suite, not both")
    pats = list(patterns) if patterns else patterns_for(suite or "default")
    suite = None if patterns else (suite or "default")
    if name is not None:
        check_name(name)
    store = store_of(ctx)
    if name and store.name_taken(name):
        raise TickmarkError(f"a run named '{name}' exists already (choose another --name)")
    core = prepare_core(ctx, cc, cflags, memfn)
    if not core.target.reruns:  # a console without a shell: the board runs what it was built to run
        rounds = max_rounds = 1
        if not patterns:
            pats, suite = [], None
        click.echo(
            f"tickmark: {core.target.uri} cannot take new arguments: one round per start, with "
            "the board's own arguments; start (or reset) the board now",
            err=True,
        )
    chosen = check_patterns(core, pats) if core.target.reruns else []
    for p in params:
        pname = p.split("=", 1)[0]
        if not any(pname == d.get("name") for b in chosen for d in b.get("params", [])):
            raise TickmarkError(f"--param {pname}: no selected benchmark has a parameter '{pname}'")
    cfg = RunConfig(
        patterns=pats,
        rounds=rounds,
        max_rounds=max_rounds,
        samples=samples,
        sample_ms=hostclock_sample_ms(core, sample_ms) if host_clock else default_sample_ms(chosen, params, sample_ms),
        seed=seed,
        params=list(params),
        timeout=timeout,
        name=name,
        suite=suite,
        labels=labels,
        host_clock=host_clock,
    )
    run = Run(store, core, cfg)
    try:
        with Progress(rounds, enabled=False if quiet else None) as prog:
            run.progress = prog
            run_id = run.execute()
    except KeyboardInterrupt:
        if run.run_id is not None:
            report.show(store, store.run(run.run_id))
        click.echo("tickmark: interrupted; the finished instances are stored", err=True)
        sys.exit(130)
    report.show(store, store.run(run_id))
    if any(p.startswith("memfn") for p in pats):
        from ..report.terminal import memory

        memory.show_memfn(store.results(run_id))
    if any(p.startswith("mem.") for p in pats):  # the bandwidth table, when there are mem.bw_* results
        from ..report.terminal import memory

        memory.show_bandwidth(store.results(run_id), store.run(run_id))
    done = store.run(run_id)
    if done["status"] != "complete":
        why = (done.get("notes") or {}).get("incomplete") or "not every instance finished"
        click.echo(f"tickmark: run {run_id} is incomplete: {printable(why)}", err=True)
        raise click.exceptions.Exit(1)
