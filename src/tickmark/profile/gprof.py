"""gprof: a `-pg` build of the core, linked statically so that the C library's routines fall inside
the sampled text, run with --no-fork (gmon.out is written when the process exits normally, and
the instance's child process leaves with _exit), read back with gprof on the host.

gprof samples the program counter 100 times a second (ITIMER_PROF); time in the kernel is
charged to the user address that made the call. The runner's environment measurement, which
runs in the same process with --no-fork, is left out of the shares through the call graph.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

from ..base.errors import TickmarkError
from . import hosttool
from .model import routine_name

_FIX = "apt-get install binutils"
ENV_ROOT = "tm_env_measure"  # the runner's set-up before the instance, not part of the operation


def tool(cc, cross_compile, name):
    """The binutils program for this compiler: aarch64-linux-gnu-gprof for a cross gcc."""
    if cross_compile:
        return cross_compile + name
    first = os.path.basename((cc or "cc").split()[0])
    m = re.fullmatch(r"(.+-)(gcc|cc|clang)(-[\d.]+)?", first)
    return (m.group(1) + name) if m else name


def available(prog):
    return None if shutil.which(prog) else f"{prog} is not installed ({_FIX})"


def wrap(prefix):
    """glibc writes PREFIX.<pid> instead of ./gmon.out when GMON_OUT_PREFIX is set."""
    return ["env", f"GMON_OUT_PREFIX={prefix}"]


def core_symbols(objdir, nm):
    """Names defined by the core's own object files (everything else in a static binary is the
    C library or the compiler's runtime)."""
    objs = [str(p) for p in Path(objdir).rglob("*.o")]
    if not objs:
        return set()
    try:
        r = subprocess.run([nm, "--defined-only", "-P", *objs], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise TickmarkError(f"cannot start {nm}: {e.strerror} ({_FIX})")
    names = set()
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and not line.endswith(":") and parts[1] in "TtWw":
            names.add(parts[0])
    return names


def run_gprof(prog, binary, gmon):
    return hosttool.output([prog, "-b", "-p", "-q", binary, gmon], 120, fix=_FIX)


_SAMPLE = re.compile(r"Each sample counts as ([\d.]+) seconds")
# [idx] %time self children [called[+self]] name [idx]
_PRIMARY = re.compile(r"^\[\d+\]\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+(?:[\d+]+\s+)?(\S.*?)\s+\[\d+\]$")
_FLAT = re.compile(r"^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(?:(\d+)(?:\+\d+)?\s+([\d.]+)\s+([\d.]+)\s+)?(\S.*?)\s*$")


def parse(text, core_names):
    """gprof -b -p -q text -> (routines, hits, total_s, left_out_s).

    routines: name -> {"symbols", "group", "dso", "self", "total", "calls"} in seconds over the
    instance; total_s: the instance's sampled seconds; left_out_s: the runner's set-up."""
    flat_part, _, graph_part = text.partition("Call graph")
    graph_part = graph_part.split("Index by function name")[0]
    m = _SAMPLE.search(flat_part)
    per_hit = float(m.group(1)) if m else 0.01
    flat = {}
    in_table = False
    for line in flat_part.splitlines():
        if line.strip().startswith("time") and "name" in line:
            in_table = True
            continue
        if not in_table or not line.strip():
            continue
        m = _FLAT.match(line)
        if m:
            flat[m.group(7)] = (float(m.group(3)), int(m.group(4)) if m.group(4) else None)

    graph = {}  # name -> (self_s, children_s, parents)
    for block in graph_part.split("-----------------------------------------------"):
        parents, primary = [], None
        for line in block.splitlines():
            s = line.strip()
            if not s or s.startswith("index") or s.startswith("granularity") or s == "Call graph":
                continue
            m = _PRIMARY.match(s)
            if m:
                primary = (m.group(3), float(m.group(1)), float(m.group(2)))
                continue
            if primary is None:
                if s == "<spontaneous>":
                    continue
                name = re.sub(r"\s*\[\d+\]$", "", s).split()[-1]
                parents.append(name)
        if primary and not primary[0].startswith("<cycle"):
            graph[primary[0]] = (primary[1], primary[2], parents)

    # The runner's set-up and what only it calls.
    left_out = set()
    if ENV_ROOT in graph:
        left_out.add(ENV_ROOT)
        changed = True
        while changed:
            changed = False
            for name, (_s, _c, parents) in graph.items():
                if name not in left_out and parents and all(p in left_out for p in parents):
                    left_out.add(name)
                    changed = True
    env_s = sum(graph[ENV_ROOT][:2]) if ENV_ROOT in graph else 0.0
    all_s = sum(s for s, _ in flat.values())
    total_s = max(all_s - env_s, 0.0)

    routines = {}
    for sym, (self_s, calls) in flat.items():
        if sym in left_out:
            continue
        group = "core" if sym in core_names else "libc"
        name = routine_name(sym, group)
        tot = sum(graph[sym][:2]) if sym in graph else self_s
        r = routines.setdefault(
            name, {"symbols": [], "group": group, "dso": "", "self": 0.0, "total": 0.0, "calls": None}
        )
        r["symbols"].append(sym)
        r["self"] += self_s
        r["total"] = max(r["total"], tot)
        if calls is not None:
            r["calls"] = (r["calls"] or 0) + calls
    hits = int(round(total_s / per_hit)) if per_hit else 0
    return routines, hits, total_s, env_s
