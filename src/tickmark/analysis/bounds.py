"""Bounds a board must stay within (`tickmark bounds`, `tickmark check`, `run --bounds`): per
target and benchmark pattern, the range of one metric's value, as a lab keeps beside its history
(RTEMS's per-target limits, Fuego's criteria files are the model).

A bounds file is TOML, a list of [[bound]] tables:

    [[bound]]
    target = "qemu-system:virt-aarch64?os=freertos"   # a glob of target URIs ("*": every target)
    bench = "sync.mutex"                               # a benchmark key or glob
    metric = "headline"                                # headline, task-clock, or a sub-metric
    unit = "insn/op"                                   # what the figures are in (checked)
    min = 71.9
    max = 72.1
    # or: median = 72.0 and tolerance = "2%" (min and max follow from them)

`derive()` writes a starting file from stored runs: per target, benchmark and metric, from the
lowest to the highest value the runs measured (their 95 % CIs included), widened by a margin
(compare's noise band: 2 % or twice the runs' round-to-round CV for measured times; 0.1 % for
exact instruction counts) and rounded outward to four significant digits. `check()` holds one
run's results to the bounds that apply to it: a figure outside its range, a bounded benchmark the
run did not measure (or measured with no data), and a run that did not finish fail, as the
regression gate fails (analysis/verdict.py's Gate and Failure, so every exporter and exit status
treats them alike).
"""

from __future__ import annotations

import fnmatch
import math
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Callable

from ..base.errors import TickmarkError
from ..base.names import printable
from ..base.shapes import Row
from ..base.units import INSN_OP, NS_OP
from .compare import key_matches, metric_name
from .stats import TASK_CLOCK, Stats
from .verdict import EXACT_FLOOR, MIN_BAND, Failure, Gate

OUT, UNMEASURED, UNFINISHED = "out of bounds", "not measured", "unfinished"
ROUND_CV_MARGIN = 2.0  # measured times: the margin is this many round-to-round CVs (or MIN_BAND)


@dataclass(frozen=True)
class Bound:
    target: str
    bench: str
    metric: str  # "" for the headline
    unit: str
    lo: float
    hi: float

    def applies(self, uri: str | None) -> bool:
        return fnmatch.fnmatchcase(uri or "local", self.target)


def value_of(result: Row, metric: str = "") -> tuple[float, float, float, str, float | None] | None:
    """(value, low, high, unit, round CV) of one metric of a stored result, or None without one."""
    st = Stats.of(result)
    if metric == TASK_CLOCK:
        main = st.main
        if main is None:
            return None
        v = (main.counters_per_op or {}).get("task_clock")
        return None if v is None else (v, v, v, NS_OP, main.round_cv)
    s = st.get(metric)
    if s is None or s.value is None:
        return None
    lo = s.ci95_lo if s.ci95_lo is not None else s.value
    hi = s.ci95_hi if s.ci95_hi is not None else s.value
    return s.value, lo, hi, s.unit, s.round_cv


def exact(run: Row) -> bool:
    fp = run.get("fingerprint") or {}
    return bool(fp.get("qemu_icount")) or fp.get("cycles_method") == "icount-insns"


def unit_in(run: Row, unit: str) -> str:
    """The unit a run's figure is in: a time per operation of an exact-count run is a count of
    guest instructions per operation."""
    return INSN_OP if unit == NS_OP and exact(run) else unit


def _round_out(x: float, up: bool) -> float:
    """x rounded outward (up or down) to four significant digits."""
    if x == 0 or not math.isfinite(x):
        return x
    step = 10 ** (math.floor(math.log10(abs(x))) - 3)
    return (math.ceil if up else math.floor)(x / step) * step


