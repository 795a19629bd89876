"""Terminal view of the nbench (BYTEmark 2.2.3) figures of a run's cpu.* kernels: the table laid
out like nbench's own report (analysis/nbench.py computes the figures, the model carries them)."""

import textwrap

from ...analysis.nbench import CI_TARGET, LINUX_GROUPS, MIN_CLEAN, ORIGINAL_GROUPS
from ...base.fmt import fmt_it_rate
from ...base.units import IT_S


def _num(x, width, places):
    return f"{x:>{width}.{places}f}" if x is not None else f"{'-':>{width}}"


def lines(nb):
    """The model's nbench figures (model.nbench_series) as a text table laid out like nbench's
    report, so that it can sit beside old results."""
    rows, orig, linux = nb["rows"], nb["original_groups"], nb["linux_groups"]
    if nb.get("caveat"):  # no index: the rates, and why
        return _rates_only(nb)
    out = [
        "nbench 2.2.3 workloads (cpu.*): iterations/s in nbench units, BYTEmark indices",
        f"time basis: {nb['basis_text'] or '-'}",
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
            note = "*"
            uncertain.append(row["label"])
        ci = f" ±{row['ci'] * 100:.1f}% n={row['n']}" if row.get("ci") is not None else ""
        out.append(
            f"{row['label']:<20}: {row['rate']:>16.6g} : {_num(row['old'], 11, 2)} : "
            f"{_num(row['new'], 11, 2)}{ci}{note}"
        )
    part_orig, part_linux = nb.get("partial_groups") or ({}, {})
    out.append("=" * 22 + " ORIGINAL BYTEMARK INDICES (Pentium 90 = 1) " + "=" * 12)
    out += [_group_line(group, orig[group], part_orig.get(group)) for group, _ in ORIGINAL_GROUPS]
    out.append("=" * 22 + " LINUX INDICES (AMD K6/233 = 1) " + "=" * 23)
    out += [_group_line(group, linux[group], part_linux.get(group)) for group, _ in LINUX_GROUPS]
    if part_orig or part_linux:
        out += textwrap.wrap(
            "partial: the geometric mean of the index of the group's kernels in the run (its "
            "missing ones named), not comparable with a full group index",
            80,
        )
    if any(v is None for v in list(orig.values()) + list(linux.values())):
        out.append("(a group index needs all of its kernels in the run)")
    if any(row.get("ci") is not None for row in rows):
        out += textwrap.wrap(
            f"{IT_S}: the mean of the samples' rates (those a context switch hit left out where "
            f"{MIN_CLEAN} or more others remain); ±: Student-t 95% half-width of it",
            80,
        )
    wall = [row["label"] for row in rows if row.get("basis") == "wall"]
    if nb.get("basis") == "mixed" and wall:
        out += textwrap.wrap(f"on wall time (no task-clock): {', '.join(wall)}", 80)
    if uncertain:
        out += textwrap.wrap(
            f"* 95% CI half-width above ±{CI_TARGET * 100:.0f}% of the mean "
            f"(nbench's criterion): {', '.join(uncertain)}",
            80,
        )
    return out


def _group_line(group, full, partial):
    """One group index: the full one, or a partial one said as partial, or '-'."""
    line = f"{group + ' INDEX':<20}: {_num(full, 10, 3)}"
    if full is None and partial:
        line = f"{group + ' INDEX':<20}: {_num(partial['value'], 10, 3)} partial: {partial['have']} of {partial['of']}"
        left = ", ".join(partial["missing"])
        line += f", without {left}" if len(line) + len(left) + 10 <= 80 else " kernels"
    return line


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


def _cell(x, kind="rate"):
    """A cell of the side-by-side table: a rate (it/s), an index or a ratio."""
    if x is None:
        return "-"
    if kind == "ratio":
        return f"x{x:.2f}"
    if kind == "index":
        return f"{x:.2f}"
    return fmt_it_rate(x)


def _line(name, values, ratios, kind, cols):
    """One row of a block of the side-by-side table: the first run's figure, then each other
    run's figure and its ratio to the first."""
    return f"{name:<20}{_cell(values[0], kind):>10}" + "".join(
        f"{_cell(values[i], kind):>10}{_cell(ratios[i], 'ratio'):>7}" for i in cols[1:]
    )


RUNS_PER_BLOCK = 3  # columns of runs in one block: 80 columns hold the first run and two more


def side_by_side_lines(t):
    """The nbench index table of two runs or more (analysis/nbench.side_by_side) as text: the
    Linux and original group indices, then each kernel's iterations/s, per run (A, B, ...) with
    each run's ratio to A; runs past the third go into further blocks (A repeated)."""
    letters = [chr(ord("A") + i) if i < 26 else f"R{i + 1}" for i in range(len(t["labels"]))]
    icount = t.get("icount")
    what = "iterations per 10^9 guest instructions" if icount else f"indices and {IT_S}"
    out = [f"nbench side by side: {what} per run (above x1.00: faster than A)"]
    for letter, label, basis in zip(letters, t["labels"], t["basis"]):
        out.append(f"  {letter} = {label}" + ("" if icount else f" (on {basis or '-'} time)"))
    if len(set(t["basis"])) > 1 and not icount:
        out.append("  note: the runs' rates are on different clocks (task-clock and wall time)")
    others = list(range(1, len(letters)))
    for start in range(0, len(others), RUNS_PER_BLOCK - 1):
        cols = [0] + others[start : start + RUNS_PER_BLOCK - 1]
        head = f"{'':<20}{letters[0]:>10}" + "".join(f"{letters[i]:>10}{letters[i] + '/A':>7}" for i in cols[1:])
        out.append(head)
        for g in [] if icount else t["groups"]:
            short = "K6" if "K6" in g["baseline"] else "P90"
            out.append(_line(f"{g['group']} {short}", g["values"], g["ratios"], "index", cols))
        for k in t["kernels"]:
            out.append(_line(k["label"], k["rates"], k["ratios"], "rate", cols))
    if "verified" in t:
        out.append(
            "verified (each kernel checked its own output): "
            + ", ".join(f"{letter} {n} of {len(t['kernels'])}" for letter, n in zip(letters, t["verified"]))
        )
    if icount:
        out.append("QEMU -icount: 1 ns is one guest instruction; no BYTEmark index (an index compares times)")
    else:
        out.append("K6: Linux indices (AMD K6/233 = 1); P90: original indices (Pentium 90 = 1)")
    return out
