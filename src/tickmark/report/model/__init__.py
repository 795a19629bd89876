"""The report model: everything a report says about stored runs, built once from the store as
plain JSON-ready data, and rendered by every view (terminal, Markdown, HTML, JSON). A view reads
the model it is given and nothing else: no store, no statistics of its own.

    model = build(store, ["o2", "os"])
    model["runs"][i]      header, machine (fingerprint in words), environment flags with their
                          meaning, one row per benchmark metric (value, CI, spread, determinism,
                          flags), the nbench indices, the RTOS-study figures, and the series the
                          plots draw
    model["board"]        the board page: lmbench's summary figures from all the runs (board.py)
    model["families"]     which runs hold each family
    model["compare"]      for two runs or more: each run against the first earlier run that
                          shares a benchmark with it, as the document `compare --format json`
                          prints (compare.py; None when none was compared);
                          model["compare_notes"] says which were not compared and why
    model["rtos_study"]   for two runs or more of the rtos-study suite: the study's table across
                          them (analysis/rtos_table.py), else None
    model["kernel_entry"] the kernel-entry table: one row per run with trap.* results (a system:
                          bare metal, an RTOS, Linux), the cost of each way into the kernel
                          (kernel_entry.py), else None; a run's own model has its row (and the
                          row of a run shown beside it) under "kernel_entry", and its host-clock
                          table under "host_clock"

One module per section: run.py (one run: header, rows, families, problems), series.py (what the
plots draw), memory.py (bandwidth, memfn and topology tables), compare.py (comparisons and a
campaign's summary), board.py (the board page), kernel_entry.py (the kernel-entry and host-clock
tables). The models of the other terminal views are
named here too: counters_model (show --counters), bandwidth_model and memfn_model (the memory
family's tables), comparison (compare, matrix), campaign_model (a campaign's summary),
topology_model (tickmark topology), board_model (show --summary).

Nothing here formats for a medium beyond short texts shared by all views (value_text etc.).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from ...analysis import rtos_table, thread_metric
from ...base.shapes import StoreReader
from ...store.analyses import rtos_table_of_runs, thread_metric_table_of_runs
from .board import BoardModel, board_model
from .compare import campaign_model, compare_model, comparison, family_covers
from .kernel_entry import KernelEntryTable, report_kernel_entry
from .memory import bandwidth_model, memfn_model, topology_model
from .run import (
    EVENTS_NOTE,
    FLAG_MEANINGS,
    RunModel,
    counters_model,
    essentials,
    result_rows,
    rtos_study_rows,
    run_model,
    where,
)
from .series import nbench_series

FORMAT = "tickmark-report"
# 2: "compare" is the comparison document of `compare --format json` (was its list of pairs);
# 3: "kernel_entry" (the report's and each run's) is the table of kernel_entry.py, a run's
# "host_clock" is {"title", "rows", "notes"} (was its list of rows)
VERSION = 3


class FamilyRuns(TypedDict):
    family: str
    runs: list[int]


class _ReportHead(TypedDict):
    format: str
    version: int
    board: BoardModel | None
    families: list[FamilyRuns]
    runs: list[RunModel]
    compare: dict[str, Any] | None
    compare_notes: list[str]


class ReportModel(_ReportHead, total=False):
    """The report model (build): what every view of `tickmark report` renders."""

    rtos_study: dict[str, Any] | None
    thread_metric: dict[str, Any] | None
    kernel_entry: KernelEntryTable | None


__all__ = [
    "ReportModel",
    "RunModel",
    "EVENTS_NOTE",
    "FLAG_MEANINGS",
    "bandwidth_model",
    "board_model",
    "build",
    "campaign_model",
    "compare_model",
    "comparison",
    "counters_model",
    "essentials",
    "family_covers",
    "memfn_model",
    "nbench_series",
    "result_rows",
    "rtos_study_rows",
    "run_model",
    "topology_model",
    "where",
]


def build(store: StoreReader, refs: Sequence[Any] | None = ("latest",), with_compare: bool = True) -> ReportModel:
    """The model of the runs `refs` (ids, names or 'latest') from `store`: whatever they hold,
    with comparisons where they overlap (compare_model) and the board page first."""
    given = [str(r) for r in (refs or ("latest",))]
    runs = [store.run(r) for r in given]
    models = [run_model(store, run) for run in runs]
    model: ReportModel = {
        "format": FORMAT,
        "version": VERSION,
        "board": board_model(store, runs, {m["id"]: m["topology"] for m in models}),
        "families": family_index(models),
        "runs": models,
        "compare": None,
        "compare_notes": [],
    }
    if with_compare and len(runs) >= 2:
        model["compare"], model["compare_notes"] = compare_model(store, runs, given)
    study = rtos_table_of_runs(store, runs)
    model["rtos_study"] = rtos_table.to_dict(study) if study is not None else None
    tm_table = thread_metric_table_of_runs(store, runs)
    model["thread_metric"] = thread_metric.to_dict(tm_table) if tm_table is not None else None
    model["kernel_entry"] = report_kernel_entry(store, runs)
    return model


def family_index(models: list[RunModel]) -> list[FamilyRuns]:
    """[{"family", "runs": [run id, ...]}]: which of the report's runs hold each family."""
    out: dict[str, list[int]] = {}
    for m in models:
        for f in m["families"]:
            out.setdefault(f["family"], []).append(m["id"])
    return [{"family": f, "runs": ids} for f, ids in sorted(out.items())]
