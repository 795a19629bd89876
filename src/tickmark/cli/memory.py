"""`tickmark bandwidth` and `tickmark memfn`: the memory family's tables of a stored run."""

import click

from ..errors import TickmarkError
from ..report.terminal import memory
from .options import store_of


@click.command("bandwidth")
@click.argument("run_ref", default="latest", metavar="[RUN]")
@click.pass_context
def bandwidth_cmd(ctx, run_ref):
    """The mem.bw_* figures of a stored run as one table: size, cache level, MB/s per method."""
    store = store_of(ctx)
    run = store.run(run_ref)
    if not memory.show_bandwidth(store.results(run["id"]), run):
        raise TickmarkError(f"run {run['id']} has no mem.bw_* results")


@click.command("memfn")
@click.argument("run_ref", default="latest", metavar="[RUN]")
@click.pass_context
def memfn_cmd(ctx, run_ref):
    """Compare the memfn.* implementations of a stored run: winner per routine and size."""
    store = store_of(ctx)
    memory.show_memfn(store.results(store.run(run_ref)["id"]), lambda r: store.samples(r["id"]))
