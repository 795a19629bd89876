"""Terminal view of the board page (`tickmark show --summary RUN...`), rendered from its model
(model.board_model): lmbench's summary figures in small tables, the context switch as a
processes x private-data grid, and the memory latencies."""

import textwrap

from ...base.fmt import fmt_size
from ..console import console, print_table, styled_table


def render(m, file=None):
    con = console(file)
    plain = not con.is_terminal
    width = max(60, con.width or 100)
    runs = f"run{'s' if len(m['runs']) > 1 else ''} {', '.join(map(str, m['runs']))}"
    con.print(textwrap.fill(f"lmbench's summary from {runs}: {m['what']}", width))
    for t in m["tables"]:
        if not any(x["value"] for x in t["rows"]):
            continue
        tab = styled_table(plain)
        tab.add_column("lmbench", no_wrap=True)
        tab.add_column("value", justify="right", no_wrap=True)
        tab.add_column("tickmark benchmark", no_wrap=True)
        tab.add_column("run", justify="right", no_wrap=True)
        for x in t["rows"]:
            tab.add_row(x["what"], x["text"], x["key"], x["run"] or "not measured")
        con.print()
        con.print(t["title"])
        print_table(con, tab)
    ctx = m.get("ctx")
    if ctx:
        tab = styled_table(plain)
        tab.add_column("procs", no_wrap=True)
        for s in ctx["sizes_kib"]:
            tab.add_column(f"{s}K", justify="right", no_wrap=True)
        for row in ctx["rows"]:
            tab.add_row(f"{row['procs']}p", *row["cells"])
        con.print()
        con.print(
            f"Context switch: time per switch (lmbench lat_ctx: sched.ctx_ring's {ctx['metric']}, run {ctx['run']})"
        )
        print_table(con, tab)
    mem = m.get("memory")
    if mem:
        tab = styled_table(plain)
        for c, just in (("level", "left"), ("size", "right"), ("load latency", "right")):
            tab.add_column(c, justify=just, no_wrap=True)
        for x in mem["rows"]:
            tab.add_row(x["what"], fmt_size(x["size"]) if x["size"] else "-", x["text"])
        con.print()
        con.print(f"Memory latency (the levels detected in run {mem['run']})")
        print_table(con, tab)
