"""Counter-derived figures on synthetic samples (as a machine with a PMU would send them), and
what is reported where the hardware events are missing."""

import io

from tickmark.analysis import counters
from tickmark.report.terminal.compare import render
from tickmark.report.terminal.counters import fmt_ratio
from tickmark.store import Store
from tickmark.store.refs import run_compare


def sample(ops, cyc, ins, fe, be, br, brm, ctx=0, mux=0, ctr_ops=None):
    return {
        "ops": ops,
        "ns": cyc // 3,
        "iters": ops,
        "ctr_ops": ctr_ops or ops,
        "multiplexed": mux,
        "ctr": {
            "cycles": cyc,
            "instructions": ins,
            "stalled_frontend": fe,
            "stalled_backend": be,
            "branches": br,
            "branch_misses": brm,
            "cache_references": 100,
            "cache_misses": 10,
            "task_clock": cyc // 3,
            "context_switches": ctx,
            "page_faults": 0,
        },
    }


def test_derived_ratios_and_per_op():
    ss = [sample(1000, 10000, 6200, 6700, 1000, 2000, 20) for _ in range(5)]
    ss.append(sample(1000, 10000, 6200, 6700, 1000, 2000, 20, mux=1))
    d = counters.derived(ss)
    assert abs(d["ipc"] - 0.62) < 1e-9 and abs(d["stall_fe"] - 0.67) < 1e-9
    assert abs(d["stall_be"] - 0.10) < 1e-9 and abs(d["branch_miss_rate"] - 0.01) < 1e-9
    assert abs(d["cache_miss_rate"] - 0.1) < 1e-9
    assert d["per_op"]["instructions"] == 6.2 and d["per_op"]["cache_misses"] == 0.01
    assert abs(d["multiplexed"] - 1 / 6) < 1e-9
    assert fmt_ratio("ipc", d["ipc"]) == "0.62"
    assert fmt_ratio("stall_fe", d["stall_fe"]) == "67.0%"


def test_differential_counts_are_divided_by_ctr_ops():
    d = counters.derived([sample(1000, 30000, 3000, 0, 0, 30, 3, ctr_ops=3000)])
    assert d["per_op"]["cycles"] == 10 and d["per_op"]["instructions"] == 1


def test_no_counters_at_all():
    assert counters.derived([{"ops": 10, "ns": 100}]) == {}


def test_availability_from_hello():
    vm = counters.availability(
        {"counters": ["task_clock", "page_faults"], "counters_unsupported": "cycles,instructions", "kernel_excluded": 0}
    )
    assert vm["hardware_status"] == counters.NOT_SUPPORTED and vm["software"] == ["task_clock", "page_faults"]
    pmu = counters.availability(
        {
            "counters": ["cycles", "instructions", "task_clock"],
            "counters_grouped": 2,
            "kernel_excluded": 1,
            "counters_unsupported": "",
        }
    )
    assert pmu["hardware"] == ["cycles", "instructions"]
    assert "grouped: 2" in pmu["hardware_status"] and "kernel-excluded" in pmu["hardware_status"]


def test_compare_shows_hardware_counters_side_by_side(tmp_path):
    st = Store(tmp_path / "r.db")
    hello = {
        "counters": [
            "cycles",
            "instructions",
            "branches",
            "branch_misses",
            "stalled_frontend",
            "stalled_backend",
            "task_clock",
        ],
        "counters_grouped": 6,
        "kernel_excluded": 1,
    }
    for name, ins, fe in (("o2", 6200, 6700), ("os", 6500, 6400)):
        rid = st.create_run(
            name=name, patterns=["*"], status="complete", hello=hello, fingerprint={"variant": f"cc -{name.upper()}"}
        )
        res = st.add_result(rid, key="cpu.k", bench="cpu.k", meta={}, stats={"": {"flags": []}})
        for rnd in (1, 2, 3):
            st.add_samples(
                res, rnd, [dict(sample(1000, 10000 + 10 * i, ins, fe, 1000, 2000, 20), i=i) for i in range(4)]
            )
    sides, pairs = run_compare(st, ["o2", "os"])
    row = next(r for r in pairs[0][1]["rows"] if r["metric"] == "")
    assert abs(row["counters_a"]["ipc"] - 0.62) < 0.01 and abs(row["counters_b"]["ipc"] - 0.65) < 0.01
    out = io.StringIO()
    render(sides, pairs, file=out)
    text = out.getvalue()
    assert "IPC" in text and "0.62 -> 0.65" in text and "FE stall" in text and "66.9% -> 63.9%" in text
    assert "kernel-excluded" in text and "not supported here" not in text


def test_one_wording_for_counters_under_icount_on_every_system():
    """A campaign on one board said "instructions (grouped: 2)" for Linux (its perf opened cycles
    and instructions, both counting guest instructions under QEMU -icount) and "none: under QEMU
    -icount ..." for the RTOSes (their cycle counter): one wording for both."""
    linux = {"counters": ["cycles", "instructions", "task_clock"], "counters_grouped": 2, "kernel_excluded": 0}
    rtos = {"counters": ["cycles"], "counters_unsupported": "instructions"}
    said = {counters.availability(h, "icount-insns")["hardware_status"] for h in (linux, rtos)}
    assert said == {counters.ICOUNT_STATUS} and "guest instructions" in counters.ICOUNT_STATUS
    assert counters.availability(linux, "icount-insns")["software"] == ["task_clock"]
    # a machine counting cycles keeps its list
    assert counters.availability(linux)["hardware_status"] == "cycles, instructions (grouped: 2)"
