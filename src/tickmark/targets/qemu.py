"""What the qemu-system targets share (a bare-metal board, a Linux kernel image): QEMU running the
core as a session with a silence watchdog, the core's time limit read from its arguments, a
private scratch folder for what a boot reads, and QEMU's version for the fingerprint."""

import os
import shutil
import subprocess
import tempfile

from ..base.waiting import Watchdog
from .base import ProcessSession

DEFAULT_TIMEOUT = 60  # the core's own per-benchmark limit
SLACK = 60  # extra seconds of silence allowed to the emulated machine


def core_timeout(args):
    """The core's per-benchmark time limit in its arguments (--timeout N), else its default."""
    for i, a in enumerate(args[:-1]):
        if a == "--timeout":
            try:
                return int(args[i + 1])
            except ValueError:
                pass
    return DEFAULT_TIMEOUT


class QemuSession(ProcessSession):
    """QEMU running the core: its stdout carries the records. Without a new line for the core's
    per-benchmark time limit plus a margin, the machine is stopped (a hung benchmark has no
    process to kill on bare metal). The first line of the last text that is not a record (a
    fault report, a kernel panic) becomes the error text when the machine ends badly."""

    def __init__(self, argv, silence_s, what="qemu"):
        super().__init__(argv, what, tied=True)
        self.silence_s = silence_s
        self.last_text = ""
        self._dog = Watchdog(silence_s, self.stop)

    @property
    def timed_out(self):
        return self._dog.fired

    def lines(self):
        block = True
        for line in self.proc.stdout:
            self._dog.beat()
            if "TM1 " in line:
                block = True
            elif line.strip() and block:  # the first line of the last text after a record
                self.last_text, block = line.strip(), False
            yield line

    def finish(self):
        self._dog.cancel()
        rc, err = super().finish()
        if self.timed_out:
            self._err = f"no output for {self.silence_s} s: the emulated machine was stopped"
            return 124, self._err
        if rc != 0 and self.last_text:
            self._err = self.last_text
        return rc, self._err


def qemu_version(binary):
    try:
        r = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return (r.stdout.splitlines() or [""])[0].strip() or None


class Scratch:
    """A qemu-system target's private folder (an arguments file, a round's initrd), made on first
    use and removed when the target closes."""

    _tmp = None

    def scratch(self, name):
        if self._tmp is None:
            self._tmp = tempfile.mkdtemp(prefix="tickmark-qemu-")
        return os.path.join(self._tmp, name)

    def close(self):
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None
