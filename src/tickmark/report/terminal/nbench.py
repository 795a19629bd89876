"""Terminal view of the nbench (BYTEmark 2.2.3) figures of a run's cpu.* kernels: the table laid
out like nbench's own report (analysis/nbench.py computes the figures, the model carries them)."""

from ...analysis.nbench import CI_TARGET, LINUX_GROUPS, ORIGINAL_GROUPS


def _num(x, width, places):
    return f"{x:>{width}.{places}f}" if x is not None else f"{'-':>{width}}"


def lines(nb):
    """The model's nbench figures (model.nbench_series) as a text table laid out like nbench's
    report, so that it can sit beside old results."""
    rows, orig, linux = nb["rows"], nb["original_groups"], nb["linux_groups"]
    if nb.get("caveat"):  # no index: the rates, and why
        return _rates_only(nb)
    out = [
        "nbench 2.2.3 workloads (cpu.*): iterations/s in nbench units and BYTEmark indices",
        f"{'TEST':<20}: {'Iterations/sec.':>16} : {'Old Index':>11} : {'New Index':>11}",
        f"{'':<20}: {'':>16} : {'Pentium 90':>11} : {'AMD K6/233':>11}",
        f"{'-' * 20}:{'-' * 18}:{'-' * 13}:{'-' * 12}",
    ]
    uncertain = []
    for row in rows:
        if row.get("rate") is None:
            out.append(f"{row['label']:<20}: {row['status'].upper():>16} : {row['reason']}")
            continue
        note = ""
        if row.get("certain") is False:
            note = "  *"
            uncertain.append(row["label"])
        ci = f"  ±{row['ci'] * 100:.1f}% n={row['n']} {row['basis']}" if row.get("ci") is not None else ""
        out.append(
            f"{row['label']:<20}: {row['rate']:>16.6g} : {_num(row['old'], 11, 2)} : "
            f"{_num(row['new'], 11, 2)}{ci}{note}"
        )
    out.append("=" * 22 + " ORIGINAL BYTEMARK INDICES (Pentium 90 = 1) " + "=" * 12)
    for group, _ in ORIGINAL_GROUPS:
        out.append(f"{group + ' INDEX':<20}: {_num(orig[group], 10, 3)}")
    out.append("=" * 22 + " LINUX INDICES (AMD K6/233 = 1) " + "=" * 23)
    for group, _ in LINUX_GROUPS:
        out.append(f"{group + ' INDEX':<20}: {_num(linux[group], 10, 3)}")
    if any(v is None for v in list(orig.values()) + list(linux.values())):
        out.append("(a group index needs all of its kernels in the run)")
    if any(row.get("ci") is not None for row in rows):
        out.append(
            "±: Student-t 95% half-width of the mean of the per-sample rates (cpu: on "
            "process CPU time, like nbench's timer; wall: on wall time)"
        )
    if uncertain:
        out.append(
            f"* 95% CI half-width above ±{CI_TARGET * 100:.0f}% of the mean "
            f"(nbench's criterion): {', '.join(uncertain)}"
        )
    return out


def _rates_only(nb):
    out = [
        "nbench 2.2.3 workloads (cpu.*): iterations in nbench units, no BYTEmark index",
        f"{'TEST':<20}: {'Iterations/1e9 insn':>20}",
        f"{'-' * 20}:{'-' * 21}",
    ]
    for row in nb["rows"]:
        if row.get("rate") is None:
            out.append(f"{row['label']:<20}: {row['status'].upper():>20} : {row['reason']}")
        else:
            ci = f"  ±{row['ci'] * 100:.1f}% n={row['n']}" if row.get("ci") is not None else ""
            out.append(f"{row['label']:<20}: {row['rate']:>20.6g}{ci}")
    out.append(nb["caveat"])
    return out
