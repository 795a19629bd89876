"""`tickmark report`: stored runs as one HTML page, Markdown or JSON (the report model)."""

import click

from ..report import formats
from .options import check_output, emit, store_of


@click.command("report")
@click.argument("runs", nargs=-1, metavar="[RUN...]")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="File to write (default: stdout). Its extension picks the format when --format is not given.",
)
@click.option("--format", "fmt", type=click.Choice(formats.names("report")), help=formats.help_text("report"))
@click.pass_context
def report_cmd(ctx, runs, output, fmt):
    """A report of stored runs (latest by default): one HTML file, Markdown or JSON.

    With two runs or more, the first is compared with each other."""
    check_output(ctx, output)
    write_report(store_of(ctx, readonly=True), list(runs) or ["latest"], output, fmt)


def write_report(store, refs, output, fmt=None):
    """Render the report of runs refs to output (stdout when None); the format from fmt or the
    output's extension (html by default)."""
    from ..report import model

    fmt = fmt or formats.from_extension(output, "report", "html")
    text = formats.render(fmt, "report", model.build(store, refs))
    emit(output, text, fmt)
