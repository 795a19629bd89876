"""The model of one run: its header (the machine in words), its result rows, the per-family
summary, its problems and notes, and the series its plots draw (series.py)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from ...analysis import kernel_entry, rtos_table, stats, thread_metric
from ...analysis.memfn import IMPLS
from ...analysis.stats import Stats, Summary
from ...base import fmt
from ...base.exact import exact_counts, explanation
from ...base.exact import unit as shown_unit
from ...base.fmt import listed
from ...base.names import labels_text, printable, run_labels, when
from ...base.shapes import Fingerprint, Row, StoreReader
from ...facts import fingerprint
from ...facts import words as machine_words
from .cold import ColdTable, cold_model
from .kernel_entry import HostClockTable, KernelEntryTable, host_clock_model, kernel_entry_model
from .memory import topology_of
from .series import NbenchFigures, nbench_series, result_order, series

# What the event latencies are beside a result's headline (every view says it under them)
EVENTS_NOTE = (
    "each event timed alone: min, avg (their mean) and percentiles of single events; the value in "
    "the table of results is the mean time of one operation over a batch (median over samples), the "
    "figure lmbench reports (lat_pipe, lat_unix, lat_ctx: total time / operations); rare slow events "
    "raise that mean and avg above p50"
)

# What each flag means, in words (the views print the ones that occur): the noise flags from the
# statistics' own thresholds, the flags on every result of a run from the fingerprint's.
FLAG_MEANINGS = {**stats.FLAG_MEANINGS, **fingerprint.ENV_FLAG_MEANINGS}


# ---------------------------------------------------------------- the sections, as typed structures
# Every view (terminal, Markdown, HTML, JSON) reads these keys; the type checker holds the code that
# builds them to these names.


class _RowHead(TypedDict):
    """What every result row has: a failed, skipped or crashed instance has only this."""

    key: str
    shown: str
    bench: str
    family: str
    params: dict[str, Any]
    metric: str
    status: str
    reason: str
    flags: list[str]
    hist: dict[str, Any] | None
    hist_text: dict[str, str] | None


class ResultRow(_RowHead, total=False):
    """One row of the table of results: the headline of an instance or one of its sub-metrics
    (the figures only where the instance is ok)."""

    unit: str | None
    stat: str | None
    value: float | None
    value_text: str
    ns_per_op: float | None
    cycles_per_op: float | None
    cycles_method: str | None
    cycles_tag: str
    ops_per_s: float | None
    median: float | None
    ci95_lo: float | None
    ci95_hi: float | None
    ci_pct: float | None
    rcv: float | None
    round_cv: float | None
    determinism: float | None
    n: int
    rounds: int


class Family(TypedDict):
    """The per-family summary line."""

    family: str
    n: int
    ok: int
    flagged: int
    max_determinism: float | None


class Verified(TypedDict):
    """A benchmark whose instances checked their own output."""

    bench: str
    what: str
    passed: int
    instances: int


class Problems(TypedDict):
    """What went wrong in a run: the first few, and how many more."""

    first: list[str]
    more: int


class EnvFlag(TypedDict):
    flag: str
    meaning: str


class Beside(TypedDict):
    label: str
    rows: list[dict[str, Any]]


class RtosStudy(TypedDict):
    """A run's RTOS-study figures, with another system's beside them where one was given."""

    rows: list[dict[str, Any]]
    beside: Beside | None
    exact: bool
    note: str | None


class Essentials(TypedDict):
    """A run's one-line header (the terminal's `show`)."""

    id: int
    name: str | None
    started: str
    status: str
    rounds: Any
    samples: str | None
    where: str
    labels: str
    fingerprint: dict[str, Any]
    machine: list[list[str]]
    exact: str | None


class RunModel(TypedDict):
    """The model of one run (run_model)."""

    id: int
    name: str | None
    label: str
    started: str
    status: str
    suite: str | None
    patterns: list[str]
    rounds: int | None
    incomplete: str | None
    machine: list[list[str]]
    exact: str | None
    env_flags: list[EnvFlag]
    flag_meanings: dict[str, str]
    preemption: str | None
    problems: Problems
    malformed: int
    rows: list[ResultRow]
    cycles_note: str | None
    families: list[Family]
    essentials: Essentials
    nbench: NbenchFigures | None
    verified: list[Verified]
    rtos_study: RtosStudy | None
    thread_metric: dict[str, Any] | None
    kernel_entry: KernelEntryTable | None
    host_clock: HostClockTable | None
    cold: ColdTable | None
    topology: dict[str, Any] | None
    series: dict[str, Any]


class CountersModel(TypedDict):
    """The counter-derived figures of a run (show --counters)."""

    availability: Any
    rows: list[dict[str, Any]]
    exact: bool


def run_model(store: StoreReader, run: Row, with_series: bool = True, beside: Row | None = None) -> RunModel:
    """The model of one run; with_series=False leaves out the plot series (the terminal view).
    beside: another run (bare metal, another OS) whose RTOS-study and kernel-entry figures go
    beside this one's."""
    results = store.results(run["id"])
    fp = run.get("fingerprint") or {}
    notes = run.get("notes") or {}
    env = list(fp.get("flags") or [])
    if fp.get("emulated") and "emulated" not in env:
        env.append("emulated")
    exact = exact_counts(fp)
    rows = result_rows(results, env, exact)
    used = sorted({f for r in rows for f in r["flags"]})
    nb = nbench_series(store, results, fp)
    topo = topology_of(store, [run], results)
    study: RtosStudy | None = None
    if run.get("suite") == "rtos-study" or (beside is not None and has_rtos_figures(results)):
        study = {"rows": rtos_study_rows(results), "beside": None, "exact": exact, "note": None}
        if beside is not None:  # named by its system (Linux, NuttX...), and by its run if both are of one
            label = rtos_table.distinct_labels(
                [rtos_table.side_label(run), rtos_table.side_label(beside)], [run, beside]
            )[1]
            if exact_counts(beside.get("fingerprint")) == exact:
                study["beside"] = {"label": label, "rows": rtos_study_rows(store.results(beside["id"]))}
            else:  # guest instructions beside cycles or times: compare refuses the pair, and so does this table
                study["note"] = (
                    f"{label} (run {beside['id']}) is not beside: "
                    + (
                        "it measured time, this run counted guest instructions (QEMU -icount)"
                        if exact
                        else "it counted guest instructions (QEMU -icount), this run measured time"
                    )
                    + "; the units differ"
                )
    tmetric = None
    if run.get("suite") == thread_metric.SUITE:  # its table, with the run beside it if that ran the suite too
        pairs = [(run, results)] + (
            [(beside, store.results(beside["id"]))] if beside and beside.get("suite") == run["suite"] else []
        )
        tmetric = thread_metric.to_dict(thread_metric.build(pairs))
    entry = None
    if kernel_entry.present(results):  # the table of this run's system, and of the other beside it
        sides = [(run, results)] + ([(beside, store.results(beside["id"]))] if beside is not None else [])
        entry = kernel_entry_model(sides)
    return {
        "id": run["id"],
        "name": run.get("name"),
        "label": run_label(run),
        "started": when(run["started"], "%Y-%m-%d %H:%M"),
        "status": run["status"],
        "suite": run.get("suite"),
        "patterns": run.get("patterns") or [],
        "rounds": notes.get("rounds"),
        "incomplete": incomplete_text(run, len(results)),
        "machine": machine(fp, run.get("hello") or {}) + labelled(run),
        "exact": explanation(fp),
        "env_flags": [{"flag": f, "meaning": FLAG_MEANINGS.get(f, "")} for f in env],
        "flag_meanings": {f: FLAG_MEANINGS.get(f, "") for f in used},
        "preemption": preemption_note(results),
        "problems": problems(notes),
        "malformed": notes.get("malformed") or 0,
        "rows": rows,
        "cycles_note": cycles_note(rows),
        "families": families(rows),
        "essentials": essentials(run),
        "nbench": nb,
        "verified": verified(results),
        "rtos_study": study,
        "thread_metric": tmetric,
        "kernel_entry": entry,
        "host_clock": host_clock_model(results, lambda r: store.samples(r["id"])),
        "cold": cold_model(results, fp),
        "topology": topo,
        "series": series(store, run, results, nb, topo) if with_series else {},
    }


