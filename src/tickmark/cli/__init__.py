"""The `tickmark` command line. Every error is one line `tickmark: error: ...` and exit status 2."""

import json
import os
import re
import shutil
import sys

import click

from . import __version__
from .clicommon import (
    add_store_option,
    check_patterns,
    hello_of,
    prepare_core,
    round_options,
    store_of,
    target_of,
    target_option,
)
from .errors import TickmarkError
from .names import check_name, printable
from .suites import SUITES, patterns_for

_PARAM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=[0-9]+[KMGkmg]?(,[0-9]+[KMGkmg]?)*")
MAX_SWEEP = 64  # values per parameter (the core's TM_MAX_SWEEP)
_SUFFIX = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def _clip(text, n=60):
    return text if len(text) <= n else text[: n - 3] + "..."


def check_params(params):
    """--param NAME=V[,V...]: integers (K/M/G suffixes) that fit 64 bits, at most MAX_SWEEP different
    values, each NAME once; a one-line error naming the first problem."""
    seen = set()
    for p in params:
        if not _PARAM.fullmatch(p):
            raise TickmarkError(f"bad --param '{_clip(p)}' (expected NAME=V[,V...] with integers, e.g. size=4K,64K)")
        name, _, vals = p.partition("=")
        if name in seen:
            raise TickmarkError(f"--param {name} given twice (list every value in one: {name}=A,B)")
        seen.add(name)
        values = vals.split(",")
        if len(values) > MAX_SWEEP:
            raise TickmarkError(f"--param {name}: {len(values)} values; at most {MAX_SWEEP} per parameter")
        got = {}
        for v in values:
            digits = v.rstrip("KMGkmg")
            n = int(digits) * _SUFFIX[v[-1].lower() if v[-1].isalpha() else ""] if len(digits) <= 20 else 2**64
            if n > 2**63 - 1:
                raise TickmarkError(f"--param {name}: value {_clip(v, 30)} is too large (at most 2^63-1)")
            if n in got:
                raise TickmarkError(f"--param {name}: value {_clip(v, 30)} is the same as {got[n]} (a point runs once)")
            got[n] = v


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    "store_path",
    envvar="TICKMARK_STORE",
    type=click.Path(dir_okay=False),
    help="Result store: an SQLite file (default: ~/.local/share/tickmark/results.db) "
    "or a postgresql://USER@HOST/DB URL (a team's shared store).",
)
@click.option(
    "--core", envvar="TICKMARK_CORE", hidden=True, help="Use this prebuilt tickmark-core instead of building one."
)
@click.version_option(__version__, prog_name="tickmark")
@click.pass_context
def cli(ctx, store_path, core):
    """tickmark: OS and processor performance evaluation."""
    ctx.obj = {"store_path": store_path, "store": None, "core": core, "target_uri": None, "target": None}


