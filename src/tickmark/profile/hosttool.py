"""Running a host program that a profile is read from (perf script, gprof)."""

import subprocess

from ..base.errors import TickmarkError


def output(argv, timeout, what=None, fix=""):
    """stdout of argv (an argument list, no shell) run to completion -> text. TickmarkError with
    one line when it cannot start, does not finish within timeout seconds, or fails."""
    what = what or argv[0]
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, errors="replace")
    except OSError as e:
        raise TickmarkError(f"cannot start {argv[0]}: {e.strerror}" + (f" ({fix})" if fix else ""))
    except subprocess.TimeoutExpired:
        raise TickmarkError(f"{what} did not finish in {timeout} s")
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
        raise TickmarkError(f"{what} failed: {last}")
    return r.stdout
