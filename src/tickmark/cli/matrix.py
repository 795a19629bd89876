"""`tickmark matrix`: build variants (compiler x flags x routines), run them interleaved on the
target, compare them."""

import os
import sys

import click

from ..base.errors import TickmarkError
from ..base.names import check_name, printable
from ..base.suites import SUITES
from .options import label_option, round_options, store_of, target_of, target_option
from .outputs import comparison_format_option, report_comparison


@click.command("matrix")
@click.argument("patterns", nargs=-1)
@click.option("--suite", help=f"Named suite ({', '.join(sorted(SUITES))}); with patterns, both run.")
@click.option(
    "--cc",
    "ccs",
    multiple=True,
    metavar="CC[,CC...]",
    help="Compiler axis: names, full paths or cross prefixes (aarch64-linux-gnu-); repeatable.",
)
@click.option("--cflags", "cflags_list", multiple=True, metavar="FLAGS", help="Flag-set axis; repeatable.")
@click.option(
    "--memfn",
    "memfns",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="Routine-file axis (a libc cell is added); repeatable.",
)
@round_options(rounds_help="Rounds per variant.", seed_help="Seed of the variant and benchmark orders.")
@click.option("--name", help="Prefix of the run names (NAME-<variant>).")
@comparison_format_option
@click.option("--quiet", "-q", is_flag=True, help="No progress (a bar on a terminal, lines in a pipe).")
@label_option
@target_option
@click.pass_context
def matrix_cmd(
    ctx,
    patterns,
    suite,
    ccs,
    cflags_list,
    memfns,
    run_options,
    name,
    fmt,
    quiet,
    labels,
):
    """Build variants (compiler x flags x routines), run them interleaved, compare them.

    Exit status 1 when a variant failed to build (the others are still run and compared) or a
    variant's run is incomplete (its core died in a round, its target was lost; the reason is printed)."""
    from ..report.progress import Progress
    from ..run import matrix as mx
    from ..run.plan import Plan

    ccs = [c.strip() for cc in ccs for c in cc.split(",") if c.strip()]
    for m in memfns:
        if not os.path.isfile(m):
            raise TickmarkError(f"memfn file {m} does not exist")
    if name is not None:
        check_name(name)
    cells = mx.cells(ccs, cflags_list, memfns)
    if len(cells) < 2:
        raise TickmarkError("a matrix needs two variants at least (give --cc, --cflags or --memfn more than once)")
    plan = Plan(
        patterns,
        suite,
        labels=labels,
        names=[mx.run_name(name, c) for c in cells],
        name_what="matrix run name (--name plus the variant)",
        **run_options,
    )
    store = store_of(ctx)
    plan.check_store(store)
    try:
        with Progress(plan.numbers["rounds"], quiet=quiet) as progress:
            progress.stage("building the variants")
            mx.build_all(target_of(ctx), cells, lambda s: progress.say(f"tickmark: {s}"))
            built = [c for c in cells if c.core is not None]
            failed = [c for c in cells if c.core is None]
            if not built:
                raise TickmarkError(f"no variant could be built ({failed[0].label}: {failed[0].error})")
            ids = mx.Matrix(store, built, plan, name=name, progress=progress).execute()
    except KeyboardInterrupt:
        click.echo("tickmark: interrupted; the finished instances are stored", err=True)
        sys.exit(130)
    report_comparison(
        store,
        ids,
        fmt,
        "variants",
        ", ".join(f"{c.label} = {c.run.run_id}" for c in built),
        failed_builds=[{"variant": c.label, "error": c.error} for c in failed],
    )
    for c in failed:
        click.echo(f"tickmark: variant '{c.label}' failed to build: {c.error}", err=True)
    incomplete = [r for r in (store.run(str(i)) for i in ids) if r["status"] != "complete"]
    for r in incomplete:
        why = (r.get("notes") or {}).get("incomplete") or "not every instance finished"
        click.echo(f"tickmark: run {r['id']} is incomplete: {printable(why)}", err=True)
    if failed or incomplete:
        sys.exit(1)
