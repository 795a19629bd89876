"""nbench (BYTEmark 2.2.3) figures of the cpu.* kernels: iterations/s in nbench's units, the
original index (Pentium 90 baseline) and the new index (AMD K6/233 baseline) per kernel, and the
group indices as geometric means over the published groupings.

One iteration of a cpu.* kernel does the work of one nbench iteration at nbench's starting
workload. nbench counts some workloads in smaller units: bitfield counts bits (2,258,842 per
iteration) and Fourier counts coefficients (199 per iteration); `units` below converts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..base.shapes import Row, SamplesOf
from .stats import Stats

# name, nbench label, units per iteration, P90 baseline, K6/233 baseline, original group, Linux group
KERNELS: tuple[tuple[str, str, int, float, float, str, str], ...] = (
    ("cpu.numsort", "NUMERIC SORT", 1, 38.993, 118.73, "INTEGER", "INTEGER"),
    ("cpu.stringsort", "STRING SORT", 1, 2.238, 14.459, "INTEGER", "MEMORY"),
    ("cpu.bitfield", "BITFIELD", 2258842, 5829704.0, 27910000.0, "INTEGER", "MEMORY"),
    ("cpu.fpemu", "FP EMULATION", 1, 2.084, 9.0314, "INTEGER", "INTEGER"),
    ("cpu.fourier", "FOURIER", 199, 879.278, 1565.5, "FLOATING-POINT", "FLOATING-POINT"),
    ("cpu.assign", "ASSIGNMENT", 1, 0.2628, 1.0132, "INTEGER", "MEMORY"),
    ("cpu.idea", "IDEA", 1, 65.382, 220.21, "INTEGER", "INTEGER"),
    ("cpu.huffman", "HUFFMAN", 1, 36.062, 112.93, "INTEGER", "INTEGER"),
    ("cpu.nnet", "NEURAL NET", 1, 0.6225, 1.4799, "FLOATING-POINT", "FLOATING-POINT"),
    ("cpu.lu", "LU DECOMPOSITION", 1, 19.3031, 26.732, "FLOATING-POINT", "FLOATING-POINT"),
)
NAMES = tuple(k[0] for k in KERNELS)
_BY_NAME = {k[0]: k for k in KERNELS}

# nbench raises each group product to these literal exponents (not exact fractions).
ORIGINAL_GROUPS = (("INTEGER", 0.142857), ("FLOATING-POINT", 0.33333))
LINUX_GROUPS = (("MEMORY", 0.3333333333), ("INTEGER", 0.25), ("FLOATING-POINT", 0.3333333333))

# Two-sided 95 % Student-t values by degrees of freedom 1..29 (nbench's stopping rule).
_T95 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
)
CI_TARGET = 0.05
MAX_SAMPLES = 30


def rate(name: str, ns_per_iteration: float | None) -> float:
    """nbench's Iterations/sec for a kernel from nanoseconds per cpu.* iteration."""
    if not ns_per_iteration or ns_per_iteration <= 0:
        raise ValueError(f"{name}: no time per iteration")
    return _BY_NAME[name][2] * 1e9 / ns_per_iteration


def indices(name: str, it_per_s: float) -> tuple[float, float]:
    """(original index vs Pentium 90, new index vs AMD K6/233) of one kernel."""
    k = _BY_NAME[name]
    return it_per_s / k[3], it_per_s / k[4]


def group_indices(rates: dict[str, float]) -> tuple[dict[str, float | None], dict[str, float | None]]:
    """Group indices from {name: nbench it/s}; a group is None unless all its kernels are there."""

    def groups(spec: tuple[tuple[str, float], ...], col: int, base_col: int) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for group, exponent in spec:
            members = [k for k in KERNELS if k[col] == group]
            if all(k[0] in rates for k in members):
                prod = math.prod(rates[k[0]] / float(k[base_col]) for k in members)
                out[group] = prod**exponent
            else:
                out[group] = None
        return out

    return groups(ORIGINAL_GROUPS, 5, 3), groups(LINUX_GROUPS, 6, 4)


def partial_groups(rates: dict[str, float]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The groups a run has some but not all kernels of -> {group: {"value", "have", "of",
    "missing"}} for the original and the Linux groupings: value is the geometric mean of the
    present kernels' index (its own exponent, 1/have: nbench's literal one is for the full
    group). A partial index says how those kernels did; it is not comparable with a full one."""

    def groups(spec: Any, col: int, base_col: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for group, _ in spec:
            members = [k for k in KERNELS if k[col] == group]
            have = [k for k in members if k[0] in rates]
            if have and len(have) < len(members):
                prod = math.prod(rates[str(k[0])] / float(k[base_col]) for k in have)
                missing = [k[1] for k in members if k[0] not in rates]
                out[group] = {
                    "value": prod ** (1 / len(have)),
                    "have": len(have),
                    "of": len(members),
                    "missing": missing,
                }
        return out

    return groups(ORIGINAL_GROUPS, 5, 3), groups(LINUX_GROUPS, 6, 4)


def t_halfwidth(values: Sequence[float]) -> float | None:
    """nbench's criterion: Student-t 95 % half-width of the mean, relative to the mean."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    if mean <= 0:
        return None
    s = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    t = _T95[n - 2] if n - 1 <= len(_T95) else 1.96
    return t * s / math.sqrt(n) / mean


