"""`tickmark topology`: detect cache levels, line size and TLB reach from latency sweeps (or from
stored runs) and compare them with what the OS reports."""

import click

from ..analysis import topology as topo
from ..errors import TickmarkError
from ..report.progress import Progress
from ..report.terminal import topology as terminal
from ..run import topology as sweep
from .options import prepare_core, store_of, target_option


def command(ctx, as_json, rounds, samples, max_size, from_runs, refine, quiet):
    store = store_of(ctx)
    if from_runs:
        runs, results = [], []
        for ref in from_runs:
            r = store.run(ref)
            runs.append(r["id"])
            results += store.results(r["id"])
        hello = store.run(runs[0]).get("hello") or {}
    else:
        size = None
        if max_size:
            size = sweep.parse_size(max_size)
            if not size or size < 64 << 10:
                raise TickmarkError(f"bad --max-size '{max_size}' (a size like 64M, at least 64K)")
        quiet = quiet or as_json

        def progress(n):
            return Progress(n, enabled=False if quiet else None)

        runs, results, hello = sweep.measure(store_of(ctx), prepare_core(ctx), rounds, samples, size, refine, progress)
    osr = topo.os_report()
    det = topo.analyse(results, hello.get("fcore_khz") or 0, hello, topo.round_points(store, results), osr)
    if not det["levels"]:
        raise TickmarkError("no mem.lat_rand results to analyse in the given run(s)")
    notes = store.run(runs[0]).get("notes") or {}
    notes["topology"] = {k: v for k, v in det.items() if k != "points"}
    store.update_run(runs[0], notes=notes)
    if as_json:
        print(topo.to_json(det, osr, runs))
    else:
        terminal.print_text(det, osr, runs)


@click.command("topology")
@click.option("--json", "as_json", is_flag=True, help="Detected and OS-reported values as JSON.")
@click.option(
    "--rounds",
    type=click.IntRange(1, 20),
    default=2,
    show_default=True,
    help="Rounds per sweep (each a process; the minimum over all samples is used).",
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
    help="Largest working set (e.g. 64M); default: the sweep, bounded by a quarter of the available memory.",
)
@click.option(
    "--from", "from_runs", multiple=True, metavar="RUN", help="Analyse stored run(s) instead of measuring (repeatable)."
)
@click.option("--no-refine", is_flag=True, help="Skip the second pass around the knees.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@target_option
@click.pass_context
def topology_cmd(ctx, as_json, rounds, samples, max_size, from_runs, no_refine, quiet):
    """Detect cache levels, line size and TLB reach from latency sweeps; compare with the OS."""
    command(ctx, as_json, rounds, samples, max_size, from_runs, not no_refine, quiet)
