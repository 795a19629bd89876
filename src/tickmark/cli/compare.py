"""`tickmark compare`: runs (stored or exported) against a baseline: ratio, CI, p, verdict."""

import click

from ..errors import TickmarkError
from ..names import printable
from ..report import formats
from .options import store_for_refs


@click.command("compare")
@click.argument("runs", nargs=-1, metavar="RUN_A RUN_B [RUN_C...]")
@click.option("--baseline", metavar="RUN", help="Compare every RUN against this run.")
@click.option(
    "--fail-above",
    metavar="PCT",
    help="Exit 1 if a benchmark is significantly slower than the baseline by more than this (e.g. 5%).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(formats.names("comparison", aliases=True)),
    default="terminal",
    show_default=True,
    help=formats.help_text("comparison"),
)
@click.option("--no-counters", is_flag=True, help="Leave out the counter table.")
@click.pass_context
def compare_cmd(ctx, runs, baseline, fail_above, fmt, no_counters):
    """Compare runs (id, name, latest, or an exported JSON file): B/A ratio, CI, p, verdict.

    The first run (or --baseline) is A; each other run is compared against it."""
    from ..analysis import compare as cmp
    from ..report.model import comparison
    from ..store.refs import run_compare

    threshold = cmp.parse_threshold(fail_above) if fail_above is not None else None
    if threshold is not None and baseline is None and len(runs) < 2:
        raise TickmarkError("--fail-above needs a baseline (--baseline RUN) and a run to check")
    store = store_for_refs(ctx, runs + ((baseline,) if baseline else ()))
    sides, pairs = run_compare(store, list(runs), baseline)
    for s in sides:
        status = s.run.get("status")
        if status != "complete":
            click.echo(
                f"tickmark: warning: {s.label} is {status}"
                f"{' (still being written)' if status == 'running' else ' (interrupted; some results missing)'}",
                err=True,
            )
    text = formats.render(fmt, "comparison", comparison(sides, pairs), show_counters=not no_counters)
    if text is not None:
        click.echo(text, nl=False)
    if threshold is not None and not gate(sides, pairs, threshold):
        ctx.exit(1)


def gate(sides, pairs, threshold):
    """The regression gate (docs/compare.md): False, with one line on stderr for each reason,
    when a run is significantly slower than the baseline by more than the threshold, did not
    measure a benchmark the baseline measured (crashed, failed, timed out, no samples, left
    out), or is not complete; else True, with one line saying so."""
    from ..analysis import compare as cmp

    A, ok = sides[0].label, True
    bad = [(B.label, r, slow) for (_, B), res in pairs for r, slow in cmp.regressions(res, threshold)]
    if bad:
        worst = ", ".join(
            printable(f"{r['key']}{' ' + r['metric'] if r['metric'] else ''} +{slow * 100:.1f}%")
            for _, r, slow in sorted(bad, key=lambda x: -x[2])[:5]
        )
        click.echo(f"tickmark: {len(bad)} regression(s) above {threshold * 100:g}% against {A}: {worst}", err=True)
        ok = False
    for (_, B), res in pairs:
        lost = cmp.unmeasured(res)
        if lost:
            which = ", ".join(printable(f"{r['key']} ({why})") for r, why in lost[:5]) + (
                ", ..." if len(lost) > 5 else ""
            )
            click.echo(f"tickmark: {len(lost)} benchmark(s) of {A} not measured in {B.label}: {which}", err=True)
            ok = False
        if B.run.get("status") != "complete":
            click.echo(
                f"tickmark: {B.label} is {B.run.get('status')}: the gate cannot pass an unfinished run", err=True
            )
            ok = False
    if ok:
        click.echo(f"tickmark: no regression above {threshold * 100:g}% against {A}", err=True)
    return ok
