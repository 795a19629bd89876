"""`tickmark show` (a stored run) and `tickmark runs` (the stored runs)."""

import collections
import itertools

import click

from ..base.errors import TickmarkError
from .options import run_filter_options, store_of


@click.command("show")
@click.argument("run_refs", nargs=-1, metavar="[RUN...]")
@click.option(
    "--counters",
    "with_counters",
    is_flag=True,
    help="Also the counter-derived figures (IPC, stalls, misses, task-clock, context switches, page faults per op).",
)
@click.option(
    "--beside",
    metavar="RUN",
    help="Another run (e.g. the rtos-study suite on bare metal) "
    "shown in columns of its own beside this one in the rtos-study view, and as a row of its own "
    "in the kernel-entry table.",
)
@click.option(
    "--summary",
    is_flag=True,
    help="The board page instead: lmbench's summary figures (system calls, processes, context-switch grid, "
    "IPC latency and bandwidth, memory latency) from the runs given (runs of one board).",
)
@click.pass_context
def show_cmd(ctx, run_refs, with_counters, beside, summary):
    """Show a stored run (latest by default; id or name), or with --summary the board page of one
    or more runs."""
    from ..report import terminal as report
    from .run import say_disturbed

    store = store_of(ctx, readonly=True)
    if summary:
        show_summary(store, run_refs or ["latest"])
        return
    if len(run_refs) > 1:
        raise TickmarkError("show takes one run (several with --summary: the board page of their figures)")
    run_ = store.run(run_refs[0] if run_refs else "latest")
    report.show(store, run_, beside=store.run(beside) if beside else None)
    say_disturbed(run_)  # as `run` ended: how much of the run was disturbed
    if with_counters:
        from ..report.terminal import counters

        counters.show(store, run_)
    profiles = store.profiles(run_["id"])
    if profiles:
        from ..report.terminal import profile as view

        for key in sorted(profiles):  # within the terminal's width, as every table
            click.echo()
            view.show(profiles[key])


def show_summary(store, refs):
    from ..report.model import board_model
    from ..report.terminal import board

    runs = [store.run(r) for r in refs]
    m = board_model(store, runs)
    if m is None:
        which = ", ".join(str(r["id"]) for r in runs)
        raise TickmarkError(
            f"run{'s' if len(runs) > 1 else ''} {which} {'hold' if len(runs) > 1 else 'holds'} none of the board "
            "page's figures (tickmark run --suite os, 'sched.ctx_ring', 'mem.bw_*', tickmark topology measure them)"
        )
    board.render(m)


@click.command("runs")
@run_filter_options
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=1),
    callback=lambda ctx, param, n: None if n is None else min(n, 2**62),  # more than any store holds: all
    metavar="N",
    help="Only the newest N runs (of those the filters select).",
)
@click.pass_context
def runs_cmd(ctx, names, target, labels, since, limit):
    """List the stored runs (all, or those the filters select), a table per 1,000 runs."""
    from ..base.names import parse_labels
    from ..report import history
    from ..report.runs import runs_model
    from ..report.terminal import runs
    from ..store import RUN_PAGE

    label_filter = parse_labels(labels)
    since_t = history.parse_since(since) if since is not None else None
    store = store_of(ctx, readonly=True)
    filtered = bool(names or target or label_filter or since is not None)
    # the runs are read a page at a time, without their documents, and listed a table per page:
    # what is held does not grow with the store
    if filtered:
        rows = history.select_runs(store, names, target, label_filter, since_t, running=True)
        rows = collections.deque(rows, maxlen=limit) if limit else rows
    else:
        rows = store.run_rows(("target_uri", "variant"), newest=limit)
    rows, listed = iter(rows), False
    while page := list(itertools.islice(rows, RUN_PAGE)):
        runs.show(runs_model(page))
        listed = True
    if not listed:
        stored = filtered and next(store.run_rows(newest=1), None) is not None
        runs.show([], empty="no run matches the filters" if stored else "no runs stored yet")
