"""The history of stored runs: the model (analysis/history.py over the runs a filter selects) and
the words every view uses for a change. The views: report/terminal/history.py (the table),
documents.py (Markdown, and the HTML report's section with one trend per benchmark from
plots.history_trend), JSON (the model as it is)."""

import contextlib
import dataclasses
import fnmatch
import gc
import re
import time
from collections.abc import Mapping

import numpy as np

from ..analysis import changepoints, history
from ..base.errors import TickmarkError
from ..base.fmt import listed
from ..base.names import printable, run_labels
from ..base.units import INSN_OP, MB_S, NS_OP
from ..facts import fingerprint

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
    """A benchmark pattern (patterns.py) as an SQL LIKE pattern (backslash escapes)."""
    from ..base.patterns import normalized

    out = []
    for ch in normalized(pattern):
        out.append({"*": "%", "?": "_", "%": "\\%", "_": "\\_", "\\": "\\\\"}.get(ch, ch))
    return "".join(out)


class RunFingerprint(Mapping):
    """A run's fingerprint as a history reads it: the fields read with the run (what separates
    series, what orders them) at once, and the whole document, read from the store, when anything
    else is asked (what changed at a change point, what a gate compares: a few runs')."""

    def __init__(self, fields, load):
        self._fields, self._load, self._whole = fields, load, None

    def get(self, key, default=None):
        if default is None and key in self._fields:
            return self._fields[key]
        return self._doc().get(key, default)

    def _doc(self):
        if self._whole is None:
            self._whole = self._load()
        return self._whole

    def __getitem__(self, key):
        return self._doc()[key]

    def __iter__(self):
        return iter(self._doc())

    def __len__(self):
        return len(self._doc())

    def __bool__(self):
        return True


def select_runs(store, names=(), target=None, labels=None, since=None, running=False, by=None):
    """Stored runs that match every filter (complete and incomplete; runs still being written
    too with running=True): run name globs, a target URI glob, labels KEY=VALUE, started since
    (epoch seconds), oldest first. Each with the fingerprint fields that history and runs read
    (what separates series, the variant; `by`), the rest read when asked (RunFingerprint); read
    a page of runs at a time, and given one at a time (an iterator)."""
    fields = [*history.SEPARATES, "target_uri", "qemu_icount", "cycles_method", "variant"]
    if by not in (None, "time") and not by.startswith("label:"):
        fields.append(by)
    shared = {}
    for r in store.run_rows(fields, since=since):
        known = shared.setdefault(repr(sorted(r["fingerprint"].items())), r["fingerprint"])
        r["fingerprint"] = RunFingerprint(known, _whole_fingerprint(store, r["id"]))
        if r["status"] == "running" and not running:
            continue
        if names and not any(fnmatch.fnmatchcase(r.get("name") or "", n) for n in names):
            continue
        fp = r.get("fingerprint") or {}
        if target and not fnmatch.fnmatchcase(str(fp.get("target_uri") or ""), target):
            continue
        have = run_labels(r)
        if labels and any(have.get(k) != v for k, v in labels.items()):
            continue
        if since is not None and r["started"] < since:
            continue
        yield r


def _whole_fingerprint(store, run_id):
    return lambda: store.run(run_id)["fingerprint"]


def build(store, patterns=(), by=None, names=(), target=None, labels=None, since=None, metric=""):
    """The history model: per benchmark key matching `patterns` (globs; all when empty), its
    series (one per group of runs that can be compared) and their changes, of one metric (""
    or "headline": the headline; "task-clock"; a sub-metric)."""

    with _no_cycle_collection():
        return _build(store, patterns, by, names, target, labels, since, metric)


