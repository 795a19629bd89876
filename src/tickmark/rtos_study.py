"""The RTOS-vs-Linux study view: its seven figures side by side, in ns and cycles, with the
determinism of each (largest deviation of a round median from the overall median, in %).

The study measured heap alloc/free (1000 allocations of 4 bytes, then 1000 frees), mutex
lock/unlock, pthread_create/join and the context switch by yield, over 3 runs; it reported,
in cycles, RTOS vs Linux: heap alloc 1001 vs 11,499, mutex lock 53 vs 799, pthread_create
719 vs 85,478, context switch 47 vs 1,284. `tickmark run --suite rtos-study` repeats it on any
board; this module only picks the figures out of the stored results and lays them out.
"""

from rich import box
from rich.table import Table

from .stats import Stats

# (figure, benchmark key, sub-metric or "" for the headline)
FIGURES = [
    ("heap alloc (4 B)", "heap.malloc_free_4", "malloc"),
    ("heap free (4 B)", "heap.malloc_free_4", "free"),
    ("mutex lock", "sync.mutex", "lock"),
    ("mutex unlock", "sync.mutex", "unlock"),
    ("pthread_create", "thread.create_join", "create"),
    ("pthread_join", "thread.create_join", "join"),
    ("context switch (yield)", "sched.yield_switch", ""),
    ("semaphore round trip", "sync.sem_pingpong[cross=0]", ""),
    ("queue round trip (8 B)", "ipc.queue_pingpong[cross=0]", ""),
    ("control loop (1 iteration)", "loop.control", ""),
]
PATTERNS = sorted({key for _, key, _ in FIGURES})  # instance keys: a pattern with '[' picks one point

# published cycles, (RTOS, Linux), where the study gave them
STUDY_CYCLES = {
    "heap alloc (4 B)": (1001, 11499),
    "mutex lock": (53, 799),
    "pthread_create": (719, 85478),
    "context switch (yield)": (47, 1284),
}


def rows(results):
    """One dict per figure: figure, key, ns, cycles, cycles_method, det, status, reason."""
    by_key = {r["key"]: r for r in results}
    out = []
    for figure, key, sub in FIGURES:
        row = {
            "figure": figure,
            "key": key + (f" {sub}" if sub else ""),
            "ns": None,
            "cycles": None,
            "cycles_method": None,
            "det": None,
            "status": "missing",
            "reason": "not run",
        }
        r = by_key.get(key)
        if r is not None:
            st = Stats.of(r)
            main, d = st.main, st.get(sub)
            row["status"], row["reason"] = r["status"], r.get("reason") or ""
            if r["status"] == "ok" and d:
                row["ns"] = d.median
                row["det"] = d.determinism
                # cycles of a part: the headline's cycles per ns applied to the part's time
                if main and main.cycles_per_op is not None and main.median:
                    row["cycles"] = main.cycles_per_op / main.median * row["ns"]
                    row["cycles_method"] = main.cycles_method
            elif r["status"] == "ok":
                row["status"], row["reason"] = "no data", f"no sub-metric '{sub}'"
        out.append(row)
    return out


def _num(x, digits=0):
    return "-" if x is None else f"{x:,.{digits}f}"


def _cycles(row):
    return _num(row["cycles"]) + (f" ({row['cycles_method']})" if row["cycles_method"] else "")


def _det(row):
    return "-" if row["det"] is None else f"{row['det']:.1f}%"


def build_table(results, plain=False, beside=None):
    """beside: (label, results) of a second run, such as the same suite on bare metal, shown in
    columns of its own (cycles, or instructions under QEMU icount, and determinism)."""
    t = Table(
        box=box.ASCII2 if plain else box.SIMPLE_HEAD,
        pad_edge=False,
        show_edge=False,
        padding=(0, 1),
        header_style=None if plain else "bold",
        title="RTOS-vs-Linux study figures on this target",
    )
    cols = ["figure", "benchmark", "ns", "cycles", "det"]
    if beside:
        cols += [f"{beside[0]}: cycles", f"{beside[0]}: det"]
    for col in cols + ["study RTOS / Linux cycles"]:
        t.add_column(col, justify="left" if col in ("figure", "benchmark") else "right", no_wrap=True)
    other = rows(beside[1]) if beside else None
    for i, row in enumerate(rows(results)):
        study = STUDY_CYCLES.get(row["figure"])
        ref = f"{study[0]:,} / {study[1]:,}" if study else "-"
        if row["ns"] is None:
            cells = [f"{row['status']}: {row['reason']}".strip(": "), "", ""]
        else:
            cells = [_num(row["ns"], 1), _cycles(row), _det(row)]
        if other:
            o = other[i]
            if o["cycles"] is not None:
                cells += [_cycles(o), _det(o)]
            else:
                cells += [f"{o['status']}: {o['reason']}".strip(": "), ""]
        t.add_row(row["figure"], row["key"], *cells, ref)
    return t


def show(results, console, beside=None):
    from rich.measure import Measurement

    table = build_table(results, plain=not console.is_terminal, beside=beside)
    need = Measurement.get(console, console.options.update_width(1000), table).maximum
    width = console.width
    if need > width:  # never cut a figure: let the lines run long instead
        console.width = need
    console.print(table)
    console.width = width
    console.print(
        "det = largest deviation of a round's median from the overall median. "
        "Cycles of a sub-figure use its benchmark's cycles per ns"
        + ("; (icount-insns) are guest instructions under QEMU -icount." if beside else ".")
    )
