"""The program's last moments: a SIGTERM that comes after the command has done its work, while
Python shuts down, ends tickmark with its own status or 130, never by the signal (143)."""

import os
import signal
import subprocess
import sys
import time

from conftest import ROOT

WRAPPER = """
import os, sys, time
sys.argv[0] = "tickmark"
import tickmark
from tickmark.cli import main

class Late:  # runs while Python shuts down, after the command
    def __del__(self):
        os.write(1, b"late\\n")
        time.sleep(3)

keep = Late()
sys.exit(main(["suites"]))
"""


def test_a_sigterm_while_python_shuts_down_is_not_the_exit_status(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    p = subprocess.Popen([sys.executable, "-c", WRAPPER], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = b""
    os.set_blocking(p.stdout.fileno(), False)
    t = time.monotonic()
    while p.poll() is None and time.monotonic() - t < 60:
        out += p.stdout.read() or b""
        if b"late" in out:
            p.send_signal(signal.SIGTERM)
            break
        time.sleep(0.02)
    rc = p.wait(60)
    assert rc in (0, 130), (rc, p.stderr.read())