@cli.command()
@click.argument("patterns", nargs=-1)
@click.option("--suite", help=f"Named suite ({', '.join(sorted(SUITES))}).")
@click.option("--rounds", type=click.IntRange(1, 100), default=3, show_default=True, help="Rounds (processes).")
@round_options
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), help="Seed of the benchmark orders.")
@click.option("--name", help="Name of the run (unique).")
@click.option("--cc", help="C compiler for the core.")
@click.option("--cflags", help="CFLAGS for the core (default -O2).")
@click.option("--memfn", type=click.Path(dir_okay=False), help="C/asm file with tm_user_mem* routines.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@target_option
@click.pass_context
def run(
    ctx, patterns, suite, rounds, max_rounds, samples, sample_ms, seed, params, timeout, name, cc, cflags, memfn, quiet
):
    """Run benchmarks (patterns or a suite; default suite: default)."""
    from . import report
    from .hostrun import HostRun, Progress, RunConfig, TransportLost

    check_params(params)
    if max_rounds < rounds:
        max_rounds = rounds
    if patterns and suite:
        raise TickmarkError("give patterns or --suite, not both")
    pats = list(patterns) if patterns else patterns_for(suite or "default")
    suite = None if patterns else (suite or "default")
    if name is not None:
        check_name(name)
    store = store_of(ctx)
    if name and store.name_taken(name):
        raise TickmarkError(f"a run named '{name}' exists already (choose another --name)")
    core = prepare_core(ctx, cc, cflags, memfn)
    if not core.target.reruns:  # a console without a shell: the board runs what it was built to run
        rounds = max_rounds = 1
        if not patterns:
            pats, suite = [], None
        click.echo(
            f"tickmark: {core.target.uri} cannot take new arguments: one round per start, with "
            "the board's own arguments; start (or reset) the board now",
            err=True,
        )
    chosen = check_patterns(core, pats) if core.target.reruns else []
    for p in params:
        pname = p.split("=", 1)[0]
        if not any(pname == d.get("name") for b in chosen for d in b.get("params", [])):
            raise TickmarkError(f"--param {pname}: no selected benchmark has a parameter '{pname}'")
    cfg = RunConfig(
        patterns=pats,
        rounds=rounds,
        max_rounds=max_rounds,
        samples=samples,
        sample_ms=sample_ms,
        seed=seed,
        params=list(params),
        timeout=timeout,
        name=name,
        suite=suite,
    )
    hr = HostRun(store, core, cfg)
    try:
        with Progress(rounds, enabled=False if quiet else None) as prog:
            hr.progress = prog
            run_id = hr.execute()
    except KeyboardInterrupt:
        if hr.run_id is not None:
            report.show(store, store.run(hr.run_id))
        click.echo("tickmark: interrupted; the finished instances are stored", err=True)
        sys.exit(130)
    except TransportLost as e:
        report.show(store, store.run(hr.run_id))
        raise TickmarkError(f"{e}; the finished instances are stored (run {hr.run_id}, incomplete)")
    report.show(store, store.run(run_id))
    if any(p.startswith("memfn") for p in pats):
        from . import memfnview

        memfnview.show(store.results(run_id))
    if any(p.startswith("mem.") for p in pats):  # the bandwidth table, when there are mem.bw_* results
        from . import bwtable

        bwtable.show(store.results(run_id), store.run(run_id))
    done = store.run(run_id)
    if done["status"] != "complete":
        why = (done.get("notes") or {}).get("incomplete") or "not every instance finished"
        click.echo(f"tickmark: run {run_id} is incomplete: {printable(why)}", err=True)
        raise click.exceptions.Exit(1)


@cli.command()
@click.argument("patterns", nargs=-1)
@click.option("--suite", help=f"Named suite ({', '.join(sorted(SUITES))}).")
@click.option(
    "--cc",
    "ccs",
    multiple=True,
    metavar="CC[,CC...]",
    help="Compiler axis: names, full paths or cross prefixes (aarch64-linux-gnu-); repeatable.",
)
@click.option("--cflags", "cflags_list", multiple=True, metavar="FLAGS", help="Flag-set axis; repeatable.")
@click.option(
    "--memfn",
    "memfns",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="Routine-file axis (a libc cell is added); repeatable.",
)
@click.option("--rounds", type=click.IntRange(1, 100), default=3, show_default=True, help="Rounds per variant.")
@round_options
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), help="Seed of the variant and benchmark orders.")
@click.option("--name", help="Prefix of the run names (NAME-<variant>).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="Format of the final comparison.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
@target_option
@click.pass_context
def matrix(
    ctx,
    patterns,
    suite,
    ccs,
    cflags_list,
    memfns,
    rounds,
    max_rounds,
    samples,
    sample_ms,
    seed,
    params,
    timeout,
    name,
    fmt,
    quiet,
):
    """Build variants (compiler x flags x routines), run them interleaved, compare them.

    Exit status 1 when a variant failed to build (the others are still run and compared)."""
    from . import compare as cmp
    from . import matrix as mx
    from .hostrun import RunConfig

    check_params(params)
    if patterns and suite:
        raise TickmarkError("give patterns or --suite, not both")
    if name is not None:
        check_name(name)
    ccs = [c.strip() for cc in ccs for c in cc.split(",") if c.strip()]
    for m in memfns:
        if not os.path.isfile(m):
            raise TickmarkError(f"memfn file {m} does not exist")
    cells = mx.cells(ccs, cflags_list, memfns)
    if len(cells) < 2:
        raise TickmarkError("a matrix needs two variants at least (give --cc, --cflags or --memfn more than once)")
    pats = list(patterns) if patterns else patterns_for(suite or "default")
    echo = mx.stderr_echo(quiet)
    store = store_of(ctx)
    mx.build_all(target_of(ctx), cells, echo)
    built = [c for c in cells if c.core is not None]
    failed = [c for c in cells if c.core is None]
    if not built:
        raise TickmarkError(f"no variant could be built ({failed[0].label}: {failed[0].error})")
    check_patterns(built[0].core, pats)
    cfg = RunConfig(
        patterns=pats,
        rounds=rounds,
        max_rounds=max(max_rounds, rounds),
        samples=samples,
        sample_ms=sample_ms,
        seed=seed,
        params=list(params),
        timeout=timeout,
        suite=None if patterns else (suite or "default"),
    )
    m = mx.Matrix(store, built, cfg, name=name, echo=echo)
    try:
        ids = m.execute()
    except KeyboardInterrupt:
        click.echo("tickmark: interrupted; the finished instances are stored", err=True)
        sys.exit(130)
    refs = [str(i) for i in ids]
    if len(refs) >= 2:
        sides, pairs = cmp.run_compare(store, refs)
        if fmt == "json":
            click.echo(
                json.dumps(
                    dict(
                        cmp.to_json(sides, pairs),
                        failed_builds=[{"variant": c.label, "error": c.error} for c in failed],
                    ),
                    indent=1,
                    sort_keys=True,
                )
            )
        else:
            cmp.render(sides, pairs)
    elif fmt == "table":
        from . import report

        report.show(store, store.run(refs[0]))
    if fmt == "table":
        click.echo("runs: " + ", ".join(f"{c.label} = {c.run.run_id}" for c in built))
    for c in failed:
        click.echo(f"tickmark: variant '{c.label}' failed to build: {c.error}", err=True)
    if failed:
        sys.exit(1)


@cli.command("campaign")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--status", "status_only", is_flag=True, help="Show the cells and which are stored; run nothing.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
@click.option(
    "--report",
    "report_path",
    type=click.Path(dir_okay=False),
    help="Also write a report of the stored cells, baseline target first (HTML; .md or .json by extension).",
)
@click.pass_context
def campaign_cmd(ctx, file, status_only, quiet, report_path):
    """Run a campaign file: targets x variants x workloads, resumable (see README).

    Targets run in parallel, one cell at a time on each. Exit status 1 when a cell failed or
    could not run (start it again to run only those), 130 when interrupted."""
    import signal
    import threading

    from . import campaign as cp
    from .hostrun import _on_signal

    spec = cp.load(file)
    store = store_of(ctx)
    root = ctx.find_root().obj
    camp = cp.Campaign(
        spec,
        root["store_path"],
        echo=(lambda m: None) if quiet else (lambda m: click.echo(f"campaign: {m}", err=True)),
        prebuilt=root.get("core"),
    )
    cp.mark_finished(store, spec, camp.cells)
    if status_only:
        cp.summary(store, spec, camp.cells)
        return
    skipped = sum(c.state == "finished" for c in camp.cells)
    if skipped and not quiet:
        rest = "nothing to run" if skipped == len(camp.cells) else "running the others"
        click.echo(f"campaign: {skipped} of {len(camp.cells)} cells are stored complete; {rest}", err=True)
    old = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            old[sig] = signal.signal(sig, _on_signal)
    try:
        camp.execute()
    except KeyboardInterrupt:
        cp.summary(store, spec, camp.cells)
        click.echo("tickmark: interrupted; finished cells are stored, start the campaign again to resume", err=True)
        ctx.exit(130)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    counts = cp.summary(store, spec, camp.cells)
    if report_path:
        refs = cp.report_order(spec, camp.cells)
        if refs:
            write_report(store, refs, report_path)
    if set(counts) - {"done", "finished"}:
        click.echo("tickmark: some cells did not finish; start the campaign again to run only those", err=True)
        ctx.exit(1)


@cli.command()
def suites():
    """List the named suites and their patterns."""
    for name in sorted(SUITES):
        click.echo(f"{name:<12}  {' '.join(SUITES[name])}")


@cli.command("list")
@click.argument("patterns", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the bench records as JSON.")
@target_option
@click.pass_context
def list_cmd(ctx, patterns, as_json):
    """List the benchmarks of the core."""
    from rich.table import Table
    from rich.text import Text

    benches = check_patterns(prepare_core(ctx), patterns)
    if as_json:
        click.echo(json.dumps(benches, indent=1))
        return
    from .fmt import console, fit_table, fmt_sweep

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
    fit_table(con, t)
    con.print(t)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@target_option
@click.pass_context
def info(ctx, as_json):
    """The target (this machine by default): fingerprint and what it supports."""
    from . import fingerprint

    core = prepare_core(ctx)
    hello = hello_of(core)
    fp = core.fingerprint(hello)
    if fp.get("target_uri") == "local":
        fp["rt_priority"] = fingerprint.rt_priority()
        fp["affinity"] = fingerprint.affinity()
    if as_json:
        click.echo(json.dumps(fp, indent=1, sort_keys=True))
        return
    par = fp.get("perf_event_paranoid")
    lines = [
        (
            "CPU",
            f"{fp['cpu_model']} ({fp['arch']}, {fp['cpus_online']} online)"
            + (f", board {fp['board']}" if fp.get("board") else ""),
        ),
        ("caches", ", ".join(f"L{c['level']} {c['type']} {c['size']}" for c in fp["caches"]) or "unknown"),
        ("OS", f"{fp['os']}, kernel {fp['kernel']}, {fp.get('libc') or 'libc unknown'}"),
        ("compiler", f"{fp.get('compiler') or '?'} {fp.get('cflags') or ''}".strip()),
        (
            "target",
            f"{fp.get('target_uri')} (driven from {fp.get('host')})"
            + (", emulated: not for timing claims" if fp.get("emulated") else ""),
        ),
        ("core binary", fp.get("binary_sha256") or "?"),
        (
            "timer",
            f"{fp.get('clock') or '?'} res {fp.get('clock_res_ns', '?')} ns, overhead "
            f"{(fp.get('timer_overhead_ps') or 0) / 1000:.1f} ns, ticks {fp.get('ticks') or '?'}",
        ),
        ("cycles", f"{fp.get('cycles_method') or 'none'} (fcore {(fp.get('fcore_khz') or 0) / 1000:.0f} MHz)"),
        ("counters", f"{fp.get('counters') or 'none'}; perf_event_paranoid={par if par is not None else '?'}"),
        ("not supported", hello.get("counters_unsupported") or "-"),
        (
            "real-time prio",
            ("yes" if fp["rt_priority"]["allowed"] else "no") + f" ({fp['rt_priority']['why']})"
            if "rt_priority" in fp
            else "unknown (not this machine)",
        ),
        (
            "CPU affinity",
            (f"yes, CPUs {fp['affinity']['cpus']}" if fp["affinity"]["available"] else "no")
            if "affinity" in fp
            else "unknown (not this machine)",
        ),
        ("frequency", f"governor {fp.get('governor') or 'unknown'}, boost {fp.get('boost')}"),
        ("virtualization", fp.get("virtualization")),
        ("memory", f"page {fp.get('page_size')} B, THP {fp.get('thp')}"),
        ("clocksource", fp.get("clocksource")),
        ("loadavg", fp.get("loadavg")),
        ("flags", ", ".join(fp["flags"]) or "none"),
    ]
    w = max(len(k) for k, _ in lines)
    for k, v in lines:
        click.echo(f"{k:<{w}}  {v}")


@cli.command()
@click.argument("run_ref", default="latest", metavar="[RUN]")
@click.option(
    "--counters",
    "with_counters",
    is_flag=True,
    help="Also the counter-derived figures (IPC, stalls, misses, task-clock, context switches, page faults per op).",
)
@click.option(
    "--beside",
    metavar="RUN",
    help="Another run (e.g. the rtos-study suite on bare metal) "
    "shown in columns of its own beside this one in the rtos-study view.",
)
@click.pass_context
def show(ctx, run_ref, with_counters, beside):
    """Show a stored run (latest by default; id or name)."""
    from . import report

    store = store_of(ctx, readonly=True)
    run_ = store.run(run_ref)
    report.show(store, run_, beside=store.run(beside) if beside else None)
    if with_counters:
        from . import counters

        counters.show(store, run_)
    profiles = store.profiles(run_["id"])
    if profiles:
        import io
        import textwrap

        from .fmt import PIPE_WIDTH, width
        from .profile import view

        w = width() or shutil.get_terminal_size((PIPE_WIDTH, 24)).columns
        for key in sorted(profiles):
            buf = io.StringIO()
            view.show(profiles[key], file=buf)
            click.echo()
            for line in buf.getvalue().splitlines():  # the terminal's width, as every table
                click.echo(textwrap.fill(line, w, subsequent_indent="    ", drop_whitespace=False) if line else "")


@cli.command()
@click.pass_context
def runs(ctx):
    """List the stored runs."""
    from . import names

    store = store_of(ctx, readonly=True)
    rows = store.runs()
    if not rows:
        click.echo("no runs stored yet")
        return
    for r in rows:
        when = names.when(r["started"])
        what = r["suite"] and f"suite {r['suite']}" or " ".join(map(str, r["patterns"]))
        variant = (r.get("fingerprint") or {}).get("variant")
        if variant:
            what += f"  [{variant}]"
        click.echo(
            printable(
                f"{r['id']:>4}  {when}  {r['status']:<10}  {r['n_results']:>4} results  {r['name'] or '-':<16}  {what}"
            )
        )


@cli.command("export")
@click.argument("run_ref", metavar="RUN")
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File to write (default: stdout).")
@click.pass_context
def export_cmd(ctx, run_ref, fmt, output):
    """Export a run (id, name or latest) as JSON or CSV."""
    from . import export

    store = store_of(ctx, readonly=True)
    run_ = store.run(run_ref)
    text = export.to_json(store, run_) if fmt == "json" else export.to_csv(store, run_)
    if output:
        try:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise TickmarkError(f"cannot write {output}: {e.strerror}")
    else:
        click.echo(text, nl=False)


@cli.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.pass_context
def import_cmd(ctx, file):
    """Import a run exported as JSON (it gets a new id)."""
    from . import export

    doc = export.read_document(file)
    store = store_of(ctx)
    rid = export.import_document(store, doc)
    name = store.run(rid)["name"]
    click.echo(f"imported as run {rid}" + (f" '{printable(name)}'" if name else ""))


@cli.command()
@click.argument("runs", nargs=-1, metavar="RUN_A RUN_B [RUN_C...]")
@click.option("--baseline", metavar="RUN", help="Compare every RUN against this run.")
@click.option(
    "--fail-above",
    metavar="PCT",
    help="Exit 1 if a benchmark is significantly slower than the baseline by more than this (e.g. 5%).",
)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--no-counters", is_flag=True, help="Leave out the counter table.")
@click.pass_context
def compare(ctx, runs, baseline, fail_above, fmt, no_counters):
    """Compare runs (id, name, latest, or an exported JSON file): B/A ratio, CI, p, verdict.

    The first run (or --baseline) is A; each other run is compared against it."""
    from . import compare as cmp

    threshold = cmp.parse_threshold(fail_above) if fail_above is not None else None
    if threshold is not None and baseline is None and len(runs) < 2:
        raise TickmarkError("--fail-above needs a baseline (--baseline RUN) and a run to check")
    needs_store = not all(cmp.is_file_ref(r) for r in runs + ((baseline,) if baseline else ()))
    store = store_of(ctx, readonly=True) if needs_store else None
    sides, pairs = cmp.run_compare(store, list(runs), baseline)
    for s in sides:
        status = s.run.get("status")
        if status != "complete":
            click.echo(
                f"tickmark: warning: {s.label} is {status}"
                f"{' (still being written)' if status == 'running' else ' (interrupted; some results missing)'}",
                err=True,
            )
    if fmt == "json":
        click.echo(json.dumps(cmp.to_json(sides, pairs), indent=1, sort_keys=True))
    else:
        cmp.render(sides, pairs, show_counters=not no_counters)
    if threshold is not None:
        bad = [(B.label, r, slow) for (A, B), res in pairs for r, slow in cmp.regressions(res, threshold)]
        if bad:
            worst = ", ".join(
                f"{r['key']}{' ' + r['metric'] if r['metric'] else ''} +{slow * 100:.1f}%"
                for _, r, slow in sorted(bad, key=lambda x: -x[2])[:5]
            )
            click.echo(
                f"tickmark: {len(bad)} regression(s) above {threshold * 100:g}% against {sides[0].label}: {worst}",
                err=True,
            )
            sys.exit(1)
        click.echo(f"tickmark: no regression above {threshold * 100:g}% against {sides[0].label}", err=True)


@cli.command("report")
@click.argument("runs", nargs=-1, metavar="[RUN...]")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="File to write (default: stdout). Its extension picks the format when --format is not given.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["html", "md", "json"]),
    help="html: one self-contained page with plots; md: Markdown; json: the report model.",
)
@click.pass_context
def report_cmd(ctx, runs, output, fmt):
    """A report of stored runs (latest by default): one HTML file, Markdown or JSON.

    With two runs or more, the first is compared with each other."""
    write_report(store_of(ctx), list(runs) or ["latest"], output, fmt)


def write_report(store, refs, output, fmt=None):
    """Render the report of runs refs to output (stdout when None); the format from fmt or the
    output's extension (html by default)."""
    from . import model, views

    if fmt is None:
        ext = os.path.splitext(output or "")[1].lower()
        fmt = {".md": "md", ".markdown": "md", ".json": "json"}.get(ext, "html")
    text = views.RENDER[fmt](model.build(store, refs))
    if output:
        try:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise TickmarkError(f"cannot write {output}: {e.strerror}")
        click.echo(f"tickmark: wrote {output} ({len(text.encode()) // 1024} KiB, {fmt})", err=True)
    else:
        click.echo(text, nl=False)


from .bwtable import bandwidth_cmd  # noqa: E402
from .ingest import ingest_cmd  # noqa: E402
from .memfnview import memfn_cmd  # noqa: E402
from .profile.command import profile_cmd  # noqa: E402
from .topology import topology_cmd  # noqa: E402

cli.add_command(topology_cmd)
cli.add_command(memfn_cmd)
cli.add_command(bandwidth_cmd)
cli.add_command(profile_cmd)
cli.add_command(ingest_cmd)


# `--store` is accepted after the subcommand too (tickmark run --store X): every command gets it
for _cmd in cli.commands.values():
    add_store_option(_cmd)


def _error(msg, detail=""):
    """One line `tickmark: error: ...` (control characters escaped, at most 400 characters), then
    any detail lines (e.g. compiler output), escaped as well."""
    msg = " ".join(printable(msg).split()) if msg else "unknown error"
    if len(msg) > 400:
        msg = msg[:397] + "..."
    click.echo(f"tickmark: error: {msg}", err=True)
    if detail:
        click.echo("\n".join(printable(line) for line in str(detail).splitlines()), err=True)
    return 2


def _interrupted(e):
    click.echo(f"tickmark: {getattr(e, 'message', None) or 'interrupted'}", err=True)
    return 130


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        if not args:
            click.echo(cli.get_help(click.Context(cli, info_name="tickmark")))
            return 0
        rv = cli.main(args=args, prog_name="tickmark", standalone_mode=False)
        return rv if isinstance(rv, int) and not isinstance(rv, bool) else 0  # ctx.exit(N) -> N
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.exceptions.Abort as e:
        return _interrupted(e.__cause__)
    except click.ClickException as e:
        return _error(e.format_message())
    except TickmarkError as e:
        return _error(str(e), e.detail)
    except KeyboardInterrupt as e:
        return _interrupted(e)
    except BrokenPipeError:
        return 0
    finally:
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
