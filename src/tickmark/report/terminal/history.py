"""Terminal view of a history (report/history.py): the metric, one line per series, what sets
apart the series of one benchmark, then each change in words with what changed in the runs'
fingerprints there, one field a line, within the console's width."""

import textwrap

from rich.table import Table

from ..console import console, print_table
from ..history import change_text, signed_pct, value_text


def show(model, file=None):
    con = console(file)
    width = max(con.width, 40)  # the table may widen the console for its figures; words keep this
    series = model["series"]
    n_changes = sum(len(s["changes"]) for s in series)
    n = len({s["key"] for s in series})
    apart = len(series) - n
    say = [
        f"history of {model['runs']} runs ordered by {model['by']}: {n} benchmark{'s' if n != 1 else ''}"
        + (f" in {len(series)} series" if apart else "")
        + f", {n_changes} change{'s' if n_changes != 1 else ''}",
        f"metric: {model['metric_text']}",
    ]
    for line in say:
        _wrapped(con, width, line, "", "  ")
    t = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    for col in ("benchmark", "points", "first", "newest", "noise", "changes"):
        t.add_column(col, no_wrap=col != "changes", justify="right" if col in ("points", "noise") else "left")
    for s in series:
        pts = s["points"]
        ch = ", ".join(
            f"{signed_pct(c['pct'])} at #{c['index'] + 1}" + ("?" if c["tentative"] else "") for c in s["changes"]
        )
        t.add_row(
            s["name"],
            str(len(pts)),
            value_text(pts[0]["value"], s["unit"]),
            value_text(pts[-1]["value"], s["unit"]),
            f"{s['noise'] * 100:.1f} %" if s["noise"] is not None else "-",
            ch or (s["skipped"] or "none"),
        )
    print_table(con, t)
    if apart:
        con.print("\nseries kept apart (their runs cannot be compared):", highlight=False)
        for s in series:
            if s["where"]:
                _wrapped(con, width, f"{s['name']}: {', '.join(s['where'])}", "  ", "      ")
    for s in series:
        if s.get("contended"):
            _wrapped(con, width, f"{s['name']}: {s['contended']}", "", "  ")
    if n_changes:
        con.print("\nchanges (? tentative):", highlight=False)
        for s in series:
            for c in s["changes"]:
                head, what = change_text(s, c, model["by"])
                _wrapped(con, width, f"{s['name']}: {head}", "  ", "      ")
                if what:
                    con.print("      what changed there:", highlight=False)
                    for line in what:
                        _wrapped(con, width, line, "        ", "          ")
                else:
                    con.print("      no fingerprint field or label changed there", highlight=False)


def _wrapped(con, width, text, first, rest):
    """A line of words wrapped to width (long words, such as a path, are cut)."""
    for line in textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest):
        con.print(line, highlight=False, soft_wrap=True)