def has_rtos_figures(results: list[Row]) -> bool:
    """Whether a run has any RTOS-study figure but the control loop (a run of the kernel-entry
    benchmarks alone puts only their table beside another run's)."""
    from ...analysis.rtos_study import PATTERNS

    return any(r["key"] in PATTERNS and r["key"] != "loop.control" for r in results)


def verified(results: list[Row]) -> list[Verified]:
    """The benchmarks whose instances checked their own output and passed (the core's end record
    said what it verified): [{"bench", "what", "passed", "instances"}] in name order, where
    instances counts every instance of the benchmark that ran (not the skipped ones)."""
    out: dict[str, Verified] = {}
    for r in results:
        what = (r.get("meta") or {}).get("verified")
        if r["status"] == "ok" and isinstance(what, str):
            out.setdefault(r["bench"], {"bench": r["bench"], "what": what, "passed": 0, "instances": 0})
    for r in results:
        row = out.get(r["bench"])
        if row is not None and r["status"] != "skip":
            row["instances"] += 1
            row["passed"] += r["status"] == "ok" and bool((r.get("meta") or {}).get("verified"))
    return [out[b] for b in sorted(out)]


SHOWN_PROBLEMS = 10


def problems(notes: dict[str, Any]) -> Problems:
    """What went wrong in a run, first few first: the problems its rounds recorded, then those
    found while reading its log (an ingested run) -> {"first": [...], "more": how many not listed}."""
    ingested = notes.get("ingested")
    if not isinstance(ingested, dict):
        ingested = {}
    found = [str(p) for p in list(notes.get("problems") or []) + list(ingested.get("problems") or [])]
    found = list(dict.fromkeys(found))  # once each, in order
    total = len(found) + max(0, (_int(ingested.get("problem_count")) or 0) - len(ingested.get("problems") or []))
    return {"first": found[:SHOWN_PROBLEMS], "more": total - min(len(found), SHOWN_PROBLEMS)}


