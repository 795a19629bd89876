"""`tickmark bisect`: the first commit between a good and a bad revision that made a benchmark
slower, each candidate measured interleaved with the good revision and judged by compare's gate."""

import os
import sys

import click

from ..analysis.verdict import EXIT_INCONCLUSIVE as UNSETTLED
from ..base.errors import TickmarkError
from ..base.names import printable
from ..base.suites import SUITES
from .options import round_options, store_of, target_of, target_option

# exit statuses (docs/bisect.md): an unsettled search exits as an undecided gate does
FOUND, NOT_SLOWER = 0, 1


@click.command("bisect")
@click.argument("patterns", nargs=-1)
@click.option("--good", metavar="REV", help="A revision without the change (a commit, tag or branch).")
@click.option("--bad", metavar="REV", help="A later revision with it (on the first-parent line from --good).")
@click.option(
    "--repo", default=".", show_default=True, type=click.Path(file_okay=False), help="The git repository under test."
)
@click.option("--build", metavar="CMD", help="Shell command that builds a revision, run in its work tree.")
@click.option(
    "--exec",
    "exec_command",
    metavar="CMD",
    help="Measure this command of the tree as `tickmark exec -c` does ({tree}: the revision's work tree).",
)
@click.option("--memfn", metavar="FILE", help="Core benchmarks with this routine file ({tree}/...).")
@click.option("--cflags", metavar="FLAGS", help="Core benchmarks built with these flags ({tree}: e.g. @{tree}/flags).")
@click.option("--cc", metavar="CC", help="Core benchmarks built with this compiler ({tree}/...).")
@click.option("--suite", help=f"Named suite of core benchmarks ({', '.join(sorted(SUITES))}).")
@click.option(
    "--fail-above",
    default="5%",
    show_default=True,
    metavar="PCT",
    help="A commit is bad when a benchmark is slower than the good revision by more than this (compare's gate).",
)
@click.option("--metric", metavar="NAME", help="Judge on one metric: headline (default), task-clock, or a sub-metric.")
@click.option(
    "--from-history",
    "from_history",
    metavar="BENCH",
    help="Take --good and --bad from the commit labels of the runs on either side of the last slowdown "
    "that `tickmark history BENCH` finds (with --by and --metric).",
)
@click.option("--by", default="time", show_default=True, help="With --from-history: history's order of the runs.")
@round_options(rounds_help="Rounds of each revision per step.", seed_help="Seed of the orders.")
@click.option("--quiet", "-q", is_flag=True, help="No progress.")
@target_option
@click.pass_context
def bisect_cmd(
    ctx,
    patterns,
    good,
    bad,
    repo,
    build,
    exec_command,
    memfn,
    cflags,
    cc,
    suite,
    fail_above,
    metric,
    from_history,
    by,
    run_options,
    quiet,
):
    """Find the first commit between --good and --bad that made a benchmark slower.

    Each revision is checked out in a work tree of its own (never your checkout) and built with
    --build; each step measures a commit interleaved with the good revision, stores both as runs
    labelled bisect=ID, commit=SHA, role=good|candidate, and judges the commit by compare's gate
    (--fail-above, --metric). A commit that does not build, or whose verdict stays inconclusive
    after a second try with twice the rounds, is skipped. Run again with the same arguments, it
    resumes from the stored steps.

    What is measured: --exec CMD (a program of the tree, as tickmark exec measures it), or core
    benchmarks (PATTERNS, --suite) built with --memfn, --cflags or --cc taken from the tree;
    {tree} in those options is the revision's work tree.

    Exit status: 0 the first bad commit was found; 1 the bad revision is not slower than the good
    one; 3 the change lies among commits that were skipped (they are named), or the bad revision
    could not be judged; 2 bad input."""
    from ..analysis import bisect as search
    from ..analysis.compare import metric_name as checked_metric
    from ..analysis.compare import parse_threshold
    from ..report.progress import Progress
    from ..run import bisect as bs

    threshold = parse_threshold(fail_above)
    metric = checked_metric(metric) if metric else ""
    store = store_of(ctx)
    if from_history:
        if good or bad:
            raise TickmarkError("--from-history gives --good and --bad: give one or the other")
        good, bad = _from_history(store, from_history, by, metric)
        click.echo(f"tickmark: history of {from_history}: good {good[:10]}, bad {bad[:10]}", err=True)
    if not good or not bad:
        raise TickmarkError("give --good REV and --bad REV (or --from-history BENCH)")
    if exec_command and (memfn or cflags or cc or patterns or suite):
        raise TickmarkError("--exec measures a program: give it without benchmarks, --memfn, --cflags or --cc")
    if not exec_command and not (memfn or cflags or cc):
        raise TickmarkError("say what the tree changes: --exec CMD, or --memfn, --cflags or --cc for core benchmarks")
    spec = bs.Spec(
        build=build,
        exec_command=exec_command,
        memfn=memfn,
        cflags=cflags,
        cc=cc,
        patterns=tuple(patterns),
        suite=suite,
        threshold=threshold,
        metric=metric,
        run_options={k: v for k, v in run_options.items() if v not in (None, [], ())},
    )
    try:
        with Progress(1, quiet=quiet, unit="steps") as progress:
            echo = lambda s: progress.say(f"tickmark: {s}")  # noqa: E731
            b = bs.Bisect(store, target_of(ctx), os.path.abspath(repo), good, bad, spec, echo, progress)
            echo(f"bisect {b.sid}: {len(b.commits) - 2} commits between {b.commits[0].short} and {b.commits[-1].short}")
            found = b.run()
    except KeyboardInterrupt:
        click.echo("tickmark: interrupted; the finished steps are stored (run it again to resume)", err=True)
        sys.exit(130)
    _report(b, found, threshold)
    first = found.steps[0]
    good_short, bad_short = b.commits[0].short, b.commits[-1].short
    if first.state == search.SKIP:
        click.echo(f"tickmark: cannot tell whether {bad_short} is slower than {good_short}: {first.why}", err=True)
        ctx.exit(UNSETTLED)
    if first.state != search.BAD:
        click.echo(
            f"tickmark: the bad revision {bad_short} is not slower than {good_short} by more than "
            f"{threshold * 100:g}% ({first.why}): nothing to bisect",
            err=True,
        )
        ctx.exit(NOT_SLOWER)
    if found.first_bad() is None:
        ctx.exit(UNSETTLED)
    ctx.exit(FOUND)


