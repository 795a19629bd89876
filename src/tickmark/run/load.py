"""A defined background load beside a run (`tickmark run --load NAME`): tickmark starts it on this
machine before the first round, stops it after the last, and records which load ran, with its
parameters and its measured intensity, in the run's labels (load=NAME) and fingerprint ("load").
A run under load is thereby never taken for an idle one.

The loads (OSADL's latency farm loads its machines the same four ways):

    cpu       one busy loop per CPU                                  (loops/s)
    memory    a streaming copy between two 64 MiB buffers, per CPU   (MB/s copied)
    messages  hackbench's storm: groups of 5 senders and 5 receivers
              over UNIX stream sockets, 100-byte messages            (messages/s)
    io        1 MiB writes to a scratch file, each followed by fsync (MB/s written)

Each worker is a process of its own that counts its work into a shared array; the intensity is
the count over the time the load ran. The workers leave nothing behind (the scratch files are
removed at stop).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from ..base.errors import TickmarkError
from ..base.units import MB_S

if TYPE_CHECKING:
    from ctypes import Array, c_ulonglong

    from ..store import Store

    # the workers' counts (one slot a worker, shared with the forked workers); a worker's argument
    Counts = Array[c_ulonglong]
    JobArg = Union[None, str, list[socket.socket]]
    Job = tuple[Callable[[Counts, int, Any], None], JobArg]

MSG_BYTES = 100  # hackbench's default message size
GROUPS = 2  # groups of the message storm
FDS = 5  # senders (and receivers) per group
COPY_BYTES = 64 << 20  # each buffer of the memory load: larger than any last-level cache here
WRITE_BYTES = 1 << 20  # one write of the io load
IO_FILE_BYTES = 64 << 20  # the io load's file is started again when it reaches this
SETTLE_S = 5.0  # the longest wait for every worker to be at work before the run starts


@dataclass(frozen=True)
class Kind:
    name: str
    what: str  # the load in words
    unit: str  # what its intensity counts, per second


LOADS = {
    "cpu": Kind("cpu", "one busy loop per CPU", "loops/s"),
    "memory": Kind("memory", "a streaming copy between two 64 MiB buffers per CPU", MB_S),
    "messages": Kind(
        "messages",
        f"{GROUPS} groups of {FDS} senders and {FDS} receivers, {MSG_BYTES}-byte messages over UNIX stream sockets",
        "messages/s",
    ),
    "io": Kind("io", "1 MiB writes to a scratch file, each followed by fsync", MB_S),
}


IDLE = "idle"  # a campaign's cell without a load


def check_local(uri: str, who: str = "--load runs its load") -> None:
    """A load runs on this machine: the target must be this machine ('local')."""
    if uri != "local":
        raise TickmarkError(f"{who} on this machine: the target must be local, not {uri}")


def record(store: Store, run_id: int | None, what: dict[str, Any]) -> None:
    """The load that ran beside a run (Load.stop()'s record: what, workers, intensity) into its
    fingerprint, where compare and history see it."""
    if run_id is None:
        return
    fp = dict(store.run(run_id).get("fingerprint") or {})
    fp["load"] = what
    store.update_run(run_id, fingerprint=fp)


def kind_of(name: str) -> Kind:
    if name not in LOADS:
        raise TickmarkError(f"unknown load '{name}' (known: {', '.join(LOADS)})")
    return LOADS[name]


def _cpu(counts: Counts, slot: int, _arg: None) -> None:
    n = 0
    while True:
        for _ in range(100000):
            pass
        n += 100000
        counts[slot] = n


def _memory(counts: Counts, slot: int, _arg: None) -> None:
    import numpy as np

    src = np.ones(COPY_BYTES // 8, dtype=np.uint64)
    dst = np.empty_like(src)
    n = 0
    while True:
        np.copyto(dst, src)
        n += COPY_BYTES // 1000000
        counts[slot] = n


def _sender(counts: Counts, slot: int, socks: list[socket.socket]) -> None:
    msg = b"m" * MSG_BYTES
    n = 0
    while True:
        for s in socks:
            s.sendall(msg)
        n += len(socks)
        counts[slot] = n


def _receiver(counts: Counts, slot: int, socks: list[socket.socket]) -> None:
    (sock,) = socks
    n, left = 0, 0
    while True:
        got = sock.recv(MSG_BYTES)  # a message a read, as hackbench reads
        if not got:
            return
        left += len(got)
        n += left // MSG_BYTES
        left %= MSG_BYTES
        counts[slot] = n


def _io(counts: Counts, slot: int, folder: str) -> None:
    block = os.urandom(WRITE_BYTES)
    path = os.path.join(folder, f"load-{slot}")
    n = 0
    while True:
        with open(path, "wb") as f:
            for _ in range(IO_FILE_BYTES // WRITE_BYTES):
                f.write(block)
                f.flush()
                os.fsync(f.fileno())
                n += WRITE_BYTES // 1000000 or 1
                counts[slot] = n


@dataclass
class Load:
    """A running load: start() it, stop() it -> its record (name, what, params, intensity)."""

    name: str
    cpus: int = field(default_factory=lambda: os.cpu_count() or 1)
    pids: list[int] = field(default_factory=list)
    started: float = 0.0
    _counts: Counts | None = None
    _folder: str | None = None
    _jobs: list[Job] = field(default_factory=list)  # (function, argument) per worker
    _counted: list[int] = field(default_factory=list)  # the slots whose counts make the intensity
    _at_start: int = 0  # their sum when the run started

    def _plan(self) -> None:
        kind = kind_of(self.name)
        if kind.name == "cpu":
            self._jobs = [(_cpu, None)] * self.cpus
        elif kind.name == "memory":
            # imported here, before the fork: a campaign forks from a worker thread, and a child
            # must not take an import lock that another thread held at the fork
            import numpy  # noqa: F401

            self._jobs = [(_memory, None)] * self.cpus
        elif kind.name == "io":
            self._folder = tempfile.mkdtemp(prefix="tickmark-load-")
            self._jobs = [(_io, self._folder)]
        else:  # as hackbench: a socket pair per receiver; every sender of the group writes to each
            for _ in range(GROUPS):
                pairs = [socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM) for _ in range(FDS)]
                self._jobs += [(_receiver, [theirs]) for _, theirs in pairs]
                self._jobs += [(_sender, [ours for ours, _ in pairs])] * FDS
        self._counted = [i for i, (fn, _) in enumerate(self._jobs) if fn is not _sender]

    def start(self) -> Load:
        import multiprocessing

        self._plan()
        self._counts = multiprocessing.get_context("fork").RawArray("Q", len(self._jobs))
        for slot, (fn, arg) in enumerate(self._jobs):
            self._fork(self._counts, fn, slot, arg)
        for _, arg in self._jobs:  # the parent's copies of the sockets
            for s in arg if isinstance(arg, list) else []:
                s.close()
        # the run starts once every worker is at work (forked, its memory touched), as a load
        # started a while before the measurement is: at most SETTLE_S
        deadline = time.monotonic() + SETTLE_S
        while time.monotonic() < deadline and not all(self._counts[i] for i in self._counted):
            time.sleep(0.05)
        self.started = time.monotonic()
        self._at_start = sum(self._counts[i] for i in self._counted)
        return self

    def _fork(self, counts: Counts, fn: Callable[[Counts, int, Any], None], slot: int, arg: JobArg) -> None:
        pid = os.fork()
        if pid == 0:  # the worker: it ends by SIGTERM (or when its socket's other end closes)
            code = 0
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                fn(counts, slot, arg)
            except BaseException:  # noqa: BLE001 (a worker never unwinds into the caller's code)
                code = 1
            os._exit(code)
        self.pids.append(pid)

    def stop(self) -> dict[str, Any]:
        """End every worker, remove the scratch files -> the record of what ran."""
        seconds = time.monotonic() - self.started if self.started else 0.0
        done = sum(self._counts[i] for i in self._counted) - self._at_start if self._counts is not None else 0
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for pid in self.pids:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.pids = []
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)
        kind = kind_of(self.name)
        return {
            "name": kind.name,
            "what": kind.what,
            "workers": len(self._jobs),
            "seconds": round(seconds, 1),
            "intensity": round(done / seconds, 1) if seconds > 0 else None,
            "unit": kind.unit,
        }
