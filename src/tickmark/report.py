"""Terminal report of one stored run: a header with the machine essentials and one table row per
benchmark instance (sub-metrics indented below it). Plain ASCII text when stdout is not a TTY."""
import sys
import time

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from .names import printable
from .stats import Stats, Summary

# Short tags of the cycles methods for the table (the header names the method in full).
METHOD_TAG = {"calibrated-freq": "cal", "perf": "perf", "pmu": "pmu", "given-freq": "given",
              "icount-insns": "insn", "none": ""}


def fmt_time(ns):
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= scale:
            return f"{_sig(ns / scale)} {unit}"
    return f"{_sig(ns)} ns"


def _sig(x):
    """Three significant digits, no exponent."""
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    if abs(x) >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def fmt_rate(per_s):
    if per_s is None:
        return "-"
    for suffix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if per_s >= scale:
            return f"{_sig(per_s / scale)}{suffix}/s"
    return f"{_sig(per_s)}/s"


def fmt_pct(x):
    return "-" if x is None else f"{x * 100:.1f}%"


def _summary(d):
    return d if isinstance(d, Summary) else Summary.from_dict(d)


def fmt_value(d):
    """The headline of a stats.Summary (or its stored dict) with its unit."""
    d = _summary(d)
    if d.is_bandwidth:
        return f"{_sig(d.value)} MB/s"
    return fmt_time(d.value) + "/op"


def ci_pct(d):
    """Relative half-width of the median's CI of a stats.Summary (or its stored dict)."""
    return _summary(d).ci_rel


def when(t, fmt="%Y-%m-%d %H:%M:%S"):
    """A stored time for people; '?' for one the clock cannot show."""
    try:
        return time.strftime(fmt, time.localtime(t))
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"


def header_lines(run):
    fp = run.get("fingerprint") or {}
    notes = run.get("notes") or {}
    name = f" '{run['name']}'" if run.get("name") else ""
    started = when(run["started"], "%Y-%m-%d %H:%M")
    lines = [f"run {run['id']}{name}  {started}  status {run['status']}  rounds {notes.get('rounds', '?')}"]
    timer = fp.get("clock") or "?"
    if fp.get("clock_res_ns") is not None:
        timer += f" (res {fp['clock_res_ns']} ns)"
    lines.append(
        f"{fp.get('cpu_model', '?')} ({fp.get('arch', '?')}, {fp.get('cpus_online', '?')} cpus) | "
        f"kernel {fp.get('kernel', '?')} | {fp.get('compiler') or '?'} {fp.get('cflags') or ''} | "
        f"timer {timer} | cycles {_method(fp.get('cycles_method'))} | "
        f"virt {fp.get('virtualization', '?')}")
    if fp.get("qemu_icount"):
        lines.append(f"QEMU -icount {fp['qemu_icount']}: time is virtual, 1 ns = 1 guest instruction; "
                     "cycles/op are guest instructions per operation (insn), the same on every run")
    if fp.get("flags"):
        lines.append("on every result: " + ", ".join(map(str, fp["flags"])))
    return [printable(line) for line in lines]


def _method(m):
    m = m or "none"
    tag = METHOD_TAG.get(m)
    return f"{m} ({tag})" if tag and tag != m else m


def incomplete_line(run, n_results):
    if run["status"] == "complete":
        return None
    notes = run.get("notes") or {}
    planned = notes.get("planned")
    of = f" of {planned}" if planned else ""
    rnd = notes.get("round_in_progress")
    where = f" in round {rnd}" if rnd else ""
    how = "interrupted" if run["status"] == "incomplete" else "killed or still running"
    if run["status"] == "incomplete" and notes.get("incomplete"):
        how = str(notes["incomplete"])
        where = "" if how.startswith("round ") else where
    return printable(f"INCOMPLETE: {how}{where} after {n_results}{of} instances")


