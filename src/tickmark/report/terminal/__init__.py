"""Terminal view of one stored run (`tickmark show`, the end of `tickmark run`), rendered from the
report model (model/): a header with the machine essentials, then one table row per benchmark
instance (sub-metrics indented below it). Plain text without colours in a pipe; the table fits
the width of the console (optional columns are left out on a narrow terminal, flags wrap)."""

import textwrap

from rich.text import Text

from ... import fmt
from ...fmt import fmt_pct, fmt_rate, fmt_time, known
from ...names import printable
from ..console import console, print_whole, styled_table

# (column, justify, drop order: the higher, the earlier it goes on a narrow terminal)
COLUMNS = (
    ("benchmark", "left", 0),
    ("value", "right", 0),
    ("cycles/op", "right", 3),
    ("ops/s", "right", 5),
    ("±CI", "right", 1),
    ("rcv", "right", 4),
    ("round-cv", "right", 2),
    ("det", "right", 0),
    ("flags", "left", 0),
)


def header_lines(ess):
    """The header of a run (the model's essentials) as lines of text: what ran where (the
    target), then the machine; a setting that was not recorded reads '?'."""
    fp = ess["fingerprint"]
    name = f" '{ess['name']}'" if ess.get("name") else ""
    lines = [
        f"run {ess['id']}{name}  {ess['started']}  status {ess['status']}  rounds {known(ess['rounds'], '?')}"
        + (f"  samples {ess['samples']}" if ess.get("samples") else ""),
        f"target {ess['where']}",
    ]
    timer = known(fp.get("clock"), "?")
    if fp.get("clock_res_ns") is not None:
        timer += f" (res {fp['clock_res_ns']} ns)"
    method, tag = fp["cycles_method"], fp["cycles_tag"]
    lines.append(
        f"{known(fp.get('cpu_model'), '?')} ({known(fp.get('arch'), '?')}, {known(fp.get('cpus_online'), '?')} cpus) | "
        f"kernel {known(fp.get('kernel'), '?')} | {known(fp.get('compiler'), '?')} {known(fp.get('cflags'), '')} | "
        f"timer {timer} | cycles {f'{method} ({tag})' if tag and tag != method else method} | "
        f"virt {known(fp.get('virtualization'), '?')}"
    )
    if fp.get("qemu_icount"):
        lines.append(
            f"QEMU -icount {fp['qemu_icount']}: time is virtual, 1 ns = 1 guest instruction; "
            "cycles/op are guest instructions per operation (insn), the same on every run with the same seed"
        )
    if fp.get("flags"):
        lines.append("on every result: " + ", ".join(map(str, fp["flags"])))
    return [printable(line) for line in lines]


def _cells(r):
    cyc = r.get("cycles_per_op")
    cyc_s = "-" if cyc is None else f"{fmt.sig(cyc)} {r.get('cycles_tag') or ''}".strip()
    ci = r.get("ci_pct")
    return {
        "value": r["value_text"],
        "cycles/op": cyc_s,
        "ops/s": fmt_rate(r.get("ops_per_s")),
        "±CI": "-" if ci is None else "±" + fmt_pct(ci),
        "rcv": fmt_pct(r.get("rcv")),
        "round-cv": fmt_pct(r.get("round_cv")),
        "det": "-" if r.get("determinism") is None else f"{r['determinism']:.1f}%",
        "flags": ", ".join(r.get("flags") or []),
    }


FLAGS_MIN = 12


def table_width(t):
    """Width the table needs: widest cell of each column that does not wrap, the minimum of the
    others, and the separators."""
    return sum(c.min_width or 1 for c in t.columns) + 3 * (len(t.columns) - 1)


def two_lines(key):
    """A key broken after the comma nearest its middle (one line when it has no parameters)."""
    cuts = [i + 1 for i, c in enumerate(key) if c == ","]
    if not cuts:
        return key
    cut = min(cuts, key=lambda i: max(i, len(key) - i))
    return key[:cut] + "\n" + key[cut:]


def build_table(rows, plain=False, drop=(), narrow=False):
    """A Rich table of model rows (model.result_rows), without the columns in `drop`; `narrow`
    lets a long key wrap after the commas between its parameters."""
    cols = [c for c in COLUMNS if c[0] not in drop]
    t = styled_table(plain)
    for col, just, _ in cols:
        if col == "benchmark":
            t.add_column(col, justify=just, overflow="fold")
        elif col == "flags":
            t.add_column(col, justify=just, overflow="fold", min_width=FLAGS_MIN)
        else:
            t.add_column(col, justify=just, no_wrap=True)
    names = [c[0] for c in cols]
    # the benchmark column breaks a key only between parameters, into two lines (narrow), or not
    # at all
    keys = [printable(r.get("shown") or r["key"]) for r in rows]
    keys = [two_lines(k) if narrow else k for k in keys]
    t.columns[0].min_width = min(40, max(len(line) for k in keys or ["benchmark"] for line in k.split("\n")))
    for r, shown in zip(rows, keys):
        if r["status"] != "ok":
            style = None if plain else ("yellow" if r["status"] == "skip" else "red")
            key = shown
            cells = {
                "benchmark": Text(key),
                "value": Text(r["status"], style=style),
                "flags": Text(printable(r.get("reason") or "")),
            }
            t.add_row(*[cells.get(n, "") for n in names])
            continue
        cells = _cells(r)
        key = shown
        cells["benchmark"] = Text(printable(f"  {r['metric']}") if r["metric"] else key)
        t.add_row(*[cells[n] for n in names])
    return whole_cells(t)


