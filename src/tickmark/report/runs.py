"""The stored runs as `tickmark runs` lists them: the model (one row per run, what ran, where,
with which labels), built from the store's run rows; the view is report/terminal/runs.py."""

from ..base import names
from ..base.fmt import known
from ..base.suites import SUITES


def what_ran(run):
    """'suite os + sys.*  [gcc -O2]': the suite and patterns of a run, with its build variant."""
    what = run["suite"] and f"suite {run['suite']}" or " ".join(map(str, run["patterns"]))
    extra = [str(p) for p in run["patterns"] if p not in SUITES.get(run["suite"], run["patterns"])]
    if extra:  # patterns given beside the suite (run --suite os 'sys.*')
        what += " + " + " ".join(extra)
    variant = (run.get("fingerprint") or {}).get("variant")
    return f"{what}  [{variant}]" if variant else what


def runs_model(runs):
    """The rows of `tickmark runs` (store run rows, oldest first) -> [{id, started, status,
    results, name, target, labels, benchmarks}], texts as stored (the view escapes them)."""
    return [
        {
            "id": r["id"],
            "started": names.when(r["started"], "%Y-%m-%d %H:%M"),
            "status": r["status"],
            "results": r["n_results"],
            "name": r["name"] or "-",
            "target": known((r.get("fingerprint") or {}).get("target_uri"), "?"),
            "labels": names.labels_text(names.run_labels(r)),
            "benchmarks": what_ran(r),
        }
        for r in runs
    ]
