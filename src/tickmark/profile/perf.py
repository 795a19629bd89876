"""Linux `perf record` with the cpu-clock software event (no PMU needed) and DWARF call chains,
read back on the host with `perf script` against the unstripped core binary.

Only the samples of the benchmark instance's own process (and whatever it forks) are counted:
the runner that starts it (its environment measurement, its record output) is left out, so a
share is a share of the operation's time.
"""

import os
import re
import shutil
import subprocess

from . import hosttool
from .model import dso_group, routine_name

FREQ_HZ = 1999
STACK_BYTES = 4096  # user stack copied per sample for the DWARF unwinder: enough for the core's call depth
_FIX = "apt-get install linux-perf"


def program():
    """The perf program (TICKMARK_PERF overrides the name)."""
    return os.environ.get("TICKMARK_PERF") or "perf"


def available():
    """None when perf can be used on this host, else why not (one line)."""
    p = program()
    if not shutil.which(p):
        return f"perf is not installed ({_FIX})"
    try:
        r = subprocess.run([p, "--version"], capture_output=True, text=True, timeout=30)
    except OSError as e:
        return f"perf cannot be started: {e.strerror}"
    except subprocess.TimeoutExpired:
        return "perf --version did not answer in 30 s"
    if r.returncode != 0:
        # Debian's /usr/bin/perf is a wrapper that fails when no perf matches the running kernel
        last = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
        return f"perf does not run here: {last}"
    return None


def event(user_only):
    return "cpu-clock:u" if user_only else "cpu-clock"


def user_only_needed():
    """Kernel samples need perf_event_paranoid <= 1 (or root)."""
    if os.geteuid() == 0:
        return False
    try:
        with open("/proc/sys/kernel/perf_event_paranoid") as f:
            return int(f.read().strip()) >= 2
    except (OSError, ValueError):
        return True


def record_argv(data_path, user_only, prog=None):
    return [
        prog or program(),
        "record",
        "-q",
        "-e",
        event(user_only),
        "-F",
        str(FREQ_HZ),
        "--call-graph",
        f"dwarf,{STACK_BYTES}",
        "-o",
        data_path,
        "--",
    ]


def script(data_path, symfs=None, timeout=120):
    """`perf script` text of a recording (call chains, task events)."""
    argv = [
        program(),
        "script",
        "-i",
        data_path,
        "-F",
        "pid,tid,period,ip,sym,dso",
        "--show-task-events",
        "--no-inline",
    ]
    if symfs:
        argv += ["--symfs", symfs]
    return hosttool.output(argv, timeout, what="perf script", fix=_FIX)


_FORK = re.compile(r"PERF_RECORD_FORK\((\d+):\d+\):\((\d+):\d+\)")
_EXEC = re.compile(r"^\s*(\d+)/\d+\s+PERF_RECORD_COMM exec: (.*):\d+/\d+")
_HEAD = re.compile(r"^\s*(\d+)/(\d+)\s+(\d+)\s*$")
_FRAME = re.compile(r"^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$")


def parse(text, core_paths, static_names=None):
    """perf script text -> (routines, hits, total, kernel, unknown_core, chained).

    routines: name -> {"symbols", "group", "dso", "self", "total"} in sampled time (the periods,
    ns); hits: samples counted; total, kernel, unknown_core: sampled time in all, in the kernel,
    and at core addresses without a symbol (a stripped binary); chained: samples whose call chain
    was unwound beyond the leaf's caller."""
    parent, root = {}, None
    samples = []  # (pid, period, [(sym, dso), ...]) leaf first
    cur = None
    for line in text.splitlines():
        if not line.strip():
            cur = None
            continue
        if line[0] != "\t" and line[0] != " " or _HEAD.match(line) or "PERF_RECORD" in line:
            cur = None
            m = _FORK.search(line)
            if m:
                parent[int(m.group(1))] = int(m.group(2))
                continue
            m = _EXEC.match(line)
            if m:
                if root is None:
                    root = int(m.group(1))
                continue
            m = _HEAD.match(line)
            if m:
                cur = (int(m.group(1)), int(m.group(3)), [])
                samples.append(cur)
            continue
        m = _FRAME.match(line)
        if m and cur is not None:
            cur[2].append((m.group(2), m.group(3)))

    def in_instance(pid):
        seen = set()
        while pid in parent and pid not in seen:
            seen.add(pid)
            pid = parent[pid]
            if pid == root:
                return True
        return False

    children = {pid for pid in {s[0] for s in samples} if pid != root and in_instance(pid)}
    # With --no-fork (or a core that runs the instance in its own process) all samples count.
    keep = (lambda pid: pid in children) if children else (lambda pid: True)
    routines = {}
    hits = total = kernel = unknown_core = chained = 0
    for pid, period, frames in samples:
        if not keep(pid) or not frames:
            continue
        hits += 1
        if sum(1 for sym, _ in frames if sym != "[unknown]") >= 3:
            chained += 1  # the unwinder got past the leaf and its caller
        total += period
        seen = set()
        for depth, (sym, dso) in enumerate(frames):
            group = dso_group(dso, core_paths)
            if static_names and group == "core" and sym not in static_names and not sym.endswith("@plt"):
                group = "libc"  # a static binary: the C library's routines are linked in
            if sym == "[unknown]":
                if depth == 0 and group == "core":
                    unknown_core += period
                if depth > 0:
                    continue  # the end of an unwound chain, not a routine
                name = f"[unknown in {os.path.basename(dso) or 'unknown'}]"
            else:
                name = routine_name(sym, group)
            r = routines.setdefault(
                name, {"symbols": [], "group": group, "dso": os.path.basename(dso), "self": 0, "total": 0}
            )
            if sym not in r["symbols"] and sym != "[unknown]":
                r["symbols"].append(sym)
            if depth == 0:
                r["self"] += period
                if group == "kernel":
                    kernel += period
            if name not in seen:
                seen.add(name)
                r["total"] += period
    return routines, hits, total, kernel, unknown_core, chained
