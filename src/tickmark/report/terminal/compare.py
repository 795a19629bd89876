"""Terminal view of a comparison (`tickmark compare`, `matrix`, a campaign's summary), rendered from
its model (model.comparison; the statistics are analysis/compare.py's): one table per pair of runs
(B against the baseline A) with ratio, CI, p and verdict, the counters side by side, and the
geometric mean per family."""

import sys

from rich.text import Text

from ...analysis.compare import FASTER, FEW, INCONCLUSIVE, MAX_ROUNDS_HINT, SAME, SLOWER
from ...base.fmt import fmt_in, fmt_pct
from ...base.units import CYCLES_OP
from ..console import console, dropped_note, fixed_table, print_wrapped
from . import codesize
from .counters import NO_PMU_HINT, fmt_per_op, fmt_ratio


def _pct(x, signed=True):
    if x is None:
        return "-"
    return f"{x * 100:+.1f}%" if signed else f"{x * 100:.1f}%"


def _fmt_p(p):
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


_VERDICT_STYLE = {FASTER: "green", SLOWER: "red", SAME: "dim", INCONCLUSIVE: "yellow", FEW: "yellow", "missing": "red"}


def _print_table(file, headers, rows, right, plain, styles=None, **fit):
    """A fixed-width table written line by line (console.fixed_table: Rich's Table costs
    milliseconds a row, which for a full suite is most of the time of a comparison), within the
    output's width: fit names the columns that wrap and those that may be left out -> the
    headers of the columns left out."""
    lines, dropped = fixed_table(headers, rows, right, console(file).width, styles, plain, **fit)
    file.write("\n".join(lines) + "\n")
    return dropped


def render(sides, pairs, file=None, show_counters=True, metric=None):
    """Print the comparison tables (one per pair: baseline against each other run); metric: the
    one metric compared (--metric), None for every one."""
    from ..model import comparison

    render_comparison(comparison(sides, pairs, metric), file, show_counters)


def value_text(v, unit):
    """A compared value in its unit: MB/s, guest instructions (exact counts), a figure's own unit
    or a time."""
    return fmt_in(v, unit)


def render_comparison(doc, file=None, show_counters=True):
    """The terminal view of a comparison's model."""
    con = console(file or sys.stdout)
    plain = not con.is_terminal
    runs = {s["label"]: s for s in doc["runs"]}
    for s in doc["runs"]:
        print_wrapped(con, f"{s['label']}: {s['source']}, hardware counters: {s['counters']['hardware_status']}")
    for c in doc["comparisons"]:
        A, B = runs[c["a"]], runs[c["b"]]
        con.print()
        con.print(Text(f"B = {B['label']}  vs  A = {A['label']}", style=None if plain else "bold"))
        if c["warning"]:
            con.print(Text(c["warning"], style=None if plain else "bold red"))
        for d in c["differences"]:
            print_wrapped(con, f"differs: {d['field']}: {d['a']} | {d['b']}", "  ")
        if doc.get("metric"):
            con.print(f"  metric: {doc['metric']}", markup=False)
        if c.get("exact"):
            print_wrapped(con, "exact counts: a difference is real beyond the run-to-run deviation (det A/B)", "  ")
        headers = ["benchmark", "A", "B", "B/A", "95% CI", "multiple", "p", "verdict", "det A/B"]
        right = [False, True, True, True, True, True, True, False, True]
        rows, styles = [], []
        for r in c["rows"]:
            name = r["key"] + (f" {r['metric']}" if r["metric"] else "")
            if r.get("median_a") is None:
                rows.append([name, "", "", "", "", "", "", f"{r['verdict']}: {r.get('note', '')}", ""])
                styles.append([None] * 7 + ["red", None])
                continue
            unit = r.get("unit")
            verdict = r["verdict"]
            why = "; ".join(
                # the profile's cause first: a narrow column cuts the end of the cell
                x
                for x in (r.get("profile_change") and f"profile: {r['profile_change']}", r.get("note"))
                if x
            )
            if why:
                verdict += f" ({why})"
            elif verdict == INCONCLUSIVE and r.get("rounds_needed"):
                rn = r["rounds_needed"]
                verdict += f" (~{rn}{'+' if rn >= MAX_ROUNDS_HINT else ''} rounds)"
            ci = r.get("ci")
            det = "/".join(fmt_pct(r.get(k)) for k in ("det_a", "det_b"))
            rows.append(
                [
                    name,
                    value_text(r["median_a"], unit),
                    value_text(r["median_b"], unit),
                    "-" if r.get("ratio") is None else f"{r['ratio']:.3f}",
                    f"{_pct(ci[0])}..{_pct(ci[1])}" if ci else "-",
                    r.get("multiple") or "-",
                    _fmt_p(r.get("p")),
                    verdict,
                    det,
                ]
            )
            styles.append([None] * 7 + [_VERDICT_STYLE.get(r["verdict"]), None])
        # narrow: the keys and verdicts wrap, then det A/B, p, multiple and the CI go (a note
        # says so), then the rest comes in parts
        con.file.flush()
        dropped = _print_table(
            con.file, headers, rows, right, plain, styles, wrap={0: "key", 7: "words"}, optional=(8, 6, 5, 4)
        )
        if dropped:
            con.print(dropped_note(dropped, "tickmark report has every column"), markup=False)
        if show_counters:
            _render_counters(con, A["counters"], B["counters"], c["rows"], plain, c.get("exact"))
        for fam, f in c["families"].items():
            g = f["geomean_time_ratio"]
            vs = ", ".join(f"{n} {v}" for v, n in sorted(f["verdicts"].items()))
            ratios = c["ratio_words"] + "s"
            print_wrapped(
                con, f"{fam}: geometric mean of {ratios} B/A {g:.3f} ({f['multiple']}) over {f['covers']} ({vs})", "  "
            )
        codesize.render(con, c.get("code_size"), plain, _print_table)
    if doc.get("nbench"):
        from .nbench import side_by_side_lines

        con.print()
        for line in side_by_side_lines(doc["nbench"]):
            con.print(line, markup=False)


