"""The real core stopped from outside: no scratch folder is left."""

import os
import signal
import subprocess

import pytest

from hostilefix import _wait_for, needs_cc  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


def _console_child():
    """In the child: a new session whose controlling terminal is its standard output (a console)."""
    import fcntl
    import termios

    fcntl.ioctl(1, termios.TIOCSCTTY, 0)


@needs_cc
@pytest.mark.parametrize("how", ["SIGHUP", "SIGTERM", "SIGINT", "reader gone", "console hangup"])
def test_the_core_removes_its_scratch_folder_when_stopped(core_binary, tmp_path, how):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    argv = [core_binary, "run", "sys.fstat", "sys.stat", "--sample-ms", "200", "--samples", "20"]
    envv = dict(os.environ, TMPDIR=str(scratch))
    if how == "console hangup":
        master, slave = os.openpty()
        p = subprocess.Popen(argv, stdout=slave, env=envv, start_new_session=True, preexec_fn=_console_child)
        os.close(slave)
    else:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, env=envv, start_new_session=True)
    try:
        _wait_for(lambda: list(scratch.iterdir()))  # an instance runs and uses its scratch folder
        if how == "console hangup":
            os.close(master)  # the console goes away: the kernel hangs up its session
        elif how == "reader gone":
            p.stdout.close()
        else:
            p.send_signal(getattr(signal, how))
        p.wait(timeout=15)  # it stops now, not after the 8 s its two instances would take
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert not list(scratch.iterdir()), f"left behind: {list(scratch.rglob('*'))}"
