"""The write-ahead log beside an SQLite store belongs to that store's file, and to no other.

SQLite keeps a store's latest writes in NAME-wal (its index in NAME-shm) and applies that log to
whatever file is called NAME when it next opens it. When the file is replaced while a process
writes to it (a backup restored, a sync tool) or deleted, the log left at the path is the old
file's, and applying it to another file damages that file. So:

* a writer binds the log to its file: an extended attribute of NAME-wal names the file's device
  and inode (on file systems that keep such attributes);
* a writer that finds its file replaced or deleted removes the log and index it wrote (only
  those: the inodes it has open) before it lets go of them;
* before SQLite opens NAME, a log that is not that file's is never applied: one that a live
  process still writes for another file stops the command, naming that process (its next write
  finds out and removes it); one that nobody writes and that is bound to another file, or whose
  file is gone, is removed.

Nothing here opens the log or its index: closing any descriptor of a file drops every lock this
process holds on it (see sqlite.py's _OPEN).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from ..base.errors import TickmarkError

LOGS = ("-wal", "-shm")
_BOUND = "user.tickmark.file"

Ident = tuple[int, int]  # (device, inode) of a file
Logs = dict[str, Optional[Ident]]  # {suffix: the identity of the log or index, None: none}


def ident(path: str | Path) -> Ident | None:
    """(device, inode) of a file, or None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def own_logs(path: str | Path) -> Logs:
    """{suffix: (device, inode)} of the store's log and index as they are now (a writer's own,
    read once its connection has them open)."""
    return {s: ident(f"{path}{s}") for s in LOGS}


def bind(path: str | Path, main: Ident | None, wal: Ident | None) -> None:
    """Name the file `main` ((device, inode) of the store) in the store's log, and the log
    itself (`wal`): a copy of the log (cp -a, rsync -X) is a new file, to which the binding does
    not apply, as it was made with a copy of the store."""
    if main is None or wal is None:
        return
    try:
        os.setxattr(f"{path}-wal", _BOUND, ":".join(str(n) for n in (*main, *wal)).encode())
    except (OSError, AttributeError):  # a file system without extended attributes: no binding
        pass


def remove_own(path: str | Path, own: Logs, empty: bool = False) -> None:
    """Remove the store's log and index where they are still the ones this writer had (own_logs).
    empty: the file at path is the one this writer has open, its contents changed under it (a
    file copied over it, or emptied): the log is emptied first, so that SQLite, closing, finds no
    frame of the old contents to write back into the new ones."""
    for suffix, was in own.items():
        if empty and suffix == "-wal" and was is not None and ident(f"{path}{suffix}") == was:
            try:
                os.truncate(f"{path}{suffix}", 0)
            except OSError:
                pass
        if was is not None and ident(f"{path}{suffix}") == was:
            try:
                os.unlink(f"{path}{suffix}")
            except OSError:
                pass


def check(path: str | Path) -> None:
    """Before SQLite opens the store at path (or a new file takes that name): a log beside it
    that belongs to another file is removed, or, while a live process still writes it, a
    TickmarkError names that process."""
    wal = f"{path}-wal"
    if ident(wal) is None:
        return
    main = ident(path)
    writers = _writers(path, main)
    for pid, whose in writers:
        if whose == "old":
            raise TickmarkError(
                f"store {path} was replaced or deleted while process {pid} was writing to it: the log "
                f"beside it ({os.path.basename(wal)}) belongs to the old file; try again once that process has ended"
            )
    if writers:
        return  # in use for this very file (or by a process that cannot be looked at)
    bound = _bound(wal)
    if main is None or (bound is not None and bound != main):  # gone, or replaced under the log
        for suffix in LOGS:
            try:
                os.unlink(f"{path}{suffix}")
            except OSError:
                pass


def _bound(wal: str) -> Ident | None:
    """The file the log was written for, while the log is the very file that was bound, or None."""
    try:
        dev, ino, wal_dev, wal_ino = (int(n) for n in os.getxattr(wal, _BOUND).decode().split(":"))
    except (OSError, AttributeError, ValueError, UnicodeDecodeError):
        return None
    return (dev, ino) if ident(wal) == (wal_dev, wal_ino) else None


def _writers(path: str | Path, main: Ident | None) -> list[tuple[int, str]]:
    """[(pid, whose)] of the other processes that hold locks on the store's index (every SQLite
    connection to the store does), as far as this system shows them (/proc): whose is "this"
    (the process has the file now at path open), "old" (it has another file of that name open,
    and not this one: a file since replaced or deleted) or "unknown"."""
    shm = ident(f"{path}-shm")
    if shm is None:
        return []
    dev = f"{os.major(shm[0]):02x}:{os.minor(shm[0]):02x}:{shm[1]}"
    pids: set[int] = set()
    try:
        with open("/proc/locks") as f:
            for line in f:
                words = line.split()
                if "POSIX" in words and dev in words:
                    pids.add(int(words[words.index(dev) - 1]))
    except (OSError, ValueError, IndexError):
        return []
    name = os.path.basename(path)
    out: list[tuple[int, str]] = []
    for pid in sorted(pids - {os.getpid()}):
        have: set[Ident | None] = set()
        old = False
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                have.add(ident(f"/proc/{pid}/fd/{fd}"))
                old = old or os.path.basename(target.removesuffix(" (deleted)")) == name
        except OSError:  # gone meanwhile, or not ours to look at
            out.append((pid, "unknown"))
            continue
        out.append((pid, "this" if main is not None and main in have else "old" if old else "unknown"))
    return out
