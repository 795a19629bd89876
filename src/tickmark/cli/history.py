"""`tickmark history`: per benchmark, the series of stored runs and where it changed."""

import io

import click

from ..base.errors import TickmarkError
from ..report import formats
from .options import check_output, emit, inconclusive_option, run_filter_options, store_of


@click.command("history")
@click.argument("patterns", nargs=-1)
@click.option(
    "--by",
    default="time",
    show_default=True,
    help="Order of the runs: time, kernel, label:KEY (runs stored with --label KEY=...), or a fingerprint field.",
)
@run_filter_options
@click.option(
    "--metric",
    default="",
    metavar="NAME",
    help="headline (the default), task-clock (on-CPU time per operation), or a sub-metric.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(formats.names("history", aliases=True)),
    help=formats.help_text("history") + " The default: terminal, or with -o the format the file's extension picks.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File to write (default: stdout).")
@click.option(
    "--fail-on-change",
    "fail_on",
    metavar="PCT",
    help="Exit 1 when the newest run lies on a level that began with a change and is slower than the level "
    "before by more than PCT by compare's verdict (the gate of compare --fail-above), or did not measure a "
    "benchmark of its series, or did not finish (for CI); exit 3 if nothing failed but a benchmark could not "
    "be decided (see --inconclusive).",
)
@inconclusive_option
@click.pass_context
def history_cmd(ctx, patterns, by, names, target, labels, since, metric, fmt, output, fail_on, inconclusive):
    """Per benchmark, the series of stored runs and its change points (where the level moved,
    by how much with its CI, which runs lie on either side, what changed in their fingerprints).
    Runs that cannot be compared (another target, instruction set, unit or cycles method) are
    separate series, each saying what sets it apart.

    A run whose wall time was kept off the CPU by other work (contention) takes part with its
    task-clock level, and says so.

    PATTERNS select benchmarks (globs such as 'cpu.*'; all when none). Exit status with
    --fail-on-change: 1 when the gate fails for the newest run (the last in the order), 3 when
    nothing failed but a benchmark could not be decided, 0 otherwise; 2 on bad input."""
    from ..analysis.compare import parse_threshold
    from ..base.names import parse_labels
    from ..report import history as hr

    threshold = parse_threshold(fail_on, "--fail-on-change") if fail_on is not None else None
    if inconclusive is not None and threshold is None:
        raise TickmarkError("--inconclusive goes with --fail-on-change (what the gate makes of an undecided benchmark)")
    label_filter = parse_labels(labels)
    since_t = hr.parse_since(since) if since else None
    hr.check_by(by)
    check_output(ctx, output)
    fmt = fmt or formats.from_extension(output, "history", "terminal")
    store = store_of(ctx, readonly=True)
    model = hr.build(store, patterns, by, names, target, label_filter, since_t, metric)
    verdict = None
    if threshold is not None:
        verdict, where = hr.gate(store, model, threshold, inconclusive)
        model["gate"] = hr.gate_json(verdict, where, model)
    buf = io.StringIO() if output else None  # the terminal reporter prints itself: into the file's text
    text = formats.render(fmt, "history", model, file=buf)
    if output or text is not None:
        emit(output, buf.getvalue() if text is None else text, fmt)
    if verdict is not None:
        for line in model["gate"]["lines"]:
            click.echo(f"tickmark: {line}", err=True)
        if verdict.exit_status():
            ctx.exit(verdict.exit_status())
