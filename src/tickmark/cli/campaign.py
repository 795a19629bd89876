"""`tickmark campaign FILE`: targets x variants x workloads, resumable."""

import click

from ..base.errors import TickmarkError
from ..base.names import parse_labels
from .options import check_output, store_of
from .report import write_report


@click.command("campaign")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--status", "status_only", is_flag=True, help="Show the cells and which are stored; run nothing.")
@click.option("--quiet", "-q", is_flag=True, help="No progress (a bar on a terminal, lines in a pipe).")
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
    help="A label stored with every cell's run, beside the file's [labels] (a key the file sets "
    "to another value is refused); repeatable.",
)
@click.option(
    "--bounds",
    "bounds_file",
    type=click.Path(dir_okay=False),
    help="Hold every stored cell to this bounds file at the end (tickmark check): exit 1 when a figure "
    "is out of bounds.",
)
@click.pass_context
def campaign_cmd(ctx, file, status_only, quiet, report_path, labels, bounds_file):
    """Run a campaign file: targets x variants x workloads, resumable (see README).

    Targets run in parallel, one cell at a time on each machine (targets with the same URI, or
    two that run on this machine, share one). Exit status 1 when a cell failed or could not run
    (start it again to run only those), 130 when interrupted."""
    from ..report.progress import Progress
    from ..report.terminal.campaign import campaign_summary
    from ..run import campaign as cp
    from ..run.campaign_file import load
    from ..run.engine import signals

    check_output(ctx, report_path, inputs=[file])
    if bounds_file:
        from ..analysis.bounds import read

        read(bounds_file)  # a bad file is said before anything runs
    spec = load(file)
    spec.add_labels(parse_labels(labels))
    cp.check_cell_names(spec)
    store = store_of(ctx, readonly=status_only)
    root = ctx.find_root().obj
    progress = Progress(quiet=quiet, unit="cells")
    echo = (lambda m: None) if quiet else (lambda m: progress.say(f"campaign: {m}"))
    camp = cp.Campaign(spec, root["store_path"], echo=echo, prebuilt=root.get("core"), progress=progress)
    cp.mark_finished(store, spec, camp.cells)
    foreign = cp.foreign_runs(store, spec, camp.cells)
    if foreign:
        raise TickmarkError(
            f"a run named '{foreign[0]}' exists that campaign {spec.name} did not make"
            + (f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else "")
            + ": the campaign never takes over another run (give the campaign another name)"
        )
    if status_only:
        cp.held_elsewhere(store, spec, camp.cells)
        campaign_summary(store, spec, camp.cells)
        _report(store, spec, camp.cells, report_path)
        return
    _check_workloads(spec, root.get("core"), echo)
    changed = [c for c in camp.cells if c.state == "pending" and c.message.startswith("changed since")]
    for c in changed:
        echo(f"{c.id}: {c.message}")
    skipped = sum(c.state == "finished" for c in camp.cells)
    if skipped and not quiet:
        rest = "nothing to run" if skipped == len(camp.cells) else "running the others"
        click.echo(f"campaign: {skipped} of {len(camp.cells)} cells are stored complete; {rest}", err=True)
    try:
        with signals(), progress:
            progress.stage(f"campaign {spec.name}")
            progress.add(sum(c.state == "pending" for c in camp.cells))
            camp.execute()
    except KeyboardInterrupt:
        campaign_summary(store, spec, camp.cells)
        click.echo("tickmark: interrupted; finished cells are stored, start the campaign again to resume", err=True)
        ctx.exit(130)
    counts = campaign_summary(store, spec, camp.cells)
    _report(store, spec, camp.cells, report_path)
    if bounds_file:
        from .bounds import check_after

        if not check_after(ctx, cp.report_order(spec, camp.cells), bounds_file):
            ctx.exit(1)
    if set(counts) - {"done", "finished"}:
        click.echo("tickmark: some cells did not finish; start the campaign again to run only those", err=True)
        ctx.exit(1)


def _check_workloads(spec, prebuilt, echo):
    """The workloads' patterns and parameters, checked on a core of this machine before any cell
    runs (every core has the same benchmarks); where none can be had, each cell checks its own."""
    from ..run.campaign_file import check_workloads
    from ..targets import open_target

    with open_target("local", prebuilt=prebuilt) as here:
        try:
            core = here.prepare()
        except TickmarkError as e:
            echo(f"the patterns are checked on each target (no core for this machine: {e})")
            return
        check_workloads(spec, core)


def _report(store, spec, cs, path):
    """The report of the stored cells (--report), baseline target first; a note when none is stored."""
    from ..run import campaign as cp

    if not path:
        return
    refs = cp.report_order(spec, cs)
    if not refs:
        click.echo(f"tickmark: no cell of campaign {spec.name} is stored yet: {path} not written", err=True)
        return
    write_report(store, refs, path)