@contextlib.contextmanager
def _no_cycle_collection():
    """Python's cyclic garbage collector held off: a history of many runs makes some hundred
    objects per run and no reference cycles, and the collector's passes over all of them, ever
    more as they grow, made the build of a history of 10,000 runs take 1.6 times as long."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _build(store, patterns, by, names, target, labels, since, metric):
    from ..analysis.compare import key_matches, metric_name

    by = check_by(by)
    metric = metric_name(metric)
    runs = list(select_runs(store, names, target, labels, since, by=by))
    if not runs:
        raise TickmarkError("no stored run matches (tickmark runs lists them)")
    like = [glob_to_like(p) for p in patterns]
    like = None if not patterns or None in like else like
    measured = set()  # runs with a result of the benchmarks asked for

    def results(chunk):
        ids = [r["id"] for r in chunk]
        # a sub-metric: the whole statistics; else the headline's (and its task-clock), from their copies
        got = store.results_of(ids) if metric not in ("", history.TASK_CLOCK) else store.headlines(ids, like=like)
        for rid, rows in got.items():
            got[rid] = [x for x in rows if key_matches(x["key"], x["bench"], patterns)]
            if got[rid]:
                measured.add(rid)
        return got

    series = history.analyse(history.build(runs, by=by, metric=metric, results=results))
    if not series:
        what = f" matching {' '.join(patterns)}" if patterns else ""
        has = f" a {metric} value" if metric else " a result"
        raise TickmarkError(f"no benchmark{what} has{has} in the {len(runs)} selected runs")
    ordered = [r for r in runs if r["id"] in measured and (by is None or history.order_value(r, by) is not None)]
    newest = max(ordered, key=history.run_order(by))  # the run the gate checks
    return {
        "format": FORMAT,
        "version": VERSION,
        "by": by or "time",
        "metric": metric or HEADLINE,
        "metric_text": metric_text(metric),
        "runs": len(runs),
        "newest": {"id": newest["id"], "run": newest.get("name") or f"run {newest['id']}"},
        "method": {
            "detector": "binary segmentation of log values, each split tested by a weighted two-sample "
            "statistic (weights from each run's own standard error and the noise between runs)",
            "false_changes": f"{changepoints.ALPHA:g} per series of normal noise (threshold by simulation)",
            "min_segment": changepoints.MIN_SEGMENT,
            "confirm": history.CONFIRM,
        },
        "series": [dict(s.to_dict(), contended=contended_text(s, by or "time")) for s in series],
        "_series": series,  # the objects, for the CI gate (not part of the JSON)
        "_newest": newest,
        "_metric": metric,
    }


HEADLINE = "headline"


def metric_text(metric):
    """What a metric is, in words, for every view's title."""
    from ..analysis.stats import TASK_CLOCK

    if not metric or metric == HEADLINE:
        return f"headline (the figure each benchmark reports: time or instructions per operation, or {MB_S})"
    if metric == TASK_CLOCK:
        return "task-clock (on-CPU time per operation)"
    return f"{metric} (a sub-metric: time per operation)"


def to_json_ready(model):
    return {k: v for k, v in model.items() if not k.startswith("_")}


def json_chunks(model):
    """The model as JSON text (`history --format json`), in pieces: indented, each point on a
    line of its own, one series' points at a time (a history of many runs is never one string,
    and its points go through the JSON module's C encoder)."""
    import json

    ready = to_json_ready(model)
    series = ready["series"]
    mark = "\0points {}\0"
    skeleton = dict(ready, series=[dict(s, points=mark.format(i)) for i, s in enumerate(series)])
    text = json.dumps(skeleton, indent=1, sort_keys=True) + "\n"
    encode = json.JSONEncoder(sort_keys=True).encode
    for i, s in enumerate(series):
        head, text = text.split(json.dumps(mark.format(i)), 1)
        yield head
        points = s["points"]
        yield "[\n" + ",\n".join("    " + encode(p) for p in points) + "\n   ]" if points else "[]"
    yield text


# ---------------------------------------------------------------- the gate
MAX_GATE_RUNS = 10  # runs of each level that the gate's verdict compares