def derive(
    runs: Iterable[Row], results_of: Callable[[Row], Iterable[Row]], metrics: Iterable[str] = ("",)
) -> list[Bound]:
    """Bounds from stored runs (all of one target each; several targets give bounds of each)
    -> [Bound]. results_of(run) gives a run's stored results (with their statistics)."""
    seen: dict[tuple[str, str, str], list[Any]] = {}  # (target, key, metric) -> [lo, hi, unit, exact, [round cvs], n]
    for run in runs:
        uri = (run.get("fingerprint") or {}).get("target_uri") or "local"
        for r in results_of(run):
            if r.get("status") != "ok":
                continue
            for m in metrics:
                got = value_of(r, m)
                if got is None:
                    continue
                v, lo, hi, unit, rcv = got
                unit = unit_in(run, unit)
                cur = seen.setdefault((uri, r["key"], m), [min(v, lo), max(v, hi), unit, exact(run), [], 0])
                if cur[2] != unit:
                    raise TickmarkError(f"{r['key']}: the runs measure it in {cur[2]} and in {unit}: not one bound")
                cur[0], cur[1] = min(cur[0], v, lo), max(cur[1], v, hi)
                cur[4].append(rcv or 0.0)
                cur[5] += 1
    out: list[Bound] = []
    for (uri, key, m), (lo, hi, unit, is_exact, cvs, _) in sorted(seen.items()):
        margin = EXACT_FLOOR if is_exact else max(MIN_BAND, ROUND_CV_MARGIN * max(cvs))
        out.append(Bound(uri, key, m, unit, _round_out(lo * (1 - margin), False), _round_out(hi * (1 + margin), True)))
    return out


def _quote(text: object) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_toml(bounds: Iterable[Bound], note: str = "") -> str:
    """The bounds as a bounds file's text."""
    lines = [f"# {line}" for line in note.splitlines()] + ([""] if note else [])
    for b in bounds:
        lines += [
            "[[bound]]",
            f"target = {_quote(b.target)}",
            f"bench = {_quote(b.bench)}",
            f"metric = {_quote(b.metric or 'headline')}",
            f"unit = {_quote(b.unit)}",
            f"min = {b.lo:.6g}",
            f"max = {b.hi:.6g}",
            "",
        ]
    return "\n".join(lines)


def _tolerance(text: object, where: str) -> float:
    t = str(text).strip()
    try:
        v = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        raise TickmarkError(f"{where}: bad tolerance '{printable(t)[:20]}' (e.g. \"5%\" or 0.05)") from None
    if not 0 <= v < 1:
        raise TickmarkError(f"{where}: tolerance {printable(t)[:20]} is not between 0 and 100%")
    return v


def _number(d: dict[str, Any], k: str, where: str) -> float:
    v = d.get(k)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise TickmarkError(f"{where}: '{k}' must be a number")
    return float(v)


