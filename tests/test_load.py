"""`run --load NAME`: a defined background load that tickmark starts on this machine beside a run
and stops after it, recorded in the run's labels and fingerprint with its measured intensity."""

import os
import time

import pytest

from boards import stored
from tickmark.base.errors import TickmarkError
from tickmark.run.load import LOADS, Load, kind_of


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(LOADS))
def test_each_load_works_and_leaves_nothing(name):
    """Each load for a second (the memory load's buffers take a few on a busy machine): its
    workers count work, stop ends every one of them, the io load's scratch folder is removed."""
    load = Load(name).start()
    pids, folder = list(load.pids), load._folder
    assert pids and all(_alive(p) for p in pids)
    time.sleep(1.0)
    record = load.stop()
    assert record["name"] == name and record["unit"] == LOADS[name].unit and record["workers"] >= 1
    assert record["seconds"] >= 1.0 and record["intensity"] >= 0
    assert not any(_alive(p) for p in pids)
    if name == "io":
        assert not os.path.exists(folder)


def test_messages_load_moves_messages():
    load = Load("messages").start()
    time.sleep(1.0)
    record = load.stop()
    assert record["workers"] == 20 and record["intensity"] > 1000, record


def test_unknown_load_is_refused():
    with pytest.raises(TickmarkError, match="unknown load 'disk'"):
        kind_of("disk")


def test_run_under_load_says_so(real, cli):
    """A short run of the real core beside the cpu load (a few seconds): the label load=cpu, the
    load in the fingerprint with its intensity, a line of the header naming it."""
    rc, out, err = cli("run", "loop.control", "--load", "cpu", "--rounds", "1", "--samples", "2",
                       "--sample-ms", "2", "--name", "busy")  # fmt: skip
    assert rc == 0, err + out
    run, _ = stored(real, "busy")
    assert run["notes"]["labels"] == {"load": "cpu"}
    load = run["fingerprint"]["load"]
    assert load["name"] == "cpu" and load["unit"] == "loops/s" and load["intensity"] > 0
    rc, out, err = cli("show", "busy")
    assert rc == 0 and "load cpu (one busy loop per CPU)" in out and "loops/s" in out, out


def test_load_beside_a_remote_target_is_refused(real, cli):
    rc, out, err = cli("run", "loop.control", "--load", "cpu", "--target", "qemu-user:aarch64")
    assert rc == 2 and "the target must be local" in err, err + out
