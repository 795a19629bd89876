"""`tickmark profile`: run one benchmark instance under a sampler and name the routines its time
goes to, grouped as the core's own code, the C library, the kernel and other; and the difference
between two such profiles.

Samplers: Linux `perf record` (cpu-clock, DWARF call chains; see perf.py) and gprof on a `-pg`
build (gprof.py). Symbols are resolved on the host from the unstripped core binary.
"""

import os
import struct
import subprocess
import tempfile
import time

from ..errors import TickmarkError
from . import gprof, perf
from .model import GROUPS, describe, diff, group_shares, top_change  # noqa: F401

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
def choose_tool(tool, prebuilt, core=None):
    """'perf' or 'gprof' for this core, or a TickmarkError saying in one line why neither works.

    core: the prepared core (None: this machine, natively)."""
    from ..targets.local import LocalCore

    if core is not None and not isinstance(core, LocalCore):
        raise TickmarkError(
            f"profiles are not supported on {core.target.uri}: perf and gprof run only where tickmark "
            "starts the core as a process of this machine (local, qemu-user)"
        )
    emulated = core is not None and core.emulated
    perf_why = "perf would sample the emulator, not the core (qemu-user)" if emulated else perf.available()
    if tool == "perf" or (tool == "auto" and perf_why is None):
        if perf_why:
            raise TickmarkError(f"cannot profile with perf: {perf_why}")
        return "perf"
    build = (core.build if core is not None else None) or {}
    gprof_why = (
        "gprof needs a core built from source with -pg (a prebuilt core was given)"
        if prebuilt
        else gprof.available(gprof.tool(build.get("cc"), build.get("cross_compile"), "gprof"))
    )
    if gprof_why:
        if tool == "gprof":
            raise TickmarkError(f"cannot profile with gprof: {gprof_why}")
        raise TickmarkError(f"cannot profile here: {perf_why}, and {gprof_why}")
    return "gprof"


# ---------------------------------------------------------------- one profiled instance
class Instance:
    """What the core reported while it ran under the sampler."""

    def __init__(self):
        self.hello, self.meta, self.samples, self.end = {}, {}, [], None
        self.key = None


