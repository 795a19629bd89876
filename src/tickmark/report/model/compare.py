"""The models of compared runs: `compare` and `matrix` (comparison), the report's comparisons
(compare_model) and a campaign's summary (campaign_model)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from ...analysis import rtos_table, thread_metric
from ...analysis.compare import Pair, Side
from ...base.errors import TickmarkError
from ...base.fmt import known
from ...base.names import decimal
from ...base.shapes import Row, StoreReader
from ...facts import fingerprint
from ...store.analyses import rtos_table_of_runs, thread_metric_table_of_runs
from . import codesize
from .series import nbench_comparison


class CampaignCell(TypedDict):
    id: Any
    state: str
    run_id: int | None
    results: int | None
    seconds: float | None
    message: str | None


class _GroupHead(TypedDict):
    variant: str
    workload: str
    baseline: str
    runs: list[str]
    comparison: dict[str, Any] | None
    error: str | None


class CampaignGroup(_GroupHead, total=False):
    """One variant and workload of a campaign: the other targets' runs against the baseline's."""

    rtos_study: dict[str, Any] | None
    thread_metric: dict[str, Any] | None


class CampaignModel(TypedDict):
    """A campaign's summary (campaign_model)."""

    name: str
    targets: int
    variants: int
    workloads: int
    loads: list[str]  # the loads axis: ["idle"] when the file names none
    cells: list[CampaignCell]
    counts: dict[str, int]
    groups: list[CampaignGroup]


def comparison(sides: Sequence[Side], pairs: list[Pair], metric: str | None = None) -> dict[str, Any]:
    """Compared runs (compare.py's sides and pairs) as every view and `compare --format json`
    read them, one shape for every command: the runs with what their machines could count, and
    per pair (the baseline A against B) the rows in benchmark order (parameters numerically,
    every row with every field of analysis/compare.py's ROW_FIELDS, None where compare has nothing), the family means
    with what each covers, the fingerprint differences with their labels, and a warning when one
    side ran emulated and the other did not; the nbench index table of the runs side by side
    (or None). metric: the one metric compared (--metric), None for every one."""
    from ...analysis import compare

    doc = compare.to_json(sides, pairs, metric)
    by_label = {s.label: s for s in sides}
    for c in doc["comparisons"]:
        c["warning"] = compare.mixing_warning(by_label[c["a"]], by_label[c["b"]])
        if c.get("isa") and not c["warning"]:
            c["warning"] = (
                f"{c['b']} ({c['isa'][1]}) and {c['a']} ({c['isa'][0]}) counted guest instructions (QEMU -icount) "
                "of two instruction sets: the ratios compare instruction counts, not speed, and call no verdict"
            )
        for d in c["differences"]:
            d["label"] = fingerprint.label(d["field"])  # a label of the runs: 'label:KEY'
            missing = "not set" if d["field"].startswith("label:") else "not recorded"
            d["a"], d["b"] = known(d["a"], missing), known(d["b"], missing)
        counted = bool(c.get("isa") or c.get("exact"))
        c["ratio_words"] = RATIO_WORDS[counted]
        for f in c["families"].values():
            f["multiple"] = compare.multiple_of(f["geomean_time_ratio"], False, counted)
            f["covers"] = family_covers(f)
        A, B = by_label[c["a"]], by_label[c["b"]]
        c["code_size"] = codesize.pair_model(A.fingerprint, B.fingerprint, c["rows"])
        c["rows"].sort(key=lambda r: _key_order(r["key"]) + (r.get("metric") or "",))
        for r in c["rows"]:
            r["family"] = r["bench"].split(".", 1)[0]
            for k in compare.ROW_FIELDS:  # every row has every field (None where compare has nothing)
                r.setdefault(k, None)
    doc["nbench"] = nbench_comparison(sides)
    return doc


# what a ratio B/A of a comparison is: of times, or of instruction counts (exact counts, QEMU -icount)
RATIO_WORDS = {False: "time ratio", True: "instruction ratio"}


def family_covers(f: dict[str, Any]) -> str:
    """What a family's geometric mean is taken over, in words: '16 benchmarks', '2 of 16
    benchmarks (14 unstable left out)', '3 benchmarks, all unstable'."""
    n, total = f["n"], f.get("of", f["n"])
    if f.get("all_unstable"):
        return f"{n} benchmark{'s' if n != 1 else ''}, all unstable"
    if total > n:
        return f"{n} of {total} benchmarks ({total - n} unstable left out)"
    return f"{n} benchmark{'s' if n != 1 else ''}"


def _key_order(key: str) -> tuple[Any, ...]:
    """'bench[a=1,b=64K]' -> a sort key with the parameters in numeric order."""
    bench, _, rest = key.partition("[")
    params = []
    for kv in rest.rstrip("]").split(","):
        k, _, v = kv.partition("=")
        params.append((k, (0, decimal(v), "") if decimal(v) is not None else (1, 0, v)))
    return (bench, params)


