"""A tickmark killed with SIGKILL while `exec` runs a program that has stopped itself: the core is
told (the system's parent-death signal) and kills the program at once, never waiting out
--timeout."""

import os
import signal
import sys
import time

from conftest import tickmark_proc


def _pids_running(word):
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if word.encode() in cmd and state != "Z":
            out.append(int(pid))
    return out


def test_the_program_ends_with_a_killed_tickmark(real, cli):
    if not sys.platform.startswith("linux"):
        return
    rc, out, err = cli("exec", "-q", "--runs", "1", "--rounds", "1", "--warmup", "0", "--", "true")  # built
    assert rc == 0, err
    marker = str(7000 + os.getpid() % 1000)
    program = ["sh", "-c", "kill -STOP $$", marker]  # a program that stops itself
    p = tickmark_proc(["exec", "-q", "--runs", "1", "--rounds", "1", "--warmup", "0", "--", *program])
    try:
        t = time.monotonic()
        while not _pids_running(marker) and time.monotonic() - t < 120:
            time.sleep(0.1)
        assert _pids_running(marker), "the program did not start"
        p.send_signal(signal.SIGKILL)
        p.wait()
        t = time.monotonic()
        while _pids_running(marker) and time.monotonic() - t < 20:
            time.sleep(0.1)
        left = _pids_running(marker)
        assert not left, "the program outlived the killed tickmark"
    finally:
        for pid in _pids_running(marker):
            os.kill(pid, signal.SIGKILL)
        if p.poll() is None:
            p.kill()