def _run_core(argv, cwd, timeout):
    """Run the (wrapped) core, parse its records; stop it at once if the pattern selects more
    than one instance."""
    from ..tm1 import Parser

    inst, parser = Instance(), Parser()
    err = tempfile.TemporaryFile(mode="w+")
    try:
        proc = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=err,
            stdin=subprocess.DEVNULL,
            cwd=cwd,
            text=True,
            bufsize=1,
            errors="replace",
        )
    except OSError as e:
        raise TickmarkError(f"cannot start {argv[0]}: {e.strerror}")
    deadline = time.monotonic() + timeout
    too_many = None
    try:
        for line in proc.stdout:
            rec = parser.feed_line(line)
            if rec is None:
                continue
            t = rec.get("t")
            if t == "hello":
                inst.hello = rec
                order = rec.get("order") or []
                if len(order) != 1:
                    too_many = order
                    break
                inst.key = order[0]
            elif t == "meta":
                inst.meta = rec
            elif t == "sample":
                inst.samples.append(rec)
            elif t == "end":
                inst.end = rec
            if time.monotonic() > deadline:
                break
    finally:
        if proc.poll() is None and (too_many is not None or time.monotonic() > deadline):
            proc.terminate()
        try:
            proc.wait(timeout=max(5.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    err.seek(0)
    errlines = [x for x in err.read().strip().splitlines() if x.strip()]
    err.close()
    if too_many is not None:
        shown = ", ".join(too_many[:4]) + (" ..." if len(too_many) > 4 else "")
        raise TickmarkError(
            f"a profile takes one benchmark instance; this selects {len(too_many)} "
            f"({shown}): give one key or --param with one value"
        )
    if proc.returncode == 2 and not inst.hello:
        raise TickmarkError(f"tickmark-core refused the run: {errlines[-1] if errlines else 'bad usage'}")
    if inst.end is None:
        how = f"exit status {proc.returncode}" if proc.returncode >= 0 else f"signal {-proc.returncode}"
        last = errlines[-1] if errlines else "no end record"
        raise TickmarkError(f"the profiled run did not finish ({how}): {last}")
    if inst.end.get("status") != "ok":
        why = inst.end.get("reason") or "no reason given"
        raise TickmarkError(f"{inst.key}: {inst.end.get('status')} under the profiler: {why}")
    return inst


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


def profile(target, variant, pattern, params=(), tool="auto", seconds=2.0, timeout=None):
    """Profile one instance on target -> (profile dict, Instance, the profiled Core).

    variant: a targets.Variant (cc, cflags, memfn); with gprof it is rebuilt with -pg."""
    from dataclasses import replace

    core = target.prepare(variant)
    prebuilt = bool((core.build or {}).get("prebuilt"))
    tool = choose_tool(tool, prebuilt, core)
    static = True
    if tool == "gprof":
        cflags = (variant.cflags or os.environ.get("CFLAGS") or "-O2") + " -pg"
        try:
            core = target.prepare(replace(variant, cflags=cflags, ldflags="-static"))
        except TickmarkError:  # no static C library: the libc's routines stay outside the histogram
            core = target.prepare(replace(variant, cflags=cflags))
            static = False
    build = core.build or {}
    binary = build["binary"]
    if core.argv[-1] != binary:
        raise TickmarkError(f"a profile needs the core binary itself, not a command ('{' '.join(core.argv)}')")
    check_symbols(binary)

    sample_ms = max(1, int(seconds * 1000 / SAMPLES))
    limit = int(timeout or max(60, seconds * 20))
    args = ["run", pattern, "--samples", str(SAMPLES), "--sample-ms", str(sample_ms), "--timeout", str(limit)]
    for p in params:
        args += ["--param", p]
    notes = []
    with tempfile.TemporaryDirectory(prefix="tickmark-profile-") as work:
        t0 = time.monotonic()
        if tool == "perf":
            user_only = perf.user_only_needed()
            data = os.path.join(work, "perf.data")
            inst = _run_core(perf.record_argv(data, user_only) + core.argv + args, work, limit + 60)
            if not os.path.isfile(data):
                raise TickmarkError("perf record wrote no data")
            routines, hits, total, kernel, unknown_core = perf.parse(perf.script(data), [binary])
            event = f"{perf.event(user_only)} {perf.FREQ_HZ} Hz, DWARF call chains"
            kernel_note = "not sampled (perf_event_paranoid >= 2: user space only)" if user_only else "sampled"
            if total and unknown_core / total > 0.5:
                raise TickmarkError(
                    f"perf found no symbols for the core binary {binary} (stripped?): "
                    "a profile cannot name its routines"
                )
            seconds_sampled = total / 1e9
        else:
            inst = _run_core(gprof.wrap(work) + core.argv + args + ["--no-fork"], work, limit + 60)
            gmon = gprof.gmon_file(work)
            if gmon is None:
                raise TickmarkError("the -pg core wrote no gmon.out (did it exit normally?)")
            cc, cross = build.get("cc"), build.get("cross_compile")
            names = gprof.core_symbols(os.path.join(os.path.dirname(binary), "obj"), gprof.tool(cc, cross, "nm"))
            text = gprof.run_gprof(gprof.tool(cc, cross, "gprof"), binary, gmon)
            routines, hits, seconds_sampled, env_s = gprof.parse(text, names)
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
        "unit": inst.meta.get("unit") or "op",
        "kernel": kernel_note,
        "binary_sha256": build.get("binary_sha256"),
        "notes": notes,
        "routines": _keep(routines, total),
    }
    if hits < 100:
        prof["notes"].append(f"only {hits} samples: shares below ~{100 / max(hits, 1):.0f} % are noise")
    return prof, inst, core


def attach_ns(prof, ns_per_op, source):
    prof["ns_per_op"] = ns_per_op
    prof["ns_source"] = source
    return prof
