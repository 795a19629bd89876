"""Terminal table of the RTOS-vs-Linux study figures of a run's model (model.rtos_study_rows;
analysis/rtos_study.py picks them out): ns, cycles and determinism per figure, beside the cycles
the study published."""

from ...base.fmt import fmt_pct
from ..console import print_table, styled_table


def _num(x, digits=0):
    return "-" if x is None else f"{x:,.{digits}f}"


def _cycles(row):
    return _num(row["cycles"]) + (f" ({row['cycles_method']})" if row["cycles_method"] else "")


def _insn(row):
    return _num(row["cycles"])


# the study's own figures: cycles of real hardware, never under a heading that guest instructions share
REFERENCE = "study, hw cycles: RTOS / Linux"


def _det(row):
    return fmt_pct(row["det"])


def build_table(study, plain=False):
    """study: the model's figures (rows) and those of a second run beside them (the same suite
    on bare metal, say), shown in columns of its own (cycles, or instructions under QEMU icount,
    and determinism)."""
    beside = study.get("beside")
    exact = study.get("exact")  # guest instructions (QEMU -icount): no time column, no "cycles"
    t = styled_table(
        plain,
        title="RTOS-vs-Linux study figures on this target",
    )
    unit, figure = ("insn", _insn) if exact else ("cycles", _cycles)
    cols = ["figure", "benchmark"] + ([] if exact else ["ns"]) + [unit, "det"]
    if beside:
        cols += [f"{beside['label']}: {unit}", f"{beside['label']}: det"]
    for col in cols + [REFERENCE]:
        t.add_column(col, justify="left" if col in ("figure", "benchmark") else "right", no_wrap=True)
    other = beside["rows"] if beside else None
    for i, row in enumerate(study["rows"]):
        ref = f"{row['study'][0]:,} / {row['study'][1]:,}" if row["study"] else "-"
        if row["ns"] is None:
            cells = [f"{row['status']}: {row['reason']}".strip(": "), ""] + ([] if exact else [""])
        else:
            cells = ([] if exact else [_num(row["ns"], 1)]) + [figure(row), _det(row)]
        if other:
            o = other[i]
            if o["cycles"] is not None:
                cells += [figure(o), _det(o)]
            else:
                cells += [f"{o['status']}: {o['reason']}".strip(": "), ""]
        t.add_row(row["figure"], row["key"], *cells, ref)
    return t


def show(study, console):
    print_table(console, build_table(study, plain=not console.is_terminal))
    if study.get("note"):
        console.print(study["note"], markup=False)
    console.print(
        "det = largest deviation of a round's median from the overall median. "
        + (
            "insn: guest instructions counted by QEMU -icount, a sub-figure's from its share of the benchmark's count. "
            if study.get("exact")
            else "Cycles of a sub-figure use its benchmark's cycles per ns. "
        )
        + "study, hw cycles: the study's published figures, cycles of real hardware (not guest instructions).",
        markup=False,
    )
