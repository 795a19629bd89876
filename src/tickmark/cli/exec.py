"""`tickmark exec`: any program as a benchmark, on any target that can start one (this machine,
an SSH board, a Linux kernel image under qemu-system); several commands, targets or kernel
images run interleaved and are compared with the first."""

import os
import sys

import click

from ..base.errors import TickmarkError
from ..base.names import check_name, printable
from ..run.plan import LIMITS
from ..targets import check_boots, usages
from .options import store_of
from .outputs import comparison_format_option, report_comparison


@click.command("exec")
@click.argument("command", nargs=-1, type=click.UNPROCESSED, metavar="[--] PROGRAM [ARGS...]")
@click.option(
    "-c",
    "--command",
    "commands",
    multiple=True,
    metavar="'CMD ARGS'",
    help="A command line (split like a shell would, never run by one); repeatable: the commands "
    "run interleaved and are compared with the first.",
)
@click.option("--shell", is_flag=True, help="Run each -c command line with sh -c (its start is then timed too).")
@click.option("--bench", metavar="NAME", help="The benchmark: exec.NAME (default: the program's file name).")
@click.option("--runs", type=click.IntRange(*LIMITS["samples"]), default=10, show_default=True, help="Runs per round.")
@click.option("--warmup", type=click.IntRange(0, 1000), default=1, show_default=True, help="Unrecorded runs first.")
@click.option(
    "--rounds", type=click.IntRange(*LIMITS["rounds"]), default=3, show_default=True, help="Rounds (core starts)."
)
@click.option(
    "--max-rounds",
    type=click.IntRange(*LIMITS["max_rounds"]),
    default=5,
    show_default=True,
    help="Upper bound of rounds with the extra rounds for a noisy result.",
)
@click.option(
    "--timeout", type=click.IntRange(*LIMITS["timeout"]), default=600, show_default=True, help="Limit of a run (s)."
)
@click.option(
    "--figure",
    "figures",
    multiple=True,
    metavar="NAME[:UNIT]:higher|lower=REGEX",
    help="A number the program prints: the last match of REGEX in its output (its first group); repeatable.",
)
@click.option(
    "--json-figure",
    "json_figures",
    multiple=True,
    metavar="NAME[:UNIT]:higher|lower=FIELD",
    help="A number in the program's JSON output, at FIELD (a.b.0.c); repeatable.",
)
@click.option(
    "--file",
    "files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="A file the command needs, copied into its working folder on the target (./NAME); repeatable.",
)
@click.option(
    "--target",
    "targets",
    multiple=True,
    envvar="TICKMARK_TARGET",
    metavar="URI",
    help=f"Where to run: {usages('program_usage')}; repeatable: each target is a cell.",
)
@click.option(
    "--kernel",
    "kernels",
    multiple=True,
    type=click.Path(dir_okay=False),
    metavar="IMAGE",
    help=f"With --target {usages('kernel_usage')}: a Linux kernel image to boot; repeatable: each image is a cell.",
)
@click.option("--append", metavar="ARGS", help="With --kernel: more kernel command-line arguments.")
@click.option("--seed", type=click.IntRange(*LIMITS["seed"]), help="Seed of the order of the cells.")
@click.option("--name", help="Name of the run (several cells: NAME-<cell>).")
@click.option("--label", "labels", multiple=True, metavar="KEY=VALUE", help="A label stored with the run(s).")
@comparison_format_option
@click.option("--quiet", "-q", is_flag=True, help="No progress (a bar on a terminal, lines in a pipe).")
@click.pass_context
def exec_cmd(
    ctx,
    command,
    commands,
    shell,
    bench,
    runs,
    warmup,
    rounds,
    max_rounds,
    timeout,
    figures,
    json_figures,
    files,
    targets,
    kernels,
    append,
    seed,
    name,
    labels,
    fmt,
    quiet,
):
    """Run any program as a benchmark: wall time and task-clock per run, with CIs and verdicts.

    Each round starts the core on the target, which runs the program --warmup times, then --runs
    times, each run a sample: wall time, CPU time (task-clock), context switches, page faults,
    hardware counters where the machine has them. A run that exits with a status other than 0
    (or is killed, or outlasts --timeout) makes the result failed and the exit status 1."""
    from ..analysis.figures import Figure
    from ..report.progress import Progress
    from ..run import exec as ex
    from ..run.plan import Plan

    if command and commands:
        raise TickmarkError("give the command after '--' or with -c, not both")
    if shell and not commands:
        raise TickmarkError("--shell runs the -c command lines with sh -c: give them with -c")
    argvs = [ex.split_command(c, shell) for c in commands] or [list(command)]
    argvs = [ex.check_argv(a) for a in argvs]
    figs = tuple(Figure.parse(f, "regex") for f in figures) + tuple(Figure.parse(f, "json") for f in json_figures)
    if len({f.name for f in figs}) < len(figs):
        raise TickmarkError("two figures have the same name")
    if name is not None:
        check_name(name)
    bench_of = ex.bench_name(ex.shell_program(commands[0]) if shell else argvs[0], bench)
    files = tuple(ex.check_file(f) for f in files)
    names = ex.labels([c.split() for c in commands] if shell else argvs)
    specs = [(names[i], ex.ExecSpec(a, bench_of, warmup, figs, files)) for i, a in enumerate(argvs)]
    uris = list(dict.fromkeys(targets)) or ["local"]
    kernels = [os.path.abspath(k) for k in dict.fromkeys(kernels)]
    if kernels or append:
        for u in uris:
            check_boots(u)
    cells = ex.cells(specs, uris, kernels)
    group = ex.default_group(cells, name)
    plan = Plan(
        [specs[0][1].key],
        labels=labels,
        names=[ex.cell_run_name(group, c, len(cells)) for c in cells],
        name_what="exec run name (--name plus the cell)",
        rounds=rounds,
        max_rounds=max_rounds,
        samples=runs,
        seed=seed,
        timeout=timeout,
    )
    store = store_of(ctx)
    plan.check_store(store)
    try:
        with Progress(plan.numbers["rounds"], quiet=quiet, unit="rounds") as progress:
            progress.stage("preparing the targets")
            _prepare(ctx, cells, append, lambda s: progress.say(f"tickmark: {s}"))
            ids = ex.ExecMatrix(store, cells, plan, name=group, progress=progress).execute()
    except KeyboardInterrupt:
        click.echo("tickmark: interrupted; the finished runs are stored", err=True)
        sys.exit(130)
    runs_line = ", ".join(f"{c.label} = {c.run.run_id}" for c in cells) if len(cells) > 1 else None
    report_comparison(store, ids, fmt, "commands", runs_line, each=True)
    _exit_status(store, ids)


