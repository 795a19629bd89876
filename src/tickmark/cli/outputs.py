"""What `matrix` and `exec` print at their end, through the formats table (report/formats.py)
like `compare`: the comparison of their runs (each against the first) in any format that writes
a comparison, or the one run's report when there is only one."""

import click

from ..base.errors import TickmarkError
from ..report import formats


def comparison_format_option(f):
    """--format of a command that ends with a comparison of its runs."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(formats.names("comparison", aliases=True)),
        default="terminal",
        show_default=True,
        help=formats.help_text("comparison") + " One run alone: its table, or its report in the other formats.",
    )(f)


def report_comparison(store, ids, fmt, what, runs_line, each=False, **extra):
    """Print the comparison of the runs `ids` (the first against each other) in format `fmt`, as
    `compare` does; one run: its table (terminal) or its report. `what` names the runs in the
    message when they cannot be compared; runs_line ('A = 1, B = 2', or None) follows a terminal table;
    each: in the terminal, each run's own table before the comparison (exec's commands); extra:
    fields added to the comparison document (matrix's failed builds)."""
    from ..report.model import build, comparison
    from ..store.refs import run_compare

    refs = [str(i) for i in ids]
    terminal = formats.reporter(fmt, "comparison").name == "terminal"
    text = None
    if len(refs) == 1:
        if terminal:
            from ..report import terminal as report

            report.show(store, store.run(refs[0]))
        else:
            text = formats.render(fmt, "report", build(store, refs, with_compare=False))
    elif len(refs) > 1:
        if terminal and each:
            from ..report import terminal as report

            for ref in refs:  # each one's own table, then how they compare
                report.show(store, store.run(ref))
        try:
            sides, pairs = run_compare(store, refs)
        except TickmarkError as e:  # nothing in common (every benchmark failed somewhere): the reasons follow
            click.echo(f"tickmark: the {what} are not compared: {e}", err=True)
            return
        text = formats.render(fmt, "comparison", dict(comparison(sides, pairs), **extra))
    if text is not None:
        click.echo(text, nl=False)
    if terminal and runs_line:
        click.echo("runs: " + runs_line)