def _render_counters(con, av_a, av_b, all_rows, plain, exact=False):
    rows = [r for r in all_rows if not r["metric"] and (r.get("counters_a") or r.get("counters_b"))]
    ratio_cols = [
        n
        for n in ("on_cpu", "ipc", "stall_fe", "stall_be", "branch_miss_rate", "cache_miss_rate")
        if any(n in (r.get("counters_a") or {}) or n in (r.get("counters_b") or {}) for r in rows)
    ]
    per_cols = [
        n
        for n in PER_OP_COLUMNS
        if any(
            n in (r.get("counters_a") or {}).get("per_op", {}) or n in (r.get("counters_b") or {}).get("per_op", {})
            for r in rows
        )
    ]
    if not rows or not ratio_cols + per_cols:
        con.print("  counters: none recorded", markup=False)
        if not exact:
            _no_pmu_hint(con, av_a, av_b)
        return
    heads = {
        "on_cpu": "on-CPU",
        "ipc": "IPC",
        "stall_fe": "FE stall",
        "stall_be": "BE stall",
        "branch_miss_rate": "br-miss",
        "cache_miss_rate": "cache-miss",
        "cycles": CYCLES_OP,
        "instructions": "instr/op",
        "cache_misses": "misses/op",
        "task_clock": "task-clock/op",
        "context_switches": "ctx-sw/op",
        "page_faults": "faults/op",
    }
    headers = ["counters A -> B"] + [heads[c] for c in ratio_cols + per_cols]
    table = []
    for r in rows:
        ca, cb = r.get("counters_a") or {}, r.get("counters_b") or {}
        cells = [r["key"]]
        for c in ratio_cols:
            cells.append(f"{fmt_ratio(c, ca.get(c))} -> {fmt_ratio(c, cb.get(c))}")
        for c in per_cols:
            a, b = ca.get("per_op", {}).get(c), cb.get("per_op", {}).get(c)
            cells.append(f"{fmt_per_op(c, a)} -> {fmt_per_op(c, b)}")
        table.append(cells)
    con.file.flush()
    _print_table(con.file, headers, table, [False] + [True] * (len(headers) - 1), plain, wrap={0: "key"})
    hw = [f"{s}: {av['hardware_status']}" for s, av in (("A", av_a), ("B", av_b))]
    if not [c for c in ratio_cols if c != "on_cpu"] and not exact:  # counts have no IPC or stalls to miss
        print_wrapped(con, f"hardware counters (IPC, stalls, branch and cache misses): {'; '.join(hw)}", "  ")
    if not exact:
        _no_pmu_hint(con, av_a, av_b)
    mux = [
        r["key"]
        for r in rows
        if (r.get("counters_a") or {}).get("multiplexed") or (r.get("counters_b") or {}).get("multiplexed")
    ]
    if mux:
        print_wrapped(con, f"multiplexed counters (scaled counts) in: {', '.join(mux)}", "  ")
    if av_a["kernel_excluded"] or av_b["kernel_excluded"]:
        con.print("  kernel-excluded: counters count user space only (perf_event_paranoid)", markup=False)


PER_OP_COLUMNS = ("cycles", "instructions", "cache_misses", "task_clock", "context_switches", "page_faults")


def _no_pmu_hint(con, *avs):
    """Where no side could count instructions: the route that counts them without a PMU."""
    if not any("instructions" in av["hardware"] for av in avs):
        print_wrapped(con, NO_PMU_HINT, "  ")
