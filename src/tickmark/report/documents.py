"""Views of the report model (model/): one self-contained HTML page (inline CSS and SVG plots,
no script, nothing fetched), Markdown for a pull request or a mailing list, and JSON.

The HTML and Markdown come from Jinja2 templates shipped in tickmark/report/templates; HTML autoescaping
is on, so a run name or a parameter is always text, never markup."""

import json
import math
import multiprocessing
import os
import signal

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from .. import __version__
from ..analysis.rtos_table import grid as rtos_grid
from ..analysis.stats import TASK_CLOCK, time_ratio
from ..base import exact, fmt
from .history import change_text, signed_pct, value_text
from .model import EVENTS_NOTE

_ENV = {}


def env(kind="html"):
    """The Jinja environment of a view: "html" autoescapes every value as HTML; "md" writes every
    value as text, never as Markdown (fmt.md_text: a run name cannot be a link or an image)."""
    if kind not in _ENV:
        e = Environment(
            loader=PackageLoader("tickmark.report", "templates"),
            autoescape=select_autoescape(enabled_extensions=("html",), default=False),
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            finalize=_md_value if kind == "md" else None,
        )
        e.filters.update(
            time=fmt.fmt_time,
            pct=_pct,
            size=fmt.fmt_size,
            sig=fmt.sig,
            md=_md_filter,
            ratio=_ratio,
            signed=_signed,
            pval=_pval,
            cycles=_cycles,
            det=_det,
            ci=_ci,
            it_rate=fmt.fmt_it_rate,
            inunit=fmt.fmt_in,
        )
        _ENV[kind] = e
    return _ENV[kind]


def _md_filter(s):
    return Markup(md_escape(s))


def _md_value(v):
    """Every value a Markdown template writes, as text (what the md filter escaped already as it is)."""
    return v if isinstance(v, Markup) else md_escape(v)


def _pct(x):
    return fmt.fmt_pct(x)


def _signed(x):
    return "-" if x is None else f"{x * 100:+.1f}%"


def _pval(p):
    return "-" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}"


def _ratio(x):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"


def _cycles(r):
    c = r.get("cycles_per_op")
    if c is None:
        return "-"
    return f"{fmt.sig(c)} {r.get('cycles_tag') or ''}".strip()


def _det(x):
    return fmt.fmt_pct(x)


def _ci(r):
    """'±1.2%' with the interval in time units."""
    if r.get("ci_pct") is None:
        return "-"
    return f"±{r['ci_pct'] * 100:.1f}%"


md_escape = fmt.md_text


def _row_name(r):
    return r["key"] + (f" {r['metric']}" if r.get("metric") else "")


def _figure_jobs(run):
    """The matplotlib figures of one run's series: [(anchor, title, plot function name, args)]."""
    s, label, out = run["series"], run["label"], []
    if s.get("latency"):
        out.append(
            (
                "latency",
                "Load latency over the working set (mem.lat_rand)",
                "latency",
                (s["latency"], f"{label}: latency vs working set", bool(run.get("exact"))),
            )
        )
    if s.get("ctx_ring"):
        out.append(
            (
                "ctx-ring",
                "Context switch in a ring of processes (sched.ctx_ring)",
                "ctx_ring",
                (s["ctx_ring"], f"{label}: sched.ctx_ring", bool(run.get("exact"))),
            )
        )
    if s.get("bandwidth"):
        out.append(("bandwidth", "Bandwidth over size", "bandwidth", (s["bandwidth"], f"{label}: bandwidth vs size")))
    if s.get("nbench") and any(r.get("new") is not None for r in s["nbench"]["rows"]):
        out.append(("nbench", "nbench (BYTEmark) indices", "nbench", (s["nbench"], f"{label}: BYTEmark indices")))
    return out


def _draw(job):
    from . import plots

    return getattr(plots, job[0])(*job[1])


def draw_all(jobs):
    """SVG markup of each (plot function name, args) job. With several figures and several CPUs
    the figures are drawn by forked workers in parallel (matplotlib is imported once, before the
    fork); the result does not depend on it."""
    from . import plots  # noqa: F401  (imported before forking: the workers inherit it)

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if len(jobs) < 3 or cpus < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [_draw(j) for j in jobs]
    pool = multiprocessing.get_context("fork").Pool(min(cpus, len(jobs)), initializer=_quiet_worker)
    try:
        out = pool.map(_draw, jobs, chunksize=1)
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    # the workers end when their queue does, never by a SIGTERM: one just forked still has the
    # command's handlers (the pool closes its pipes before it runs the initializer) and would
    # print a traceback
    pool.close()
    pool.join()
    return out