def gate(store, model, threshold, inconclusive=None):
    """`history --fail-on-change`: the newest run (the last in the order) against the level
    before its own, with the gate of compare --fail-above (analysis/verdict.py). For each
    benchmark the newest run measured, in the series it belongs to: when the level it lies on
    starts with a change (tested or tentative), the runs of that level (up to MAX_GATE_RUNS, the
    newest) are compared with the runs of the level before (up to MAX_GATE_RUNS, the nearest to
    the change) by compare's verdict, on the history's metric. It fails on every benchmark slower
    by the verdict and by more than the threshold, on every benchmark of a series that the newest
    run did not measure (crashed, failed, timed out), and when the newest run did not finish. The
    one rule for disturbed evidence holds per run: where a run of either level had its wall time
    contended (the series marks it), the levels are decided on task-clock, or inconclusive
    (`inconclusive`: None, "pass" or "fail", as analysis/verdict.gate). -> (Gate, {key: (series,
    change)})."""
    from ..analysis.compare import compare_pair
    from ..analysis.verdict import Failure, undecided
    from ..analysis.verdict import gate as hold

    newest = model["_newest"]
    label = "the newest run " + (newest.get("name") or f"run {newest['id']}")
    pairs, where = [], {}
    for s in model["_series"]:
        c = s.newest_change()
        if s.points[-1].run_id != newest["id"] or c is None:
            continue
        starts = [0] + [x.index for x in s.changes]
        B = _level(store, s, s.points[c.index :][-MAX_GATE_RUNS:], label)
        k = len(s.changes) - 1
        while True:
            c = s.changes[k]
            A = _level(store, s, s.points[max(starts[k], c.index - MAX_GATE_RUNS) : c.index], "the level before")
            res = compare_pair(A, B, metric=model["_metric"])
            if k == 0 or not undecided(res, model["_metric"], threshold):
                break
            k -= 1  # the newest level cannot be told from the one before: held to the level before that
        pairs.append(((A, B), res))
        where[s.key] = (s, c if k == len(s.changes) - 1 else _held_to(s, c, s.changes[-1].index))
    g = hold(pairs, threshold, model["_metric"], baseline="the level before", inconclusive=inconclusive)
    g.failures = [f for f in g.failures if _as_the_table_says(f, where, threshold)]
    mine = history.group_of(newest.get("fingerprint"))
    in_series = {
        s.key
        for s in model["_series"]
        if history.group_of(s.points[0].fingerprint) == mine and any(p.run_id != newest["id"] for p in s.points)
    }
    for r in store.results(newest["id"]):
        if r["status"] != "ok" and r["key"] in in_series:
            g.failures.append(Failure(label, r["key"], "not measured", r["status"]))
    if newest.get("status") != "complete":
        g.failures.append(Failure(label, "", "unfinished", newest.get("status") or "unknown"))
    return g, where


def _held_to(s, c, newest_start):
    """The change c of series s (an older one) as the gate holds the newest level to it: the
    newest level (from newest_start) against the level before c, as the table's figures (medians
    of the runs' values)."""
    before = float(np.median([p.value for p in s.points[: c.index][-c.n_before :]]))
    after = float(np.median([p.value for p in s.points[newest_start:]]))
    ratio = after / before
    better = ratio > 1 if s.higher_is_better else ratio < 1
    return dataclasses.replace(c, after=after, ratio=ratio, worse=not better and ratio != 1)


def _as_the_table_says(f, where, threshold):
    """A slower benchmark of the gate given with the change the table shows (its levels' medians)
    in place of compare's estimate from the pooled samples, so that one change has one figure;
    compare's verdict says it is slower, the change's figure must pass the threshold too -> keep?"""
    if f.kind != "slower" or f.key not in where:
        return True
    s, c = where[f.key]
    f.why = f"{c.pct:+.1f}%"
    f.slower = (1 / c.ratio if s.higher_is_better else c.ratio) - 1
    return f.slower > threshold


def gate_json(g, where, model):
    """The gate's verdict as the JSON and the lines on stderr say it: each failure with the
    change its level began with (where, how large, what changed there)."""
    out = []
    for f in g.failures:
        d = {"key": f.key, "kind": f.kind, "why": f.why, "slower": f.slower}
        if f.key in where:
            s, c = where[f.key]
            d.update(series=s.name, since=s.points[c.index].run, order=s.points[c.index].order, changed=c.changed)
        out.append(d)
    return {
        "threshold": g.threshold,
        "metric": g.metric or HEADLINE,
        "passed": g.passed,
        "exit_status": g.exit_status(),
        "failures": out,
        "lines": gate_lines(g, where, model["by"], model["newest"]["run"]),
    }


def gate_lines(g, where, by, newest):
    """The gate's verdict in lines (compare's, report/gate.py), the slower benchmarks named with
    the run where their level began and what changed there."""
    from .gate import gate_lines as lines

    def slower(slow):
        def one(f):
            s, c = where[f.key]
            at = f"{by} {s.points[c.index].order}" if by != "time" else f"run {s.points[c.index].run}"
            named = [(k, a, b) for k, a, b in c.changed if k != by and _shown(k)][:3]
            what = "; ".join(f"{k} {_short(a, 30)} -> {_short(b, 30)}" for k, a, b in named)
            return f"{s.name} {f.why} since {at}" + (f" ({what})" if what else "")

        return (
            f"{len(slow)} benchmark(s) at {slow[0].run} slower than the level before by more than "
            f"{g.threshold * 100:g}%: {listed(one(f) for f in slow)}"
        )

    return lines(g, slower, f"no change for the worse above {g.threshold * 100:g}% at the newest run {newest}")


