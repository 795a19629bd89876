"""Terminal view of the counter-derived figures of a run (`tickmark show --counters`) and the
formatting of those figures that the comparison table shares."""

import sys

from rich import box
from rich.table import Table

from ...analysis.counters import NOT_SUPPORTED
from ...base.fmt import fmt_count, fmt_time
from ...base.fmt import sig as _sig
from ...base.units import CYCLES_OP
from ..console import console, print_table

# Where no PMU counts instructions (most VMs and clouds), QEMU's -icount does.
NO_PMU_HINT = (
    "instruction counts without a PMU: --target qemu-system:BOARD (or qemu-system:x86_64 --kernel "
    "IMAGE) counts guest instructions under QEMU -icount, the same on every run"
)


def fmt_ratio(name, v):
    if v is None:
        return "-"
    if name == "ipc":
        return f"{v:.2f}"
    return f"{v * 100:.1f}%"


def fmt_per_op(name, v):
    """A per-operation counter value: task_clock in time units, others as counts."""
    if v is None:
        return "-"
    if name == "task_clock":
        return fmt_time(v)
    if name in ("cycles", "instructions"):
        return fmt_count(v)
    return _sig(v)


def show(store, run, file=None):
    """The counter-derived figures of a stored run (tickmark show --counters): its model
    (model.counters_model), rendered."""
    from ..model import counters_model

    render(counters_model(store, run), file)


COLUMNS = (
    ("IPC", "ipc", None),
    ("FE stall", "stall_fe", None),
    ("BE stall", "stall_be", None),
    ("br-miss", "branch_miss_rate", None),
    ("cache-miss", "cache_miss_rate", None),
    (CYCLES_OP, None, "cycles"),
    ("instr/op", None, "instructions"),
    ("misses/op", None, "cache_misses"),
    ("task-clock/op", None, "task_clock"),
    ("ctx-sw/op", None, "context_switches"),
    ("migr/op", None, "cpu_migrations"),
    ("faults/op", None, "page_faults"),
)


def render(m, file=None):
    con = console(file or sys.stdout)
    plain = not con.is_terminal
    av = m["availability"]
    con.print(
        f"hardware counters: {av['hardware_status']}; software counters: {', '.join(av['software']) or NOT_SUPPORTED}",
        markup=False,
    )
    t = Table(
        box=box.ASCII2 if plain else box.SIMPLE_HEAD,
        pad_edge=False,
        show_edge=False,
        header_style=None if plain else "bold",
    )
    rows = m["rows"]
    used = [c for c in COLUMNS if any((c[1] and c[1] in d) or (c[2] and c[2] in d.get("per_op", {})) for d in rows)]
    if not used:
        con.print("(no counter data in this run)")
    else:
        t.add_column("benchmark", no_wrap=True)
        for head, _, _ in used:
            t.add_column(head, justify="right", no_wrap=True)
        mux = any(d.get("multiplexed") for d in rows)
        if mux:
            t.add_column("multiplexed", justify="right")
        for d in rows:
            cells = [
                fmt_ratio(c[1], d.get(c[1])) if c[1] else fmt_per_op(c[2], d.get("per_op", {}).get(c[2])) for c in used
            ]
            if mux:
                cells.append(f"{d.get('multiplexed', 0) * 100:.0f}%" if d.get("multiplexed") else "-")
            t.add_row(d["key"], *cells)
        print_table(con, t)
    if "instructions" not in av["hardware"] and not m.get("exact"):
        con.print(NO_PMU_HINT)
    if av["kernel_excluded"]:
        con.print("kernel-excluded: counters count user space only (perf_event_paranoid)")
