"""`tickmark export` and `tickmark import`: a run as a JSON document (with its raw samples) or CSV."""

import click

from ..names import printable
from .options import store_of, write_file


@click.command("export")
@click.argument("run_ref", metavar="RUN")
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File to write (default: stdout).")
@click.pass_context
def export_cmd(ctx, run_ref, fmt, output):
    """Export a run (id, name or latest) as JSON or CSV."""
    from ..store import document as export

    store = store_of(ctx, readonly=True)
    run_ = store.run(run_ref)
    text = export.to_json(store, run_) if fmt == "json" else export.to_csv(store, run_)
    if output:
        write_file(output, text)
    else:
        click.echo(text, nl=False)


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.pass_context
def import_cmd(ctx, file):
    """Import a run exported as JSON (it gets a new id)."""
    from ..store import document as export

    doc = export.read_document(file)
    store = store_of(ctx)
    rid = export.import_document(store, doc)
    name = store.run(rid)["name"]
    click.echo(f"imported as run {rid}" + (f" '{printable(name)}'" if name else ""))
