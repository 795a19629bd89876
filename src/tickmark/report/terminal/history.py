"""Terminal view of a history (report/history.py): one line per benchmark, then each change in
words with what changed in the runs' fingerprints there."""

from rich.table import Table

from ..console import console, fit_table
from ..history import change_text, signed_pct, value_text


def show(model, file=None):
    con = console(file)
    series = model["series"]
    n_changes = sum(len(s["changes"]) for s in series)
    n = len(series)
    con.print(
        f"history of {model['runs']} runs ordered by {model['by']}: {n} benchmark{'s' if n != 1 else ''}, "
        f"{n_changes} change{'s' if n_changes != 1 else ''}",
        highlight=False,
    )
    t = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    for col in ("benchmark", "points", "first", "newest", "noise", "changes"):
        t.add_column(col, no_wrap=col != "changes", justify="right" if col in ("points", "noise") else "left")
    for s in series:
        pts = s["points"]
        ch = ", ".join(
            f"{signed_pct(c['pct'])} at #{c['index'] + 1}" + ("?" if c["tentative"] else "") for c in s["changes"]
        )
        t.add_row(
            s["key"],
            str(len(pts)),
            value_text(pts[0]["value"], s["unit"]),
            value_text(pts[-1]["value"], s["unit"]),
            f"{s['noise'] * 100:.1f} %" if s["noise"] is not None else "-",
            ch or (s["skipped"] or "none"),
        )
    fit_table(con, t)
    con.print(t)
    if n_changes:
        con.print("\nchanges:", highlight=False)
        for s in series:
            for c in s["changes"]:
                head, what = change_text(s, c, model["by"])
                con.print(f"  {s['key']}: {head}", highlight=False, soft_wrap=True)
                con.print(f"      {what}", highlight=False, soft_wrap=True)