def compare_model(
    store: StoreReader, runs: list[Row], refs: Sequence[Any] | None = None
) -> tuple[dict[str, Any] | None, list[str]]:
    """The comparisons of a report of `runs` (run rows; `refs`: how each was given) where they
    overlap: each run against the first run before it that shares a benchmark with it (so the
    first run against each other when all share one) -> (document, notes). The document is
    comparison()'s, the one `compare --format json` prints, with every pair's comparison (None
    when no pair was compared); a note says which runs were not compared, and why (no
    benchmark in common, other units)."""
    from ...store.refs import run_compare

    given = [str(x) for x in refs] if refs else [str(run["id"]) for run in runs]
    ref_of = {run["id"]: ref for run, ref in zip(runs, given)}
    keys = {run["id"]: {r["key"] for r in store.results(run["id"])} for run in runs}
    groups: dict[Any, tuple[Row, list[Row]]] = {}
    notes: list[str] = []
    for i, b in enumerate(runs[1:], 1):
        base = next((a for a in runs[:i] if keys[a["id"]] & keys[b["id"]]), None)
        if base is None:
            notes.append(f"{_name(b)} shares no benchmark with {_earlier(runs[:i])}: not compared")
        else:
            groups.setdefault(base["id"], (base, []))[1].append(b)
    docs: list[dict[str, Any]] = []
    sides: dict[Any, Any] = {}
    for base, others in groups.values():
        for b in others:
            try:
                pair_sides, pairs = run_compare(store, [ref_of[base["id"]], ref_of[b["id"]]])
            except TickmarkError as e:  # runs in different units (QEMU icount beside time)
                notes.append(f"{_name(b)} not compared with {_name(base)}: {e}")
                continue
            docs.append(comparison(pair_sides, pairs))
            for side in pair_sides:
                sides.setdefault(side.run.get("id"), side)
    if len(docs) <= 1:
        return (docs[0] if docs else None), notes
    doc = dict(docs[0], comparisons=[c for d in docs for c in d["comparisons"]])
    doc["runs"] = list({r["label"]: r for d in docs for r in d["runs"]}.values())
    doc["nbench"] = nbench_comparison(list(sides.values()))
    return doc, notes


def _name(run: Row) -> str:
    return f"run {run['id']}" + (f" ({run['name']})" if run.get("name") else "")


def _earlier(runs: list[Row]) -> str:
    return _name(runs[0]) if len(runs) == 1 else "the runs before it"


def campaign_model(store: StoreReader, spec: Any, cells: Sequence[Any]) -> CampaignModel:
    """A campaign's summary: its cells and their states, then for each variant and workload the
    other targets' runs against the baseline target's (comparison); with loads, each target's
    runs under them beside its idle run (the baseline target's idle run first)."""
    from ...store.refs import run_compare

    counts: dict[str, int] = {}
    for c in cells:
        counts[c.state] = counts.get(c.state, 0) + 1
    complete = {(c.target, c.variant, c.workload, c.load): c for c in cells if c.state in ("done", "finished")}
    loads = list(spec.loads)
    groups: list[CampaignGroup] = []
    for v in spec.variants:
        for wl in spec.workloads:
            order = [spec.baseline] + [t for t in spec.targets if t != spec.baseline]
            keys = [(t, v, wl, load) for t in order for load in loads]
            runs = [complete[k].run_name for k in keys if k in complete]
            if len(runs) >= 2:
                g: CampaignGroup = {
                    "variant": v,
                    "workload": wl,
                    "baseline": runs[0],
                    "runs": runs,
                    "comparison": None,
                    "error": None,
                }
                try:
                    g["comparison"] = comparison(*run_compare(store, runs))
                except TickmarkError as e:  # runs in different units (QEMU icount beside time)
                    g["error"] = str(e)
                study = rtos_table_of_runs(store, [store.run(r) for r in runs])  # the rtos-study suite
                g["rtos_study"] = rtos_table.to_dict(study) if study is not None else None
                tm_table = thread_metric_table_of_runs(store, [store.run(r) for r in runs])  # the thread-metric suite
                g["thread_metric"] = thread_metric.to_dict(tm_table) if tm_table is not None else None
                groups.append(g)
    return {
        "name": spec.name,
        "targets": len(spec.targets),
        "variants": len(spec.variants),
        "workloads": len(spec.workloads),
        "loads": loads,
        "cells": [
            {
                "id": c.id,
                "state": c.state,
                "run_id": c.run_id,
                "results": c.results,
                "seconds": c.seconds,
                "message": c.message,
            }
            for c in cells
        ],
        "counts": counts,
        "groups": groups,
    }
