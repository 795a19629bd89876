"""Plots of the report model as inline SVG (matplotlib, Agg, text kept as text so that a page
stays small and searchable). Each function takes a series of the model and returns the SVG
markup of one figure, without the XML prolog, ready to be placed in an HTML page.

Speed: a report of two full runs is drawn in a few seconds because every figure has one or few
axes, fixed margins (no layout engine) and tick positions computed here (matplotlib's automatic
log locators and minor ticks cost most of the drawing time)."""

import io
import math
import re

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator  # noqa: E402

from ..base.fmt import fmt_count, fmt_size, fmt_time  # noqa: E402
from ..base.units import INSN_OP, MB_S, NS_OP, fmt_bandwidth_tick  # noqa: E402

RC = {
    "svg.fonttype": "none",  # <text> elements instead of glyph paths: much smaller
    "svg.hashsalt": "tickmark",  # stable element ids: the same data gives the same file
    "text.parse_math": False,  # a '$' in a run name is text, not TeX
    "font.family": "sans-serif",
    "font.size": 8.5,
    "axes.titlesize": 9.5,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": 7.5,
    "legend.frameon": False,
    "xtick.labelsize": 7.5,
    "ytick.labelsize": 7.5,
}
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
_PROLOG = re.compile(r"^.*?(?=<svg)", re.S)


def _fig(w, h, left=0.8, right=0.25, top=0.35, bottom=0.55):
    """A figure of w x h inches with fixed margins (inches)."""
    fig = Figure(figsize=(w, h))
    fig.subplots_adjust(left=left / w, right=1 - right / w, top=1 - top / h, bottom=bottom / h, wspace=0.3, hspace=0.55)
    return fig


def _svg(fig, title):
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "tickmark", "Title": title})
    svg = _PROLOG.sub("", buf.getvalue(), count=1)
    # the page scales each figure to its column: keep the aspect (viewBox), drop the fixed size
    svg = re.sub(r'<svg([^>]*?) width="[^"]+" height="[^"]+"', r"<svg\1", svg, count=1)
    return svg.replace("<svg", f'<svg role="img" aria-label="{_attr(title)}" class="plot"', 1)


def _attr(s):
    return s.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def log_ticks(lo, hi, base=10, most=8):
    """Powers of `base` covering [lo, hi] (at least the two around the range), thinned to `most`."""
    if not lo or not hi or lo <= 0 or hi <= 0:
        return [1]
    a, b = math.floor(math.log(lo, base) + 1e-9), math.ceil(math.log(hi, base) - 1e-9)
    ticks = [float(base) ** k for k in range(a, max(b, a + 1) + 1)]  # floats: 10**20 is no numpy integer
    step = max(1, math.ceil(len(ticks) / most))
    return ticks[::step]


def _log_axis(ax, which, lo, hi, base, fmt):
    """A log axis over [lo, hi]; with no positive value (an imported parameter of 0 or below)
    the axis stays linear."""
    data = ax.dataLim.intervalx if which == "x" else ax.dataLim.intervaly
    if math.isfinite(data[0]) and math.isfinite(data[1]) and data[1] <= 0:
        return
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xscale if which == "x" else ax.set_yscale)("log", base=base)
    ticks = log_ticks(lo, hi, base)
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_minor_locator(NullLocator())
    axis.set_major_formatter(FuncFormatter(lambda v, _: fmt(v)))
    pad = 1.15
    (ax.set_xlim if which == "x" else ax.set_ylim)(
        min(lo, ticks[0]) / pad if lo > 0 else None, max(hi, ticks[-1]) * pad
    )


def _size(v):
    return fmt_size(int(round(v))) if v >= 1 else f"{v:g}"


def _num(v):
    return f"{v:g}"


def _range(values):
    vals = [v for v in values if v is not None and v > 0]
    return (min(vals), max(vals)) if vals else (1, 10)


