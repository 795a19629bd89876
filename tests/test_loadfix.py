"""The tests' background load: stress-ng runs while the body runs, and none of it outlives it."""

import os
import time

import pytest

from loadfix import _workers, under_load

pytestmark = pytest.mark.alone


def test_the_load_runs_beside_the_body_and_is_gone_after_it():
    with under_load(("--cpu", "1", "--switch", "1"), settle_s=0.2) as proc:
        assert proc.poll() is None
        assert _workers(proc.pid) >= 2
        assert os.getsid(proc.pid) == os.getsid(0)  # same session: autogroup does not shield us
    assert proc.poll() is not None
    time.sleep(0.2)
    assert not os.path.exists(f"/proc/{proc.pid}")