def _prepare(ctx, cells, append, echo):
    """Open each cell's target (once per URI and kernel image) and prepare its core there, with
    the files the command needs."""
    from ..targets import open_target

    root = ctx.find_root()
    opened = {}
    for c in cells:
        key = (c.uri, c.kernel)
        if key not in opened:
            opts = {"prebuilt": root.obj.get("core")}
            if c.kernel:
                opts["kernel"] = c.kernel
            if append is not None:
                opts["append"] = append
            tgt = open_target(c.uri, **opts)
            root.call_on_close(tgt.close)
            core = tgt.prepare()
            for f in c.spec.files:
                tgt.put_file(f)
            opened[key] = (tgt, core)
            echo(f"ready   {tgt.uri}" + (f" ({os.path.basename(c.kernel)})" if c.kernel else ""))
        c.target, c.core = opened[key]


def _exit_status(store, ids):
    """1 when a result is not ok (a command that failed, crashed or timed out, a figure that was
    missing) or a run is incomplete, each said on stderr; else 0."""
    bad = False
    for i in ids:
        run = store.run(str(i))
        wrong = [r for r in store.results(i) if r["status"] != "ok"]
        for r in wrong:
            click.echo(f"tickmark: run {i}: {r['key']} {r['status']}: {printable(r['reason'])}", err=True)
        why = (run.get("notes") or {}).get("incomplete") or "not every run finished"
        if run["status"] != "complete" and not any(r["key"] in why for r in wrong):  # not said above
            click.echo(f"tickmark: run {i} is incomplete: {printable(why)}", err=True)
        bad = bad or bool(wrong) or run["status"] != "complete"
    if bad:
        raise click.exceptions.Exit(1)