def _label_row(ax, labels, y, color, gap_pt=6):
    """Level labels in one row above the axes (y in axes fraction), each over its x (data) with a
    thin line down to it, pushed apart where they would overlap: widths measured on the Agg
    renderer, with room to spare for the browser's font."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = ax.figure
    renderer = FigureCanvasAgg(fig).get_renderer()
    bbox = ax.get_window_extent(renderer)
    px_per_pt = fig.dpi / 72
    placed = []
    for x, text in sorted(labels):
        t = ax.text(0, 0, text, fontsize=7.5)
        w = t.get_window_extent(renderer).width * 1.25 / bbox.width  # axes fraction
        t.remove()
        xf = (ax.transData.transform((x, 1))[0] - bbox.x0) / bbox.width
        placed.append([xf, w, x, text])
    gap = gap_pt * px_per_pt / bbox.width
    for i in range(1, len(placed)):  # left to right: no label over the one before it
        prev, cur = placed[i - 1], placed[i]
        cur[0] = max(cur[0], prev[0] + prev[1] / 2 + gap + cur[1] / 2)
    over = placed[-1][0] + placed[-1][1] / 2 - 1.0 if placed else 0
    if over > 0:  # past the right edge: move the row left, no further than the left edge
        shift = min(over, placed[0][0] - placed[0][1] / 2)
        for p in placed:
            p[0] -= max(0.0, shift)
    for xf, _, x, text in placed:
        ax.annotate(
            text,
            xy=(x, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(xf, y),
            textcoords="axes fraction",
            ha="center",
            va="bottom",
            fontsize=7.5,
            color=color,
            arrowprops={"arrowstyle": "-", "color": color, "lw": 0.6, "shrinkA": 0, "shrinkB": 0},
            annotation_clip=False,
        )


def _per_op(exact):
    """(tick formatter, word) of a per-operation axis: guest instructions in a run that counts
    them (QEMU -icount), never time; else time."""
    return (fmt_count, "instructions") if exact else (fmt_time, None)


def latency(lat, title, exact=False):
    """Latency over the working set, detected levels marked, the OS's levels beside them: their
    labels in two rows above the plot (detected, then the OS's), the legend under it. exact: the
    run counts guest instructions (the axis says so, in no unit of time)."""
    tick, word = _per_op(exact)
    with matplotlib.rc_context(RC):
        fig = _fig(7.5, 4.6, top=0.95, bottom=1.15)
        ax = fig.add_subplot()
        xs, ys = [], []
        for pts, label, c in (
            (lat["points_4k"], "4 KiB pages", COLORS[0]),
            (lat["points_huge"], "huge pages", COLORS[4]),
            (lat.get("points_pagelocal"), "page-local (TLB-neutral)", COLORS[2]),
        ):
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", ms=3, lw=1.2, color=c, label=label)
                xs += [p[0] for p in pts]
                ys += [p[1] for p in pts]
        xs += [lv["size"] for lv in lat["os_levels"]]
        _log_axis(ax, "x", *_range(xs), 2, _size)
        lo, hi = _range(ys)
        _log_axis(ax, "y", lo, hi * 3, 10, tick)
        detected = []
        for lv in lat["levels"]:
            if lv.get("size"):
                ax.axvline(lv["size"], color=COLORS[1], lw=1.2, ls="--")
                detected.append((lv["size"], f"{lv['name']} {fmt_size(lv['size'])}"))
            if lv.get("latency_ns") and lv.get("at_size"):
                ax.plot([lv["at_size"]], [lv["latency_ns"]], "s", ms=7, mfc="none", mec=COLORS[1], mew=1.2)
        for lv in lat["os_levels"]:
            ax.axvline(lv["size"], color=COLORS[2], lw=1.2, ls=":")
        _label_row(ax, detected, 1.03, COLORS[1])
        _label_row(
            ax, [(lv["size"], f"OS {lv['name']} {fmt_size(lv['size'])}") for lv in lat["os_levels"]], 1.1, COLORS[2]
        )
        ax.plot([], [], "--", color=COLORS[1], label="detected level (square: latency read there)")
        ax.plot([], [], ":", color=COLORS[2], label="level the OS reports")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3)
        ax.set_xlabel("working set")
        ax.set_ylabel(f"{word} per load (minimum)" if word else "load latency (minimum)")
        ax.set_title(title, pad=34)
        return _svg(fig, title)


def ctx_ring(lines, title, exact=False):
    """lmbench's lat_ctx figure: time per hop over the ring size, one line per data size (guest
    instructions per hop in a run that counts them)."""
    tick, word = _per_op(exact)
    with matplotlib.rc_context(RC):
        fig = _fig(7.5, 3.2, right=1.5)
        ax = fig.add_subplot()
        xs = []
        for i, ln in enumerate(lines):
            pts = ln["points"]
            x = [p[0] for p in pts]
            y = [p[1] for p in pts]
            xs += x
            err = [
                [max(0, p[1] - (p[2] if p[2] is not None else p[1])) for p in pts],
                [max(0, (p[3] if p[3] is not None else p[1]) - p[1]) for p in pts],
            ]
            ax.errorbar(
                x,
                y,
                yerr=err,
                fmt="o-",
                ms=3,
                lw=1.2,
                capsize=2,
                color=COLORS[i % len(COLORS)],
                label=f"{ln['size_kib']} KiB per process",
            )
        _log_axis(ax, "x", *_range(xs), 2, _num)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: tick(v)))
        ax.set_ylim(bottom=0)
        ax.set_xlabel("processes in the ring")
        ax.set_ylabel(f"{word or 'time'} per hop (95% CI)")
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))
        ax.set_title(title)
        return _svg(fig, title)


def _mbs(v):
    """A bandwidth tick: MB/s below 1000, GB/s (10^9 B/s) above."""
    return fmt_bandwidth_tick(v)


def bandwidth(groups, title):
    """Bandwidth over size: one panel per group (mem.bw, memfn.<routine>), full width, one line
    per way of moving the bytes (named as the bandwidth table's columns) or implementation, the
    legend beside the panel."""
    names = list(dict.fromkeys(g["group"] for g in groups))
    rows = len(names)
    with matplotlib.rc_context(RC):
        fig = _fig(7.5, 3.0 * rows + 0.5, top=0.55, left=0.85, right=1.45, bottom=0.5)
        axes = fig.subplots(rows, 1, squeeze=False)
        for k, name in enumerate(names):
            ax = axes[k][0]
            xs, ys = [], []
            for i, g in enumerate(x for x in groups if x["group"] == name):
                pts = g["points"]
                label = (g["impl"] or g["routine"]) + (" (failed)" if g.get("failed") else "")
                ax.plot(
                    [p[0] for p in pts],
                    [p[1] for p in pts],
                    "o-",
                    ms=3,
                    lw=1.2,
                    color=COLORS[i % len(COLORS)],
                    label=label,
                )
                xs += [p[0] for p in pts]
                ys += [p[1] for p in pts]
            _log_axis(ax, "x", *_range(xs), 2, _size)
            _log_axis(ax, "y", *_range(ys), 10, _mbs)
            ax.set_xlabel("size", labelpad=1)
            ax.set_title(name, fontsize=8.5)
            ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=7)
        fig.suptitle(title, fontsize=9.5)
        return _svg(fig, title)


def nbench(nb, title):
    """BYTEmark indices per kernel against the two baselines (each baseline machine = 1)."""
    rows = [r for r in nb["rows"] if r.get("new") is not None]
    with matplotlib.rc_context(RC):
        fig = _fig(7, 0.32 * len(rows) + 1.6, left=1.5, bottom=0.95)
        ax = fig.add_subplot()
        y = list(range(len(rows)))
        ax.barh(
            [v - 0.2 for v in y],
            [r["new"] for r in rows],
            height=0.4,
            color=COLORS[0],
            label="new index (AMD K6/233 = 1)",
        )
        ax.barh(
            [v + 0.2 for v in y],
            [r["old"] for r in rows],
            height=0.4,
            color=COLORS[4],
            label="original index (Pentium 90 = 1)",
        )
        ax.set_yticks(y, [r["label"] for r in rows])
        ax.set_ylim(len(rows) - 0.5, -0.5)
        vals = [r["new"] for r in rows] + [r["old"] for r in rows] + [1]
        _log_axis(ax, "x", *_range(vals), 10, _num)
        ax.axvline(1, color="black", lw=1)
        ax.set_xlabel("index (times the baseline machine)")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.9 / (0.32 * len(rows) + 1.6)), ncol=2)
        ax.set_title(title)
        return _svg(fig, title)


def history_trend(s, by="time"):
    """One benchmark's trend: the points (95 % CI as bars) in order, each level's median with
    its noise band (+-2 noise deviations), a line where each change starts. The value axis
    spans the points (a CI that reaches far beyond them is cut at the frame)."""
    pts = s["points"]
    n = len(pts)
    xs = list(range(1, n + 1))
    ys = [p["value"] for p in pts]
    with matplotlib.rc_context(RC):
        fig = _fig(7.8, 2.5, left=0.9, bottom=0.6, top=0.5)
        ax = fig.add_subplot(1, 1, 1)
        lo = [p["value"] - p["ci_lo"] if p["ci_lo"] is not None else 0 for p in pts]
        hi = [p["ci_hi"] - p["value"] if p["ci_hi"] is not None else 0 for p in pts]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=3, lw=0.8, color=COLORS[0], label="run (95 % CI)", zorder=3)
        sigma = s["noise"] or 0
        for k, lv in enumerate(s["levels"]):
            a, b, m = lv["start"], lv["end"], lv["median"]
            x0, x1 = a + 0.6, b + 0.4
            band = ax.fill_between(
                [x0, x1],
                [m * math.exp(-2 * sigma)] * 2,
                [m * math.exp(2 * sigma)] * 2,
                color="#999999",
                alpha=0.3,
                lw=0,
            )
            (line,) = ax.plot([x0, x1], [m, m], color="#444444", lw=1)
            if k == 0:
                band.set_label("noise band (2 sigma)")
                line.set_label("level (median)")
        lo_y, hi_y = min(ys), max(ys)
        for lv in s["levels"]:
            lo_y, hi_y = min(lo_y, lv["median"] * math.exp(-2 * sigma)), max(hi_y, lv["median"] * math.exp(2 * sigma))
        pad = (hi_y - lo_y) * 0.08 or hi_y * 0.05
        ax.set_ylim(max(0, lo_y - pad), hi_y + pad)
        for c in s["changes"]:
            x = c["index"] + 0.5
            color = COLORS[1] if c["worse"] else COLORS[2]
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
        if s["unit"] == MB_S:
            ax.set_ylabel(MB_S)
        elif s["unit"] == INSN_OP:
            ax.set_ylabel("instructions per op")
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt_count(v) if v > 0 else "0"))
        elif s["unit"] not in (None, NS_OP):  # a figure's own unit
            ax.set_ylabel(s["unit"] or "value")
        else:
            ax.set_ylabel("time per op")
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt_time(v) if v > 0 else "0"))
        step = max(1, math.ceil(n / 15))
        ticks = xs[::step]
        ax.set_xticks(ticks)
        ax.set_xticklabels([_history_tick(pts[i - 1], by) for i in ticks], rotation=0)
        ax.set_xlabel(by if by != "time" else "run, oldest first")
        ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3)
        return _svg(fig, f"history of {s.get('name') or s['key']}")


def _history_tick(p, by):
    t = p["order"] if by != "time" else str(p["run_id"])
    return t if len(t) <= 10 else t[:9] + "…"
