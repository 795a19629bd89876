"""`tickmark history`: per benchmark, the series of stored runs and where it changed."""

import io
import json
import os

import click

from .options import check_output, emit, store_of

FORMATS = ("table", "md", "json", "html")
EXTENSIONS = {".md": "md", ".markdown": "md", ".json": "json", ".html": "html", ".htm": "html"}


@click.command("history")
@click.argument("patterns", nargs=-1)
@click.option(
    "--by",
    default="time",
    show_default=True,
    help="Order of the runs: time, kernel, label:KEY (runs stored with --label KEY=...), or a fingerprint field.",
)
@click.option("--name", "names", multiple=True, metavar="GLOB", help="Only runs whose name matches; repeatable.")
@click.option("--target", metavar="GLOB", help="Only runs on a target URI that matches (e.g. 'ssh://*').")
@click.option("--label", "labels", multiple=True, metavar="KEY=VALUE", help="Only runs with this label; repeatable.")
@click.option("--since", metavar="DATE|AGE", help="Only runs started since a date (2026-11-01) or an age (7d, 12h).")
@click.option(
    "--metric",
    default="",
    metavar="NAME",
    help="headline (the default), task-clock (on-CPU time per operation), or a sub-metric.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    help="table (the default), md, json or html; with -o and no --format, the file's extension picks it.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File to write (default: stdout).")
@click.option(
    "--fail-on-change",
    "fail_on",
    metavar="PCT",
    help="Exit 1 when the newest run lies on a level that began with a change and is slower than the level "
    "before by more than PCT by compare's verdict (the gate of compare --fail-above), or did not measure a "
    "benchmark of its series, or did not finish (for CI).",
)
@click.pass_context
def history_cmd(ctx, patterns, by, names, target, labels, since, metric, fmt, output, fail_on):
    """Per benchmark, the series of stored runs and its change points (where the level moved,
    by how much with its CI, which runs lie on either side, what changed in their fingerprints).
    Runs that cannot be compared (another target, instruction set, unit or cycles method) are
    separate series, each saying what sets it apart.

    PATTERNS select benchmarks (globs such as 'cpu.*'; all when none). Exit status with
    --fail-on-change: 1 when the gate fails for the newest run (the last in the order), 0
    otherwise; 2 on bad input."""
    from ..analysis.compare import parse_threshold
    from ..names import parse_labels
    from ..report import documents
    from ..report import history as hr
    from ..report.terminal.history import show

    threshold = parse_threshold(fail_on, "--fail-on-change") if fail_on is not None else None
    label_filter = parse_labels(labels)
    since_t = hr.parse_since(since) if since else None
    hr.check_by(by)
    check_output(ctx, output)
    if fmt is None:
        fmt = EXTENSIONS.get(os.path.splitext(output or "")[1].lower(), "table")
    store = store_of(ctx, readonly=True)
    model = hr.build(store, patterns, by, names, target, label_filter, since_t, metric)
    verdict = None
    if threshold is not None:
        verdict, where = hr.gate(store, model, threshold)
        model["gate"] = hr.gate_json(verdict, where, model)
    if fmt == "table" and not output:
        show(model)
    else:
        if fmt == "json":
            text = json.dumps(hr.to_json_ready(model), indent=1, sort_keys=True) + "\n"
        elif fmt == "md":
            text = documents.history_markdown(model)
        elif fmt == "html":
            text = documents.history_html(model)
        else:
            buf = io.StringIO()
            show(model, file=buf)
            text = buf.getvalue()
        emit(output, text, fmt)
    if verdict is not None:
        for line in model["gate"]["lines"]:
            click.echo(f"tickmark: {line}", err=True)
        if not verdict.passed:
            ctx.exit(1)
