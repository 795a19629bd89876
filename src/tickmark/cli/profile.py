"""The `tickmark profile` command: profile one instance (stored as a run of its own, or with an
existing run built the same way), or show how two profiled runs differ."""

import fnmatch
import re

import click

from ..errors import TickmarkError
from ..names import check_name
from ..profile import TOOLS
from .options import store_for_refs, store_of, target_of, target_option

_PARAM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=[0-9]+[KMGkmg]?")


def _finite(value, option):
    """A float option that is a number (click's FloatRange lets NaN through: it compares false)."""
    import math

    if value is not None and not math.isfinite(value):
        raise TickmarkError(f"bad {option} {value}: a number of seconds in 0.2..120")
    return value


@click.command("profile")
@target_option
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
    help="Keep the profile with this stored run instead (built with the same --cc/--cflags/--memfn); "
    "its measured time per operation is used.",
)
@click.option("--top", type=click.IntRange(1, 1000), help="Routines shown (default 15; with --diff, changes shown: 8).")
@click.pass_context
def profile_cmd(ctx, bench, diff_refs, params, tool, seconds, cc, cflags, memfn, name, run_ref, top):
    """Profile one benchmark instance: the routines its time goes to (core, libc, kernel, other).

    tickmark profile cpu.stringsort [--memfn FILE] [--name N | --run RUN]
    tickmark profile --diff A B [BENCH]    the routines that changed most between two profiled runs"""
    if diff_refs:
        if any(x is not None for x in (cc, cflags, memfn, name, run_ref)) or params:
            raise TickmarkError("--diff compares stored profiles; it takes no build, --name, --run or --param options")
        return _diff(ctx, diff_refs, bench, top)
    if not bench:
        raise TickmarkError("name a benchmark to profile (tickmark profile cpu.stringsort), or --diff A B")
    for p in params:
        if not _PARAM.fullmatch(p):
            raise TickmarkError(f"bad --param '{p}' (a profile takes one point: NAME=V)")
    if name is not None:
        check_name(name)
    if name and run_ref:
        raise TickmarkError("give --name (a new run) or --run (an existing one), not both")
    store = store_of(ctx)
    if name and store.name_taken(name):
        raise TickmarkError(f"a run named '{name}' exists already (choose another --name)")
    run = store.run(run_ref) if run_ref else None
    _profile(ctx, store, bench, params, tool, seconds, dict(cc=cc, cflags=cflags, memfn=memfn), name, run, top)


def _profile(ctx, store, bench, params, tool, seconds, variant, name, run, top):
    from .. import profile as prof_mod
    from ..analysis import stats
    from ..report.terminal import profile as view
    from ..run.engine import Run, RunConfig
    from ..targets import Variant

    variant = Variant(**variant)
    if ctx.find_root().obj.get("core") and any((variant.cc, variant.cflags, variant.memfn)):
        raise TickmarkError("--cc/--cflags/--memfn build a core; a prebuilt core was given (--core)")
    target = target_of(ctx)
    if run is not None:  # the profile must describe the core that measured the run
        sha = (target.prepare(variant).build or {}).get("binary_sha256")
        if sha != (run.get("fingerprint") or {}).get("binary_sha256"):
            raise TickmarkError(
                f"run '{run['name'] or run['id']}' was measured with another core "
                f"({(run.get('fingerprint') or {}).get('variant') or 'unknown variant'}); "
                "give the same --cc/--cflags/--memfn as that run"
            )
    prof, inst, core = prof_mod.profile(target, variant, bench, params, tool, seconds)
    key = inst.key
    meta = inst.meta
    if run is not None:
        res = next((r for r in store.results(run["id"]) if r["key"] == key), None)
        main = stats.Stats.of(res).main if res and res["status"] == "ok" else None
        ns = main.ns_per_op if main else None
        if ns is None:
            raise TickmarkError(f"run '{run['name'] or run['id']}' has no result for {key} to keep the profile with")
        prof_mod.attach_ns(prof, ns, f"median of run {run['name'] or run['id']}")
        if prof["tool"] == "gprof":
            prof["notes"].append("sampled on a -pg build of this run's variant")
        with store.transaction():
            store.add_profile(run["id"], key, prof)
        run_id = run["id"]
    else:  # a run of its own: the instance measured under the sampler, stored by the run engine
        cfg = RunConfig(
            patterns=[bench], rounds=1, max_rounds=1, samples=prof_mod.SAMPLES, params=list(params), name=name
        )
        run = Run(store, core, cfg, notes={"rounds": 1, "profiled": prof["tool"]})
        run.open(hello=inst.hello, options={"profile": {"tool": prof["tool"], "seconds": prof["requested_s"]}})
        try:
            st = run.record(1, key, meta, inst.samples, end=inst.end)
            prof_mod.attach_ns(prof, st.main.ns_per_op if st.main else None, "measured under the sampler")
            with store.transaction():
                store.add_profile(run.run_id, key, prof)
        except BaseException as e:
            run.close(e)
            raise
        run.close()
        run_id = run.run_id
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
        keys = [k for k in keys if fnmatch.fnmatchcase(k, bench) or fnmatch.fnmatchcase(k.split("[")[0], bench)]
    if not keys:
        raise TickmarkError(
            f"no benchmark is profiled in both {A.label} ({', '.join(sorted(A.profiles))}) "
            f"and {B.label} ({', '.join(sorted(B.profiles))})"
        )
    for i, k in enumerate(keys):
        if i:
            click.echo()
        view.show_diff(A.profiles[k], B.profiles[k], A.label, B.label, top=top or 8)
