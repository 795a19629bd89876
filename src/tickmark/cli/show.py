"""`tickmark show` (a stored run) and `tickmark runs` (the stored runs)."""

import shutil

import click

from ..errors import TickmarkError
from ..fmt import known
from ..names import printable
from .options import store_of


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

    store = store_of(ctx, readonly=True)
    if summary:
        show_summary(store, run_refs or ["latest"])
        return
    if len(run_refs) > 1:
        raise TickmarkError("show takes one run (several with --summary: the board page of their figures)")
    run_ = store.run(run_refs[0] if run_refs else "latest")
    report.show(store, run_, beside=store.run(beside) if beside else None)
    if with_counters:
        from ..report.terminal import counters

        counters.show(store, run_)
    profiles = store.profiles(run_["id"])
    if profiles:
        import io
        import textwrap

        from ..report.console import PIPE_WIDTH, width
        from ..report.terminal import profile as view

        w = width() or shutil.get_terminal_size((PIPE_WIDTH, 24)).columns
        for key in sorted(profiles):
            buf = io.StringIO()
            view.show(profiles[key], file=buf)
            click.echo()
            for line in buf.getvalue().splitlines():  # the terminal's width, as every table
                click.echo(textwrap.fill(line, w, subsequent_indent="    ", drop_whitespace=False) if line else "")


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
@click.pass_context
def runs_cmd(ctx):
    """List the stored runs."""
    from .. import names
    from ..suites import SUITES

    store = store_of(ctx, readonly=True)
    rows = store.runs()
    if not rows:
        click.echo("no runs stored yet")
        return
    click.echo(f"{'id':>4}  {'started':<19}  {'status':<10}  {'results':>12}  {'name':<16}  {'target':<10}  benchmarks")
    for r in rows:
        when = names.when(r["started"])
        what = r["suite"] and f"suite {r['suite']}" or " ".join(map(str, r["patterns"]))
        extra = [str(p) for p in r["patterns"] if p not in SUITES.get(r["suite"], r["patterns"])]
        if extra:  # patterns given beside the suite (run --suite os 'sys.*')
            what += " + " + " ".join(extra)
        fp = r.get("fingerprint") or {}
        if fp.get("variant"):
            what += f"  [{fp['variant']}]"
        target = known(fp.get("target_uri"), "?")
        click.echo(
            printable(
                f"{r['id']:>4}  {when}  {r['status']:<10}  {r['n_results']:>4} results  {r['name'] or '-':<16}  "
                f"{target:<10}  {what}"
            )
        )