def _int(x: object) -> int | None:
    return x if isinstance(x, int) and not isinstance(x, bool) else None


# the fingerprint keys of a run's one-line header (the terminal's `show`)
HEADER_KEYS = tuple(k.name for k in fingerprint.keys(header=True))


def essentials(run: Row) -> Essentials:
    """What a run's header says: id, name, start, status, rounds, and the fingerprint's
    essentials (those it has), the cycles method with its short tag."""
    fp = run.get("fingerprint") or {}
    out = {k: fp[k] for k in HEADER_KEYS if k in fp}
    method = fp.get("cycles_method") or "none"
    out["cycles_method"] = method
    out["cycles_tag"] = cycles_tag(method)
    return {
        "id": run["id"],
        "name": run.get("name"),
        "started": when(run["started"], "%Y-%m-%d %H:%M"),
        "status": run["status"],
        "rounds": (run.get("notes") or {}).get("rounds", "?"),
        "samples": _samples(run),
        "where": where(fp),
        "labels": labels_text(run_labels(run)),
        "fingerprint": out,
        "machine": machine_words.lines(fp, header=True),
        "exact": explanation(fp),
    }


def _samples(run: Row) -> str | None:
    """'5 of 10 ms' per round: what the core said it ran (its hello), else the run's options ->
    text or None when neither recorded it."""
    hello, opts = run.get("hello") or {}, run.get("options") or {}
    n = hello.get("samples", opts.get("samples"))
    ms = hello.get("sample_ms", opts.get("sample_ms"))
    if not isinstance(n, int) or isinstance(n, bool):
        return None
    return f"{n} of {ms} ms" if isinstance(ms, int) and not isinstance(ms, bool) and ms > 0 else str(n)


def cycles_tag(method: str | None) -> str:
    """The short tag of a cycles method for a table column ('cal', 'insn'); the method itself
    when the registry does not know it."""
    return fingerprint.CYCLES_METHODS.get(method or "none", (method or "",))[0]


def rtos_study_rows(results: list[Row]) -> list[dict[str, Any]]:
    """The RTOS-vs-Linux study figures of a run (analysis/rtos_study.py), each with the cycles
    the study published."""
    from ...analysis.rtos_study import STUDY_CYCLES, rows

    out = []
    for row in rows(results):
        study = STUDY_CYCLES.get(row["figure"])
        out.append(dict(row, study=list(study) if study else None))
    return out


def run_label(run: Row) -> str:
    fp = run.get("fingerprint") or {}
    base = run.get("name") or f"run {run['id']}"
    v = fp.get("variant")
    return f"{base} ({v})" if v and v != run.get("name") else base


def incomplete_text(run: Row, n_results: int) -> str | None:
    if run["status"] == "complete":
        return None
    notes = run.get("notes") or {}
    planned = notes.get("planned")
    of = f" of {planned}" if planned else ""
    rnd = notes.get("round_in_progress")
    where = f" in round {rnd}" if rnd else ""
    how = "interrupted" if run["status"] == "incomplete" else "killed or still running"
    if run["status"] == "incomplete" and notes.get("incomplete"):  # the reason the run recorded
        how = str(notes["incomplete"])
        where = "" if how.startswith("round ") else where
    return printable(f"INCOMPLETE: {how}{where} after {n_results}{of} instances")


def labelled(run: Row) -> list[list[str]]:
    """The labels of a run as a pair of its machine table ([["labels", "board=b build=1"]]), or []."""
    text = labels_text(run_labels(run))
    return [["labels", text]] if text else []