def _level(store, s, points, label):
    """The runs of one level of a series as one side of a comparison: their samples of the
    series' result, each run's rounds kept apart (a group per run and round)."""
    from ..analysis.compare import Side

    samples, res = [], None
    for i, p in enumerate(points):
        r = next((x for x in store.results(p.run_id) if x["key"] == s.key), None)
        if r is None or r["status"] != "ok":
            continue
        res = res or r
        samples += [dict(x, round=i * 100000 + x.get("round", 1)) for x in store.samples(r["id"])]
    run = {"status": "complete", "name": label, "fingerprint": dict(points[-1].fingerprint)}
    results = {s.key: dict(res, samples=samples)} if res else {}
    side = Side(label, label, run, results, source=f"{len(points)} runs", pooled=len(points) > 1)
    hit = [p for p in points if p.decided]
    if hit:  # the one rule, per run: the series marked these runs' wall time contended
        side.contended[s.key] = listed(f"{p.run} on CPU {p.on_cpu * 100:.0f}%" for p in hit)
    return side


# ---------------------------------------------------------------- words
def value_text(v, unit):
    from ..base.fmt import fmt_in

    if v is None:
        return "-"
    return fmt_in(v, unit)


def signed_pct(x):
    return f"{x:+.1f} %"


def change_text(s, c, by):
    """One change in words (shared by the views) -> (the change, [what changed there, one line
    each])."""
    where = s["points"][c["index"]]
    at = f"{by} {where['order']}" if by != "time" else f"run {where['run']}"
    ci = f"95 % CI {signed_pct((c['ratio_lo'] - 1) * 100)} .. {signed_pct((c['ratio_hi'] - 1) * 100)}"
    worse = worse_word(s["unit"], s["higher_is_better"]) if c["worse"] else "better"
    if c["tentative"]:
        more = c["to_confirm"]
        test = f"tentative: {more} more run{'s' if more != 1 else ''} at this level would confirm it"
    else:
        test = f"|z| = {abs(c['z']):.1f} > {c['threshold']:.1f}"
    head = (
        f"{signed_pct(c['pct'])} ({worse}) at {at}: {value_text(c['before'], s['unit'])} -> "
        f"{value_text(c['after'], s['unit'])}, {ci}, {test}; {c['n_before']} runs before (last "
        f"{c['run_before']}), {c['n_after']} after (first {c['run_after']})"
    )
    return head, changed_lines(c["changed"])


MANY_FIELDS = 3  # more changed fields of one key than this are one line (a build's code sizes: dozens)


def changed_lines(changed):
    """What changed at a change point, one line per field; the fields of one key (code_size.*:
    one per benchmark) in one line where there are more than MANY_FIELDS of them."""
    by_parent = {}
    for k, _, _ in changed:
        by_parent.setdefault(k.split(".", 1)[0], []).append(k)
    out, done = [], set()
    for k, a, b in changed:
        parent = k.split(".", 1)[0]
        fields = by_parent[parent]
        if len(fields) <= MANY_FIELDS or k.startswith("label:"):
            out.append(f"{_name(k)}: {_short(a)} -> {_short(b)}")
        elif parent not in done:
            done.add(parent)
            names = [f.split(".", 1)[1] if "." in f else f for f in fields]
            out.append(f"{_name(parent)}: {len(fields)} fields differ ({listed(names, MANY_FIELDS)})")
    return out


def worse_word(unit, higher):
    """What a change for the worse is called: slower (a time or a count per operation), less
    bandwidth (MB/s where higher is better), else worse."""
    if not higher and unit in (NS_OP, INSN_OP):
        return "slower"
    return "less bandwidth" if higher and unit == MB_S else "worse"


def contended_text(s, by):
    """The runs of a series (analysis/history.Series) whose task-clock level stood in for their
    contended wall time (the one rule, analysis/history.settle_contention), in words, or None."""
    hit = [p for p in s.points if p.decided]
    if not hit:
        return None
    at = listed(f"{by + ' ' + p.order if by != 'time' else 'run ' + p.run} (on CPU {p.on_cpu * 100:.0f}%)" for p in hit)
    return f"decided on task-clock: contention at {at}: their wall time was kept off the CPU"


def _shown(key):
    """A changed field the gate's line names: a label, or a key the registry shows above a
    comparison (flags, compiler, kernel ...; not the binary's hash)."""
    k = fingerprint.KEYS.get(key.split(".", 1)[0])
    return key.startswith("label:") or (k is not None and k.shown)


def _name(key):
    """A fingerprint key or label as the views name it: the registry's label with the key."""
    if key.startswith("label:"):
        return f"label {key[6:]}"
    k = fingerprint.KEYS.get(key.split(".", 1)[0])
    return f"{k.label} ({key})" if k is not None and k.label != key else key


def _short(v, n=200):
    t = "-" if v is None else printable(str(v))
    return t if len(t) <= n else t[: n - 3] + "..."
