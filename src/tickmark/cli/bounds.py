"""`tickmark bounds` (a bounds file from stored runs) and `tickmark check` (a run held to a bounds
file); `run --bounds` and `campaign --bounds` check what they measured the same way."""

import click

from ..base.errors import TickmarkError
from ..base.names import printable
from .options import check_output, emit, store_of


@click.command("bounds")
@click.argument("runs", nargs=-1, required=True)
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    metavar="NAME",
    help="Metric to bound: headline (the default), task-clock, or a sub-metric; repeatable.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File to write (default: stdout).")
@click.pass_context
def bounds_cmd(ctx, runs, metrics, output):
    """Write a bounds file from stored runs: per target and benchmark, the range of values the runs
    measured (their CIs included), widened by compare's noise band (0.1 % for instruction counts)
    and rounded outward. Edit it, keep it beside the board, and check later runs with
    `tickmark check RUN --bounds FILE` (or `tickmark run --bounds FILE`)."""
    from ..analysis import bounds as bd
    from ..analysis.compare import metric_name

    check_output(ctx, output)
    store = store_of(ctx, readonly=True)
    chosen = [store.run(r) for r in runs]
    ms = list(dict.fromkeys(metric_name(m) for m in metrics)) or [""]
    found = bd.derive(chosen, lambda run: store.results(run["id"]), ms)
    if not found:
        raise TickmarkError("the runs have no measured figure to bound")
    names = ", ".join(printable(r.get("name") or f"run {r['id']}") for r in chosen)
    note = (
        f"tickmark bounds from {names}: each figure's range over the runs (95 % CIs included), widened "
        "by\ncompare's noise band (0.1 % for instruction counts) and rounded outward. Check a run with\n"
        "tickmark check RUN --bounds FILE"
    )
    emit(output, bd.to_toml(found, note), "toml")


@click.command("check")
@click.argument("run")
@click.option("--bounds", "bounds_file", required=True, type=click.Path(dir_okay=False), help="The bounds file (TOML).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["terminal", "junit", "json"]),
    default="terminal",
    show_default=True,
    help="terminal: the figures out of bounds and a summary; junit: a test case per result, failed where "
    "a figure is out of bounds (for CI); json: every checked figure.",
)
@click.pass_context
def check_cmd(ctx, run, bounds_file, fmt):
    """Hold a stored run to a bounds file (see tickmark bounds). Exit status 1 when a figure lies
    outside its bounds, a bounded benchmark was not measured, or the run did not finish (as
    compare --fail-above); 0 otherwise; 2 on bad input."""
    from ..analysis import bounds as bd

    bounds = bd.read(bounds_file)
    store = store_of(ctx, readonly=True)
    r = store.run(run)
    results = store.results(r["id"])
    g, rows = bd.check(r, results, bounds, source=f"bounds file {bounds_file}")
    if fmt == "junit":
        from ..store import exports
        from ..store.document import run_model

        click.echo(exports.to_junit(run_model(store, r), gate=g), nl=False)
    elif fmt == "json":
        import json

        click.echo(json.dumps(_json(g, rows), indent=1, sort_keys=True))
    else:
        _table(rows)
    for line in bd.lines(g, rows):
        click.echo(f"tickmark: {line}", err=True)
    if not g.passed:
        ctx.exit(1)


def _json(g, rows):
    return {
        "passed": g.passed,
        "figures": [
            {
                "key": c.key,
                "metric": c.bound.metric or "headline",
                "value": c.value,
                "unit": c.unit or c.bound.unit,
                "min": c.bound.lo if abs(c.bound.lo) != float("inf") else None,
                "max": c.bound.hi if abs(c.bound.hi) != float("inf") else None,
                "state": c.state,
                "why": c.why,
            }
            for c in rows
        ],
    }


def _table(rows):
    """The checked figures, a row each, within the width."""
    from ..report.console import console, is_plain, print_table, styled_table

    con = console()
    t = styled_table(is_plain(con.file))
    for h in ("benchmark", "metric", "value", "min", "max", "state"):
        t.add_column(h, justify="left" if h in ("benchmark", "metric", "state") else "right")
    for c in rows:
        value = "-" if c.value is None else f"{c.value:.6g} {c.unit}"
        t.add_row(c.key, c.bound.metric or "headline", value, f"{c.bound.lo:.6g}", f"{c.bound.hi:.6g}", c.state)
    print_table(con, t)


def check_after(ctx, run_ids, bounds_file):
    """`run --bounds` / `campaign --bounds`: each run held to the bounds file (its figures out of
    bounds said on stderr) -> True when every one passed."""
    from ..analysis import bounds as bd

    bounds = bd.read(bounds_file)
    store = store_of(ctx)
    ok = True
    for i in run_ids:
        r = store.run(str(i))
        try:
            g, rows = bd.check(r, store.results(r["id"]), bounds, source=f"bounds file {bounds_file}")
        except TickmarkError as e:  # no bound for this run's target: said, not failed
            click.echo(f"tickmark: {e}", err=True)
            continue
        for line in bd.lines(g, rows):
            click.echo(f"tickmark: {r.get('name') or 'run ' + str(r['id'])}: {line}", err=True)
        ok = ok and g.passed
    return ok
