"""Run ownership: the process that writes a run (host, PID and the PID's start time), and a run
still marked running whose writer has ended, read as incomplete ("abandoned")."""

from __future__ import annotations

import os
import socket
from typing import Any

from ..base.shapes import Row


def process_owner() -> dict[str, Any]:
    """This process, as a run records its writer: host, PID and the PID's start time."""
    return {"host": socket.gethostname(), "pid": os.getpid(), "since": _started(os.getpid())}


def _started(pid: int) -> int | None:
    """A process's start time (clock ticks since boot, from /proc), None where unknown."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def owner_gone(owner: object) -> bool:
    """True when the process that wrote a run is known to have ended: it ran on this host and
    its PID is gone, or now belongs to a process that started later."""
    if not isinstance(owner, dict) or owner.get("host") != socket.gethostname():
        return False
    pid, since = owner.get("pid"), owner.get("since")
    if not isinstance(pid, int) or isinstance(pid, bool) or not 0 < pid < 2**22:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass
    return since is not None and _started(pid) not in (None, since)


def _abandoned(run: Row) -> Row:
    """A run still marked running whose writer has ended (killed with SIGKILL, or stopped by a
    store it could no longer write): read as incomplete, saying so."""
    owner = run["notes"].get("owner") if isinstance(run.get("notes"), dict) else None
    if run["status"] == "running" and owner is not None and owner_gone(owner):
        run["status"] = "incomplete"
        run["notes"] = dict(
            run["notes"],
            abandoned=True,
            incomplete=f"abandoned: the tickmark process writing it (PID {owner['pid']} on "
            f"{owner['host']}) ended without closing it",
        )
    return run
