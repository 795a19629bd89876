"""Compare stored runs (or exported JSON documents): per benchmark instance and metric, the ratio
of medians B/A with a bootstrap 95 % CI, a Mann–Whitney U p-value and a verdict (the one verdict
of analysis/verdict.py); counter figures side by side; a geometric mean per family; and how many
rounds would resolve what is unresolved. Runs that counted guest instructions (QEMU -icount) are
exact counts: their rows are in instructions per operation and get the exact-count verdict.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..base.errors import TickmarkError
from ..base.exact import exact_counts as counts_instructions
from ..base.names import printable, run_labels
from ..facts import fingerprint
from . import counters, stats
from .stats import TASK_CLOCK, Stats
from .verdict import (  # noqa: F401  (the verdict's words and rule, read through this module too)
    BAND_ROUND_CV,
    CPU_TIME,
    EXIT_INCONCLUSIVE,
    FASTER,
    FEW,
    INCONCLUSIVE,
    MAX_ROUNDS_HINT,
    MAX_SAME_BAND,
    MIN_BAND,
    MIN_SAMPLES,
    MISSING,
    N_BOOT,
    ON_CPU_GAP,
    ON_CPU_MIN,
    OTHER_ISA,
    P_LIMIT,
    SAME,
    SEED,
    SLOWER,
    contended,
    contention_words,
    decide,
    floor_change,
    least_on_cpu,
    mann_whitney,
    on_cpu_share,
    time_ratio_of,
    verdict,
)

INSN = stats.INSN_OP  # the headline of exact counts: guest instructions per operation (QEMU -icount)
HEADLINE = "headline"  # --metric headline: the main metric (stored under "")


# ---------------------------------------------------------------- loading
@dataclass
class Side:
    label: str  # what the user sees: variant label, name or id
    ref: str  # how it was given
    run: dict[str, Any]
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> result dict with "samples"
    source: str = ""
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> profile (tickmark profile)
    # key -> why its wall time is contended, where the side says so itself (a history's level of
    # runs: which of them were kept off the CPU); otherwise the samples say it (on_cpu)
    contended: dict[str, str] = field(default_factory=dict)
    # the samples of several runs (a history's level): their fastest sample is one run's floor,
    # not the level's (a level that holds one run of another build would take that run's)
    pooled: bool = False

    @property
    def fingerprint(self) -> dict[str, Any]:
        return self.run.get("fingerprint") or {}

    @property
    def hello(self) -> dict[str, Any]:
        return self.run.get("hello") or {}


# A compared pair: (A, B) and compare_pair's result
Pair = tuple[tuple[Side, Side], dict[str, Any]]


# ---------------------------------------------------------------- statistics
def metric_values(result: dict[str, Any], sub: str = "") -> tuple[Any, Any, str]:
    """Per-sample values of one metric (ns/op, MB/s for bandwidth, a figure's own unit) and their
    rounds. sub "task-clock": on-CPU time per operation from the task-clock counter (time the
    process was descheduled does not count, so it resolves CPU-bound differences on a busy
    machine)."""
    meta = dict(result.get("meta") or {}, stat=result.get("stat"))
    bpo = meta.get("bytes_per_op", 0)
    if not sub and isinstance(meta.get("figure"), dict):
        vals, rounds = stats.metric_values(result.get("samples") or [], stats.FIGURE)
        return vals, rounds, stats.unit_of(meta)
    unit = stats.unit_of(meta) if not sub else stats.NS_OP
    vals, rounds = stats.metric_values(result.get("samples") or [], sub, bpo if unit == stats.MB_S else 0)
    return vals, rounds, unit


def multiple(ratio: float | None, higher_is_better: bool = False) -> str:
    """'11.2x slower' / '1.52x faster' (B relative to A) from the ratio of B/A."""
    if ratio is None or not ratio or math.isnan(ratio):
        return "-"
    slower = (ratio > 1) != higher_is_better
    m = ratio if ratio >= 1 else 1 / ratio
    if m < 1.005:
        return "1.00×"
    txt = f"{m:.2f}" if m < 10 else f"{m:.1f}" if m < 100 else f"{m:.0f}"
    return f"{txt}× {'slower' if slower else 'faster'}"


# ---------------------------------------------------------------- one pair of runs
def _metrics(result: dict[str, Any], other: dict[str, Any] | None = None, exact: bool = False) -> list[str]:
    """The metrics of a result to compare: its headline, its sub-metrics, and the on-CPU time
    (task-clock) where both sides counted it and the runs measured time (exact: they counted
    guest instructions, whose task-clock is no time)."""
    subs = list(Stats.of(result).subs)
    both = [r for r in (result, other) if r]
    counted = all(any("task_clock" in (s.get("ctr") or {}) for s in (r.get("samples") or [])[:1]) for r in both)
    if both and counted and TASK_CLOCK not in subs and not exact:
        subs.append(TASK_CLOCK)
    return [""] + subs


def _counters(result: dict[str, Any], exact: bool = False) -> dict[str, Any]:
    """The counter figures of a result; of an exact-count run only those that are counts."""
    main = Stats.of(result).main
    figures = (main and main.counter_figures()) or counters.derived(result.get("samples") or [])
    return counters.counts_only(figures) if exact else figures


def on_cpu(result: dict[str, Any]) -> float | None:
    """Median fraction of the wall time the process was on a CPU (verdict.on_cpu_share), for
    direct-method instances that do not block by design; else None."""
    return on_cpu_share(result.get("samples"), bool((result.get("meta") or {}).get("blocking")))


def disturbed(A: Side, B: Side, key: str, ra: dict[str, Any], rb: dict[str, Any]) -> str | None:
    """Why the wall time of a benchmark is contended in a pair (the one rule: verdict.contended),
    in words, or None: a side that says so itself (a history's level), or a round of either side
    kept off the CPU (verdict.least_on_cpu)."""
    said = [f"{s.contended[key]} in {n}" for n, s in (("A", A), ("B", B)) if key in s.contended]
    if said:
        return "contention: " + "; ".join(said)
    la, lb = (least_on_cpu(r.get("samples"), bool((r.get("meta") or {}).get("blocking"))) for r in (ra, rb))
    if contended(la) or contended(lb):
        return contention_words(*(x if x is not None else 1.0 for x in (la, lb)))
    return None


def cpu_verdict(
    ra: dict[str, Any], rb: dict[str, Any], seed: int, key: str, floor: bool = True
) -> dict[str, Any] | None:
    """The verdict on the on-CPU time (task-clock) of two results, drawn as the task-clock row's
    (the same random numbers), with the change of its floor (verdict.floor_change; not where a
    side pools several runs: floor False), or None where one side did not count it."""
    va, rda, _ = metric_values(ra, TASK_CLOCK)
    vb, rdb, _ = metric_values(rb, TASK_CLOCK)
    if not len(va) or not len(vb):
        return None
    out = verdict(va, rda, vb, rdb, False, rng=row_rng(seed, key, TASK_CLOCK))
    if floor:
        out["floor"] = floor_change(va, vb, rng=row_rng(seed, key, f"{TASK_CLOCK} floor"))
    return out


def family(bench: str) -> str:
    return bench.split(".", 1)[0]


def isa_difference(A: Side, B: Side) -> tuple[str, str] | None:
    """(arch of A, arch of B) when both runs counted guest instructions (QEMU -icount) on two
    instruction sets, else None: their counts differ by the ISA, not by speed."""
    fa, fb = A.fingerprint, B.fingerprint
    if counts_instructions(fa) and counts_instructions(fb) and fa.get("arch") != fb.get("arch"):
        return fa.get("arch") or "?", fb.get("arch") or "?"
    return None


def insn_multiple(ratio: float | None) -> str:
    """'1.52× more instructions' / '1.52× fewer instructions' (B relative to A) for exact counts
    (QEMU -icount): a ratio of instruction counts, never a time ratio or 'slower'."""
    if ratio is None or not ratio or math.isnan(ratio):
        return "-"
    m = ratio if ratio >= 1 else 1 / ratio
    if m < 1.005:
        return "1.00× the instructions"
    txt = f"{m:.2f}" if m < 10 else f"{m:.1f}" if m < 100 else f"{m:.0f}"
    return f"{txt}× {'more' if ratio > 1 else 'fewer'} instructions"


def multiple_of(ratio: float | None, row_higher: bool, counted: bool) -> str:
    """The multiple of a row or a family mean in words: instructions for exact counts (counted:
    the comparison's exact or isa), else slower/faster by the row's direction."""
    return insn_multiple(ratio) if counted else multiple(ratio, row_higher)


def exact_counts(side: Side) -> bool:
    """The run counted guest instructions (QEMU -icount): its figures are exact counts, the same
    on every run, not times."""
    return counts_instructions(side.fingerprint)


def check_metric(sides: Sequence[Side], metric: str | None) -> None:
    """--metric names a metric that some compared result has (a one-line error otherwise)."""
    if not metric:
        return
    subs = sorted({k for s in sides for r in s.results.values() for k in Stats.of(r).subs})
    if metric == TASK_CLOCK or metric in subs:
        return
    raise TickmarkError(f"bad --metric '{printable(metric)[:40]}' ({', '.join([HEADLINE, TASK_CLOCK] + subs)})")


def metric_name(text: str | None) -> str:
    """--metric: "" for the headline ("headline" or ""), else the name as given."""
    t = (text or "").strip()
    return "" if t in ("", HEADLINE) else t


def key_matches(key: str, bench: str, patterns: Sequence[str]) -> bool:
    """A result selected by benchmark patterns (globs on the benchmark name or on its key with
    parameters, read as the core reads them: patterns.py; every result when there is no pattern)."""
    from ..base.patterns import matches

    return not patterns or any(matches(key, p) or matches(bench, p) for p in patterns)


def row_rng(seed: int, key: str, metric: str) -> np.random.Generator:
    """The bootstrap's random numbers for one row, from the seed and the row alone: a row's
    verdict does not depend on which other rows were compared (compare, the JUnit gate and
    history compare the same row alike)."""
    return np.random.default_rng([seed, zlib.crc32(f"{key}\0{metric}".encode())])


def compare_pair(
    A: Side, B: Side, seed: int = SEED, metric: str | None = None, patterns: Sequence[str] = ()
) -> dict[str, Any]:
    """All rows of B against A, plus the per-family geometric means. metric: only that metric's
    rows ("" the headline, a sub-metric, "task-clock"; None: every metric); patterns: only the
    benchmarks they select (key_matches)."""
    rows: list[dict[str, Any]] = []
    isa = isa_difference(A, B)
    exact = exact_counts(A) and exact_counts(B)
    keys = set(A.results) | set(B.results)
    for key in sorted(keys):
        ra, rb = A.results.get(key), B.results.get(key)
        one = ra or rb or {}  # the key is in one of them at least
        bench = one.get("bench") or key.split("[")[0]
        if not key_matches(key, bench, patterns):
            continue
        subs = _metrics(ra, rb, exact) if ra else _metrics(one, None, exact)
        for sub in subs if metric is None else [metric]:
            row: dict[str, Any] = {"key": key, "bench": bench, "metric": sub or "", "family": family(bench)}
            if not ra or not rb or ra["status"] != "ok" or rb["status"] != "ok":
                miss = "A" if not ra else "B" if not rb else None
                row["status_a"], row["status_b"] = (r["status"] if r else "absent" for r in (ra, rb))
                row["verdict"] = MISSING
                row["note"] = f"A {ra['status']}, B {rb['status']}" if ra and rb else f"not in {miss}"
                rows.append(row)
                continue
            va, rda, unit = metric_values(ra, sub)
            vb, rdb, _ = metric_values(rb, sub)
            row["unit"] = INSN if exact and unit == stats.NS_OP else unit
            row["higher"] = not sub and stats.higher_is_better(dict(ra.get("meta") or {}, stat=ra.get("stat")))
            row.update(verdict(va, rda, vb, rdb, row["higher"], exact=exact, rng=row_rng(seed, key, sub)))
            if row["verdict"] == MISSING:
                lost = [s for s, v in (("A", va), ("B", vb)) if not len(v)]
                row["note"] = f"no {sub or 'headline'} samples in {' and '.join(lost)}"
            if isa and row["verdict"] in (FASTER, SLOWER, SAME, INCONCLUSIVE):
                row["verdict"] = OTHER_ISA
                row["note"] = f"instruction counts of {isa[0]} and {isa[1]} tell the ISAs apart, not speed"
                row.pop("rounds_needed", None)
            flags = {f for r in (ra, rb) for f in getattr(Stats.of(r).get(sub), "flags", [])}
            row["unstable"] = (
                "unstable" in flags
                if sub != TASK_CLOCK
                else bool(
                    row.get("round_cv_a")
                    and row.get("round_cv_b")
                    and max(row["round_cv_a"], row["round_cv_b"]) >= 0.10
                )
            )
            if not sub:
                row["counters_a"], row["counters_b"] = _counters(ra, exact), _counters(rb, exact)
                oa, ob = (None, None) if exact else (on_cpu(ra), on_cpu(rb))
                if oa is not None and ob is not None:
                    row["counters_a"]["on_cpu"], row["counters_b"]["on_cpu"] = oa, ob
                why = None if exact else disturbed(A, B, key, ra, rb)
                if why and row["verdict"] in (FASTER, SLOWER, SAME, INCONCLUSIVE):
                    decide(row, cpu_verdict(ra, rb, seed, key, not (A.pooled or B.pooled)), why)  # the one rule
            if not sub and row.get("verdict") == SLOWER and key in A.profiles and key in B.profiles:
                from ..profile.model import top_change

                row["profile_change"] = top_change(A.profiles[key], B.profiles[key])
            rows.append(row)
    return {"a": A.label, "b": B.label, "rows": rows, "families": families(rows), "isa": isa, "exact": exact}


def families(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Geometric mean per family of the time ratios B/A (bandwidth inverted, so that above 1
    always means B is slower), over the main metrics that are not flagged unstable (over all of
    them, marked so, when every one is unstable); task-clock rows get their own line."""
    out: dict[str, dict[str, Any]] = {}
    for fam in sorted({r["family"] for r in rows}):
        for metric, label in (("", fam), (TASK_CLOCK, f"{fam} ({TASK_CLOCK})")):
            cand = [
                r
                for r in rows
                if r["family"] == fam and r["metric"] == metric and r.get("ratio") and not math.isnan(r["ratio"])
            ]
            stable = [r for r in cand if not r.get("unstable")]
            use = stable or cand
            if not use:
                continue
            logs = [math.log(t) for t in (time_ratio_of(r) for r in use) if t]
            verdicts: dict[str, int] = {}
            for r in use:
                verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
            out[label] = {
                "geomean_time_ratio": math.exp(sum(logs) / len(logs)),
                "n": len(logs),
                "of": len(cand),  # the family's rows with a ratio; n of them enter the mean
                "verdicts": verdicts,
                "all_unstable": not stable,
            }
    return out


def fingerprint_differences(A: Side, B: Side) -> list[tuple[str, Any, Any]]:
    """Settings that differ between the machines/builds of two runs (printed before the table):
    [(key, a, b)], the keys the fingerprint registry shows, then the runs' labels ('label:KEY',
    as history's --by names them; None on the side without it)."""
    out = [(k.name, a, b) for k, a, b in fingerprint.differences(A.fingerprint, B.fingerprint)]
    la, lb = run_labels(A.run), run_labels(B.run)
    return out + [(f"label:{k}", la.get(k), lb.get(k)) for k in {**la, **lb} if la.get(k) != lb.get(k)]


# ---------------------------------------------------------------- thresholds
def parse_threshold(text: str, option: str = "--fail-above") -> float:
    """A percentage option: '5%' or '5' both mean five percent -> 0.05; finite and not negative."""
    t = text.strip()
    num = t[:-1].strip() if t.endswith("%") else t
    try:
        v = float(num)
    except ValueError:
        raise TickmarkError(f"bad {option} '{text[:40]}' (expected a percentage such as 5%)")
    if not math.isfinite(v) or v < 0:
        raise TickmarkError(f"bad {option} '{text[:40]}' (a percentage from 0 up, such as 5%)")
    return v / 100


# ---------------------------------------------------------------- output
def _num(x: Any) -> Any:
    if x is None:
        return None
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return None
    return x


ROW_FIELDS = (  # the fields of a compared row, in the comparison document and every view of it
    "key",
    "bench",
    "metric",
    "unit",
    "higher",
    "median_a",
    "median_b",
    "ratio",
    "ci",
    "p",
    "verdict",
    "multiple",
    "n_a",
    "n_b",
    "rounds_a",
    "rounds_b",
    "round_cv_a",
    "round_cv_b",
    "band",
    "det_a",
    "det_b",
    "rounds_needed",
    "note",
    "decided",
    "wall_verdict",
    "profile_change",
    "counters_a",
    "counters_b",
)


def to_json(sides: Sequence[Side], pairs: list[Pair], metric: str | None = None) -> dict[str, Any]:
    """The comparison as the JSON the views read (`compare --format json`). metric: the one metric
    compared (--metric), or None for every one."""

    def clean(o: Any) -> Any:
        if isinstance(o, dict):
            return {k: clean(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [clean(v) for v in o]
        if isinstance(o, (np.floating, np.integer)):
            o = o.item()
        return _num(o)

    doc: dict[str, Any] = {
        "format": "tickmark-compare",
        "version": 1,
        "runs": [
            {
                "label": s.label,
                "ref": s.ref,
                "source": s.source,
                "id": s.run.get("id"),
                "name": s.run.get("name"),
                "variant": s.fingerprint.get("variant"),
                "counters": counters.availability(s.hello, s.fingerprint.get("cycles_method")),
            }
            for s in sides
        ],
        "rule": {
            "min_samples": MIN_SAMPLES,
            "p_limit": P_LIMIT,
            "min_band": MIN_BAND,
            "max_same_band": MAX_SAME_BAND,
            "band_round_cv": BAND_ROUND_CV,
            "bootstrap": N_BOOT,
            "exact": "exact counts (QEMU -icount): a difference is real when it is larger than the "
            "run-to-run deviation of either side",
            "contention": {
                "on_cpu_min": ON_CPU_MIN,
                "on_cpu_gap": ON_CPU_GAP,
                "decides": CPU_TIME,
                "exit_inconclusive": EXIT_INCONCLUSIVE,
            },
        },
        "metric": None if metric is None else (metric or HEADLINE),
        "comparisons": [],
    }
    for (A, B), res in pairs:
        rows: list[dict[str, Any]] = []
        for r in res["rows"]:
            row = {k: r.get(k) for k in ROW_FIELDS if r.get(k) is not None}
            if r.get("decided"):  # the one rule decided it: never a direction from contended wall time
                d = r["decided"]
                row["multiple"] = f"{multiple(d['ratio'])} ({CPU_TIME})" if d.get("on") else "-"
            elif r.get("ratio") is not None:
                counted = bool(res.get("isa") or res.get("exact"))
                row["multiple"] = multiple_of(r["ratio"], bool(r.get("higher")), counted)
            rows.append(row)
        doc["comparisons"].append(
            {
                "a": A.label,
                "b": B.label,
                "rows": rows,
                "families": res["families"],
                "isa": list(res["isa"]) if res.get("isa") else None,
                "exact": bool(res.get("exact")),
                "differences": [{"field": k, "a": a, "b": b} for k, a, b in fingerprint_differences(A, B)],
            }
        )
    return clean(doc)


def _emulated(side: Side) -> bool:
    fp = side.fingerprint
    return bool(fp.get("emulated")) or "emulated" in (fp.get("flags") or [])


def check_comparable(A: Side, B: Side) -> None:
    """Runs that measured in different units (instruction counts under QEMU icount are not
    times) are never compared: the fingerprint registry's incomparable keys."""
    bad = fingerprint.incomparable(A.fingerprint, B.fingerprint)
    if bad:
        _, a, b = bad
        raise TickmarkError(f"cannot compare {A.label} ({a}) with {B.label} ({b}): the units differ")


def mixing_warning(A: Side, B: Side) -> str | None:
    """A line when one run was emulated and the other was not, else None."""
    if _emulated(A) == _emulated(B):
        return None
    emu, real = (A, B) if _emulated(A) else (B, A)
    return (
        f"WARNING: {emu.label} ran emulated and {real.label} did not: emulated timings say nothing "
        "about hardware; the ratios below compare unlike things"
    )


def compare_sides(
    sides: list[Side], metric: str | None = None, patterns: Sequence[str] = ()
) -> tuple[list[Side], list[Pair]]:
    """Compare the first side (the baseline) with each of the others -> (sides, pairs); labels
    are made unique for the reader. metric and patterns narrow the rows (compare_pair)."""
    if len(sides) < 2:
        raise TickmarkError("compare needs two runs at least (RUN_A RUN_B, or --baseline RUN and a run)")
    seen: dict[str, int] = {}
    for s in sides:  # make labels unique for the reader
        n = seen.get(s.label, 0)
        seen[s.label] = n + 1
        if n:
            s.label = f"{s.label} #{n + 1}"
    base = sides[0]
    for other in sides[1:]:
        check_comparable(base, other)
        common = [
            k for k in set(base.results) & set(other.results) if key_matches(k, base.results[k]["bench"], patterns)
        ]
        if not common:
            what = f" matching {' '.join(patterns)}" if patterns else ""
            raise TickmarkError(f"{base.label} and {other.label} have no benchmark{what} in common: nothing to compare")
    pairs = [((base, other), compare_pair(base, other, metric=metric, patterns=patterns)) for other in sides[1:]]
    return sides, pairs
