"""`tickmark campaign FILE`: targets x variants x workloads, resumable."""

import click

from ..names import parse_labels
from .options import store_of
from .report import write_report


@click.command("campaign")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--status", "status_only", is_flag=True, help="Show the cells and which are stored; run nothing.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
@click.option(
    "--report",
    "report_path",
    type=click.Path(dir_okay=False),
    help="Also write a report of the stored cells, baseline target first (HTML; .md or .json by extension).",
)
@click.option(
    "--label",
    "labels",
    multiple=True,
    metavar="KEY=VALUE",
    help="A label stored with every cell's run (beside the file's [labels]); repeatable.",
)
@click.pass_context
def campaign_cmd(ctx, file, status_only, quiet, report_path, labels):
    """Run a campaign file: targets x variants x workloads, resumable (see README).

    Targets run in parallel, one cell at a time on each. Exit status 1 when a cell failed or
    could not run (start it again to run only those), 130 when interrupted."""
    from ..report.terminal.campaign import campaign_summary
    from ..run import campaign as cp
    from ..run.engine import signals

    spec = cp.load(file)
    spec.labels.update(parse_labels(labels))
    store = store_of(ctx)
    root = ctx.find_root().obj
    camp = cp.Campaign(
        spec,
        root["store_path"],
        echo=(lambda m: None) if quiet else (lambda m: click.echo(f"campaign: {m}", err=True)),
        prebuilt=root.get("core"),
    )
    cp.mark_finished(store, spec, camp.cells)
    if status_only:
        cp.held_elsewhere(store, spec, camp.cells)
        campaign_summary(store, spec, camp.cells)
        return
    skipped = sum(c.state == "finished" for c in camp.cells)
    if skipped and not quiet:
        rest = "nothing to run" if skipped == len(camp.cells) else "running the others"
        click.echo(f"campaign: {skipped} of {len(camp.cells)} cells are stored complete; {rest}", err=True)
    try:
        with signals():
            camp.execute()
    except KeyboardInterrupt:
        campaign_summary(store, spec, camp.cells)
        click.echo("tickmark: interrupted; finished cells are stored, start the campaign again to resume", err=True)
        ctx.exit(130)
    counts = campaign_summary(store, spec, camp.cells)
    if report_path:
        refs = cp.report_order(spec, camp.cells)
        if refs:
            write_report(store, refs, report_path)
    if set(counts) - {"done", "finished"}:
        click.echo("tickmark: some cells did not finish; start the campaign again to run only those", err=True)
        ctx.exit(1)
