"""`tickmark run`: run benchmarks (patterns or a suite) on the target, store them as they arrive,
show the run."""

import sys

import click

from ..base.errors import TickmarkError
from ..base.names import printable
from ..base.suites import SUITES
from .options import label_option, prepare_core, round_options, store_of, target_option


@click.command("run")
@click.argument("patterns", nargs=-1)
@click.option("--suite", help=f"Named suite ({', '.join(sorted(SUITES))}); with patterns, both run.")
@round_options(rounds_help="Rounds (processes).")
@click.option("--name", help="Name of the run (unique).")
@click.option("--cc", help="C compiler for the core.")
@click.option("--cflags", help="CFLAGS for the core (default -O2).")
@click.option("--memfn", type=click.Path(dir_okay=False), help="C/asm file with tm_user_mem* routines.")
@click.option("--quiet", "-q", is_flag=True, help="No progress (a bar on a terminal, lines in a pipe).")
@click.option(
    "--host-clock",
    is_flag=True,
    help="Time on this machine, not the board: the core prints a mark after each chunk of "
    "iterations, timed as it arrives (for a board whose clock cannot be trusted or read).",
)
@click.option(
    "--before",
    metavar="COMMAND",
    help="A shell command run on the target before each round (e.g. dropping the page cache); recorded with the run.",
)
@click.option(
    "--cpu",
    type=click.IntRange(0, 4095),
    metavar="N",
    help="Run the benchmarks on CPU N (default: the CPU the core starts on), e.g. beside "
    "cyclictest -a N; recorded with the run.",
)
@click.option(
    "--bounds",
    "bounds_file",
    type=click.Path(dir_okay=False),
    help="Hold the run to this bounds file afterwards (tickmark check): exit 1 when a figure is out of bounds.",
)
@click.option(
    "--load",
    "load_name",
    type=click.Choice(["cpu", "memory", "messages", "io"]),
    help="A defined background load that tickmark runs on this machine beside the run (local target "
    "only): cpu, memory, messages (hackbench-like) or io; recorded in the run's labels and fingerprint.",
)
@click.option(
    "--duration",
    metavar="TIME",
    help="Run timer.cyclic / timer.cyclic_rt for about this long (90s, 10m, 1h) in one round, "
    "every wake-up in the histogram and its worst-case statement.",
)
@label_option
@target_option
@click.pass_context
def run_cmd(
    ctx,
    patterns,
    suite,
    run_options,
    name,
    cc,
    cflags,
    memfn,
    quiet,
    host_clock,
    before,
    cpu,
    bounds_file,
    load_name,
    duration,
    labels,
):
    """Run benchmarks (patterns or a suite; default suite: default).

    PATTERNS select benchmarks by name, as globs ('sys.*', 'cpu.*sort', '*' for all) or by an
    instance's key, one point of a sweep ('mem.bw_copy[size=4096]'); quote them for the shell.
    `tickmark list [PATTERN]` shows what they select, `tickmark suites` the named suites."""
    from ..report import terminal as report
    from ..report.progress import Progress
    from ..run.engine import Run
    from ..run.plan import Plan

    if before is not None and (not before.strip() or any(c in before for c in "\0\n\r")):
        raise TickmarkError("--before takes one line of shell: a command, without line breaks")
    if bounds_file:
        from ..analysis.bounds import read

        read(bounds_file)  # a bad file is said before anything runs
    if duration is not None:
        from ..run import duration as long_run

        run_options = long_run.apply(duration, patterns, suite, run_options)
    if load_name:
        from ..run.load import check_local

        check_local((ctx.find_root().obj or {}).get("target_uri") or "local")
        labels = (*labels, f"load={load_name}")
    plan = Plan(
        patterns, suite, labels=labels, names=[name], host_clock=host_clock, before=before, cpu=cpu, **run_options
    )
    store = store_of(ctx)
    plan.check_store(store)
    core = prepare_core(ctx, cc, cflags, memfn)
    if host_clock and core.cycles_method == "icount-insns":
        raise TickmarkError(
            f"--host-clock times a board's work on this machine's clock, but {core.target.uri} runs under "
            "QEMU -icount, where the guest's time is its instruction count and its output comes in bursts: "
            "take its own figures (instructions, without --host-clock), or add ?icount=0 to the target "
            "(QEMU running free) to time it here"
        )
    if before and not core.target.has_shell():
        raise TickmarkError(f"--before runs a command in the target's shell: {core.target.uri} has none")
    if cpu is not None and not core.target.reruns:
        raise TickmarkError(
            f"--cpu is an argument of the core, but {core.target.uri} runs what it was built to run "
            "(build it with --cpu N in its arguments)"
        )
    if not core.target.reruns:  # a console without a shell: the board runs what it was built to run
        click.echo(
            f"tickmark: {core.target.uri} cannot take new arguments: one round per start, with "
            "the board's own arguments; start (or reset) the board now",
            err=True,
        )
    cfg = plan.config(core, name)
    pats = cfg.patterns
    run = Run(store, core, cfg)
    from ..run.load import Load
    from ..run.load import record as load_record

    load = None
    try:
        if load_name:
            load = Load(load_name).start()
        with Progress(cfg.rounds, quiet=quiet) as prog:
            run.progress = prog
            run_id = run.execute()
    except KeyboardInterrupt:
        if load is not None:
            load_record(store, run.run_id, load.stop())
        if run.run_id is not None:
            report.show(store, store.run(run.run_id))
        click.echo("tickmark: interrupted; the finished instances are stored", err=True)
        sys.exit(130)
    except BaseException:
        if load is not None:
            load_record(store, run.run_id, load.stop())
        raise
    if load is not None:
        load_record(store, run_id, load.stop())
    report.show(store, store.run(run_id))
    if any(p.startswith("memfn") for p in pats):
        from ..report.terminal import memory

        memory.show_memfn(store.results(run_id), lambda r: store.samples(r["id"]))
    if any(p.startswith("mem.") for p in pats):  # the bandwidth table, when there are mem.bw_* results
        from ..report.terminal import memory

        memory.show_bandwidth(store.results(run_id), store.run(run_id), store=store)
    done = store.run(run_id)
    say_disturbed(done)
    if bounds_file:
        from .bounds import check_after

        if not check_after(ctx, [run_id], bounds_file):
            raise click.exceptions.Exit(1)
    if done["status"] != "complete":
        why = (done.get("notes") or {}).get("incomplete") or "not every instance finished"
        click.echo(f"tickmark: run {run_id} is incomplete: {printable(why)}", err=True)
        raise click.exceptions.Exit(1)


def say_disturbed(run):
    """The line a run ends with: how much of it was disturbed, and which figures that affects."""
    from ..report.console import console, print_wrapped
    from ..report.model.run import disturbance_text

    text = disturbance_text(run.get("notes"))
    if text:
        print_wrapped(console(), text, "", "  ")
