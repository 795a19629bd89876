"""Terminal table of a host-timed run (`run --host-clock`; model.run_model's host_clock,
analysis/hostclock.py): per result, the time per operation by the host and by the board's own
clock over the same chunks, how far apart, and the resolution the console allowed."""

from ... import fmt
from ...fmt import fmt_time
from ...names import printable
from ..console import print_whole, styled_table


def _pct(x, sign=False):
    return "-" if x is None else (f"{x:+.2f}%" if sign else f"±{x:.2f}%")


def build_table(rows, plain=False):
    t = styled_table(plain, title="Host clock against the board's")
    for col, just in (("benchmark", "left"), ("host", "right"), ("board", "right"), ("differ", "right"),
                      ("sample", "right"), ("resolution", "right")):  # fmt: skip
        t.add_column(col, justify=just, no_wrap=True)
    for r in rows:
        res = "-" if r["res_ns"] is None else fmt_time(r["res_ns"])
        t.add_row(printable(r["key"]), fmt_time(r["host_ns"]), fmt_time(r["board_ns"]),
                  _pct(r["differ_pct"], sign=True), _pct(r["sample_pct"]), res)  # fmt: skip
    return t


def lines(rows):
    """What the table's figures mean, in words, and how long samples must be for 1 %."""
    char = next((r["char_ns"] for r in rows if r.get("char_ns")), 0)
    said = f"one character on the line takes {fmt.sig(char / 1000)} us; " if char else ""
    out = [
        "host, board: time per operation by each clock over the same chunks (the control loop not "
        "subtracted); sample: a sample's uncertainty from the resolution, "
        + said
        + "resolution: one timestamp's, the larger of a character and the jitter measured on the marks"
    ]
    need = max((r["needed_ms"] for r in rows if r["sample_pct"] and r["sample_pct"] > 1 and r["needed_ms"]), default=0)
    if need:
        out.append(f"for ±1 % a sample must last {need} ms with this resolution: --sample-ms {min(need, 10000)}")
    return out


def show(rows, console):
    print_whole(console, build_table(rows, plain=not console.is_terminal))
    for line in lines(rows):
        console.print(line)
