"""`tickmark suites`, `tickmark list` and `tickmark info`: what there is to run, and the target."""

import json

import click

from ..errors import TickmarkError
from ..suites import SUITES
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
    from ..fmt import fmt_sweep
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
    from ..fmt import known
    from ..names import printable
    from ..report.model import where

    core = prepare_core(ctx)
    hello = hello_of(core)
    limits = core.target.process_limits()  # asked of the target itself (its shell), not of this machine
    if not hello and limits is None:  # no core that answered, no shell to ask: nothing is known
        raise TickmarkError(
            f"{core.target.uri} did not answer: no hello record came from tickmark-core (is the board "
            "running it, and is this its console?)"
        )
    fp = core.fingerprint(hello)
    for k in ("rt_priority", "affinity"):
        if limits and limits[k] is not None:
            fp[k] = limits[k]
    unknown = "unknown (the target has no shell to ask)" if limits is None else "unknown (the target did not say)"
    if as_json:
        click.echo(json.dumps(fp, indent=1, sort_keys=True))
        return
    par = fp.get("perf_event_paranoid")
    lines = [
        (
            "CPU",
            f"{known(fp.get('cpu_model'))} ({known(fp.get('arch'))}, {known(fp.get('cpus_online'), '?')} online)"
            + (f", board {fp['board']}" if fp.get("board") else ""),
        ),
        (
            "caches",
            ", ".join(f"L{c.get('level')} {c.get('type')} {c.get('size')}" for c in fp.get("caches") or [])
            or "unknown",
        ),
        ("OS", f"{known(fp.get('os'))}, kernel {known(fp.get('kernel'))}, {known(fp.get('libc'), 'libc unknown')}"),
        ("compiler", f"{known(fp.get('compiler'), '?')} {known(fp.get('cflags'), '')}".strip()),
        (
            "target",
            where(fp) + (", emulated: not for timing claims" if fp.get("emulated") else ""),
        ),
        ("core binary", known(fp.get("binary_sha256"), "?")),
        ("core links", f"{known(fp.get('linkage'), '?')}, C library {known(fp.get('core_libc'), '?')}"),
        (
            "timer",
            f"{known(fp.get('clock'), '?')} res {known(fp.get('clock_res_ns'), '?')} ns, overhead "
            f"{(fp.get('timer_overhead_ps') or 0) / 1000:.1f} ns, ticks {known(fp.get('ticks'), '?')}",
        ),
        ("cycles", f"{fp.get('cycles_method') or 'none'} (fcore {(fp.get('fcore_khz') or 0) / 1000:.0f} MHz)"),
        ("counters", f"{known(fp.get('counters'), 'none')}; perf_event_paranoid={known(par, '?')}"),
        ("not supported", known(hello.get("counters_unsupported"), "-")),
        (
            "real-time prio",
            ("yes" if fp["rt_priority"]["allowed"] else "no") + f" ({fp['rt_priority']['why']})"
            if "rt_priority" in fp
            else unknown,
        ),
        (
            "CPU affinity",
            (f"yes, CPUs {fp['affinity']['cpus']}" if fp["affinity"]["available"] else "no")
            if "affinity" in fp
            else unknown,
        ),
        ("frequency", f"governor {known(fp.get('governor'))}, boost {known(fp.get('boost'))}"),
        ("virtualization", known(fp.get("virtualization"))),
        ("memory", f"page {known(fp.get('page_size'), '?')} B, THP {known(fp.get('thp'))}"),
        ("clocksource", known(fp.get("clocksource"))),
        ("loadavg", known(fp.get("loadavg"))),
        ("flags", ", ".join(map(str, fp.get("flags") or [])) or "none"),
    ]
    from ..report.console import console, wrap_words

    w, width = max(len(k) for k, _ in lines), console().width
    for k, v in lines:  # a long value wraps under itself
        for line in wrap_words(printable(v), width, f"{k:<{w}}  ", " " * (w + 2)):
            click.echo(line)
