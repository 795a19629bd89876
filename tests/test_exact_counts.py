"""Exact counts: a board under qemu-system -icount counts guest instructions, the
same on every run. compare gives them a verdict of their own (a difference is real when it is
larger than the run-to-run deviation, whatever the number of samples; on main: "too few samples
(n=6/6, need 9+ per side)"), shows instructions as counts (main: "543 us" for 543 k
instructions), and prints counter tables only with their columns (main: names and no columns in
compare, a table whose only column is `multiplexed` in show --counters). Where no PMU counts
instructions, show --counters points to the -icount route."""

import os

import pytest

from tickmark.base.errors import TickmarkError
from tickmark.targets.baremetal import load_board

pytestmark = pytest.mark.integration
QUICK = ("cpu.idea", "loop.control", "--rounds", "3", "--samples", "2", "--sample-ms", "2", "--seed", "3", "-q")


def _board(name):
    try:
        load_board(name).check_tools()
    except TickmarkError as e:
        if os.environ.get("CI"):
            pytest.fail(f"bootstrap installs the board's tools: {e}")
        pytest.skip(str(e))


def test_exact_counts_get_their_own_verdict_and_tables(real, cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # each row on one line (a narrower table wraps its verdicts)
    _board("virt-aarch64")
    for name, cflags in (("o2", "-O2"), ("o1", "-O1")):
        rc, out, err = cli("run", "--target", "qemu-system:virt-aarch64", "--cflags", cflags, "--name", name, *QUICK)
        assert rc == 0, err + out
    rc, out, err = cli("compare", "o2", "o1", "--fail-above", "5%")
    assert rc == 1 and "regression(s) above 5% against o2" in err and "cpu.idea +" in err, err
    assert "too few samples" not in out and "exact counts: a difference is real beyond the run-to-run" in out
    table = out.split("counters A -> B")[0].split("code size")[0]  # the comparison's own table
    rows = {line.split("|")[0].strip(): line for line in table.splitlines() if "|" in line}
    assert " insn |" in rows["cpu.idea"] and " slower " in rows["cpu.idea"] and " us " not in rows["cpu.idea"]
    assert "no difference" in rows["loop.control"]
    # under -icount the board's cycle counter counts the same instructions as the headline: no
    # second figure of it, and no IPC of 1.00
    assert "cycles/op" not in out and "IPC" not in out and "more instructions" in rows["cpu.idea"]
    rc, out, err = cli("show", "--counters", "o2")
    assert rc == 0 and "| cycles/op" in out and "multiplexed" not in out
    assert "insn/op" in out and "instruction counts without a PMU" not in out


def test_a_board_without_counters_prints_no_empty_table(real, cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    _board("mps2-an500")
    for name in ("a", "b"):
        rc, out, err = cli("run", "--target", "qemu-system:mps2-an500", "--name", name, *QUICK)
        assert rc == 0, err + out
    rc, out, err = cli("compare", "a", "b")
    assert rc == 0 and "counters: none recorded" in out and "counters A -> B" not in out
    rows = [line for line in out.split("code size")[0].splitlines() if line.startswith(("cpu.idea ", "loop.control "))]
    assert len(rows) == 2 and all("| no difference beyond noise |" in r for r in rows), rows  # the same counts
    rc, out, err = cli("show", "--counters", "a")
    assert rc == 0 and "(no counter data in this run)" in out and "multiplexed" not in out


def test_no_pmu_points_to_the_icount_route(env, cli):
    """The synthetic core says what this VM says: no hardware counters, task-clock only."""
    assert cli("run", "sys.fast", "-q")[0] == 0
    rc, out, err = cli("show", "--counters")
    assert rc == 0 and "hardware counters: not supported here" in out
    assert "instruction counts without a PMU: --target qemu-system:BOARD" in out and "QEMU -icount" in out
