"""The history of stored runs as a report: the model (analysis/history.py over the runs a filter
selects) and its views: a terminal table, Markdown, JSON, and one SVG trend per benchmark for
the HTML report (the points with their CIs, each level's noise band, the changes marked)."""

import fnmatch
import math
import re
import time

from .analysis import history
from .errors import TickmarkError
from .names import printable

FORMAT = "tickmark-history"
VERSION = 1
_SINCE = re.compile(r"(\d+)\s*([mhdw])")


def parse_since(text):
    """--since: a date (2026-11-01, 2026-11-01T08:30) or an age (30m, 12h, 7d, 2w) -> epoch seconds."""
    t = (text or "").strip()
    m = _SINCE.fullmatch(t)
    if m:
        return time.time() - int(m.group(1)) * {"m": 60, "h": 3600, "d": 86400, "w": 604800}[m.group(2)]
    for fmt in ("%Y-%m-%d", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"):
        try:
            return time.mktime(time.strptime(t, fmt))
        except ValueError:
            continue
    raise TickmarkError(f"bad --since '{printable(t)[:40]}' (a date such as 2026-11-01 or an age such as 7d, 12h)")


def check_by(by):
    """--by: time, kernel, label:KEY or another fingerprint field."""
    if by in (None, "time"):
        return None
    if by.startswith("label:") and len(by) > 6:
        return by
    if re.fullmatch(r"[a-z_][a-z0-9_]*", by or ""):
        return by
    raise TickmarkError(f"bad --by '{printable(by)[:40]}' (time, kernel, label:KEY or a fingerprint field)")


def glob_to_like(pattern):
    """A glob as an SQL LIKE pattern (backslash escapes), or None where LIKE cannot say it ([...])."""
    if "[" in pattern:
        return None
    out = []
    for ch in pattern:
        out.append({"*": "%", "?": "_", "%": "\\%", "_": "\\_", "\\": "\\\\"}.get(ch, ch))
    return "".join(out)


def select_runs(store, names=(), target=None, labels=None, since=None):
    """Stored runs that match every filter (complete and incomplete; runs still being written are
    left out): run name globs, a target URI glob, labels KEY=VALUE, started since (epoch seconds)."""
    out = []
    for r in store.runs():
        if r["status"] == "running":
            continue
        if names and not any(fnmatch.fnmatchcase(r.get("name") or "", n) for n in names):
            continue
        fp = r.get("fingerprint") or {}
        if target and not fnmatch.fnmatchcase(str(fp.get("target_uri") or ""), target):
            continue
        have = (r.get("notes") or {}).get("labels") or {}
        if labels and any(have.get(k) != v for k, v in labels.items()):
            continue
        if since is not None and r["started"] < since:
            continue
        out.append(r)
    return out


def build(store, patterns=(), by=None, names=(), target=None, labels=None, since=None, metric=""):
    """The history model: per benchmark key matching `patterns` (globs; all when empty), its
    series and changes."""
    by = check_by(by)
    runs = select_runs(store, names, target, labels, since)
    if not runs:
        raise TickmarkError("no stored run matches (tickmark runs lists them)")
    ids = [r["id"] for r in runs]
    if metric:  # a sub-metric or a counter: the whole statistics
        results = store.results_of(ids)
    else:
        like = [glob_to_like(p) for p in patterns]
        results = store.headlines(ids, like=None if not patterns or None in like else like)
    for r in runs:
        res = results[r["id"]]
        if patterns:
            res = [
                x
                for x in res
                if any(fnmatch.fnmatchcase(x["key"], p) or fnmatch.fnmatchcase(x["bench"], p) for p in patterns)
            ]
        r["results"] = res
    series = history.analyse(history.build(runs, by=by, metric=metric))
    if not series:
        what = f" matching {' '.join(patterns)}" if patterns else ""
        raise TickmarkError(f"no benchmark{what} has a result in the {len(runs)} selected runs")
    return {
        "format": FORMAT,
        "version": VERSION,
        "by": by or "time",
        "runs": len(runs),
        "method": {
            "detector": "ruptures KernelCPD (linear kernel, PELT) on log values in noise units",
            "penalty": f"{history.PENALTY_BETA} ln(n)",
            "test": f"Mann-Whitney U, p < {history.ALPHA}",
            "min_segment": history.MIN_SEGMENT,
            "tail_sigmas": history.TAIL_SIGMAS,
        },
        "series": [s.to_dict() for s in series],
        "_series": series,  # the objects, for the CI gate (not part of the JSON)
    }


def to_json_ready(model):
    return {k: v for k, v in model.items() if not k.startswith("_")}


# ---------------------------------------------------------------- words
def _val(v, unit):
    from .fmt import fmt_time, sig

    if v is None:
        return "-"
    return f"{sig(v)} MB/s" if unit == "MB/s" else fmt_time(v)


def _pct(x):
    return f"{x:+.1f} %"


def change_text(s, c, by):
    """One change in words (shared by the views)."""
    where = s["points"][c["index"]]
    at = f"{by} {where['order']}" if by != "time" else f"run {where['run']}"
    ci = f"95 % CI {_pct((c['ratio_lo'] - 1) * 100)} .. {_pct((c['ratio_hi'] - 1) * 100)}"
    worse = ("slower" if s["unit"] != "MB/s" else "less bandwidth") if c["worse"] else "better"
    p = f"p = {c['p']:.1g}" if c["p"] is not None else "tentative: too few points after it to test"
    head = (
        f"{_pct(c['pct'])} ({worse}) at {at}: {_val(c['before'], s['unit'])} -> {_val(c['after'], s['unit'])}, "
        f"{ci}, {p}; {c['n_before']} runs before (last {c['run_before']}), {c['n_after']} after "
        f"(first {c['run_after']})"
    )
    changed = ", ".join(f"{k} {_short(a)} -> {_short(b)}" for k, a, b in c["changed"])
    return head, (f"what changed there: {changed}" if changed else "no fingerprint field or label changed there")


def _short(v, n=40):
    t = "-" if v is None else printable(str(v))
    return t if len(t) <= n else t[: n - 3] + "..."


# ---------------------------------------------------------------- terminal
def show(model, file=None):
    from rich.table import Table

    from .fmt import console, fit_table

    con = console(file)
    series = model["series"]
    n_changes = sum(len(s["changes"]) for s in series)
    con.print(
        f"history of {model['runs']} runs ordered by {model['by']}: {len(series)} benchmarks, "
        f"{n_changes} change{'s' if n_changes != 1 else ''}",
        highlight=False,
    )
    t = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    for col in ("benchmark", "points", "first", "newest", "noise", "changes"):
        t.add_column(col, no_wrap=col != "changes", justify="right" if col in ("points", "noise") else "left")
    for s in series:
        pts = s["points"]
        ch = ", ".join(f"{_pct(c['pct'])} at #{c['index'] + 1}" + ("?" if c["tentative"] else "") for c in s["changes"])
        t.add_row(
            s["key"],
            str(len(pts)),
            _val(pts[0]["value"], s["unit"]),
            _val(pts[-1]["value"], s["unit"]),
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


# ---------------------------------------------------------------- Markdown
def markdown(model):
    from .views import md_escape

    out = [f"## History of {model['runs']} runs, ordered by {md_escape(model['by'])}", ""]
    out += ["| benchmark | points | first | newest | noise | changes |", "|---|--:|--:|--:|--:|---|"]
    for s in model["series"]:
        pts = s["points"]
        ch = "; ".join(
            f"{_pct(c['pct'])} at #{c['index'] + 1}" + (" (tentative)" if c["tentative"] else "") for c in s["changes"]
        )
        noise = f"{s['noise'] * 100:.1f} %" if s["noise"] is not None else "-"
        out.append(
            f"| {md_escape(s['key'])} | {len(pts)} | {_val(pts[0]['value'], s['unit'])} | "
            f"{_val(pts[-1]['value'], s['unit'])} | {noise} | {md_escape(ch or s['skipped'] or 'none')} |"
        )
    changes = [(s, c) for s in model["series"] for c in s["changes"]]
    if changes:
        out += ["", "### Changes", ""]
        for s, c in changes:
            head, what = change_text(s, c, model["by"])
            out.append(f"- **{md_escape(s['key'])}** {md_escape(head)}; {md_escape(what)}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- SVG trend
def trend_svg(s, by="time"):
    """One benchmark's trend: the points (95 % CI as bars) in order, each level's median with
    its noise band (+-2 noise deviations), a line where each change starts."""
    from . import plots

    pts = s["points"]
    n = len(pts)
    xs = list(range(1, n + 1))
    ys = [p["value"] for p in pts]
    with plots.matplotlib.rc_context(plots.RC):
        fig = plots._fig(7.8, 2.3, left=0.9, bottom=0.6)
        ax = fig.add_subplot(1, 1, 1)
        lo = [p["value"] - p["ci_lo"] if p["ci_lo"] is not None else 0 for p in pts]
        hi = [p["ci_hi"] - p["value"] if p["ci_hi"] is not None else 0 for p in pts]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=3, lw=0.8, color=plots.COLORS[0], label="run (95 % CI)")
        sigma = s["noise"] or 0
        for k, lv in enumerate(s["levels"]):
            a, b, m = lv["start"], lv["end"], lv["median"]
            x0, x1 = a + 0.6, b + 0.4
            band = ax.fill_between(
                [x0, x1],
                [m * math.exp(-2 * sigma)] * 2,
                [m * math.exp(2 * sigma)] * 2,
                color="#999999",
                alpha=0.25,
                lw=0,
            )
            (line,) = ax.plot([x0, x1], [m, m], color="#444444", lw=1)
            if k == 0:
                band.set_label("noise band (2 sigma)")
                line.set_label("level (median)")
        for c in s["changes"]:
            x = c["index"] + 0.5
            color = plots.COLORS[1] if c["worse"] else plots.COLORS[2]
            ax.axvline(x, color=color, lw=1.2, ls="--" if c["tentative"] else "-")
            ax.annotate(
                f"{c['pct']:+.1f} %",
                (x, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(3, -10),
                textcoords="offset points",
                color=color,
                fontsize=8,
            )
        ax.set_xlim(0.3, n + 0.7)
        ax.set_ylabel(s["unit"])
        ax.set_title(s["key"], loc="left")
        step = max(1, math.ceil(n / 15))
        ticks = xs[::step]
        ax.set_xticks(ticks)
        ax.set_xticklabels([_tick(pts[i - 1], by) for i in ticks], rotation=0)
        ax.set_xlabel(by if by != "time" else "run, oldest first")
        ax.legend(loc="lower left", ncol=3)
        return plots._svg(fig, f"history of {s['key']}")


def _tick(p, by):
    t = p["order"] if by != "time" else str(p["run_id"])
    return t if len(t) <= 10 else t[:9] + "…"
