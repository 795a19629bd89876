"""`tickmark compare`: runs (stored or exported) against a baseline: ratio, CI, p, verdict."""

import click

from ..base.errors import TickmarkError
from ..base.names import printable
from ..report import formats
from .options import inconclusive_option, store_for_refs

GLOB = set("*?[")


@click.command("compare")
@click.argument("args", nargs=-1, metavar="RUN_A RUN_B [RUN_C...] [PATTERN...]")
@click.option("--baseline", metavar="RUN", help="Compare every RUN against this run.")
@click.option(
    "--fail-above",
    metavar="PCT",
    help="Exit 1 if a benchmark's headline (or --metric) is significantly slower than the baseline by "
    "more than this (e.g. 5%), a benchmark of the baseline was not measured, or a run is unfinished; "
    "exit 3 if nothing failed but a benchmark could not be decided (see --inconclusive).",
)
@click.option(
    "--metric",
    metavar="NAME",
    help="Compare (and gate) one metric only: headline, task-clock (on-CPU time per operation), or a sub-metric.",
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
@inconclusive_option
@click.pass_context
def compare_cmd(ctx, args, baseline, fail_above, metric, fmt, no_counters, inconclusive):
    """Compare runs (id, name, latest, or an exported JSON file): B/A ratio, CI, p, verdict.

    The first run (or --baseline) is A; each other run is compared against it. Arguments are runs
    up to the first one that is not a run; it and the ones after it are PATTERNS that select
    benchmarks (globs such as 'cpu.string*', or benchmark names).

    Where a run's wall time was kept off the CPU by other work (contention), the verdict is decided
    on task-clock (on-CPU time) and says so, or is inconclusive. Exit status with --fail-above: 1 a
    regression, 3 inconclusive (nothing failed, a benchmark could not be decided), 0 otherwise;
    2 on bad input."""
    from ..analysis import compare as cmp
    from ..analysis.verdict import gate
    from ..report.gate import gate_lines
    from ..report.model import comparison
    from ..store.refs import load_sides

    threshold = cmp.parse_threshold(fail_above) if fail_above is not None else None
    metric = cmp.metric_name(metric) if metric is not None else None
    store = _store(ctx, args + ((baseline,) if baseline else ()))
    runs, patterns = split_runs(store, args)
    if threshold is not None and baseline is None and len(runs) < 2:
        raise TickmarkError("--fail-above needs a baseline (--baseline RUN) and a run to check")
    if inconclusive is not None and threshold is None:
        raise TickmarkError("--inconclusive goes with --fail-above (what the gate makes of an undecided benchmark)")
    sides = load_sides(store, runs, baseline)
    check_patterns(sides, patterns)
    cmp.check_metric(sides, metric)
    sides, pairs = cmp.compare_sides(sides, metric=metric, patterns=patterns)
    for s in sides:
        status = s.run.get("status")
        if status != "complete":
            click.echo(f"tickmark: warning: {s.label} is {status}{_why_unfinished(s.run)}", err=True)
    text = formats.render(fmt, "comparison", comparison(sides, pairs, metric), show_counters=not no_counters)
    if text is not None:
        click.echo(text, nl=False)
    if threshold is not None:
        g = gate(pairs, threshold, metric or "", inconclusive=inconclusive)
        for line in gate_lines(g):
            click.echo(f"tickmark: {line}", err=True)
        if g.exit_status():
            ctx.exit(g.exit_status())


def _why_unfinished(run):
    """Why a run that is not complete is not: still being written, the reason it recorded (a failed
    verification, a lost connection, a signal), or interrupted where it recorded none."""
    if run.get("status") == "running":
        return " (still being written)"
    reason = (run.get("notes") or {}).get("incomplete")
    return f": {printable(str(reason))}" if reason else " (interrupted; some results missing)"


def _store(ctx, args):
    """The store, or None where every argument that can name a run is a file (store_for_refs);
    arguments with glob characters are patterns, never runs."""
    return store_for_refs(ctx, tuple(a for a in args if not GLOB & set(a)))


def split_runs(store, args):
    """(runs, patterns): the arguments are runs up to the first that names no run (store/refs.py's
    rule: a stored run, an exported file); from there on they are benchmark patterns."""
    from ..store.refs import is_run

    for i, a in enumerate(args):
        if GLOB & set(a) or not is_run(store, a):
            return list(args[:i]), list(args[i:])
    return list(args), []


def check_patterns(sides, patterns):
    """Every pattern selects a benchmark of the compared runs; one that does not is a mistyped run
    or benchmark (a one-line error)."""
    from ..analysis.compare import key_matches

    have = [(k, r.get("bench") or k) for s in sides for k, r in s.results.items()]
    for p in patterns:
        if not any(key_matches(k, b, [p]) for k, b in have):
            shown = printable(p)[:60]
            if GLOB & set(p):
                raise TickmarkError(f"no benchmark of the compared runs matches '{shown}'")
            raise TickmarkError(f"no run '{shown}' (and no benchmark of the compared runs of that name)")
