"""Terminal view of one stored run (`tickmark show`, the end of `tickmark run`), rendered from the
report model (model/): a header with the machine essentials, then one table row per benchmark
instance (sub-metrics indented below it). Plain text without colours in a pipe; the table fits
the width of the console (optional columns are left out on a narrow terminal, flags wrap)."""

import functools
import textwrap

from rich.text import Text

from ...base import fmt
from ...base.fmt import fmt_pct, fmt_rate, known
from ...base.names import printable
from ...base.units import CYCLES_OP, OPS_S
from ..console import (
    console,
    dropped_note,
    fitted,
    key_width,
    need_width,
    print_table,
    styled_table,
    wrap_key,
    wrap_parts,
)

# (column, justify, drop order: the higher, the earlier it goes on a narrow terminal)
COLUMNS = (
    ("benchmark", "left", 0),
    ("value", "right", 0),
    (CYCLES_OP, "right", 3),
    (OPS_S, "right", 5),
    ("±CI", "right", 1),
    ("rcv", "right", 4),
    ("round-cv", "right", 2),
    ("det", "right", 0),
    ("flags", "left", 0),
)


def header_lines(ess, width=10_000):
    """The header of a run (the model's essentials) as lines of text: what ran where (the
    target), then the machine in the words of `tickmark info` and the report (machine.py: the
    lines of the header keys, broken between lines at their separators, within width)."""
    fp = ess["fingerprint"]
    name = f" '{ess['name']}'" if ess.get("name") else ""
    words = dict(ess["machine"])  # the machine in words, as `tickmark info` and the report say it
    lines = [
        f"run {ess['id']}{name}  {ess['started']}  status {ess['status']}  rounds {known(ess['rounds'], '?')}"
        + (f"  samples {ess['samples']}" if ess.get("samples") else ""),
        f"target {words['target']}" + (f"  labels {ess['labels']}" if ess.get("labels") else ""),
    ]
    # the time base (QEMU -icount) has its own line below: the one sentence of an exact-count run
    parts = [f"{k} {v}" for k, v in ess["machine"] if k not in ("target", "time base")]
    lines += wrap_parts(parts, width)
    if ess.get("exact"):
        lines += textwrap.wrap(ess["exact"], max(40, width))
    if fp.get("flags"):
        lines.append("on every result: " + ", ".join(map(str, fp["flags"])))
    return [printable(line) for line in lines]


def _cells(r):
    cyc = r.get("cycles_per_op")
    cyc_s = "-" if cyc is None else f"{fmt.sig(cyc)} {r.get('cycles_tag') or ''}".strip()
    ci = r.get("ci_pct")
    return {
        "value": r["value_text"],
        CYCLES_OP: cyc_s,
        OPS_S: fmt_rate(r.get("ops_per_s")),
        "±CI": "-" if ci is None else "±" + fmt_pct(ci),
        "rcv": fmt_pct(r.get("rcv")),
        "round-cv": fmt_pct(r.get("round_cv")),
        "det": fmt_pct(r.get("determinism")),
        "flags": ", ".join(r.get("flags") or []),
    }


FLAGS_MIN = 12  # the flags column is never narrower; its longer words fold
FLAGS_WHOLE = 24  # flags up to this long stay on one line while columns can be left out instead


def build_table(rows, plain=False, drop=(), narrow=0, room=0, flags_whole=False):
    """A Rich table of model rows (model.result_rows), without the columns in `drop`; `narrow`
    lets a long key wrap between its pieces (1: after the commas of its parameters, 2: before
    its '[' too), in lines of its narrowest width plus `room`; flags_whole keeps the flags of a
    row on one line (up to FLAGS_WHOLE characters)."""
    cols = [c for c in COLUMNS if c[0] not in drop]
    t = styled_table(plain)
    for col, just, _ in cols:
        if col == "flags":
            flags = [", ".join(r.get("flags") or []) for r in rows] if flags_whole else []
            least = max([FLAGS_MIN] + [min(len(f), FLAGS_WHOLE) for f in flags])
            t.add_column(col, justify=just, overflow="fold", min_width=least)
        else:
            t.add_column(col, justify=just, no_wrap=True)
    names = [c[0] for c in cols]
    keys = [r.get("shown") or r["key"] for r in rows]
    width = key_width(keys, bracket=narrow > 1) + room if narrow else None

    def key_text(r):  # escaped first: the line breaks between its pieces are the table's own
        key = printable(r.get("shown") or r["key"])
        return wrap_key(key, width, narrow > 1) if narrow else key

    for r in rows:
        if r["status"] != "ok":
            style = None if plain else ("yellow" if r["status"] == "skip" else "red")
            cells = {
                "benchmark": Text(printable(f"  {r['metric']}") if r["metric"] else key_text(r)),
                "value": Text(r["status"], style=style),
                "flags": Text(printable(r.get("reason") or "")),
            }
            t.add_row(*[cells.get(n, "") for n in names])
            continue
        cells = _cells(r)
        cells["benchmark"] = Text(printable(f"  {r['metric']}") if r["metric"] else key_text(r))
        t.add_row(*[cells[n] for n in names])
    return t


