"""The `tickmark profile` command: profile one instance (stored as a run of its own, or with an
existing run built the same way), or show how two profiled runs differ."""

import click

from ..base.errors import TickmarkError
from ..base.names import printable
from ..base.patterns import matches
from ..profile import TOOLS
from .options import store_for_refs, store_of, target_of, target_option


def _finite(value, option):
    """A float option that is a number (click's FloatRange lets NaN through: it compares false)."""
    import math

    if value is not None and not math.isfinite(value):
        raise TickmarkError(f"bad {option} {value}: a number of seconds in 0.2..120")
    return value


@click.command("profile")
@target_option(kind="profile_usage", boots=False)  # where a sampler runs
@click.argument("bench", required=False, metavar="BENCH")
@click.option(
    "--diff",
    "diff_refs",
    nargs=2,
    metavar="A B",
    help="Compare the profiles of two runs (id, name, or an exported JSON file).",
)
@click.option("--param", "params", multiple=True, metavar="NAME=V", help="Pick one point of a parameter sweep.")
@click.option(
    "--tool",
    type=click.Choice(TOOLS),
    default="auto",
    show_default=True,
    help="Sampler: perf (Linux), gprof (a -pg build), or the first that works here.",
)
@click.option(
    "--seconds",
    type=click.FloatRange(0.2, 120),
    callback=lambda ctx, param, v: _finite(v, "--seconds"),
    help="Length of the profiled instance's samples, together (default: 1 with perf, 2 with gprof).",
)
@click.option("--cc", help="C compiler for the core.")
@click.option("--cflags", help="CFLAGS for the core (default -O2).")
@click.option("--memfn", type=click.Path(dir_okay=False), help="C/asm file with tm_user_mem* routines.")
@click.option("--name", help="Name of the run that keeps the profile (unique).")
@click.option(
    "--run",
    "run_ref",
    metavar="RUN",
    help="Keep the profile with this stored run instead (its core is built again as the run recorded it); "
    "its measured time per operation is used.",
)
@click.option("--top", type=click.IntRange(1, 1000), help="Routines shown (default 15; with --diff, changes shown: 8).")
@click.option("--quiet", "-q", is_flag=True, help="No progress (a bar on a terminal, lines in a pipe).")
@click.pass_context
def profile_cmd(ctx, bench, diff_refs, params, tool, seconds, cc, cflags, memfn, name, run_ref, top, quiet):
    """Profile one benchmark instance: the routines its time goes to (core, libc, kernel, other).

    \b
    tickmark profile cpu.stringsort [--name N | --run RUN]
    tickmark profile --diff A B [BENCH]

    With --diff: the routines that changed most between two profiled runs."""
    if diff_refs:
        opt = next((r for r in diff_refs if r.startswith("-")), None)
        if opt is not None:
            raise TickmarkError(
                f"--diff takes two runs (--diff A B); '{printable(opt)[:40]}' is an option: "
                "give the options before --diff or after both runs"
            )
        if any(x is not None for x in (cc, cflags, memfn, name, run_ref)) or params:
            raise TickmarkError("--diff compares stored profiles; it takes no build, --name, --run or --param options")
        return _diff(ctx, diff_refs, bench, top)
    if not bench:
        raise TickmarkError("name a benchmark to profile (tickmark profile cpu.stringsort), or --diff A B")
    from ..profile import SAMPLES
    from ..run.plan import Plan

    plan = Plan([bench], rounds=1, max_rounds=1, samples=SAMPLES, params=params, one_point=True, names=[name])
    if name and run_ref:
        raise TickmarkError("give --name (a new run) or --run (an existing one), not both")
    if ctx.find_root().obj.get("core") and any((cc, cflags, memfn)):
        raise TickmarkError("--cc/--cflags/--memfn build a core; a prebuilt core was given (--core)")
    store = store_of(ctx)
    plan.check_store(store)
    run = store.run(run_ref) if run_ref else None
    _profile(ctx, store, plan, tool, seconds, dict(cc=cc, cflags=cflags, memfn=memfn), name, run, top, quiet)


def _profile(ctx, store, plan, tool, seconds, given, name, run, top, quiet):
    from ..report.progress import Progress
    from ..report.terminal import profile as view
    from ..run import profile as runprof
    from ..run.engine import check_no_profile
    from ..targets import Variant

    target = target_of(ctx)
    bench = plan.patterns[0]
    if run is not None:  # the profile must describe the core that measured the run: its own variant
        variant = runprof.variant_of(run, **given)
        check_no_profile(store, run, bench)  # a key given: known before the sampler runs (else when stored)
        runprof.check_same_core(target, variant, run, any(given.values()))
    else:
        variant = Variant(**given)
    cfg = []
    with Progress(quiet=quiet, unit="steps", estimate=False) as progress:
        progress.add(runprof.STEPS)
        prof, inst, core = runprof.measure(
            target,
            variant,
            bench,
            [p.text for p in plan.params],
            tool,
            seconds,
            check=lambda c: cfg.append(plan.config(c, name)),
            progress=progress,
        )
    if run is not None:
        runprof.store_with(store, run, prof, inst)
        run_id = run["id"]
    else:  # a run of its own: the instance measured under the sampler, stored by the run engine
        run_id = runprof.store_new(store, core, cfg[0], prof, inst)
    view.show(prof, top=top or 15)
    label = store.run(run_id)["name"] or run_id
    click.echo(f"profile stored with run {label} (tickmark show {label}; tickmark profile --diff A B)")


def _diff(ctx, refs, bench, top):
    from ..report.terminal import profile as view
    from ..store import refs as run_refs

    store = store_for_refs(ctx, refs)
    A, B = (run_refs.load(store, r) for r in refs)
    for side in (A, B):
        if not side.profiles:
            raise TickmarkError(f"{side.label} has no profile (tickmark profile BENCH --run {side.ref} makes one)")
    keys = sorted(set(A.profiles) & set(B.profiles))
    if bench:
        keys = [k for k in keys if matches(k, bench) or matches(k.split("[")[0], bench)]
    if not keys:
        raise TickmarkError(
            f"no benchmark is profiled in both {A.label} ({', '.join(sorted(A.profiles))}) "
            f"and {B.label} ({', '.join(sorted(B.profiles))})"
        )
    for i, k in enumerate(keys):
        if i:
            click.echo()
        view.show_diff(A.profiles[k], B.profiles[k], A.label, B.label, top=top or 8)
