"""Analyses of stored runs: each reads from a store the rows that an analysis takes (its results,
their samples) and hands them to it. Analysis functions take rows, never a store (analysis/ does
not import the store: lint-imports checks it)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from ..analysis.nbench import _BY_NAME, CI_TARGET, MAX_SAMPLES, sample_rates, t_halfwidth
from ..analysis.os_topology import os_report
from ..analysis.rtos_table import Side, Table, build, side_label
from ..analysis.thread_metric import SUITE
from ..analysis.thread_metric import Table as ThreadMetricTable
from ..analysis.thread_metric import build as thread_metric_build
from ..analysis.topology import ROUND_BENCHES, analyse
from ..base.shapes import Row, StoreReader


def round_points(store: StoreReader, results: Iterable[Row]) -> dict[Any, list[Row]]:
    """Per round: results whose headline is that round's own minimum (for stability checks)."""
    per: dict[Any, list[Row]] = {}
    for r in results:
        if r.get("status") != "ok" or r["bench"] not in ROUND_BENCHES:
            continue
        by: dict[Any, float] = {}
        for smp in store.samples(r["id"]):
            if smp.get("ops"):
                v = smp["ns"] / smp["ops"]
                by[smp["round"]] = min(v, by.get(smp["round"], math.inf))
        for rnd, v in by.items():
            per.setdefault(rnd, []).append(dict(r, stats={"": {"min": v}}))
    return per


def topology_of_runs(
    store: StoreReader, runs: Sequence[Row], results: list[Row] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The one topology of stored runs: their results analysed with the first run's target's own
    figures (the OS's caches from its fingerprint, cpuid's TLBs from its hello), every round
    alone for the stability check -> (detected, os_report). `topology`, `show`, `report` and
    `bandwidth` all take it from here. store: anything with results(run_id) and samples(id)."""
    if results is None:
        results = [r for run in runs for r in store.results(run["id"])]
    fp = runs[0].get("fingerprint") or {}
    hello = runs[0].get("hello") or {}
    osr = os_report(fp)
    fcore = hello.get("fcore_khz") or fp.get("fcore_khz") or 0
    return analyse(results, fcore, hello, round_points(store, results), osr), osr


def nbench_unsettled(store: StoreReader, run_id: Any) -> list[str]:
    """Keys of the run's cpu.* results that do not meet nbench's criterion yet (half-width above
    ±5 % with fewer than 30 samples): the harness gives them extra rounds like noisy results."""
    out: list[str] = []
    for r in store.results(run_id):
        if r["key"] in _BY_NAME and r["status"] == "ok":
            smp = store.samples(r["id"])
            h = t_halfwidth(sample_rates(smp, _BY_NAME[r["key"]][2])[1])
            if len(smp) < MAX_SAMPLES and (h is None or h > CI_TARGET):
                out.append(r["key"])
    return out


def rtos_table_of_runs(store: StoreReader, runs: Iterable[Row]) -> Table | None:
    """The table of stored runs -> Table, or None when none of them ran the rtos-study suite (a
    report of one such run has its table too, as `show` has)."""
    study = [r for r in runs if r.get("suite") == "rtos-study"]
    if not study:
        return None
    return build([Side(side_label(r), r, store.results(r["id"])) for r in study])


def thread_metric_table_of_runs(store: StoreReader, runs: Iterable[Row]) -> ThreadMetricTable | None:
    """The table of the stored runs of the thread-metric suite among runs, or None."""
    picked = [r for r in runs if r.get("suite") == SUITE]
    if not picked:
        return None
    return thread_metric_build([(r, store.results(r["id"])) for r in picked])
