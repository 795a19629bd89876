"""The history of stored runs: the model (analysis/history.py over the runs a filter selects) and
the words every view uses for a change. The views: report/terminal/history.py (the table),
documents.py (Markdown, and the HTML report's section with one trend per benchmark from
plots.history_trend), JSON (the model as it is)."""

import fnmatch
import re
import time

from .. import fingerprint
from ..analysis import history
from ..errors import TickmarkError
from ..names import printable

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
    """--by: time, kernel, label:KEY or another fingerprint field (a key of the registry)."""
    if by in (None, "time"):
        return None
    if by.startswith("label:") and len(by) > 6:
        return by
    if by in fingerprint.KEYS:
        return by
    raise TickmarkError(
        f"bad --by '{printable(by)[:40]}' (time, label:KEY or a fingerprint field such as kernel, variant, "
        "compiler, cflags, cpu_model, libc)"
    )


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
def value_text(v, unit):
    from ..fmt import fmt_in

    if v is None:
        return "-"
    return fmt_in(v, unit)


def signed_pct(x):
    return f"{x:+.1f} %"


def change_text(s, c, by):
    """One change in words (shared by the views)."""
    where = s["points"][c["index"]]
    at = f"{by} {where['order']}" if by != "time" else f"run {where['run']}"
    ci = f"95 % CI {signed_pct((c['ratio_lo'] - 1) * 100)} .. {signed_pct((c['ratio_hi'] - 1) * 100)}"
    lower = {"MB/s": "less bandwidth", "ns/op": "slower"}.get(s["unit"], "worse")
    worse = lower if c["worse"] else "better"
    p = f"p = {c['p']:.1g}" if c["p"] is not None else "tentative: too few points after it to test"
    head = (
        f"{signed_pct(c['pct'])} ({worse}) at {at}: {value_text(c['before'], s['unit'])} -> "
        f"{value_text(c['after'], s['unit'])}, "
        f"{ci}, {p}; {c['n_before']} runs before (last {c['run_before']}), {c['n_after']} after "
        f"(first {c['run_after']})"
    )
    changed = ", ".join(f"{k} {_short(a)} -> {_short(b)}" for k, a, b in c["changed"])
    return head, (f"what changed there: {changed}" if changed else "no fingerprint field or label changed there")


def _short(v, n=40):
    t = "-" if v is None else printable(str(v))
    return t if len(t) <= n else t[: n - 3] + "..."