def sample_rates(samples: list[Row], units: float) -> tuple[str, list[float]]:
    """Per-sample nbench rates -> (basis, rates): on process CPU time (the task-clock counter)
    when every sample has it, as nbench's clock() timer measures ("cpu"); else on wall time
    ("wall")."""
    cpu = [
        units * s["ctr_ops"] * 1e9 / s["ctr"]["task_clock"]
        for s in samples
        if (s.get("ctr") or {}).get("task_clock") and s.get("ctr_ops")
    ]
    if cpu and len(cpu) == len(samples):
        return CPU, cpu
    return WALL, [units * s["iters"] * 1e9 / s["ns"] for s in samples if s.get("ns", 0) > 0]


CPU, WALL = "cpu", "wall"
BASIS_TEXT: dict[str | None, str] = {
    CPU: "process CPU time (task-clock), as nbench",
    WALL: "wall time (no task-clock on this target)",
    "mixed": "CPU time (task-clock) where counted, else wall time",
}


MIN_CLEAN = 5  # clean samples enough to stand for a kernel without the switched ones


def clean_samples(samples: list[Row]) -> tuple[list[Row], int]:
    """The samples no context switch or migration hit (their rate on CPU time is the kernel's
    own: a switch refills the caches on the kernel's CPU time, 5-16 % slower per sample for the
    memory-heavy kernels on a busy 2-CPU guest), when at least MIN_CLEAN of them are left;
    else all of them -> (samples, how many were left out)."""
    clean = [s for s in samples if not s.get("nivcsw") and s.get("cpu0", 0) == s.get("cpu1", 0)]
    if len(clean) >= MIN_CLEAN:
        return clean, len(samples) - len(clean)
    return samples, 0


def kernel_figures(name: str, samples: list[Row] | None, headline_ns: float | None = None) -> dict[str, Any]:
    """nbench's figures of one kernel from its samples: the mean of the per-sample rates (nbench
    reports the mean of its scores) with its Student-t 95 % half-width, both on one time basis
    (sample_rates), over the samples no context switch hit where enough are left (clean_samples)
    -> {rate, basis, n, ci, certain, switched_out}. Without samples: the rate of the stored
    headline (the median ns of wall time), basis "wall", no interval."""
    units = _BY_NAME[name][2]
    if samples:
        clean, out = clean_samples(samples)
        basis, vals = sample_rates(clean, units)
        if vals:
            ci = t_halfwidth(vals)
            return {
                "rate": sum(vals) / len(vals),
                "basis": basis,
                "n": len(vals),
                "ci": ci,
                "certain": ci is not None and ci <= CI_TARGET,
                "switched_out": out,
            }
    return {"rate": rate(name, headline_ns), "basis": WALL, "n": None, "ci": None, "certain": None}


def summarize(
    results: list[Row], samples_of: SamplesOf | None = None
) -> tuple[list[dict[str, Any]], tuple[dict[str, float | None], dict[str, float | None]]]:
    """Rows for the cpu.* results of a run: results are store result dicts; samples_of(result)
    returns its samples (dicts with iters, ns, and ctr/ctr_ops where counted) or None. Kernels
    not in the run are left out."""
    by_key = {r["key"]: r for r in results}
    rows: list[dict[str, Any]] = []
    for name, label, *_ in KERNELS:
        r = by_key.get(name)
        if r is None:
            continue
        row: dict[str, Any] = {"name": name, "label": label, "status": r["status"], "reason": r.get("reason") or ""}
        main = Stats.of(r).main
        if r["status"] == "ok" and main and main.value:
            row.update(kernel_figures(name, samples_of(r) if samples_of else None, main.value))
            row["old"], row["new"] = indices(name, row["rate"])
        rows.append(row)
    rates = {row["name"]: row["rate"] for row in rows if "rate" in row}
    return rows, group_indices(rates)


def basis_of(rows: list[dict[str, Any]]) -> str | None:
    """The time basis of a table of rows: "cpu", "wall", or "mixed" (None without rates)."""
    found = {row["basis"] for row in rows if row.get("rate") is not None}
    return found.pop() if len(found) == 1 else ("mixed" if found else None)


def side_by_side(runs: Sequence[tuple[str, list[dict[str, Any]], dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    """The study's main table for two runs or more: runs is [(label, rows, original groups,
    linux groups)] (summarize()'s figures). -> {"labels", "basis": per run, "groups": [{"group",
    "baseline", "values", "ratios"}], "kernels": [{"name", "label", "rates", "basis", "status",
    "ratios"}]}; a ratio is a run's figure over the first run's (above 1: faster than the
    first), None where either is missing."""

    def ratios(values: list[float | None]) -> list[float | None]:
        first = values[0]
        return [v / first if v is not None and first else None for v in values]

    labels = [run[0] for run in runs]
    groups: list[dict[str, Any]] = []
    for spec, pick in ((LINUX_GROUPS, 3), (ORIGINAL_GROUPS, 2)):
        for group, _ in spec:
            values = [(run[3] if pick == 3 else run[2]).get(group) for run in runs]
            groups.append(
                {
                    "group": group,
                    "baseline": "AMD K6/233" if pick == 3 else "Pentium 90",
                    "values": values,
                    "ratios": ratios(values),
                }
            )
    kernels: list[dict[str, Any]] = []
    for name, label, *_ in KERNELS:
        by_run = [next((row for row in run[1] if row["name"] == name), None) for run in runs]
        if all(row is None for row in by_run):
            continue
        rates = [row.get("rate") if row else None for row in by_run]
        kernels.append(
            {
                "name": name,
                "label": label,
                "rates": rates,
                "basis": [row.get("basis") if row else None for row in by_run],
                "status": [row["status"] if row else "absent" for row in by_run],
                "ratios": ratios(rates),
            }
        )
    return {"labels": labels, "basis": [basis_of(run[1]) for run in runs], "groups": groups, "kernels": kernels}
