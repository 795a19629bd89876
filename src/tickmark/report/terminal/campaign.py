"""Terminal summary of a campaign: the cell table, then for each variant and workload the other
targets compared with the baseline (and, for the rtos-study suite, the study's table)."""

import sys

from ...analysis import rtos_table
from ...store.refs import run_compare
from . import rtos_table as rtos_view
from .compare import render


def campaign_summary(store, spec, cs, file=None):
    """The cell table, then for each variant and workload the other targets against the baseline."""
    file = file or sys.stdout
    w = max(len(c.id) for c in cs)
    print(
        f"campaign {spec.name}: {len(cs)} cells "
        f"({len(spec.targets)} targets x {len(spec.variants)} variants x {len(spec.workloads)} workloads)",
        file=file,
    )
    for c in cs:
        extra = f"run {c.run_id}, {c.results} results" if c.run_id is not None else ""
        if c.state == "done":
            extra += f", {c.seconds:.0f} s"
        if c.message:
            extra += ("; " if extra else "") + c.message
        print(f"  {c.id:<{w}}  {c.state:<11}  {extra}", file=file)
    counts = {}
    for c in cs:
        counts[c.state] = counts.get(c.state, 0) + 1
    print("  " + ", ".join(f"{n} {s}" for s, n in counts.items()), file=file)
    complete = {(c.target, c.variant, c.workload): c for c in cs if c.state in ("done", "finished")}
    groups = 0
    for v in spec.variants:
        for wl in spec.workloads:
            order = [spec.baseline] + [t for t in spec.targets if t != spec.baseline]
            runs = [complete[(t, v, wl)].run_name for t in order if (t, v, wl) in complete]
            if len(runs) < 2:
                continue
            groups += 1
            print(f"\ncross-target compare, variant {v}, workload {wl} (baseline {runs[0]}):", file=file)
            file.flush()
            sides, pairs = run_compare(store, runs)
            render(sides, pairs, file=file, show_counters=False)
            study = rtos_table.from_runs(store, [store.run(r) for r in runs])
            if study is not None:  # the rtos-study suite: the study's own table as well
                print(file=file)
                file.flush()
                rtos_view.show(rtos_table.to_dict(study), file=file)
    if not groups:
        print("\n(no cross-target compare: fewer than two targets finished any variant and workload)", file=file)
    return counts
