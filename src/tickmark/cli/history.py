"""`tickmark history`: per benchmark, the series of stored runs and where it changed."""

import json

import click

from .options import emit, store_of


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
    help="A sub-metric instead of the headline, or task-clock (on-CPU time per operation).",
)
@click.option("--format", "fmt", type=click.Choice(["table", "md", "json", "html"]), default="table", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File to write (default: stdout).")
@click.option(
    "--fail-on-change",
    "fail_on",
    metavar="PCT",
    help="Exit 1 when the newest run starts a change larger than PCT in the bad direction (for CI).",
)
@click.pass_context
def history_cmd(ctx, patterns, by, names, target, labels, since, metric, fmt, output, fail_on):
    """Per benchmark, the series of stored runs and its change points (where the level moved,
    by how much with its CI, which runs lie on either side, what changed in their fingerprints).

    PATTERNS select benchmarks (globs such as 'cpu.*'; all when none). Exit status with
    --fail-on-change: 1 when a benchmark's newest run starts a change in the bad direction
    larger than PCT, 0 otherwise; 2 on bad input."""
    from ..analysis import history
    from ..analysis.compare import parse_threshold
    from ..names import parse_labels
    from ..report import documents
    from ..report import history as hr
    from ..report.terminal.history import show

    pct = parse_threshold(fail_on, "--fail-on-change") * 100 if fail_on is not None else None
    label_filter = parse_labels(labels)
    since_t = hr.parse_since(since) if since else None
    hr.check_by(by)
    store = store_of(ctx, readonly=True)
    model = hr.build(store, patterns, by, names, target, label_filter, since_t, metric)
    if fmt == "json":
        text = json.dumps(hr.to_json_ready(model), indent=1, sort_keys=True) + "\n"
    elif fmt == "md":
        text = documents.history_markdown(model)
    elif fmt == "html":
        text = documents.history_html(model)
    else:
        text = None
    if text is not None:
        emit(output, text, fmt)
    else:
        show(model)
    if pct is not None:
        bad = history.failing(model["_series"], pct)
        if bad:
            worst = ", ".join(f"{s.key} {c.pct:+.1f}% at {s.points[c.index].run}" for s, c in bad[:5])
            click.echo(
                f"tickmark: {len(bad)} benchmark(s) changed for the worse by more than {pct:g}%: {worst}", err=True
            )
            ctx.exit(1)
        click.echo(f"tickmark: no change for the worse above {pct:g}% at the newest run", err=True)
