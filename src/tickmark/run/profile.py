"""Profiling one benchmark instance, as a run: choose the sampler for the target, prepare the core
(a -pg build for gprof), check the run plan on it, run the instance under the sampler beside the
core (the target's runner: targets/profiling.py), read what the sampler recorded (profile/perf.py,
profile/gprof.py) into a profile, and store it through the run engine: with a run of its own
(measured under the sampler), or with a stored run of the same core.

    prof, inst, core = measure(target, variant, "cpu.stringsort", tool="auto")
    run_id = store_new(store, core, cfg, prof, inst)       # a run of its own
    store_with(store, run, prof, inst)                     # with a stored run (its median)

variant_of(run, ...) is the variant a stored run was built with (recorded by the engine), so that
`profile BENCH --run RUN` profiles the core that measured the run without being told again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, Union, cast

from .. import profile as prof
from ..analysis import stats
from ..base.errors import TickmarkError
from ..profile import gprof, perf
from ..targets import Variant
from .engine import Run, attach_profile
from .matrix import variant as make_variant

if TYPE_CHECKING:
    from ..base.shapes import Row
    from ..store import Store
    from ..targets.base import Core, Target
    from ..targets.local import LocalCore
    from ..targets.profiling import Instance, LocalRunner, SshRunner
    from .plan import RunConfig

    # where a sampler runs beside the core (targets/profiling.py)
    Runner = Union[LocalRunner, SshRunner]


class Progress(Protocol):
    """What a profile tells of its progress: the stage it is at and each of its STEPS done
    (report/progress.py's Progress, a layer above)."""

    def stage(self, what: str) -> None: ...

    def step(self) -> None: ...


def variant_of(run: Row, cc: str | None = None, cflags: str | None = None, memfn: str | None = None) -> Variant:
    """The variant to profile a stored run with: the one given, else the one the run recorded
    (its options' variant: compiler, flags, routine file) -> targets.Variant."""
    if cc or cflags or memfn:
        return make_variant(cc=cc, cflags=cflags, memfn=memfn)
    rec = (run.get("options") or {}).get("variant") or {}
    return make_variant(
        cc=rec.get("cc"), cflags=rec.get("cflags"), memfn=rec.get("memfn"), cross_compile=rec.get("cross_compile")
    )


def check_same_core(target: Target, variant: Variant, run: Row, given: bool) -> None:
    """The profile must describe the core that measured the run: the variant's binary is the
    run's (the same sources, compiler, flags and routines)."""
    sha = (target.prepare(variant).build or {}).get("binary_sha256")
    fp = run.get("fingerprint") or {}
    if sha == fp.get("binary_sha256"):
        return
    label = run["name"] or run["id"]
    if given:
        raise TickmarkError(
            f"run '{label}' was measured with another core ({fp.get('variant') or 'unknown variant'}); "
            "give the same --cc/--cflags/--memfn as that run, or none to use the run's own"
        )
    if not (run.get("options") or {}).get("variant") and fp.get("variant"):
        raise TickmarkError(
            f"run '{label}' does not record how its core ({fp['variant']}) was built: give its --cc/--cflags/--memfn"
        )
    raise TickmarkError(
        f"run '{label}' was measured with a core that cannot be built again the same way "
        f"({fp.get('variant') or 'unknown variant'}: its sources or routine file changed since)"
    )


def _remote_perf(target: Target) -> str | None:
    """None when perf runs on the SSH board (and here, to read its file), else why not."""
    target.connect()
    r = target.run_remote("perf --version >/dev/null 2>&1", timeout=60, check=False)
    if r.returncode != 0:
        return f"perf does not run on {target.uri}"
    here = perf.available()
    return f"{here} on this machine, to read the board's recording" if here else None


def choose_tool(tool: str, target: Target | None = None) -> str:
    """'perf' or 'gprof' for this target, or a TickmarkError saying in one line why neither works.
    Decided before anything is built (gprof needs its own -pg build)."""
    if target is not None and target.profiles is None:
        raise TickmarkError(
            f"profiles are not supported on {target.uri}: perf and gprof run only where the core is a "
            "process of this machine (local, qemu-user) or of an SSH board"
        )
    where = target.profiles if target is not None else "here"
    prebuilt = bool(target.prebuilt) if target is not None else False
    perf_why: str | None
    if target is not None and target.emulated:
        perf_why = "perf would sample the emulator, not the core (qemu-user)"
    elif target is not None and where == "remote":
        perf_why = _remote_perf(target)
    else:
        perf_why = perf.available()
    if tool == "perf" or (tool == "auto" and perf_why is None):
        if perf_why:
            raise TickmarkError(f"cannot profile with perf: {perf_why}")
        return "perf"
    if prebuilt:
        gprof_why = "gprof needs a core built from source with -pg (a prebuilt core was given)"
        if tool == "gprof":
            raise TickmarkError(f"cannot profile with gprof: {gprof_why}")
        raise TickmarkError(f"cannot profile here: {perf_why}, and {gprof_why}")
    return "gprof"


# the steps of a profile, as its progress counts them (report/progress.py)
STEPS = 3


def measure(
    target: Target,
    variant: Variant,
    pattern: str,
    params: Sequence[str] = (),
    tool: str = "auto",
    seconds: float | None = None,
    timeout: float | None = None,
    check: Callable[[Core], object] | None = None,
    progress: Progress | None = None,
) -> tuple[dict[str, Any], Instance, Core]:
    """Profile one instance on target -> (profile dict, Instance, the profiled Core).

    variant: a targets.Variant (cc, cflags, memfn); with gprof it is rebuilt with -pg. check: a
    function of the prepared core, called before the sampler runs (the run plan's checks).
    progress: told each of the STEPS (build, measure, read) as it starts and ends."""
    from dataclasses import replace

    tool = choose_tool(tool, target)
    seconds = seconds or prof.DEFAULT_SECONDS[tool]
    if progress:
        progress.stage("building the core" + (" with -pg (gprof)" if tool == "gprof" else ""))
    static = True
    if tool == "gprof":
        cflags = (variant.cflags or os.environ.get("CFLAGS") or "-O2") + " -pg"
        try:
            core = target.prepare(replace(variant, cflags=cflags, ldflags="-static"))
        except TickmarkError:  # no static C library: the libc's routines stay outside the histogram
            core = target.prepare(replace(variant, cflags=cflags))
            static = False
        build = core.build or {}
        prog = gprof.tool(build.get("cc"), build.get("cross_compile"), "gprof")
        why = gprof.available(prog)
        if why:
            raise TickmarkError(f"cannot profile with gprof: {why}")
    else:
        core = target.prepare(variant)
    if progress:
        progress.step()
    if check is not None:
        check(core)
    runner = core.profile_runner()
    if runner is None:  # a core the target cannot run a sampler beside
        raise TickmarkError(f"profiles are not supported on {target.uri}")
    try:
        return _profile(core, runner, tool, static, pattern, params, seconds, timeout, progress)
    finally:
        runner.close()


def _profile(
    core: Core,
    runner: Runner,
    tool: str,
    static: bool,
    pattern: str,
    params: Sequence[str],
    seconds: float,
    timeout: float | None,
    progress: Progress | None = None,
) -> tuple[dict[str, Any], Instance, Core]:
    build = core.build or {}
    binary = build["binary"]
    if not runner.remote:  # a core of this machine (a sampler runs beside it here): its command line
        argv = cast("LocalCore", core).argv
        if argv[-1] != binary:
            raise TickmarkError(f"a profile needs the core binary itself, not a command ('{' '.join(argv)}')")
    prof.check_symbols(binary)
    cc, cross = build.get("cc"), build.get("cross_compile")
    objdir = os.path.join(os.path.dirname(binary), "obj")
    core_names = gprof.core_symbols(objdir, gprof.tool(cc, cross, "nm")) if os.path.isdir(objdir) else set()

    sample_ms = max(1, int(seconds * 1000 / prof.SAMPLES))
    limit = int(timeout or max(60, seconds * 20))
    args = ["run", "--samples", str(prof.SAMPLES), "--sample-ms", str(sample_ms), "--timeout", str(limit)]
    for p in params:
        args += ["--param", p]
    pattern_args = ["--", pattern]  # last: never read as an option
    notes: list[str] = []
    totals = True
    t0 = time.monotonic()
    if progress:
        progress.stage(f"measuring {pattern} under {tool} ({seconds:g} s of samples)")
    if tool == "perf":
        user_only = runner.user_only()
        prog = "perf" if runner.remote else perf.program()
        inst = runner.run(perf.record_argv(runner.path("perf.data"), user_only, prog), args + pattern_args, limit + 60)
        _read_step(progress)
        data = runner.fetch("perf.data")
        if data is None:
            raise TickmarkError("perf record wrote no data")
        symfs = None
        if runner.remote:  # the host's copy of the binary, where perf on the board saw it
            symfs = os.path.join(os.path.dirname(data), "symfs")
            mirror = os.path.join(symfs, runner.binary_path.lstrip("/"))
            os.makedirs(os.path.dirname(mirror), exist_ok=True)
            os.symlink(os.path.abspath(binary), mirror)
        static_names = core_names if "-static" in (build.get("ldflags") or "") else None
        routines, hits, total, kernel, unknown_core, chained = perf.parse(
            perf.script(data, symfs), [runner.binary_path], static_names
        )
        event = f"{perf.event(user_only)} {perf.FREQ_HZ} Hz, DWARF call chains"
        kernel_note = "not sampled (perf_event_paranoid >= 2: user space only)" if user_only else "sampled"
        if runner.remote and not user_only:
            kernel_note += " (the board's kernel symbols are not read: kernel routines are unnamed)"
        if total and unknown_core / total > 0.5:
            raise TickmarkError(
                f"perf found no symbols for the core binary {binary} (stripped?): a profile cannot name its routines"
            )
        seconds_sampled = total / 1e9
        if hits and chained < hits / 2:  # perf 6.1 does not unwind static non-PIE binaries, for one
            totals = False
            notes.append("the call chains could not be unwound: totals are not known (shown as -)")
    else:
        inst = runner.run(gprof.wrap(runner.path("gmon")), args + ["--no-fork", *pattern_args], limit + 60)
        _read_step(progress)
        name = runner.glob("gmon.")
        gmon = runner.fetch(name) if name else None
        if gmon is None:
            raise TickmarkError("the -pg core wrote no gmon.out (did it exit normally?)")
        text = gprof.run_gprof(gprof.tool(cc, cross, "gprof"), binary, gmon)
        routines, hits, seconds_sampled, env_s = gprof.parse(text, core_names)
        total = seconds_sampled
        event = "gprof: ITIMER_PROF PC histogram, mcount call counts"
        kernel_note = "not separated (gprof charges kernel time to the calling address)"
        if not static:
            notes.append("dynamically linked: time in the shared C library is not sampled by gprof")
        if env_s:
            notes.append(f"left out: the runner's set-up ({env_s:.2f} s)")
    wall = time.monotonic() - t0
    if progress:
        progress.step()
    if not hits or not total:
        raise TickmarkError(f"the sampler caught no samples of {inst.key} (too short? try --seconds 5)")
    out = {
        "key": inst.key,
        "tool": tool,
        "event": event,
        "hits": hits,
        "seconds": round(seconds_sampled, 4),
        "wall_s": round(wall, 3),
        "requested_s": seconds,
        "unit": inst.meta.get("unit") or "op",
        "kernel": kernel_note,
        "binary_sha256": build.get("binary_sha256"),
        "notes": notes,
        "totals": totals,
        "routines": prof.keep(routines, total),
    }
    if hits < 100:
        out["notes"].append(f"only {hits} samples: shares below ~{100 / max(hits, 1):.0f} % are noise")
    return out, inst, core


def _read_step(progress: Progress | None) -> None:
    if progress:
        progress.step()
        progress.stage("reading the samples")


def store_new(store: Store, core: Core, cfg: RunConfig, profile: dict[str, Any], inst: Instance) -> int:
    """A run of its own for the profiled instance (its samples measured under the sampler), the
    profile kept with it -> run id."""
    run = Run(store, core, cfg, notes={"rounds": 1, "profiled": profile["tool"]})
    run_id = run.open(
        hello=inst.hello, options={"profile": {"tool": profile["tool"], "seconds": profile["requested_s"]}}
    )
    try:
        st = run.record(1, inst.key, inst.meta, inst.samples, end=inst.end)
        prof.attach_ns(profile, st.main.ns_per_op if st.main else None, "measured under the sampler")
        run.add_profile(inst.key, profile)
    except BaseException as e:
        run.close(e)
        raise
    run.close()
    return run_id


def store_with(store: Store, run: Row, profile: dict[str, Any], inst: Instance) -> None:
    """Keep the profile with a stored run, with the run's median time per operation (refused when
    the run holds a profile of this instance already: engine.attach_profile)."""
    label = run["name"] or run["id"]
    res = next((r for r in store.results(run["id"]) if r["key"] == inst.key), None)
    main = stats.Stats.of(res).main if res and res["status"] == "ok" else None
    ns = main.ns_per_op if main else None
    if ns is None:
        raise TickmarkError(f"run '{label}' has no result for {inst.key} to keep the profile with")
    prof.attach_ns(profile, ns, f"median of run {label}")
    if profile["tool"] == "gprof":
        profile["notes"].append("sampled on a -pg build of this run's variant")
    attach_profile(store, run, inst.key, profile)
