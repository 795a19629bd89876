"""Terminal summary of a campaign, rendered from its model (model.campaign_model): the cell table,
then for each variant and workload the other targets compared with the baseline (and, for the
rtos-study suite, the study's table)."""

import shutil
import sys
import textwrap

from ..console import width, wrap_words
from . import rtos_table as rtos_view
from . import thread_metric as thread_metric_view
from .compare import render_comparison

SUITE_TABLES = (("thread_metric", thread_metric_view), ("rtos_study", rtos_view))  # group key, its view


def campaign_summary(store, spec, cs, file=None):
    """The cell table, then for each variant and workload the other targets against the baseline
    -> the number of cells in each state."""
    from ..model import campaign_model

    m = campaign_model(store, spec, cs)
    render(m, file)
    return m["counts"]


def _quoted(name):
    """A run's name as a shell word."""
    import shlex

    return shlex.quote(str(name))


def render(m, file=None):
    file = file or sys.stdout
    cols = width(file) or shutil.get_terminal_size().columns
    w = max(len(c["id"]) for c in m["cells"])

    def say(text, indent="", rest="  "):  # a line of words within the width, wrapped under itself
        for line in wrap_words(text, cols, indent, rest):
            print(line, file=file)

    say(
        f"campaign {m['name']}: {len(m['cells'])} cells "
        f"({m['targets']} targets x {m['variants']} variants x {m['workloads']} workloads"
        + (f" x {len(m['loads'])} loads: {', '.join(m['loads'])})" if m["loads"] != ["idle"] else ")")
    )
    for c in m["cells"]:
        extra = f"run {c['run_id']}, {c['results']} results" if c["run_id"] is not None else ""
        if c["state"] == "done":
            extra += f", {c['seconds']:.0f} s"
        if c["message"]:
            extra += ("; " if extra else "") + c["message"]
        head = f"  {c['id']:<{w}}  {c['state']:<11}  "
        lines = textwrap.wrap(extra, max(24, cols - len(head))) or [""]  # the message wraps under itself
        print((head + lines[0]).rstrip(), file=file)
        for more in lines[1:]:
            print(" " * len(head) + more, file=file)
    say(", ".join(f"{n} {s}" for s, n in m["counts"].items()), "  ", "    ")
    for g in m["groups"]:
        print(file=file)
        # a suite with a table of its own (thread-metric, rtos-study): the table is the summary
        table = next(((view, g[k]) for k, view in SUITE_TABLES if g.get(k) is not None), None)
        if table is not None:
            say(f"variant {g['variant']}, workload {g['workload']}:")
            file.flush()
            table[0].show(table[1], file=file)
            say(
                f"each system against {g['baseline']}, benchmark by benchmark: "
                f"tickmark compare {' '.join(_quoted(r) for r in g['runs'])}"
            )
            continue
        what = "compare across targets and loads" if len(m["loads"]) > 1 else "cross-target compare"
        say(f"{what}, variant {g['variant']}, workload {g['workload']} (baseline {g['baseline']}):")
        file.flush()
        if g["error"]:
            say(f"not compared: {g['error']}", "  ", "    ")
            continue
        comparison = g["comparison"]
        if comparison.get("nbench"):  # the nbench study: its table first, the pairs after it
            from .nbench import side_by_side_lines

            for line in side_by_side_lines(comparison["nbench"]):
                print(line, file=file)
            print(file=file)
            comparison = dict(comparison, nbench=None)
        file.flush()
        render_comparison(comparison, file=file, show_counters=False)
    if not m["groups"]:
        print(file=file)
        if len(m["loads"]) > 1:
            say("(no compare: no variant and workload finished on two targets or under two loads)")
        else:
            say("(no cross-target compare: no variant and workload finished on two targets)")