def _quiet_worker():
    """A drawing worker ends on SIGTERM and SIGHUP as a process does by default (the command's
    own handlers, which it inherits by the fork, raise an exception: a traceback from each
    worker that a pool ends) and leaves Ctrl-C to the command."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# ---- small inline SVGs drawn here (one per table row: hundreds of them cost milliseconds,
# where a matplotlib axis with hundreds of labelled rows costs seconds)
W, H = 260, 14
VERDICT_COLORS = {
    "faster": "#2ca02c",
    "slower": "#d62728",
    "no difference beyond noise": "#8c8c8c",
    "inconclusive": "#e6a100",
    "too few samples": "#b07cc6",
}


class LogScale:
    """Maps values on a log axis from lo..hi to 0..W pixels."""

    def __init__(self, lo, hi, width=W):
        self.lo, self.hi, self.w = math.log(lo), math.log(hi), width

    def __call__(self, v):
        v = min(max(v, math.exp(self.lo)), math.exp(self.hi))
        return round((math.log(v) - self.lo) / (self.hi - self.lo) * self.w, 1)


def _ratio_bounds(r):
    """(ratio, lo, hi) as time ratios B/A (bandwidth and figures where higher is better inverted:
    above 1 is always B slower)."""
    ratio, ci, higher = r.get("ratio"), r.get("ci"), bool(r.get("higher"))
    t = time_ratio(ratio, higher)
    if t is None:
        return None
    ends = [time_ratio(1 + x, higher) if 1 + x > 0 else t for x in ci] if ci else [t, t]
    return t, max(min(ends), 1e-3), max(max(ends), 1e-3)


def _both_skipped(r):
    return r.get("verdict") == "missing" and (r.get("note") or "") == "A skip, B skip"


def _compare_axis(rows):
    b = [x for x in (_ratio_bounds(r) for r in rows) if x]
    lo = min([x[1] for x in b] + [0.8])
    hi = max([x[2] for x in b] + [1.25])
    return LogScale(lo / 1.05, hi * 1.05)


def whisker(r, scale, gmean=None):
    """One row of the compare chart: the B/A time ratio (dot), its 95 % CI (line), 1 (black)."""
    b = _ratio_bounds(r)
    parts = [f'<line x1="{scale(1)}" y1="0" x2="{scale(1)}" y2="{H}" stroke="#000" stroke-width="1"/>']
    if gmean:
        parts.append(
            f'<line x1="{scale(gmean)}" y1="0" x2="{scale(gmean)}" y2="{H}" stroke="#1f77b4" stroke-dasharray="3,2"/>'
        )
    if b:
        c = VERDICT_COLORS.get(r.get("verdict"), "#444")
        ratio, lo, hi = b
        parts.append(
            f'<line x1="{scale(lo)}" y1="7" x2="{scale(hi)}" y2="7" stroke="{c}" stroke-width="2"/>'
            f'<circle cx="{scale(ratio)}" cy="7" r="3.2" fill="{c}"/>'
        )
    return Markup(f'<svg class="w" width="{W}" height="{H}" viewBox="0 0 {W} {H}">{"".join(parts)}</svg>')


TICK_CHAR_PX = 5.5  # room a character of a 9 px label takes, with some to spare for the font


def axis_svg(scale, ticks, fmt_tick, label=""):
    """The scale under a column of row SVGs: a mark at every tick, and the labels that fit: the
    first and the last, then those between that run into no label already placed."""
    parts, labels = [], []
    for t in ticks:
        x = scale(t)
        if scale.lo <= math.log(t) <= scale.hi:
            text = fmt_tick(t)
            w = len(text) * TICK_CHAR_PX
            anchor = "start" if x < 12 else "end" if x > scale.w - 12 else "middle"
            left = x if anchor == "start" else x - w if anchor == "end" else x - w / 2
            parts.append(f'<line x1="{x}" y1="0" x2="{x}" y2="4" stroke="#555"/>')
            labels.append((left, left + w, x, anchor, text))
    placed = []
    for lab in labels[:1] + labels[-1:] + labels[1:-1]:
        if lab not in placed and all(lab[1] + 4 <= p[0] or p[1] + 4 <= lab[0] for p in placed):
            placed.append(lab)
    for _, _, x, anchor, text in sorted(placed):
        parts.append(f'<text x="{x}" y="14" font-size="9" text-anchor="{anchor}">{escape(text)}</text>')
    if label:
        parts.append(f'<text x="{scale.w / 2}" y="26" font-size="9" text-anchor="middle">{escape(label)}</text>')
    return Markup(f'<svg class="w" width="{scale.w}" height="28" viewBox="0 0 {scale.w} 28">{"".join(parts)}</svg>')


def _ratio_ticks(scale):
    lo, hi = math.exp(scale.lo), math.exp(scale.hi)
    return [t for t in (0.01, 0.1, 0.2, 0.5, 0.8, 1, 1.25, 2, 5, 10, 100) if lo <= t <= hi]


def hist_svg(h, scale):
    """One event-latency histogram as a row: counts per bucket on a log scale over a log time
    axis shared by all rows, p50 (green), p99 (orange) and max (red) marked."""
    b = [p for p in h["buckets"] if p[0] > 0 and p[1] > 0]
    parts = []
    if b:
        top = math.log10(max(c for _, c in b) + 1)
        d = [f"M{scale(b[0][0])},{H}"]
        for i, (x, c) in enumerate(b):
            x2 = b[i + 1][0] if i + 1 < len(b) else x * 1.05
            y = round(H - (H - 1) * math.log10(c + 1) / top, 1)
            d.append(f"L{scale(x)},{y}L{scale(x2)},{y}")
        d.append(f"L{scale(b[-1][0] * 1.05)},{H}Z")
        parts.append(f'<path d="{"".join(d)}" fill="#9ecae1" stroke="#1f77b4" stroke-width="0.6"/>')
    for name, c in (("p50", "#2ca02c"), ("p99", "#ff7f0e"), ("max", "#d62728")):
        v = h.get(name)
        if v:
            parts.append(f'<line x1="{scale(v)}" y1="0" x2="{scale(v)}" y2="{H}" stroke="{c}" stroke-width="1.6"/>')
    return Markup(f'<svg class="w" width="{W}" height="{H}" viewBox="0 0 {W} {H}">{"".join(parts)}</svg>')


def _hist_axis(hists):
    xs = [p[0] for h in hists for p in h["buckets"] if p[0] > 0] + [h["max"] for h in hists if h.get("max")]
    return LogScale(min(xs) / 1.1, max(xs) * 1.1) if xs else LogScale(1, 10)


def _decades(scale):
    a, b = math.floor(scale.lo / math.log(10)), math.ceil(scale.hi / math.log(10))
    return [10.0**k for k in range(a, b + 1)]


def _event_text(run):
    """How the event-latency axis of a run reads a value: a time, or guest instructions where the
    run counted them (its model's exact sentence)."""
    unit = exact.unit(None, bool(run.get("exact")))
    return lambda v: fmt.fmt_in(v, unit)


def html(model):
    jobs = [(i, j) for i, r in enumerate(model["runs"]) for j in _figure_jobs(r)]
    svgs = draw_all([(j[2], j[3]) for _, j in jobs])
    figures = {}
    for (i, (anchor, title, _, _)), svg in zip(jobs, svgs):
        figures.setdefault(i, []).append((anchor, title, Markup(svg)))
    runs = []
    for i, r in enumerate(model["runs"]):
        hists = r["series"].get("hists") or []
        hscale = _hist_axis(hists) if hists else None
        runs.append(
            dict(
                r,
                figures=figures.get(i, []),
                hist_rows=[(h, hist_svg(h, hscale)) for h in hists],
                hist_axis=axis_svg(hscale, _decades(hscale), _event_text(r), "event latency (log)") if hists else None,
                event_text=_event_text(r),
            )
        )
    history = _history_figures(model.get("history"))
    comps = []
    for c in (model.get("compare") or {}).get("comparisons", []):
        # the chart: headline rows, and task-clock rows in a family of their own (the family means
        # name both), without instances that were skipped on both sides or that one run lacks
        rows = [r for r in c["rows"] if r.get("metric") in ("", None, TASK_CLOCK) and not _both_skipped(r)]
        main = [_chart_row(r) for r in rows if not _lacked(r)]
        heads = [r for r in c["rows"] if not r.get("metric")]
        only = [sum(_lacked(r) == side for r in heads) for side in ("B", "A")]
        scale = _compare_axis(main)
        fams = {f: (g.get("geomean_time_ratio")) for f, g in c["families"].items()}
        comps.append(
            dict(
                c,
                chart=[(r, whisker(r, scale, fams.get(r["family"]))) for r in main],
                fam_chart={f: whisker({"ratio": g, "verdict": None}, scale) for f, g in fams.items() if g},
                axis=axis_svg(scale, _ratio_ticks(scale), lambda t: f"{t:g}", f"{c['ratio_words']} B/A (log)"),
                only_a=only[0],
                only_b=only[1],
            )
        )
    return (
        env()
        .get_template("report.html")
        .render(
            model=model,
            runs=runs,
            comparisons=comps,
            nbench_table=(model.get("compare") or {}).get("nbench"),
            history=history,
            version=__version__,
            row_name=_row_name,
            by_family=_by_family,
            verdict_colors=VERDICT_COLORS,
            rtos_grid=rtos_grid,
            events_note=EVENTS_NOTE,
        )
    )


def _lacked(r):
    """The run ("A" or "B") that does not have a comparison row's benchmark at all, else None."""
    note = r.get("note") or ""
    return note[-1] if r.get("verdict") == "missing" and note in ("not in A", "not in B") else None


def _chart_row(r):
    """A comparison row as the chart groups it: a task-clock row under "FAMILY (task-clock)", the
    family mean compare.families gives for those rows."""
    if r.get("metric") == TASK_CLOCK:
        return dict(r, family=f"{r['family']} ({TASK_CLOCK})")
    return r


def _history_figures(hist):
    """The history section: per benchmark its trend (SVG) and its changes in words."""
    if not hist:
        return None

    svgs = draw_all([("history_trend", (s, hist["by"])) for s in hist["series"]])
    rows = [
        (s, Markup(svg), [change_text(s, c, hist["by"]) for c in s["changes"]]) for s, svg in zip(hist["series"], svgs)
    ]
    return dict(hist, figures=rows)


def history_html(hist):
    """The report page with the history section alone."""
    return html({"runs": [], "compare": None, "history": hist})


def history_markdown(model):
    out = [
        f"## History of {model['runs']} runs, ordered by {md_escape(model['by'])}",
        "",
        f"Metric: {md_escape(model['metric_text'])}.",
        "",
    ]
    out += ["| benchmark | points | first | newest | noise | changes |", "|---|--:|--:|--:|--:|---|"]
    for s in model["series"]:
        pts = s["points"]
        ch = "; ".join(
            f"{signed_pct(c['pct'])} at #{c['index'] + 1}" + (" (tentative)" if c["tentative"] else "")
            for c in s["changes"]
        )
        noise = f"{s['noise'] * 100:.1f} %" if s["noise"] is not None else "-"
        out.append(
            f"| {md_escape(s['name'])} | {len(pts)} | {value_text(pts[0]['value'], s['unit'])} | "
            f"{value_text(pts[-1]['value'], s['unit'])} | {noise} | {md_escape(ch or s['skipped'] or 'none')} |"
        )
    apart = [s for s in model["series"] if s["where"]]
    if apart:
        out += ["", "Series kept apart (their runs cannot be compared):", ""]
        out += [f"- **{md_escape(s['name'])}**: {md_escape(', '.join(s['where']))}" for s in apart]
    hit = [s for s in model["series"] if s.get("contended")]
    if hit:
        out += [""] + [f"- **{md_escape(s['name'])}**: {md_escape(s['contended'])}" for s in hit]
    changes = [(s, c) for s in model["series"] for c in s["changes"]]
    if changes:
        out += ["", "### Changes", ""]
        for s, c in changes:
            head, what = change_text(s, c, model["by"])
            out.append(f"- **{md_escape(s['name'])}** {md_escape(head)}")
            out += [f"  - {md_escape(w)}" for w in what] or ["  - no fingerprint field or label changed there"]
    return "\n".join(out) + "\n"


def markdown(model):
    return (
        env("md")
        .get_template("report.md")
        .render(model=model, version=__version__, row_name=_row_name, by_family=_by_family, rtos_grid=rtos_grid)
    )


def to_json(model):
    return json.dumps(model, indent=1, sort_keys=True) + "\n"


def _by_family(rows):
    out = {}
    for r in rows:
        out.setdefault(r["family"], []).append(r)
    return sorted(out.items())
