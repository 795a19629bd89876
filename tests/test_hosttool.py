"""The one wrapper that runs a host program for a profile (perf script, gprof)."""

import sys

import pytest

from tickmark.base.errors import TickmarkError
from tickmark.profile import hosttool


def test_output_of_a_program():
    assert hosttool.output([sys.executable, "-c", "print('ok')"], 30) == "ok\n"


@pytest.mark.parametrize(
    "argv, timeout, message",
    [
        (["/nonexistent/tool"], 30, "cannot start /nonexistent/tool: No such file or directory (apt-get it)"),
        ([sys.executable, "-c", "import sys; sys.exit('first\\nlast words')"], 30, "tool failed: last words"),
        ([sys.executable, "-c", "import sys; sys.exit(3)"], 30, "tool failed: exit status 3"),
        ([sys.executable, "-c", "import time; time.sleep(10)"], 0.3, "tool did not finish in 0.3 s"),
    ],
)
def test_failures_are_one_line(argv, timeout, message):
    with pytest.raises(TickmarkError) as e:
        hosttool.output(argv, timeout, what="tool", fix="apt-get it")
    assert str(e.value) == message
