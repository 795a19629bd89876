"""`tickmark bandwidth` and `tickmark memfn`: the memory family's tables of a stored run."""

import click

from ..base.errors import TickmarkError
from ..report.terminal import memory
from .options import store_of


@click.command("bandwidth")
@click.argument("run_ref", default="latest", metavar="[RUN]")
@click.pass_context
def bandwidth_cmd(ctx, run_ref):
    """The mem.bw_* figures of a stored run as one table: size, cache level, MB/s per method."""
    store = store_of(ctx, readonly=True)
    run = store.run(run_ref)
    if not memory.show_bandwidth(store.results(run["id"]), run, store=store):
        raise TickmarkError(f"run {run['id']} has no mem.bw_* results (tickmark run 'mem.bw_*' measures them)")


@click.command("memfn")
@click.argument("run_ref", default="latest", metavar="[RUN]")
@click.pass_context
def memfn_cmd(ctx, run_ref):
    """Compare the memfn.* implementations of a stored run: winner per routine and size."""
    store = store_of(ctx, readonly=True)
    run = store.run(run_ref)
    results = store.results(run["id"])
    if not any(r["bench"].startswith("memfn.") for r in results):
        raise TickmarkError(f"run {run['id']} has no memfn.* results (tickmark run 'memfn.*' measures them)")
    memory.show_memfn(results, lambda r: store.samples(r["id"]))
