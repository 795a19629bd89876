"""history over a store that holds runs of one benchmark on three targets that cannot be compared:
this machine, an SSH target (a real sshd on 127.0.0.1) and a bare-metal board under qemu-system
(guest instructions under -icount). History mixed them into one series and printed
'cpu.stringsort +16205 %'; now each target is a series of its own, saying what sets it apart,
and no ratio is made across them."""

import json
import os

import pytest

from sshfix import serving
from tickmark.base.errors import TickmarkError
from tickmark.targets.baremetal import load_board

pytestmark = pytest.mark.integration
QUICK = ("cpu.stringsort", "--rounds", "1", "--samples", "3", "--sample-ms", "2", "-q")


@pytest.fixture
def sshd(tmp_path, monkeypatch, real):
    with serving(tmp_path / "sshd", monkeypatch) as s:
        yield s


def test_local_ssh_and_icount_runs_are_separate_series(sshd, cli, monkeypatch):
    try:
        load_board("mps2-an500").check_tools()
    except TickmarkError as e:
        if os.environ.get("CI"):
            pytest.fail(f"bootstrap installs the board's tools: {e}")
        pytest.skip(str(e))
    for i in (1, 2):
        for target, name in (("local", "here"), (sshd.uri, "ssh"), ("qemu-system:mps2-an500", "board")):
            rc, out, err = cli("run", "--target", target, "--name", f"{name}-{i}", *QUICK)
            assert rc == 0, err + out
    rc, out, err = cli("history", "cpu.stringsort", "--format", "json")
    assert rc == 0, err
    series = json.loads(out)["series"]
    assert [s["name"] for s in series] == ["cpu.stringsort #1", "cpu.stringsort #2", "cpu.stringsort #3"]
    by_target = {s["where"][0]: s for s in series}
    assert set(by_target) == {"target local", f"target {sshd.uri}", "target qemu-system:mps2-an500"}
    board = by_target["target qemu-system:mps2-an500"]
    assert board["unit"] == "insn/op" and "guest instructions under QEMU -icount shift=0,sleep=off" in board["where"]
    assert "measured time" in by_target["target local"]["where"]
    for s in series:
        assert len(s["points"]) == 2 and s["changes"] == []
        assert {p["run"].split("-")[0] for p in s["points"]} in ({"here"}, {"ssh"}, {"board"})
    rc, out, err = cli("history", "cpu.stringsort")
    assert rc == 0 and "series kept apart (their runs cannot be compared):" in out
    assert "cpu.stringsort #3: target qemu-system:mps2-an500" in out and "% at #" not in out
    rc, out, err = cli("history", "cpu.stringsort", "--fail-on-change", "5")
    assert rc == 0, err
