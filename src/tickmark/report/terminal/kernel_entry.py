"""Terminal table of the kernel-entry figures of a run's model (model.run_model's kernel_entry;
analysis/kernel_entry.py picks them out): per way into the kernel, the rate and the cycles (or
guest instructions) with the control loop subtracted, and the time where the table stands alone;
a second run's rate and cycles beside them (`show RUN --beside OTHER`)."""

from ... import fmt
from ...fmt import fmt_rate, fmt_time
from ...names import printable
from ..console import print_whole, styled_table

LABEL = 14  # characters of a run's label in a column heading
WHY = 24  # characters of why a figure is missing (the run's own table has it whole)


def _cells(row, with_time):
    if row["ns"] is None:
        why = printable(f"{row['status']}: {row['reason']}".strip(": "))
        why = why if len(why) <= WHY else why[: WHY - 3] + "..."
        return [why] + [""] * (2 if with_time else 1)
    cyc = "-" if row["cycles"] is None else f"{fmt.sig(row['cycles'])} {row['tag']}".strip()
    return ([fmt_time(row["ns"])] if with_time else []) + [fmt_rate(row["per_s"]), cyc]


def build_table(entry, plain=False):
    beside = entry.get("beside")
    loop = "control loop included (host clock)" if entry.get("host_clock") else "control loop subtracted"
    t = styled_table(plain, title=f"Into the kernel and back, {loop}")
    t.add_column("kernel entry", no_wrap=True)
    for side in [entry] + ([beside] if beside else []):
        head = f"{printable(side['label'])[:LABEL]}\n" if beside else ""
        for col in ("per s", "cycles") if beside else ("time", "per s", "cycles"):
            t.add_column(head + col, justify="right", no_wrap=False, overflow="fold")
    for i, row in enumerate(entry["rows"]):
        cells = _cells(row, not beside)
        if beside:
            cells += _cells(beside["rows"][i], False)
        t.add_row(row["figure"], *cells)
    return t


def show(entry, console):
    print_whole(console, build_table(entry, plain=not console.is_terminal))
