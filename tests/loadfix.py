"""A defined background load for the tests that check tickmark's answers on a busy machine.

`under_load()` starts stress-ng in this process's session (so the kernel's autogroup scheduling
does not shield tickmark from it, as it would a load started from another terminal), waits until
its workers are running, and stops every one of them on the way out. The default mix is the one
that disturbs a run the most on a 2-CPU machine: CPU hogs, fork storms and context-switch storms.
Tests that use it compare timings, so they are marked `alone`."""

import contextlib
import os
import shutil
import signal
import subprocess
import time

from conftest import need_tool

# The load of the busy-machine checks: two CPU hogs, four forking and four switching workers.
BUSY = ("--cpu", "2", "--fork", "4", "--switch", "4")
# A memory-heavy mix: two CPU hogs and one worker streaming through 256 MiB.
BUSY_MEMORY = ("--cpu", "2", "--vm", "1", "--vm-bytes", "256M")


def need_stress_ng():
    """stress-ng, or skip (fail under CI=true, where bootstrap installs it) -> its path."""
    path = shutil.which("stress-ng")
    if not path:
        need_tool("stress-ng not installed (apt-get install stress-ng)")
    return path


def _workers(pid):
    """How many processes stress-ng's parent has started (its children, from /proc)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return len(f.read().split())
    except OSError:
        return 0


@contextlib.contextmanager
def under_load(args=BUSY, settle_s=1.0):
    """Run the body with stress-ng ARGS running beside it (same session, no time limit of its own).
    Yields the stress-ng process; stops it and all its workers afterwards."""
    exe = need_stress_ng()
    proc = subprocess.Popen(
        [exe, *args, "--timeout", "0", "--quiet"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        process_group=0,  # its own group (for one kill), in our session
    )
    try:
        deadline = time.monotonic() + 10
        while _workers(proc.pid) == 0 and time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"stress-ng {' '.join(args)} exited with {proc.returncode}")
            time.sleep(0.05)
        time.sleep(settle_s)
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        _wait_gone(proc.pid)


def _wait_gone(pgid, limit_s=10.0):
    """Wait until no process of the load's group is left: its parent exits before its workers have
    all died, and a worker still spinning would load the next measurement, meant to be quiet."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)
