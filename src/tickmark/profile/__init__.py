"""`tickmark profile`: run one benchmark instance under a sampler and name the routines its time
goes to, grouped as the core's own code, the C library, the kernel and other; and the difference
between two such profiles.

Samplers: Linux `perf record` (cpu-clock, DWARF call chains; see perf.py) and gprof on a `-pg`
build (gprof.py). Symbols are resolved on the host from the unstripped core binary.
"""

import os
import struct
import time

from ..errors import TickmarkError
from . import gprof, perf

TOOLS = ("auto", "perf", "gprof")
SAMPLES = 10  # samples of the instance, each seconds/SAMPLES long
KEEP_SELF = 0.001  # routines kept in a stored profile: self share at least 0.1 % ...
KEEP_TOTAL = 0.01  # ... or total share at least 1 %
KEEP_MAX = 60


# ---------------------------------------------------------------- symbols of the binary
def has_symtab(path):
    """Does this ELF file have a symbol table (.symtab)? False for a stripped binary."""
    try:
        with open(path, "rb") as f:
            ident = f.read(16)
            if ident[:4] != b"\x7fELF":
                raise TickmarkError(f"{path} is not an ELF executable; profiles read ELF binaries only")
            is64, end = ident[4] == 2, "<" if ident[5] == 1 else ">"
            hdr = f.read(48 if is64 else 36)
            if is64:
                (shoff,) = struct.unpack(end + "Q", hdr[24:32])
                shentsize, shnum = struct.unpack(end + "HH", hdr[42:46])
            else:
                (shoff,) = struct.unpack(end + "I", hdr[16:20])
                shentsize, shnum = struct.unpack(end + "HH", hdr[30:34])
            for i in range(shnum):
                f.seek(shoff + i * shentsize + 4)
                (sh_type,) = struct.unpack(end + "I", f.read(4))
                if sh_type == 2:  # SHT_SYMTAB
                    return True
    except (OSError, struct.error) as e:
        raise TickmarkError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}")
    return False


def check_symbols(binary):
    if not has_symtab(binary):
        raise TickmarkError(
            f"the core binary {binary} is stripped (no symbol table): a profile cannot "
            "name its routines; profile an unstripped build"
        )


# ---------------------------------------------------------------- choosing the sampler
def _remote_perf(target):
    """None when perf runs on the SSH board (and here, to read its file), else why not."""
    target.connect()
    r = target.run_remote("perf --version >/dev/null 2>&1", timeout=60, check=False)
    if r.returncode != 0:
        return f"perf does not run on {target.uri}"
    here = perf.available()
    return f"{here} on this machine, to read the board's recording" if here else None


def choose_tool(tool, target=None):
    """'perf' or 'gprof' for this target, or a TickmarkError saying in one line why neither works.
    Decided before anything is built (gprof needs its own -pg build)."""
    where = target.profiles if target is not None else "here"
    if where is None:
        raise TickmarkError(
            f"profiles are not supported on {target.uri}: perf and gprof run only where the core is a "
            "process of this machine (local, qemu-user) or of an SSH board"
        )
    prebuilt = bool(target.prebuilt) if target is not None else False
    if target is not None and target.emulated:
        perf_why = "perf would sample the emulator, not the core (qemu-user)"
    elif where == "remote":
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


# ---------------------------------------------------------------- one profiled instance
def _keep(routines, total):
    rows = []
    for name, r in routines.items():
        self_f, tot_f = r["self"] / total, r["total"] / total
        if self_f >= KEEP_SELF or tot_f >= KEEP_TOTAL:
            row = {
                "name": name,
                "symbols": r["symbols"],
                "group": r["group"],
                "dso": r.get("dso", ""),
                "self": round(self_f, 6),
                "total": round(min(1.0, max(tot_f, self_f)), 6),
            }
            if r.get("calls") is not None:
                row["calls"] = r["calls"]
            rows.append(row)
    rows.sort(key=lambda x: (-x["self"], -x["total"], x["name"]))
    return rows[:KEEP_MAX]


DEFAULT_SECONDS = {"perf": 1.0, "gprof": 2.0}  # gprof samples at 100 Hz, perf here at 1999 Hz


def profile(target, variant, pattern, params=(), tool="auto", seconds=None, timeout=None):
    """Profile one instance on target -> (profile dict, Instance, the profiled Core).

    variant: a targets.Variant (cc, cflags, memfn); with gprof it is rebuilt with -pg."""
    from dataclasses import replace

    tool = choose_tool(tool, target)
    seconds = seconds or DEFAULT_SECONDS[tool]
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
    runner = core.profile_runner()
    if runner is None:  # a core the target cannot run a sampler beside
        raise TickmarkError(f"profiles are not supported on {target.uri}")
    try:
        return _profile(core, runner, tool, static, pattern, params, seconds, timeout)
    finally:
        runner.close()


def _profile(core, runner, tool, static, pattern, params, seconds, timeout):
    build = core.build or {}
    binary = build["binary"]
    if not runner.remote and core.argv[-1] != binary:
        raise TickmarkError(f"a profile needs the core binary itself, not a command ('{' '.join(core.argv)}')")
    check_symbols(binary)
    cc, cross = build.get("cc"), build.get("cross_compile")
    objdir = os.path.join(os.path.dirname(binary), "obj")
    core_names = gprof.core_symbols(objdir, gprof.tool(cc, cross, "nm")) if os.path.isdir(objdir) else set()

    sample_ms = max(1, int(seconds * 1000 / SAMPLES))
    limit = int(timeout or max(60, seconds * 20))
    args = ["run", "--samples", str(SAMPLES), "--sample-ms", str(sample_ms), "--timeout", str(limit)]
    for p in params:
        args += ["--param", p]
    pattern_args = ["--", pattern]  # last: never read as an option
    notes = []
    totals = True
    t0 = time.monotonic()
    if tool == "perf":
        user_only = runner.user_only()
        prog = "perf" if runner.remote else perf.program()
        inst = runner.run(perf.record_argv(runner.path("perf.data"), user_only, prog), args + pattern_args, limit + 60)
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
    if not hits or not total:
        raise TickmarkError(f"the sampler caught no samples of {inst.key} (too short? try --seconds 5)")
    prof = {
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
        "routines": _keep(routines, total),
    }
    if hits < 100:
        prof["notes"].append(f"only {hits} samples: shares below ~{100 / max(hits, 1):.0f} % are noise")
    return prof, inst, core


def attach_ns(prof, ns_per_op, source):
    prof["ns_per_op"] = ns_per_op
    prof["ns_source"] = source
    return prof
