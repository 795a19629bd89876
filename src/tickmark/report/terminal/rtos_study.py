"""Terminal table of the RTOS-vs-Linux study figures of a run's model (model.rtos_study_rows;
analysis/rtos_study.py picks them out): ns, cycles and determinism per figure, beside the cycles
the study published."""

from ..console import print_table, styled_table


def _num(x, digits=0):
    return "-" if x is None else f"{x:,.{digits}f}"


def _cycles(row):
    return _num(row["cycles"]) + (f" ({row['cycles_method']})" if row["cycles_method"] else "")


def _det(row):
    return "-" if row["det"] is None else f"{row['det']:.1f}%"


def build_table(study, plain=False):
    """study: the model's figures (rows) and those of a second run beside them (the same suite
    on bare metal, say), shown in columns of its own (cycles, or instructions under QEMU icount,
    and determinism)."""
    beside = study.get("beside")
    t = styled_table(
        plain,
        title="RTOS-vs-Linux study figures on this target",
    )
    cols = ["figure", "benchmark", "ns", "cycles", "det"]
    if beside:
        cols += [f"{beside['label']}: cycles", f"{beside['label']}: det"]
    for col in cols + ["study RTOS / Linux cycles"]:
        t.add_column(col, justify="left" if col in ("figure", "benchmark") else "right", no_wrap=True)
    other = beside["rows"] if beside else None
    for i, row in enumerate(study["rows"]):
        ref = f"{row['study'][0]:,} / {row['study'][1]:,}" if row["study"] else "-"
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


def show(study, console):
    beside = study.get("beside")
    print_table(console, build_table(study, plain=not console.is_terminal))
    console.print(
        "det = largest deviation of a round's median from the overall median. "
        "Cycles of a sub-figure use its benchmark's cycles per ns"
        + ("; (icount-insns) are guest instructions under QEMU -icount." if beside else ".")
    )