def _report(b, found, threshold):
    """Every step's verdict, then the first bad commit with its ratio and CI (or the suspects)."""
    import textwrap

    from ..analysis import bisect as search
    from ..analysis.compare import multiple
    from ..report.console import console

    n = len(found.steps)
    click.echo(f"bisect {b.sid}: {n} step{'s' if n != 1 else ''} ({b.measured} measured now, the rest from the store)")
    width = console().width
    for i, st in enumerate(found.steps, 1):
        c = b.by_sha[st.commit]
        click.echo(f"  {i:>2}. {c.short}  {st.state:<8} {printable(c.subject)[: max(20, width - 28)]}")
        for line in textwrap.wrap(printable(st.why), max(40, width - 8)):
            click.echo(f"        {line}")
    if found.steps[0].state != search.BAD:
        return
    sha = found.first_bad()
    if sha is None:
        suspects = found.suspects()
        click.echo(f"the change is in one of {len(suspects)} commits (the others between were skipped):")
        for s in suspects:
            click.echo(f"  {b.by_sha[s].short}  {printable(b.by_sha[s].subject)[:80]}")
        return
    c = b.by_sha[sha]
    step = next((st for st in found.steps if st.commit == sha), None)
    click.echo(f"first bad commit: {c.sha}")
    click.echo(f"  {printable(c.subject)}")
    click.echo(f"  author: {printable(c.author)}")
    w = step.worst if step else {}
    if w.get("ratio"):
        ci = w.get("ci")
        ci_text = f", 95 % CI of the change {ci[0] * 100:+.1f}% .. {ci[1] * 100:+.1f}%" if ci else ""
        runs = ", ".join(map(str, step.runs))
        click.echo(f"  {w['key']}: {multiple(w['ratio'], bool(w.get('higher')))}{ci_text} (runs {runs})")


def _from_history(store, bench, by, metric=""):
    """(good, bad) commits: the labels `commit` of the runs on either side of the newest slowdown
    that history finds for BENCH."""
    from ..report import history as hr

    model = hr.build(store, [bench], by=by, metric=metric)
    changes = [(s, c) for s in model["_series"] for c in s.changes if c.worse and not c.tentative]
    if not changes:
        raise TickmarkError(f"history finds no slowdown of {printable(bench)[:60]}")
    s, c = changes[-1]
    before, after = s.points[c.index - 1], s.points[c.index]
    commits = [p.labels.get("commit") for p in (before, after)]
    if not all(commits):
        raise TickmarkError(
            f"the runs on either side of the change ({before.run}, {after.run}) have no label commit=SHA "
            "(run them with --label commit=SHA)"
        )
    return commits[0], commits[1]
