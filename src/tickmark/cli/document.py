"""`tickmark export` and `tickmark import`: a run in any format of the formats table that writes runs
(the JSON document, with its raw samples, is the one import reads back)."""

import click

from ..base.errors import TickmarkError
from ..base.names import printable
from ..report import formats
from .options import check_output, inconclusive_option, store_of, write_file


@click.command("export")
@click.argument("run_ref", metavar="RUN")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(formats.names("run")),
    help=formats.help_text("run") + " The default: json, or with -o the format the file's extension picks.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File to write (default: stdout).")
@click.option(
    "--baseline",
    metavar="RUN",
    help="junit: a benchmark significantly slower than in this run by more than --fail-above fails (a gate).",
)
@click.option("--fail-above", metavar="PCT", help="junit: the gate's threshold against --baseline (e.g. 5%).")
@click.option(
    "--metric",
    metavar="NAME",
    help="junit: the metric the gate holds (headline, the default; task-clock; or a sub-metric), as compare's.",
)
@inconclusive_option
@click.pass_context
def export_cmd(ctx, run_ref, fmt, output, baseline, fail_above, metric, inconclusive):
    """Export a run (id, name or latest) for import or for other tools, in a format of --format."""
    from ..analysis.compare import metric_name, parse_threshold
    from ..store.document import run_model

    fmt = fmt or formats.from_extension(output, "run", "json")
    if (baseline is None) != (fail_above is None) or (baseline is not None and not formats.takes(fmt, "run", "gate")):
        raise TickmarkError("--baseline and --fail-above go together, with --format junit")
    if metric is not None and baseline is None:
        raise TickmarkError("--metric goes with --baseline and --fail-above (the gate of --format junit)")
    if inconclusive is not None and baseline is None:
        raise TickmarkError("--inconclusive goes with --baseline and --fail-above (the gate of --format junit)")
    threshold = parse_threshold(fail_above) if fail_above is not None else None
    check_output(ctx, output)
    store = store_of(ctx, readonly=True)
    run_ = store.run(run_ref)
    verdict = (
        _gate(store, run_, baseline, threshold, metric_name(metric), inconclusive) if baseline is not None else None
    )
    text = formats.render(fmt, "run", run_model(store, run_), gate=verdict)
    if output:
        write_file(output, text)
    else:
        click.echo(text, nl=False)


def _gate(store, run, baseline, threshold, metric, inconclusive=None):
    """The regression gate (analysis/verdict.gate, compare --fail-above's) of the run against the
    baseline run (inconclusive: --inconclusive, what an undecided benchmark does to it)."""
    from ..analysis.compare import check_metric, compare_sides
    from ..analysis.verdict import gate
    from ..store.refs import load_sides

    sides = load_sides(store, [str(run["id"])], baseline)
    check_metric(sides, metric)
    sides, pairs = compare_sides(sides, metric=metric)
    return gate(pairs, threshold, metric, inconclusive=inconclusive)


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.pass_context
def import_cmd(ctx, file):
    """Import a run exported as JSON (it gets a new id); FILE '-' reads standard input."""
    from ..run.importing import import_document
    from ..store import document as export

    doc = export.read_document(file)
    store = store_of(ctx)
    rid = import_document(store, doc)
    name = store.run(rid)["name"]
    click.echo(f"imported as run {rid}" + (f" '{printable(name)}'" if name else ""))
