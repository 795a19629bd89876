"""The command line under a pseudo-terminal of a given width (Python's pty module): what a person
at a terminal sees, escapes and all."""

import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time

from conftest import ROOT


def run_in_pty(args, columns=80, env=None, timeout=120):
    """`tickmark ARGS` with standard input, output and error on a terminal of `columns` columns
    -> (exit status, what the terminal received, as text)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its terminal
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
            child_env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), **(env or {}))
            child_env.pop("COLUMNS", None)  # the terminal's own width decides
            child_env.pop("LINES", None)
            os.execve(sys.executable, [sys.executable, "-m", "tickmark.cli", *args], child_env)
        finally:
            os._exit(127)
    out, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 1)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not data:
                    break
                out += data
    finally:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")