def whole_cells(t):
    """A column that does not wrap is as wide as its widest cell (Rich would cut it otherwise)."""
    for col in t.columns:
        if col.no_wrap:
            col.min_width = max([len(str(c)) for c in col._cells] + [len(str(col.header))])
    return t


EVENT_COLUMNS = ("min", "avg", "p50", "p99", "p99.9", "max", "events")
EVENT_DROP = ("events", "p99.9")  # left out in this order when the table does not fit


def events_table(rows, plain=False, drop=(), narrow=False):
    """The event latencies of the benchmarks that time events (timer.cyclic*, sched.*, ping-pongs)
    as a table of their own, one line each (narrow: a long key wraps after the commas between its
    parameters): cyclictest's min and avg, and percentiles of the time per event (without the
    columns in `drop`) -> Table or None."""
    hists = [r for r in rows if r["status"] == "ok" and r.get("hist")]
    if not hists:
        return None
    cols = [c for c in EVENT_COLUMNS if c not in drop]
    t = styled_table(plain)
    keys = [r["key"].replace(",", ", ") if narrow else r["key"] for r in hists]
    head = "event latency"
    t.add_column(head, overflow="fold", min_width=max([len(head)] + [len(w) for k in keys for w in k.split(" ")]))
    for col in cols:
        t.add_column(col, justify="right", no_wrap=True)
    for r, key in zip(hists, keys):
        h = r["hist"]
        t.add_row(Text(key), *[str(h.get("count", "-")) if c == "events" else fmt_time(h.get(c)) for c in cols])
    return whole_cells(t)


def print_events(con, rows, plain):
    """The event-latency table, as wide as the console allows (long keys wrapped, then columns
    left out with a note), and what its figures are beside the headline."""
    from ..model import EVENTS_NOTE

    tries = [(False, ())] + [(True, EVENT_DROP[:i]) for i in range(len(EVENT_DROP) + 1)]
    for narrow, drop in tries:
        t = events_table(rows, plain, drop, narrow)
        if t is None:
            return
        if table_width(t) <= con.width:
            break
    con.print()
    if table_width(t) > con.width:
        print_whole(con, t)
    else:
        con.print(t)
    if drop:
        con.print(f"(left out at this width: {', '.join(drop)}; tickmark report has every column)")
    for line in textwrap.wrap(EVENTS_NOTE, max(40, con.width)):
        con.print(line)


def fitting_table(con, rows, plain):
    """The widest table that fits the console: optional columns go first, numbers never get cut."""
    order = sorted((c for c in COLUMNS if c[2]), key=lambda c: -c[2])
    drop, narrow = [], False
    while True:
        t = build_table(rows, plain, drop, narrow)
        need = table_width(t)
        if need <= con.width or len(drop) == len(order):
            break
        if not narrow:
            narrow = True
            continue
        drop.append(order[len(drop)][0])
    if need > con.width:  # never cut a number: the lines run longer than the width
        con.width = need
    # the flags column takes what is left; a word longer than that (a path in a reason) folds
    # (without the cap, Rich would make room for the longest word by cutting every column)
    flags = t.columns[-1]
    flags.max_width = max(FLAGS_MIN, con.width - (need - flags.min_width))
    return t, drop


def verified_text(rows):
    """'cpu.numsort, memfn.memmove (6 of 8 instances)': the benchmarks whose check passed."""
    out = []
    for r in rows:
        part = f" ({r['passed']} of {r['instances']} instances)" if r["passed"] != r["instances"] else ""
        out.append(printable(r["bench"]) + part)
    return ", ".join(out)


def show(store, run, file=None, beside=None):
    """A stored run in the terminal: its model (model.run_model), rendered. beside: another run
    (bare metal, another OS) shown next to this one in the rtos-study view."""
    from .. import model

    render(model.run_model(store, run, with_series=False, beside=beside), file)


def render(m, file=None):
    """The terminal view of one run's model."""
    from . import hostclock, kernel_entry, nbench, rtos_study, topology

    con = console(file)
    plain = not con.is_terminal
    for line in header_lines(m["essentials"]):
        con.print(line)
    if m["preemption"]:
        con.print(m["preemption"])
    if m["incomplete"]:
        con.print(Text(m["incomplete"], style=None if plain else "bold red"))
    if m["rows"]:
        table, dropped = fitting_table(con, m["rows"], plain)
        con.print(table)
        if dropped:
            con.print(f"(left out at this width: {', '.join(dropped)}; tickmark report has every column)")
        print_events(con, m["rows"], plain)
        if m["rtos_study"]:
            rtos_study.show(m["rtos_study"], con)
        if m.get("kernel_entry"):
            con.print()
            kernel_entry.show(m["kernel_entry"], con)
        if m.get("host_clock"):
            con.print()
            hostclock.show(m["host_clock"], con)
        if m.get("topology"):
            con.print()
            topology.render(m["topology"], con.file, evidence=False)
            con.print(f"(the evidence of each level: tickmark topology --from {m['id']})")
    else:
        con.print("(no results)")
    if m["nbench"]:  # runs with cpu.* results: nbench-style indices
        for line in nbench.lines(m["nbench"]):
            con.print(line)
    if m["verified"]:
        con.print(Text("verified (each checked its own output): " + verified_text(m["verified"])))
    for p in m["problems"]["first"]:
        con.print(Text("problem: " + printable(p), style=None if plain else "red"))
    if m["problems"]["more"]:
        con.print(f"... and {m['problems']['more']} more problem(s) (tickmark export RUN lists them in its notes)")
    if m["malformed"]:
        con.print(f"{m['malformed']} malformed TM1 line(s) ignored")