def machine(fp: Fingerprint, hello: Row | None = None) -> list[list[str]]:
    """The machine of a run in words (machine.lines: the same words as `tickmark info` and the
    run's header), as [what, value] pairs."""
    return [[k, printable(v)] for k, v in machine_words.lines(fp)]


def where(fp: Fingerprint) -> str:
    """Where a run ran, in words (machine.where)."""
    return machine_words.where(fp)


def preemption_note(results: list[Row]) -> str | None:
    """One sentence on preemption for the run header (None when no sample was preempted)."""
    hit = moved = 0
    for r in results:
        d = Stats.of(r).main
        if d is None:
            continue
        n = d.preempted_samples
        if n is None:  # statistics without this count: the flag is all there is
            n = 1 if "preempted" in d.flags else 0
        if n:
            hit += 1
            moved += "preempted" in d.flags
    if not hit:
        return None
    return preemption_text(hit, len(results), moved)


def preemption_text(hit: int, n: int, moved: int) -> str:
    """The header's sentence on preemption: how many results had preempted samples, and in how
    many of them that changed the result (those are flagged)."""
    said = f"{hit} of {n} results had samples preempted by a context switch or a CPU migration, even after one retake; "
    if not moved:
        return said + "none of these results changed because of it"
    return said + f"it changed {moved} of these results (flagged 'preempted')"


def disturbance_text(notes: dict[str, Any] | None) -> str | None:
    """The sentence `run` ends with: how much of the run was disturbed (the engine's notes,
    run/engine.py Run.disturbed) and which figures that affects; None when the run recorded no
    evidence (no task-clock counts)."""
    d = (notes or {}).get("disturbed")
    if not isinstance(d, dict) or not d.get("of"):
        return None
    hit, of = d.get("results") or [], d["of"]
    samples = f"{d['samples']} of {d['samples_of']} samples kept off the CPU" if d.get("samples_of") else ""
    if not hit:
        return f"disturbed: no result of {of} ({samples or 'every result on a CPU for its wall time'})"
    more = sum(x[2] for x in hit)
    floor = d.get("floor_rounds") or 0
    rounds = f"; {more} extra rounds" if more else ""
    if more and floor:
        rounds += f" ({floor} with more samples, to reach the task-clock floor)"
    which = listed(f"{k} (on CPU {share * 100:.0f}%)" for k, share, _ in hit)
    return (
        f"disturbed: {len(hit)} of {of} results had their wall time kept off the CPU ({samples}"
        f"{rounds}): {which}; compare and history decide these on task-clock or call them inconclusive"
    )


def _num(x: float | None) -> float | None:
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return None
    return x


def shown_key(r: Row) -> str:
    """The key of a result as tables show it: a memfn.* implementation by its name
    (memfn.memcpy[impl=libc,size=64]) rather than its number."""
    impl = (r.get("params") or {}).get("impl")
    if not r["bench"].startswith("memfn.") or impl not in IMPLS:
        return r["key"]
    return r["key"].replace(f"impl={impl}", f"impl={IMPLS[impl]}", 1)


def _covered(d: Summary) -> bool:
    """Whether a summary's CI of the median covers 95 % (statistics without the level: yes)."""
    return d.ci95_level is None or d.ci95_level >= 0.95


# cycles that are not counted: time times a frequency (the views say so under their table)
ESTIMATED_CYCLES = {
    "calibrated-freq": "cal: not counted cycles but wall time (time off the CPU included) x a core frequency "
    "calibrated from a dependent-add chain",
    "given-freq": "given: not counted cycles but wall time (time off the CPU included) x the core frequency "
    "given with --fcore-khz",
}


def cycles_note(rows: list[ResultRow]) -> str | None:
    """What the estimated cycles among rows are, in words (None when every cycle was counted)."""
    used = {r.get("cycles_method") for r in rows if r.get("cycles_per_op") is not None}
    said = [text for method, text in ESTIMATED_CYCLES.items() if method in used]
    return "; ".join(said) or None


