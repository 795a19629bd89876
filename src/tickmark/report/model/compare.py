"""The models of compared runs: `compare` and `matrix` (comparison), the report's comparisons
(compare_model) and a campaign's summary (campaign_model)."""

from ... import fingerprint
from ...analysis import rtos_table
from ...errors import TickmarkError
from ...fmt import known
from ...names import decimal
from . import codesize


def comparison(sides, pairs, metric=None):
    """Compared runs (compare.py's sides and pairs) as the views read them: the runs with what
    their machines could count, and per pair (the baseline A against B) the rows, the family
    means, the fingerprint differences with their labels, and a warning when one side ran
    emulated and the other did not. Rows in compare.py's order."""
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
            d["label"] = fingerprint.KEYS[d["field"]].label
            d["a"], d["b"] = known(d["a"], "not recorded"), known(d["b"], "not recorded")
        for f in c["families"].values():
            ratio = f["geomean_time_ratio"]
            f["multiple"] = compare.insn_multiple(ratio) if c.get("isa") else compare.multiple(ratio)
        A, B = by_label[c["a"]], by_label[c["b"]]
        c["code_size"] = codesize.pair_model(A.fingerprint, B.fingerprint, c["rows"])
    return doc


def _key_order(key):
    """'bench[a=1,b=64K]' -> a sort key with the parameters in numeric order."""
    bench, _, rest = key.partition("[")
    params = []
    for kv in rest.rstrip("]").split(","):
        k, _, v = kv.partition("=")
        params.append((k, (0, decimal(v), "") if decimal(v) is not None else (1, 0, v)))
    return (bench, params)


ROW_KEYS = (
    "metric",
    "unit",
    "higher",
    "median_a",
    "median_b",
    "ratio",
    "ci",
    "p",
    "verdict",
    "multiple",
    "det_a",
    "det_b",
    "rounds_needed",
    "note",
)


def compare_model(store, runs):
    """The comparisons of a report of `runs` (run rows) where they overlap: each run against the
    first run before it that shares a benchmark with it (so the first run against each other
    when all share one) -> (comparisons, notes). A comparison has rows with ratio, CI, verdict,
    family geometric means and fingerprint differences (compare.py's statistics, as its JSON);
    a note says which runs were not compared, and why (no benchmark in common, other units)."""
    from ...store.refs import run_compare

    keys = {run["id"]: {r["key"] for r in store.results(run["id"])} for run in runs}
    groups, notes = {}, []
    for i, b in enumerate(runs[1:], 1):
        base = next((a for a in runs[:i] if keys[a["id"]] & keys[b["id"]]), None)
        if base is None:
            notes.append(f"{_name(b)} shares no benchmark with {_earlier(runs[:i])}: not compared")
        else:
            groups.setdefault(base["id"], (base, []))[1].append(b)
    out = []
    for base, others in groups.values():
        for b in others:
            try:
                sides, pairs = run_compare(store, [str(base["id"]), str(b["id"])])
            except TickmarkError as e:  # runs in different units (QEMU icount beside time)
                notes.append(f"{_name(b)} not compared with {_name(base)}: {e}")
                continue
            out += comparison(sides, pairs)["comparisons"]
    for c in out:
        c["rows"].sort(key=lambda r: _key_order(r["key"]) + (r.get("metric") or "",))
        for r in c["rows"]:
            r["family"] = r["bench"].split(".", 1)[0]
            for k in ROW_KEYS:  # every row has every field (None where compare has nothing)
                r.setdefault(k, None)
    return out, notes


def _name(run):
    return f"run {run['id']}" + (f" ({run['name']})" if run.get("name") else "")


def _earlier(runs):
    return _name(runs[0]) if len(runs) == 1 else "the runs before it"


def campaign_model(store, spec, cells):
    """A campaign's summary: its cells and their states, then for each variant and workload the
    other targets' runs against the baseline target's (comparison)."""
    from ...store.refs import run_compare

    counts = {}
    for c in cells:
        counts[c.state] = counts.get(c.state, 0) + 1
    complete = {(c.target, c.variant, c.workload): c for c in cells if c.state in ("done", "finished")}
    groups = []
    for v in spec.variants:
        for wl in spec.workloads:
            order = [spec.baseline] + [t for t in spec.targets if t != spec.baseline]
            runs = [complete[(t, v, wl)].run_name for t in order if (t, v, wl) in complete]
            if len(runs) >= 2:
                g = {"variant": v, "workload": wl, "baseline": runs[0], "comparison": None, "error": None}
                try:
                    g["comparison"] = comparison(*run_compare(store, runs))
                except TickmarkError as e:  # runs in different units (QEMU icount beside time)
                    g["error"] = str(e)
                study = rtos_table.from_runs(store, [store.run(r) for r in runs])  # the rtos-study suite
                g["rtos_study"] = rtos_table.to_dict(study) if study is not None else None
                groups.append(g)
    return {
        "name": spec.name,
        "targets": len(spec.targets),
        "variants": len(spec.variants),
        "workloads": len(spec.workloads),
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
