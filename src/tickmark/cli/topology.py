"""`tickmark topology`: detect cache levels, line size and TLB reach from latency sweeps (or from
stored runs) and compare them with what the OS reports."""

import click

from ..analysis import os_topology
from ..analysis import topology as topo
from ..base.errors import TickmarkError
from ..base.names import check_name, printable
from ..report.progress import Progress
from ..report.terminal import topology as terminal
from ..run import topology as sweep
from ..store.analyses import topology_of_runs
from .options import prepare_core, store_of, target_option


def command(ctx, as_json, rounds, samples, max_size, from_runs, refine, quiet, name=None):
    if name is not None and from_runs:
        raise TickmarkError("--name names a new run: it cannot go with --from (which reads stored runs)")
    if name is not None:
        check_name(name)
    store = store_of(ctx, readonly=bool(from_runs))
    if name is not None and store.name_taken(name):
        raise TickmarkError(f"a run named '{printable(name)[:60]}' exists already (choose another --name)")
    if from_runs:
        runs = [store.run(ref) for ref in from_runs]
    else:
        size = None
        if max_size:
            size = sweep.parse_size(max_size)
            if not size or size < 64 << 10:
                raise TickmarkError(f"bad --max-size '{max_size}' (a size like 64M, at least 64K)")
        quiet = quiet or as_json

        def progress(n):
            return Progress(n, quiet=quiet)

        runs = [store.run(sweep.measure(store, prepare_core(ctx), rounds, samples, size, refine, progress, name))]
    results = [r for run in runs for r in store.results(run["id"])]
    ids = [run["id"] for run in runs]
    if not topo.has_sweep(results):
        which = ", ".join(map(str, ids))
        raise TickmarkError(
            f"run{'s' if len(runs) > 1 else ''} {which} {'have' if len(runs) > 1 else 'has'} no mem.lat_rand or "
            "mem.lat_pagelocal results (tickmark topology measures them)"
        )
    det, osr = topology_of_runs(store, runs, results)
    if as_json:
        print(os_topology.to_json(det, osr, ids))
    else:
        terminal.print_text(det, osr, ids)


@click.command("topology")
@click.option("--json", "as_json", is_flag=True, help="Detected and OS-reported values as JSON.")
@click.option(
    "--rounds",
    type=click.IntRange(1, 20),
    default=2,
    show_default=True,
    help="Rounds per pass (each a process; the minimum over all samples is used).",
)
@click.option(
    "--samples",
    type=click.IntRange(1, 1000),
    default=4,
    show_default=True,
    help=f"Samples per round (each {sweep.SAMPLE_MS} ms).",
)
@click.option(
    "--max-size",
    metavar="SIZE",
    help="Largest working set (e.g. 64M); default: the sweep, bounded by a quarter of the target's available memory.",
)
@click.option(
    "--from", "from_runs", multiple=True, metavar="RUN", help="Analyse stored run(s) instead of measuring (repeatable)."
)
@click.option("--no-refine", is_flag=True, help="Skip the second pass around the knees.")
@click.option("--name", help="Name of the stored run (unique), e.g. for a board's report page.")
@click.option("--quiet", "-q", is_flag=True, help="No progress (a bar on a terminal, lines in a pipe).")
@target_option
@click.pass_context
def topology_cmd(ctx, as_json, rounds, samples, max_size, from_runs, no_refine, name, quiet):
    """Detect cache levels, line size and TLB reach from latency sweeps; compare with the OS."""
    command(ctx, as_json, rounds, samples, max_size, from_runs, not no_refine, quiet, name)
