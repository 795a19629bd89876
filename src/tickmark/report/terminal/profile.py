"""Terminal views of profiles: the ranked routine table of one profile, and the changes between two."""

import sys

from ...analysis.compare import multiple
from ...base.fmt import fmt_time
from ...profile.model import GROUPS, describe, diff, group_shares
from ..console import console, lines_printable, wrap_words


def _pct(x):
    return f"{x * 100:.1f}%"


def header(prof):
    ns = prof.get("ns_per_op")
    per = f"{fmt_time(ns)} per {prof.get('unit') or 'op'}" if ns is not None else "no time per operation"
    src = f" ({prof['ns_source']})" if prof.get("ns_source") else ""
    return (
        f"{prof['key']}: {prof['tool']} ({prof['event']}), {prof['hits']} samples over "
        f"{prof['seconds']:.2f} s; {per}{src}"
    )


def _width(file):
    """The width of the output (the console's: the terminal's, or COLUMNS in a pipe)."""
    return console(file).width


def show(prof, top=15, file=None):
    """The ranked routines of one profile, within the output's width (a long line wraps under
    itself; a routine's name under the routine column)."""
    file = file or sys.stdout
    width = _width(file)
    unit = prof.get("unit") or "op"
    ns = prof.get("ns_per_op")
    shares = group_shares(prof)
    lines = wrap_words(header(prof), width) + wrap_words(
        "groups (self): " + "  ".join(f"{g} {_pct(shares[g])}" for g in GROUPS) + f"; kernel {prof.get('kernel', '')}",
        width,
    )
    for n in prof.get("notes") or ():
        lines += wrap_words(f"note: {n}", width)
    rows = [["self", "total", f"per {unit}", "group", "routine"]]
    shown = [r for r in prof["routines"] if r["self"] > 0][:top]  # callers with no time of their own: total only
    for r in shown:
        syms = [s for s in r["symbols"] if s != r["name"]]
        name = r["name"] + (f" ({', '.join(syms[:2])})" if syms else "")
        rows.append(
            [
                _pct(r["self"]),
                _pct(r["total"]) if prof.get("totals", True) else "-",
                fmt_time(r["self"] * ns) if ns is not None else "-",
                r["group"],
                name,
            ]
        )
    w = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        head = "  ".join(c.rjust(w[i]) if i < 3 else c.ljust(w[i]) for i, c in enumerate(row[:4])) + "  "
        lines += wrap_words(row[4], width, head, " " * len(head))
    more = sum(1 for r in prof["routines"] if r["self"] > 0) - len(shown)
    if more > 0:
        lines.append(f"({more} more routines with samples not shown)")
    file.write(lines_printable("\n".join(lines)) + "\n")


def show_diff(a, b, label_a, label_b, top=8, file=None):
    """The routines whose share or time per operation changed most, in words (within the
    output's width)."""
    file = file or sys.stdout
    width = _width(file)
    unit = b.get("unit") or a.get("unit") or "op"
    nsa, nsb = a.get("ns_per_op"), b.get("ns_per_op")
    head = f"{a['key']}: B = {label_b} vs A = {label_a}"
    if nsa is not None and nsb is not None:
        head += f": {fmt_time(nsa)} \u2192 {fmt_time(nsb)} per {unit} ({multiple(nsb / nsa) if nsa else '-'})"
    lines = wrap_words(head, width)
    if a["tool"] != b["tool"]:
        lines += wrap_words(
            f"note: different samplers (A {a['tool']}, B {b['tool']}): shares compare, their resolution differs",
            width,
            "  ",
        )
    rows = [
        r
        for r in diff(a, b)
        if abs(r["self_b"] - r["self_a"]) >= 0.001 or (r.get("dns") is not None and abs(r["dns"]) > 0)
    ]
    for r in rows[:top]:
        lines += wrap_words(describe(r, unit), width, "  ")
    if not rows:
        lines.append("  no routine changed its share by 0.1 % or more")
    file.write(lines_printable("\n".join(lines)) + "\n")
    return rows