def _metric_row(r: Row, sub: str, d: Summary, env: Sequence[str], exact: bool = False) -> ResultRow:
    """One table row of a metric (d: a stats.Summary); exact: the run counted guest instructions
    (exact.exact_counts): its figures are counts, so the row has no time and no rate per second."""
    return {
        **_status_row(r, sub, "ok", ""),
        "unit": shown_unit(d.unit, exact),
        "stat": r.get("stat"),
        "value": _num(d.value),
        "value_text": fmt.fmt_value(d, exact),
        "ns_per_op": None if exact else _num(d.ns_per_op),
        # exact counts: the value is the count; a second figure of it from the cycle counter is not shown
        "cycles_per_op": None if exact else _num(d.cycles_per_op),
        "cycles_method": d.cycles_method,
        "cycles_tag": cycles_tag(d.cycles_method) if d.cycles_method else "",
        "ops_per_s": None if exact else _num(d.ops_per_s),
        "median": _num(d.median),
        "ci95_lo": _num(d.ci95_lo) if _covered(d) else None,
        "ci95_hi": _num(d.ci95_hi) if _covered(d) else None,
        # a 95 % CI only where the samples reach that coverage (few samples give their whole
        # range: '±131 %' beside a round-cv of 2.3 %; the few-samples flag says why there is none)
        "ci_pct": _num(d.ci_rel) if _covered(d) else None,
        "rcv": _num(d.rcv),
        "round_cv": _num(d.round_cv),
        "determinism": _num(d.determinism),
        "n": d.n,
        "rounds": d.rounds,
        "flags": [f for f in d.flags if f not in env],
        "hist": d.hist if not sub else None,
        "hist_text": event_texts(d.hist, exact) if d.hist and not sub else None,
    }


def event_texts(hist: dict[str, Any], exact: bool = False) -> dict[str, str]:
    """The event latencies of a histogram as text, each in its unit: a time, or guest instructions
    where the run counted them (exact) -> {"min": "175 ns", ..., "events": "1000"}."""
    unit = shown_unit(None, exact)
    out = {k: fmt.fmt_in(hist.get(k), unit) for k in ("min", "avg", "p50", "p99", "p99.9", "max")}
    out["events"] = str(hist.get("count", "-"))
    return out


def result_rows(results: Iterable[Row], env: Sequence[str] = (), exact: bool = False) -> list[ResultRow]:
    """One row per benchmark instance (its headline) and one per sub-metric, ordered by
    benchmark name then parameters in numeric order; failed, skipped and crashed instances
    keep their status and reason. exact: the run counted guest instructions (exact.exact_counts)."""
    rows: list[ResultRow] = []
    for r in sorted(results, key=result_order):
        st = Stats.of(r)
        main = st.main
        if r["status"] != "ok" or not main:
            rows.append(_status_row(r, "", r["status"] if r["status"] != "ok" else "no data", r.get("reason") or ""))
            continue
        rows.append(_metric_row(r, "", main, env, exact))
        for sub, d in st.subs.items():
            rows.append(_metric_row(r, sub, d, env, exact))
        cold_skip = (r.get("meta") or {}).get("cold_skip")
        if cold_skip and stats.COLD not in st.subs:  # cold calls asked for, the port could not flush
            rows.append(_status_row(r, stats.COLD, "skip", cold_skip))
    return rows


def _status_row(r: Row, metric: str, status: str, reason: str) -> ResultRow:
    """A row without figures: an instance (metric "") or a sub-metric that has none, and why."""
    return {
        "key": r["key"],
        "shown": shown_key(r),
        "bench": r["bench"],
        "family": r["bench"].split(".", 1)[0],
        "params": r.get("params") or {},
        "metric": metric,
        "status": status,
        "reason": reason,
        "flags": [],
        "hist": None,
        "hist_text": None,
    }


def families(rows: list[ResultRow]) -> list[Family]:
    """[{family, n, ok, unstable, max_det}] in name order: the per-family summary line."""
    out: dict[str, Family] = {}
    for r in rows:
        if r["metric"]:
            continue
        f = out.setdefault(r["family"], {"family": r["family"], "n": 0, "ok": 0, "flagged": 0, "max_determinism": None})
        f["n"] += 1
        if r["status"] == "ok":
            f["ok"] += 1
            f["flagged"] += bool(r["flags"])
            det = r.get("determinism")
            if det is not None and (f["max_determinism"] is None or det > f["max_determinism"]):
                f["max_determinism"] = det
    return [out[k] for k in sorted(out)]


def counters_model(store: StoreReader, run: Row) -> CountersModel:
    """The counter-derived figures of a run (show --counters): what the machine could count,
    and per result its ratios, counts per operation and multiplexed share."""
    from ...analysis.counters import availability, derived

    rows = []
    for r in store.results(run["id"]):
        main = Stats.of(r).main
        d = main.counter_figures() if main and main.counters_per_op else derived(store.samples(r["id"]))
        if d:
            rows.append(dict(d, key=r["key"]))
    fp = run.get("fingerprint") or {}
    return {
        "availability": availability(run.get("hello"), fp.get("cycles_method")),
        "rows": sorted(rows, key=lambda x: x["key"]),
        "exact": exact_counts(fp),
    }