EVENT_COLUMNS = ("min", "avg", "p50", "p99", "p99.9", "max", "events")
EVENT_DROP = ("events", "p99.9")  # left out in this order when the table does not fit


def events_table(rows, plain=False, drop=(), narrow=0):
    """The event latencies of the benchmarks that time events (timer.cyclic*, sched.*, ping-pongs)
    as a table of their own, one line each (narrow: a long key wraps between its pieces, as in
    build_table): cyclictest's min and avg, and percentiles of the time per event (without the
    columns in `drop`) -> Table or None."""
    hists = [r for r in rows if r["status"] == "ok" and r.get("hist")]
    if not hists:
        return None
    cols = [c for c in EVENT_COLUMNS if c not in drop]
    t = styled_table(plain)
    width = max(len("event latency"), key_width([r["key"] for r in hists], bracket=narrow > 1))
    t.add_column("event latency", no_wrap=True)
    for col in cols:
        t.add_column(col, justify="right", no_wrap=True)
    for r in hists:
        key = wrap_key(printable(r["key"]), width, narrow > 1) if narrow else printable(r["key"])
        t.add_row(Text(key), *[r["hist_text"][c] for c in cols])
    return t


def print_events(con, rows, plain):
    """The event-latency table, as wide as the console allows (long keys wrapped, then columns
    left out with a note), and what its figures are beside the headline."""
    from ...analysis.worstcase import statement
    from ..model import EVENTS_NOTE

    if events_table(rows, plain) is None:
        return
    steps = [(0, ())] + [(1, EVENT_DROP[:i]) for i in range(len(EVENT_DROP) + 1)] + [(2, EVENT_DROP)]
    t, (_, drop) = fitted(con, lambda step: events_table(rows, plain, step[1], step[0]), steps)
    con.print()
    print_table(con, t)
    if drop:
        con.print(dropped_note(drop, "tickmark report has every column"))
    for line in textwrap.wrap(EVENTS_NOTE, max(40, con.width)):
        con.print(line)
    for r in rows:  # the worst case the events support (analysis/worstcase.py)
        tail = r["status"] == "ok" and (r.get("hist") or {}).get("tail")
        if tail:
            line = f"{printable(r['key'])}: {statement(tail, functools.partial(_in_unit, unit=r.get('unit')))}"
            for piece in textwrap.wrap(line, max(40, con.width), subsequent_indent="  "):
                con.print(Text(piece))


def _in_unit(x, unit):
    """A latency in its row's unit: a time, or guest instructions where the run counted them."""
    return fmt.fmt_in(x, unit)


def fitting_table(con, rows, plain):
    """The widest table that fits the console: the keys wrap between their pieces first, then
    the optional columns go, the most optional first (a row's flags stay on one line while a
    column can go), then the flags wrap -> (table, the columns left out). A column no row has a
    figure for (ops/s of exact counts) is never there."""
    pairs = ((OPS_S, "ops_per_s"), (CYCLES_OP, "cycles_per_op"))
    empty = tuple(c for c, key in pairs if all(r.get(key) is None for r in rows))
    order = [c[0] for c in sorted((c for c in COLUMNS if c[2] and c[0] not in empty), key=lambda c: -c[2])]
    # flags stay on one line while a column can go instead; at the last step they wrap too
    steps = [(empty, 0, True)] + [(empty + tuple(order[:i]), 1, True) for i in range(len(order) + 1)]
    steps += [(empty + tuple(order), 2, True), (empty + tuple(order), 2, False)]
    t, (drop, narrow, whole) = fitted(con, lambda step: build_table(rows, plain, *step[:2], flags_whole=step[2]), steps)
    room = con.width - need_width(con, t)  # the keys take the room the other columns leave
    if narrow and room > 0:
        t = build_table(rows, plain, drop, narrow, room, whole)
    return t, [c for c in drop if c not in empty]


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
    from . import cold, hostclock, kernel_entry, nbench, rtos_study, thread_metric, topology

    con = console(file)
    plain = not con.is_terminal
    for line in header_lines(m["essentials"], con.width):
        con.print(line)
    if m["preemption"]:
        con.print(m["preemption"])
    if m["incomplete"]:
        con.print(Text(m["incomplete"], style=None if plain else "bold red"))
    if m["rows"]:
        table, dropped = fitting_table(con, m["rows"], plain)
        print_table(con, table)
        if dropped:
            con.print(dropped_note(dropped, "tickmark report has every column"))
        if m["cycles_note"] and CYCLES_OP not in dropped:
            for line in textwrap.wrap(m["cycles_note"], max(40, con.width)):
                con.print(line)
        print_events(con, m["rows"], plain)
        if m["rtos_study"]:
            rtos_study.show(m["rtos_study"], con)
        if m.get("thread_metric"):
            con.print()
            thread_metric.show(m["thread_metric"], con.file)
        if m.get("kernel_entry"):
            con.print()
            kernel_entry.show(m["kernel_entry"], con)
        if m.get("host_clock"):
            con.print()
            hostclock.show(m["host_clock"], con)
        if m.get("cold"):
            con.print()
            cold.show(m["cold"], con)
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
