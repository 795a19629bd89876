"""Terminal table of the RTOS-vs-Linux study figures (analysis/rtos_study.py picks them out):
ns, cycles and determinism per figure, beside the cycles the study published."""

from rich import box
from rich.measure import Measurement
from rich.table import Table

from ...analysis.rtos_study import STUDY_CYCLES, rows


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