def read(path: str | os.PathLike[str]) -> list[Bound]:
    """A bounds file -> [Bound]; a one-line error naming the file and the entry for bad input."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python before 3.11
        import tomli as tomllib
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as e:
        raise TickmarkError(f"cannot read bounds file {path}: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise TickmarkError(f"bounds file {path} is not TOML: {e}") from None
    entries = doc.get("bound")
    unknown = set(doc) - {"bound"}
    if unknown:
        raise TickmarkError(f"bounds file {path}: unknown key '{printable(sorted(unknown)[0])[:40]}' (only [[bound]])")
    if not isinstance(entries, list) or not entries:
        raise TickmarkError(f"bounds file {path} has no [[bound]] entry")
    out: list[Bound] = []
    for i, d in enumerate(entries, 1):
        where = f"bounds file {path}, entry {i}"
        if not isinstance(d, dict):
            raise TickmarkError(f"{where}: not a table")
        extra = set(d) - {"target", "bench", "metric", "unit", "min", "max", "median", "tolerance"}
        if extra:
            raise TickmarkError(f"{where}: unknown key '{printable(sorted(extra)[0])[:40]}'")
        for k in ("bench",):
            if not isinstance(d.get(k), str) or not d[k]:
                raise TickmarkError(f"{where}: '{k}' must be a benchmark key or glob")
        strs = {k: d.get(k, dflt) for k, dflt in (("target", "*"), ("metric", "headline"), ("unit", ""))}
        for k, v in strs.items():
            if not isinstance(v, str):
                raise TickmarkError(f"{where}: '{k}' must be text")
        if "median" in d or "tolerance" in d:
            if "min" in d or "max" in d or "median" not in d or "tolerance" not in d:
                raise TickmarkError(f"{where}: give min and max, or median and tolerance")
            med, tol = _number(d, "median", where), _tolerance(d["tolerance"], where)
            lo, hi = med * (1 - tol), med * (1 + tol)
        else:
            if "min" not in d and "max" not in d:
                raise TickmarkError(f"{where}: give min and max, or median and tolerance")
            lo = _number(d, "min", where) if "min" in d else -math.inf
            hi = _number(d, "max", where) if "max" in d else math.inf
        if lo > hi:
            raise TickmarkError(f"{where}: min {lo:g} is above max {hi:g}")
        out.append(Bound(strs["target"], d["bench"], metric_name(strs["metric"]), strs["unit"], lo, hi))
    return out


@dataclass
class Checked:
    """One figure held to its bound."""

    key: str
    bound: Bound
    value: float | None = None
    unit: str = ""
    state: str = "ok"  # ok, OUT, UNMEASURED
    why: str = ""


def _fmt(x: float) -> str:
    return "-inf" if x == -math.inf else "inf" if x == math.inf else f"{x:.6g}"


def check(
    run: Row, results: list[Row], bounds: Iterable[Bound], label: str | None = None, source: str = "bounds"
) -> tuple[Gate, list[Checked]]:
    """Hold one run's results to the bounds that apply to its target -> (Gate, [Checked]). The
    gate fails for every figure out of its range, every bounded benchmark not measured, and a run
    that did not finish."""
    label = label or run.get("name") or f"run {run['id']}"
    uri = (run.get("fingerprint") or {}).get("target_uri") or "local"
    g = Gate(source, 0.0, "")
    rows: list[Checked] = []
    for b in (b for b in bounds if b.applies(uri)):
        hit = [r for r in results if key_matches(r["key"], r.get("bench") or r["key"], [b.bench])]
        if not hit:
            rows.append(Checked(b.bench, b, state=UNMEASURED, why="not measured"))
            g.failures.append(Failure(label, b.bench, UNMEASURED, "absent"))
            continue
        for r in hit:
            got = value_of(r, b.metric) if r.get("status") == "ok" else None
            if got is None:
                why = (
                    (r.get("status") or "no status")
                    if r.get("status") != "ok"
                    else f"no {b.metric or 'headline'} value"
                )
                rows.append(Checked(r["key"], b, state=UNMEASURED, why=why))
                g.failures.append(Failure(label, r["key"], UNMEASURED, why))
                continue
            v, _, _, unit, _ = got
            unit = unit_in(run, unit)
            c = Checked(r["key"], b, v, unit)
            if b.unit and unit != b.unit:
                c.state, c.why = OUT, f"measured in {unit}, the bound is in {b.unit}"
            elif v < b.lo:
                c.state, c.why = OUT, f"{_fmt(v)} {unit} below min {_fmt(b.lo)}"
            elif v > b.hi:
                c.state, c.why = OUT, f"{_fmt(v)} {unit} above max {_fmt(b.hi)}"
            if c.state == OUT:
                g.failures.append(Failure(label, r["key"], OUT, c.why))
            rows.append(c)
    if not rows:
        raise TickmarkError(f"no bound applies to {label} (target {printable(uri)[:80]})")
    if run.get("status") != "complete":
        g.failures.append(Failure(label, "", UNFINISHED, run.get("status") or "unknown"))
    return g, rows


def lines(g: Gate, rows: list[Checked]) -> list[str]:
    """The check in words: a line per figure out of bounds or not measured, then a summary."""
    out = [f"{c.key}{'' if not c.bound.metric else ' ' + c.bound.metric}: {c.why}" for c in rows if c.state != "ok"]
    for f in g.of_kind(UNFINISHED):
        out.append(f"{f.run} is {f.why}: bounds cannot vouch for an unfinished run")
    ok = sum(c.state == "ok" for c in rows)
    out.append(f"{ok} of {len(rows)} figures within their bounds" + ("" if g.passed else "; the check fails"))
    return out