def build_table(results, env_flags=(), plain=False):
    t = Table(box=box.ASCII2 if plain else box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
              padding=(0, 1), header_style=None if plain else "bold")
    for col, just in (("benchmark", "left"), ("value", "right"), ("cycles/op", "right"),
                      ("ops/s", "right"), ("±CI", "right"), ("rcv", "right"),
                      ("round-cv", "right"), ("det", "right"), ("flags", "left")):
        t.add_column(col, justify=just, no_wrap=(col != "flags"))
    for r in sorted(results, key=_order):
        name = Text(printable(r["key"]))
        st = Stats.of(r)
        main = st.main
        if r["status"] != "ok" or not main:
            status = r["status"] if r["status"] != "ok" else "no data"
            style = "yellow" if r["status"] == "skip" else "red"
            t.add_row(name, Text(status, style=None if plain else style), "", "", "", "", "", "",
                      Text(r.get("reason") or ""))
            continue
        t.add_row(name, *_cells(main, env_flags))
        h = main.hist
        if h:
            vals = " / ".join(fmt_time(h.get(k)) for k in ("p50", "p99", "p99.9", "max"))
            t.add_row(Text("  events p50/p99/p99.9/max"), vals, "", "", "", "", "", "", f"{h['count']} events")
        for sub, d in st.subs.items():
            t.add_row(Text(f"  {sub}"), *_cells(d, env_flags))
    return t


def _order(r):
    """Group by benchmark name, then parameters in numeric order."""
    return (r["bench"], [(k, (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v)))
                         for k, v in sorted((r["params"] or {}).items())])


def _cells(d, env_flags):
    """Table cells of one stats.Summary."""
    cyc = d.cycles_per_op
    cyc_s = "-" if cyc is None else f"{_sig(cyc)} {METHOD_TAG.get(d.cycles_method, d.cycles_method)}"
    flags = [f for f in d.flags if f not in env_flags]
    ci = "-" if d.ci_rel is None else "±" + fmt_pct(d.ci_rel)
    return (fmt_value(d), cyc_s, fmt_rate(d.ops_per_s), ci, fmt_pct(d.rcv), fmt_pct(d.round_cv),
            "-" if d.determinism is None else f"{d.determinism:.1f}%", ", ".join(flags))


def show(store, run, file=None, beside=None):
    """beside: another run (bare metal, another OS) shown next to this one in the rtos-study view."""
    file = file or sys.stdout
    plain = not file.isatty()
    con = Console(file=file, force_terminal=not plain, width=None if not plain else 250,
                  highlight=False, soft_wrap=False, no_color=plain)
    results = store.results(run["id"])
    for line in header_lines(run):
        con.print(line, markup=False)
    inc = incomplete_line(run, len(results))
    if inc:
        con.print(Text(inc, style=None if plain else "bold red"))
    if results:
        fp = run.get("fingerprint") or {}
        table = build_table(results, fp.get("flags") or [], plain)
        # never cut numbers: on a narrow terminal let the lines run long rather than truncate
        need = Measurement.get(con, con.options.update_width(1000), table).maximum
        if need > con.width:
            con.width = need
        con.print(table)
        if run.get("suite") == "rtos-study" or beside is not None:
            from . import rtos_study
            other = None
            if beside is not None:
                bfp = beside.get("fingerprint") or {}
                label = bfp.get("board") or beside.get("name") or f"run {beside['id']}"
                other = (label, store.results(beside["id"]))
            rtos_study.show(results, con, beside=other)
    else:
        con.print("(no results)")
    from . import nbench
    for line in nbench.report_lines(store, run):  # runs with cpu.* results: nbench-style indices
        con.print(line, markup=False, highlight=False)
    notes = run.get("notes") or {}
    for p in notes.get("problems", []):
        con.print(Text("problem: " + printable(p), style=None if plain else "red"))
    if notes.get("malformed"):
        con.print(f"{notes['malformed']} bad TM1 record(s) ignored (malformed, invalid, out of order or duplicated)")
