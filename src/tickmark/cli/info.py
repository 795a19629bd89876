"""`tickmark suites`, `tickmark list` and `tickmark info`: what there is to run, and the target."""

import json

import click

from ..base.errors import TickmarkError
from ..base.suites import SUITES
from .options import hello_of, prepare_core, target_option


@click.command("suites")
def suites_cmd():
    """List the named suites and their patterns."""
    from ..report.console import console, wrap_words

    width = console().width
    for name in sorted(SUITES):
        for line in wrap_words(" ".join(SUITES[name]), width, f"{name:<12}  ", " " * 14):
            click.echo(line)


@click.command("list")
@click.argument("patterns", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the bench records as JSON.")
@target_option
@click.pass_context
def list_cmd(ctx, patterns, as_json):
    """List the benchmarks of the core."""
    from rich.table import Table
    from rich.text import Text

    from ..run.plan import check_patterns

    benches = check_patterns(prepare_core(ctx), patterns)
    if as_json:
        click.echo(json.dumps(benches, indent=1))
        return
    from ..base.fmt import fmt_sweep
    from ..report.console import console, print_table

    con = console()
    t = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    t.add_column("name", no_wrap=True)
    t.add_column("unit", no_wrap=True)
    t.add_column("summary and parameters", ratio=1, min_width=24)
    t.add_column("supported", max_width=24)
    for b in benches:
        params = ", ".join(f"{p['name']}={fmt_sweep(p['sweep'])}" for p in b.get("params", []))
        text = Text(b.get("summary", ""))
        if params:
            text.append("\n" + params, style="dim")
        sup = "yes" if b.get("supported", 1) else f"skip: {b.get('reason', '')}"
        t.add_row(b["name"], b.get("unit", ""), text, sup)
    print_table(con, t)


@click.command("info")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@target_option
@click.pass_context
def info_cmd(ctx, as_json):
    """The target (this machine by default): fingerprint and what it supports."""
    from ..base.names import printable

    core = prepare_core(ctx)
    hello = hello_of(core)
    limits = core.target.process_limits()  # asked of the target itself (its shell), not of this machine
    silent = f"{core.target.uri} did not answer: no hello record came from tickmark-core"
    try:
        fp = core.fingerprint(hello)
    except TickmarkError as e:  # the target says why it cannot be asked (a console without a shell)
        raise TickmarkError(f"{silent}; {e}" if not hello else str(e)) from None
    if not hello and limits is None:  # no core that answered, no shell to ask: nothing is known
        raise TickmarkError(f"{silent} (is the board running it, and is this its console?)")
    for k in ("rt_priority", "affinity"):
        if limits and limits[k] is not None:
            fp[k] = limits[k]
    unknown = "unknown (the target has no shell to ask)" if limits is None else "unknown (the target did not say)"
    if as_json:
        click.echo(json.dumps(fp, indent=1, sort_keys=True))
        return
    lines = info_lines(fp, unknown)
    from ..report.console import console, wrap_words

    w, width = max(len(k) for k, _ in lines), console().width
    for k, v in lines:  # a long value wraps under itself
        for line in wrap_words(printable(v), width, f"{k:<{w}}  ", " " * (w + 2)):
            click.echo(line)


def info_lines(fp, unknown="unknown"):
    """What `tickmark info` prints of a fingerprint: the machine in words (machine.lines, the same
    words as a run's header and the report), then what the target lets a process do and the
    flags every result would carry -> [(what, text)]."""
    from ..facts.words import lines

    out = [tuple(line) for line in lines(fp)]
    out.append(
        (
            "real-time prio",
            ("yes" if fp["rt_priority"]["allowed"] else "no") + f" ({fp['rt_priority']['why']})"
            if "rt_priority" in fp
            else unknown,
        )
    )
    out.append(
        (
            "CPU affinity",
            (f"yes, CPUs {fp['affinity']['cpus']}" if fp["affinity"]["available"] else "no")
            if "affinity" in fp
            else unknown,
        )
    )
    out.append(("flags", ", ".join(map(str, fp.get("flags") or [])) or "none"))
    return out
