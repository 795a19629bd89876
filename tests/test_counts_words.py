"""The words of counts and ratios, and one figure per quantity: the one rule for exact-count runs,
instruction ratios worded as instructions, multiples instead of percentages of thousands, the
counters an exact-count comparison leaves out, the host-clock table's host figure (the headline
itself), a history change's code sizes in one line, and the HTML drawing workers that end
without a traceback."""

import subprocess
import sys

import pytest

from tickmark.analysis import counters, hostclock, stats
from tickmark.analysis.compare import insn_multiple, multiple_of
from tickmark.base import exact
from tickmark.report.history import changed_lines
from tickmark.report.model.codesize import change_words, speed_words


def test_one_rule_says_which_runs_count_instructions():
    assert exact.exact_counts({"qemu_icount": "shift=0,sleep=off"})
    assert exact.exact_counts({"cycles_method": "icount-insns"})  # a kernel image under -icount
    assert not exact.exact_counts({"cycles_method": "perf"}) and not exact.exact_counts(None)
    assert exact.unit("ns/op", True) == "insn/op" and exact.unit("MB/s", True) == "MB/s"
    assert exact.unit("ns/op", False) == "ns/op"
    said = exact.explanation({"qemu_icount": "shift=0,sleep=off"})
    assert said.startswith("QEMU -icount shift=0,sleep=off: ") and "not a time" in said
    assert exact.explanation({"cycles_method": "perf"}) is None


def test_instruction_ratios_are_worded_as_instructions():
    # on main: "1.62× slower" and a "time ratio" for two counts of instructions
    assert insn_multiple(1.62) == "1.62× more instructions"
    assert insn_multiple(0.5) == "2.00× fewer instructions"
    assert insn_multiple(1.001) == "1.00× the instructions"
    assert multiple_of(1.62, False, True) == "1.62× more instructions"
    assert multiple_of(1.62, False, False) == "1.62× slower"


def test_sizes_and_speeds_as_multiples():
    # on main: "94 % slower" for 17.6x, "113 % faster" for 2.1x, "53132 % larger" for 532x
    assert speed_words(17.6) == "17.6× slower"
    assert speed_words(1 / 2.13) == "2.13× faster"
    assert speed_words(1.2, exact=True) == "1.20× more instructions"
    assert change_words(62.38 * 1024 / 120, "larger", "smaller") == "532× larger"
    assert change_words(0.97, "larger", "smaller") == "1.03× smaller"
    assert change_words(1.001, "larger", "smaller") == "same"


def test_counts_leave_out_times_and_what_is_over_cycles():
    figs = {
        "ipc": 1.0,
        "stall_fe": 0.1,
        "branch_miss_rate": 0.02,
        "on_cpu": 1.0,
        "multiplexed": 0.0,
        "per_op": {"cycles": 100.0, "instructions": 100.0, "task_clock": 110e6, "page_faults": 0.5},
    }
    kept = counters.counts_only(figs)
    assert kept == {
        "branch_miss_rate": 0.02,
        "multiplexed": 0.0,
        "per_op": {"instructions": 100.0, "page_faults": 0.5},
    }
    assert counters.counts_only({"ipc": 1.0, "per_op": {"cycles": 3.0}}) == {}


def test_the_host_figure_of_the_host_clock_table_is_the_headline():
    """On main the table's host figure was the last round's median, the value above it the
    median of every round: under load 278 ns and 403 ns for one quantity."""
    samples = [
        {"round": r, "i": i, "iters": 1000, "ops": 1000, "ns": ns * 1000, "board_ns": ns * 990}
        for r, ns in ((1, 278), (2, 280), (3, 403))
        for i in range(5)
    ]
    st = stats.compute(samples)
    hc = {"host_ps_per_op": 403_000, "board_ps_per_op": 399_000, "sample_ppm": 100, "res_ns": 1000, "char_ns": 0}
    result = {"key": "trap.syscall", "status": "ok", "stat": "median", "meta": {"host_clock": hc}}
    result["stats"] = st.to_dict()
    (row,) = hostclock.agreement([result], lambda r: samples)
    assert row["host_ns"] == pytest.approx(st.main.value) and row["host_ns"] == pytest.approx(280)
    assert row["board_ns"] == pytest.approx(280 * 0.99)
    (old,) = hostclock.agreement([result])  # without the samples: what the core's meta recorded
    assert old["host_ns"] == 403


def test_a_change_lists_the_code_sizes_in_one_line():
    """On main each benchmark's code size was a line of its own: 80 lines for one -O2 -> -O0."""
    changed = [["cflags", "-O2", "-O0"]] + [[f"code_size.benches.b{i}", i, i + 1] for i in range(80)]
    lines = changed_lines(changed)
    assert len(lines) == 2 and lines[0].endswith("-O2 -> -O0")
    assert "80 fields differ (benches.b0, benches.b1, benches.b2, ...)" in lines[1]
    assert len(changed_lines([["code_size.core.text", 1, 2], ["code_size.core.data", 3, 4]])) == 2


def test_drawing_workers_end_without_a_traceback():
    """The workers of the HTML report's plots inherit the command's SIGTERM handler by the fork;
    the pool ended them by SIGTERM, and each printed a traceback while the report succeeded."""
    code = (
        "import os, signal\n"
        "os.sched_getaffinity = lambda pid: {0, 1, 2, 3}  # the pool, whatever this machine has\n"
        "from tickmark.cli import _on_signal\n"
        "from tickmark.report import documents, plots\n"
        "signal.signal(signal.SIGTERM, _on_signal)\n"
        "plots.quick = lambda i: f'<svg>{i}</svg>'\n"
        "for _ in range(5):\n"
        "    assert documents.draw_all([('quick', (i,)) for i in range(6)]) == [f'<svg>{i}</svg>' for i in range(6)]\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stderr == "", res.stderr
