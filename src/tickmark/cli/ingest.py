"""`tickmark ingest FILE|-`: store the runs found in a captured console log."""

import os
import sys

import click

from ..base.errors import TickmarkError
from ..base.names import check_name, printable
from ..run.ingest import ingest
from .options import store_of


def _echo(line):
    """What ingest says about the log (its lines may hold anything): escaped."""
    click.echo(printable(line))


@click.command("ingest")
@click.argument("file", metavar="FILE|-")
@click.option("--name", help="Name of the stored run (several runs: NAME, NAME-2, ...).")
@click.pass_context
def ingest_cmd(ctx, file, name):
    """Store the runs found in a captured console log (a file, or - for standard input)."""
    if name is not None:
        check_name(name)
    store = store_of(ctx)
    if file == "-":
        ids = ingest(store, sys.stdin.buffer, "stdin", name, echo=_echo)
    elif os.path.isdir(file):
        raise TickmarkError(f"{file} is a directory, not a log file")
    else:
        try:
            with open(file, "rb") as f:
                ids = ingest(store, f, os.path.basename(file), name, echo=_echo)
        except OSError as e:
            raise TickmarkError(f"cannot read {file}: {e.strerror}")
    if any(store.run(str(i))["status"] != "complete" for i in ids):  # stored, but not whole: exit 1
        raise click.exceptions.Exit(1)
