"""A stored run in formats that other tools read, built from the result model (stats.Stats):

  gbench       google/benchmark's JSON output: one "iteration" entry per round (the median time
               per operation of its samples) and the median, mean, stddev and cv aggregates, as
               `--benchmark_repetitions` writes them; dashboards that import google/benchmark
               results read it. real_time is wall time, cpu_time the on-CPU time of the
               task-clock counter (wall time, said in the entry's label, where none was
               counted); a bandwidth entry's bytes_per_second is the rate of its own time.
               The context says only what the run recorded (no scaling state when the governor
               is unknown) and carries the run's labels ("label:KEY").
  junit        JUnit XML: one test case per benchmark instance, failed when it crashed, timed
               out or failed, or when the gate fails it (analysis/verdict.py, the gate of
               `compare --fail-above`); skipped ones are skipped test cases. A run that did not
               finish fails a test case `run`, and each benchmark it never started fails.
  openmetrics  OpenMetrics text (Prometheus push gateways): the median time per operation in
               seconds with its 95 % CI (and the minimum where that is the headline), on-CPU
               time per operation (task-clock), bandwidth, cycles per operation, robust CV,
               round-to-round CV, and a state set per instance (ok, skip, failed, crashed,
               timeout).

Every function takes the run model (store/document.py run_model: the run row and its result rows
with their raw samples), never the store, and returns text; report/formats.py is the table of
formats that chooses them.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree as ET

from ..analysis import estimators, stats
from ..analysis.stats import MB_S, NS_OP, Stats, Summary
from ..base.errors import TickmarkError
from ..base.exact import exact_counts
from ..base.names import decimal
from ..base.shapes import Row
from ..base.units import parse_size
from ..facts import fingerprint

if TYPE_CHECKING:
    from typing_extensions import TypeGuard

    from ..analysis.verdict import Failure, Gate

STATUSES = ("ok", "skip", "failed", "crashed", "timeout")


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(t))


def _size_bytes(size: object) -> int:
    """A cache's size in bytes (a number; the text of an older fingerprint: "32K"), else 0."""
    return parse_size(size) or 0


def _finite(x: object) -> TypeGuard[float]:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


# ---------------------------------------------------------------- google/benchmark JSON
def _round_times(samples: Sequence[Row]) -> tuple[list[float], list[float] | None, float | None]:
    """Per round (in order), the median ns per operation of its samples, on wall time and on
    on-CPU time (task-clock) -> (wall, cpu, cpu_all): cpu is None unless every sample counted
    task-clock; cpu_all is the median over all samples."""
    import numpy as np

    wall, rounds = stats.metric_values(samples)
    if not len(wall):
        return [], None, None
    cpu, crounds = stats.metric_values(samples, stats.TASK_CLOCK)
    if len(cpu) != len(wall):
        return estimators.round_medians(wall, rounds), None, None
    return estimators.round_medians(wall, rounds), estimators.round_medians(cpu, crounds), float(np.median(cpu))


CPU_TIME_NOTE = "cpu_time: on-CPU time per operation (task-clock); wall time where a benchmark's label says so"
NO_TASK_CLOCK = "cpu_time is wall time: no task-clock counted"


def to_gbench(model: dict[str, Any]) -> str:
    """The run model (document.run_model): each result's raw samples make its repetitions (the
    rounds). A run whose figures are counts of guest instructions (QEMU -icount) has no time to
    give: refused, with the formats that hold counts."""
    from .. import __version__

    run, results = model["run"], model["results"]
    fp = run.get("fingerprint") or {}
    if exact_counts(fp):
        raise TickmarkError(
            f"{run.get('name') or 'run ' + str(run['id'])} counted guest instructions (QEMU -icount): "
            "google/benchmark's JSON holds times only; export it as json, csv, junit or openmetrics"
        )
    load = [float(x) for x in str(fp.get("loadavg") or "").split()[:3] if _is_float(x)]
    caches: list[dict[str, Any]] = []
    for c in fp.get("caches") or []:
        level = str(c.get("level") or "")
        if decimal(level, 2) is not None and _size_bytes(c.get("size")):
            caches.append(
                {
                    "type": c.get("type") or "Unified",
                    "level": int(level),
                    "size": _size_bytes(c["size"]),
                    "num_sharing": 0,
                }
            )
    ctx: dict[str, Any] = {
        "date": _iso(run["started"]),
        "host_name": fp.get("hostname") or fp.get("target_uri") or "",
        "executable": "tickmark-core",
        "num_cpus": int(fp.get("cpus_online") or 0),
        "mhz_per_cpu": int(round((fp.get("fcore_khz") or 0) / 1000)),
        "caches": caches,
        "load_avg": load,
        "library_version": f"tickmark {__version__}",
        "library_build_type": "release",
        "json_schema_version": 1,
        "tickmark_run": run.get("name") or str(run["id"]),
        "tickmark_cpu_time": CPU_TIME_NOTE,
    }
    if fp.get("governor") is not None:  # google/benchmark's "scaling": a governor other than performance
        ctx["cpu_scaling_enabled"] = fp["governor"] != "performance"
    for k, v in sorted(((run.get("notes") or {}).get("labels") or {}).items()):
        ctx[f"label:{k}"] = str(v)
    benches: list[dict[str, Any]] = []
    figures = figure_counters(results)
    results = [r for r in results if not _figure_of(r)]
    for family, r in enumerate(sorted(results, key=lambda r: r["key"])):
        d = Stats.of(r).main
        base = {"family_index": family, "per_family_instance_index": 0, "run_name": r["key"], "threads": 1}
        if r["status"] == "skip":
            continue
        if r["status"] != "ok" or d is None or not _finite(d.ns_per_op):
            why = f"{r['status']}: {r.get('reason') or ''}".rstrip(": ")
            benches.append(
                dict(
                    base,
                    name=r["key"],
                    run_type="iteration",
                    repetitions=1,
                    repetition_index=0,
                    error_occurred=True,
                    error_message=why,
                    iterations=0,
                    real_time=0.0,
                    cpu_time=0.0,
                    time_unit="ns",
                )
            )
            continue
        wall, cpu, cpu_median = _round_times(r["samples"])
        wall = [x for x in wall if _finite(x) and x > 0] or [d.ns_per_op]
        if cpu is None or len(cpu) != len(wall):
            cpu, cpu_median, label = wall, d.ns_per_op, {"label": NO_TASK_CLOCK}
        else:
            label = {}
        bpo = (r.get("meta") or {}).get("bytes_per_op") or 0
        extra = figures.get(r["key"], {})

        iters = (r.get("meta") or {}).get("iters") or 1
        for i, (ns, cns) in enumerate(zip(wall, cpu)):
            benches.append(
                dict(
                    base,
                    name=r["key"],
                    run_type="iteration",
                    repetitions=len(wall),
                    repetition_index=i,
                    iterations=iters,
                    real_time=ns,
                    cpu_time=cns,
                    time_unit="ns",
                    **label,
                    **_counters(d, bpo, ns, extra),
                )
            )
        (mw, mc), (sw, sc), (cw, cc) = _mean_sd(wall, cpu)
        for agg, val, cval, unit in (
            ("median", d.ns_per_op, cpu_median, "time"),
            ("mean", mw, mc, "time"),
            ("stddev", sw, sc, "time"),
            ("cv", cw, cc, "percentage"),
        ):
            benches.append(
                dict(
                    base,
                    name=f"{r['key']}_{agg}",
                    run_type="aggregate",
                    repetitions=len(wall),
                    aggregate_name=agg,
                    aggregate_unit=unit,
                    iterations=len(wall),
                    real_time=val,
                    cpu_time=cval,
                    time_unit="ns",
                    **label,
                    **(_counters(d, bpo, val, extra) if agg == "median" else {}),
                )
            )
    return json.dumps({"context": ctx, "benchmarks": benches}, indent=2) + "\n"


def _counters(d: Summary, bpo: float, ns: float, extra: dict[str, float]) -> dict[str, float]:
    """The user counters of an entry whose time is ns: a bandwidth entry's rate is the rate of
    its own time; cycles per operation where they were obtained; the figures its program
    printed (extra, figure_counters)."""
    out = dict(extra)
    if d.unit == MB_S and bpo and ns > 0:
        out["bytes_per_second"] = bpo * 1e9 / ns
    if _finite(d.cycles_per_op):
        out["cycles_per_op"] = d.cycles_per_op
    return out


def _mean_sd(
    wall: Sequence[float], cpu: Sequence[float]
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    """((mean wall, mean cpu), (sd wall, sd cpu), (cv wall, cv cpu)) over the repetitions."""

    def msc(xs: Sequence[float]) -> tuple[float, float, float]:
        mean = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
        return mean, sd, sd / mean if mean else 0.0

    (mw, sw, cw), (mc, sc, cc) = msc(wall), msc(cpu)
    return (mw, mc), (sw, sc), (cw, cc)


def _figure_of(r: Row) -> dict[str, Any] | None:
    """A figure's unit and direction, for a figure read from a program's output (exec), else None."""
    f = (r.get("meta") or {}).get("figure")
    return f if isinstance(f, dict) else None


def figure_counters(results: Iterable[Row]) -> dict[str, dict[str, float]]:
    """The figures of programs (exec.NAME.FIGURE) as counters of their program's instance
    (google/benchmark's user counters) -> {program key: {figure name: median}}."""
    out: dict[str, dict[str, float]] = {}
    for r in results:
        f, d = _figure_of(r), Stats.of(r).main
        if f and r["status"] == "ok" and d is not None and _finite(d.median):
            out.setdefault(r["key"][: -len(f["name"]) - 1], {})[f["name"]] = d.median
    return out


def _is_float(x: str) -> bool:
    try:
        return math.isfinite(float(x))
    except ValueError:
        return False


# ---------------------------------------------------------------- JUnit XML
def to_junit(model: dict[str, Any], gate: Gate | None = None) -> str:
    """gate: the verdict of analysis/verdict.py's gate against a baseline (or None): its failures
    fail their test cases, and a benchmark of the baseline that this run did not measure is a
    failed test case of its own. A run that did not finish fails a test case `run`, and each
    benchmark it planned but never started is a failed test case."""
    run, results = model["run"], model["results"]
    name = run.get("name") or f"run {run['id']}"
    fp = run.get("fingerprint") or {}
    exact = exact_counts(fp)  # counts of guest instructions: no time, so a test case's time is 0
    failing = gate.by_key() if gate is not None else {}
    cases: list[ET.Element] = []
    fails, errors, skips, total = 0, 0, 0, 0.0

    def failed(tc: ET.Element, kind: str, message: str, text: str) -> None:
        nonlocal fails
        fails += 1
        f = ET.SubElement(tc, "failure", message=message, type=kind)
        f.text = text

    def gate_failure(tc: ET.Element, key: str, d: Summary | None = None) -> bool:
        for g in failing.get(key, ()):
            assert gate is not None  # the failures are the gate's
            if g.kind == "slower" and g.slower is not None:  # (a "slower" failure has its figure)
                failed(
                    tc,
                    "gate",
                    f"{g.slower * 100:.1f} % slower than {gate.baseline} (gate {gate.threshold * 100:g} %)",
                    f"{key}: {_value_text(d, exact)}, significantly slower than {gate.baseline} "
                    f"by {g.slower * 100:.1f} %",
                )
            elif g.kind == "not measured":
                failed(
                    tc, "gate", f"not measured ({g.why}); {gate.baseline} measured it", f"{key}: not measured ({g.why})"
                )
            elif g.kind == "out of bounds":
                failed(tc, "bounds", f"{g.why} ({gate.baseline})", f"{key}: {g.why}")
            elif g.kind == "inconclusive" and gate.inconclusive != "pass":
                undecided(tc, key, g)
            else:
                continue
            return True
        return False

    def undecided(tc: ET.Element, key: str, g: Failure) -> None:
        """A benchmark the one rule could not decide: a failure with --inconclusive=fail, else an
        error (neither passed nor failed), never a silent pass."""
        nonlocal errors
        assert gate is not None  # the failure is the gate's
        message = f"cannot tell against {gate.baseline}: {g.why}"
        if gate.inconclusive == "fail":
            failed(tc, "inconclusive", message, f"{key}: {message}")
            return
        errors += 1
        e = ET.SubElement(tc, "error", message=message, type="inconclusive")
        e.text = f"{key}: {message}"

    for r in sorted(results, key=lambda r: r["key"]):
        d = Stats.of(r).main
        secs = 0.0 if exact else _run_seconds(r)
        total += secs
        tc = ET.Element("testcase", classname=f"tickmark.{r['bench'].split('.', 1)[0]}", name=r["key"])
        tc.set("time", f"{secs:.6f}")
        reason = r.get("reason") or ""
        if r["status"] in ("crashed", "timeout", "failed") or (d is None and r["status"] != "skip"):
            what = {"crashed": "crashed", "timeout": "timed out", "failed": "failed"}.get(r["status"], "no data")
            message = f"{what}: {reason}".rstrip(": ")
            failed(tc, r["status"], message, f"{r['key']} {what}" + (f": {reason}" if reason else ""))
        elif not gate_failure(tc, r["key"], d) and r["status"] == "skip":
            skips += 1
            ET.SubElement(tc, "skipped", message=reason or "skipped")
        if d is not None and r["status"] == "ok":
            out = ET.SubElement(tc, "system-out")
            out.text = _value_text(d, exact) + (f" flags: {' '.join(d.flags)}" if d.flags else "")
        cases.append(tc)
    have = {r["key"] for r in results}
    for key in sorted(k for k in failing if k and k not in have):  # in the baseline, not in this run
        tc = ET.Element("testcase", classname=f"tickmark.{key.split('.', 1)[0]}", name=key, time="0")
        gate_failure(tc, key)
        cases.append(tc)
    if run.get("status") != "complete":
        why = (run.get("notes") or {}).get("incomplete") or run.get("status") or "not finished"
        benches = {r["bench"] for r in results} | {k.split("[")[0] for k in failing}
        for bench in (run.get("hello") or {}).get("order") or []:
            if isinstance(bench, str) and bench not in benches:  # planned, never started
                tc = ET.Element("testcase", classname=f"tickmark.{bench.split('.', 1)[0]}", name=bench, time="0")
                failed(tc, "not run", f"never ran: the run ended before it ({why})", f"{bench}: never ran ({why})")
                cases.append(tc)
        tc = ET.Element("testcase", classname="tickmark", name="run", time="0")
        failed(tc, "incomplete", f"the run is {run.get('status')}: {why}", f"{name} is {run.get('status')}: {why}")
        cases.append(tc)
    root = ET.Element("testsuites", name="tickmark")
    suite = ET.SubElement(
        root,
        "testsuite",
        name=name,
        tests=str(len(cases)),
        failures=str(fails),
        errors=str(errors),
        skipped=str(skips),
        time=f"{total:.6f}",
        timestamp=time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(run["started"])),
        hostname=str(fp.get("hostname") or fp.get("target_uri") or "unknown"),
    )
    props = ET.SubElement(suite, "properties")
    for k in ("target_uri", "cpu_model", "arch", "os", "kernel", "compiler", "cflags", "variant"):
        if fp.get(k) is not None:
            ET.SubElement(props, "property", name=k, value=str(fp[k]))
    for k, v in sorted(((run.get("notes") or {}).get("labels") or {}).items()):
        ET.SubElement(props, "property", name=f"label:{k}", value=str(v))
    suite.extend(cases)
    root.set("tests", str(len(cases)))
    root.set("failures", str(fails))
    root.set("errors", str(errors))
    root.set("skipped", str(skips))
    root.set("time", f"{total:.6f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _run_seconds(r: Row) -> float:
    """The measured time of an instance: its samples' total (from the statistics), else 0."""
    d = Stats.of(r).main
    if d is None or not _finite(d.mean) or not d.n:
        return 0.0
    ns = d.ns_per_op if _finite(d.ns_per_op) else 0.0
    iters = (r.get("meta") or {}).get("iters") or 0
    return max(0.0, ns * iters * d.n / 1e9)


def _value_text(d: object, exact: bool = False) -> str:
    from ..base.fmt import fmt_value

    return fmt_value(d, exact)


# ---------------------------------------------------------------- OpenMetrics
def _esc(v: object) -> str:
    return str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(d: dict[str, Any]) -> str:
    return "{" + ",".join(f'{k}="{_esc(v)}"' for k, v in d.items()) + "}"


def _num(x: float) -> str:
    return repr(float(x))


def to_openmetrics(model: dict[str, Any]) -> str:
    """A run whose figures are counts of guest instructions (QEMU -icount) gives them as
    instructions per operation (tickmark_op_instructions), never as seconds."""
    run, results = model["run"], model["results"]
    fp = run.get("fingerprint") or {}
    exact = exact_counts(fp)
    run_label = run.get("name") or str(run["id"])
    base = {"run": run_label}
    fams: dict[str, tuple[str, str, str, list[str]]] = {
        "tickmark_run": ("info", "", "the run and the machine it measured", []),
        "tickmark_op_time_seconds": (
            "gauge",
            "seconds",
            "time per operation on wall time: the median, and the minimum where that is the headline",
            [],
        ),
        "tickmark_op_cpu_time_seconds": (
            "gauge",
            "seconds",
            "on-CPU time per operation (task-clock counter), median over the samples",
            [],
        ),
        "tickmark_op_time_ci95_low_seconds": ("gauge", "seconds", "lower end of the median time's 95 % CI", []),
        "tickmark_op_time_ci95_high_seconds": ("gauge", "seconds", "upper end of the median time's 95 % CI", []),
        "tickmark_bandwidth_bytes_per_second": ("gauge", "bytes_per_second", "bandwidth (bandwidth benchmarks)", []),
        "tickmark_op_instructions": (
            "gauge",
            "",
            "guest instructions per operation counted by QEMU -icount: the median, and the minimum where "
            "that is the headline",
            [],
        ),
        "tickmark_op_cycles": ("gauge", "", "cycles per operation (see the run's cycles method)", []),
        "tickmark_figure": ("gauge", "", "a figure a program printed (exec --figure), in its unit", []),
        "tickmark_sample_robust_cv_ratio": ("gauge", "ratio", "robust CV of the samples", []),
        "tickmark_round_cv_ratio": ("gauge", "ratio", "CV of the round medians (run-to-run noise)", []),
        "tickmark_result_status": ("stateset", "", "how the benchmark instance ended", []),
    }
    info = dict(base)
    for k in fingerprint.keys(info=True):
        if fp.get(k.name) is not None:
            info[k.name] = fp[k.name]
    for k, v in sorted(((run.get("notes") or {}).get("labels") or {}).items()):
        name, n = f"label_{_label_name(k)}", 1
        while name in info:  # labels a.b and a_b: one OpenMetrics name each, none lost
            n += 1
            name = f"label_{_label_name(k)}_{n}"
        info[name] = v
    fams["tickmark_run"][3].append(f"tickmark_run_info{_labels(info)} 1")
    for r in sorted(results, key=lambda r: r["key"]):
        lab = dict(base, benchmark=r["bench"], key=r["key"])
        for s in STATUSES:
            fams["tickmark_result_status"][3].append(
                f"tickmark_result_status{_labels(dict(lab, tickmark_result_status=s))} {int(r['status'] == s)}"
            )
        d = Stats.of(r).main
        if r["status"] != "ok" or d is None:
            continue
        stat_lab = _labels(dict(lab, stat=r.get("stat") or "median"))
        fig = _figure_of(r)
        if fig and _finite(d.median):
            higher = "true" if fig.get("higher") else "false"
            fig_lab = _labels(dict(lab, unit=fig.get("unit") or "", higher_is_better=higher))
            fams["tickmark_figure"][3].append(f"tickmark_figure{fig_lab} {_num(d.median)}")
        if exact:  # instructions, not time: no seconds, no CI in seconds, no task-clock
            insns = fams["tickmark_op_instructions"][3]
            if _finite(d.ns_per_op):
                insns.append(f"tickmark_op_instructions{_labels(dict(lab, stat='median'))} {_num(d.ns_per_op)}")
            if r.get("stat") == "min" and d.unit == NS_OP and _finite(d.value):
                insns.append(f"tickmark_op_instructions{_labels(dict(lab, stat='min'))} {_num(d.value)}")
        times = fams["tickmark_op_time_seconds"][3]
        if _finite(d.ns_per_op) and not exact:  # the median ns/op, whatever the headline
            times.append(f"tickmark_op_time_seconds{_labels(dict(lab, stat='median'))} {_num(d.ns_per_op / 1e9)}")
        if r.get("stat") == "min" and d.unit == NS_OP and _finite(d.value) and not exact:
            times.append(f"tickmark_op_time_seconds{_labels(dict(lab, stat='min'))} {_num(d.value / 1e9)}")
        task = None if exact else (d.counters_per_op or {}).get("task_clock")
        if _finite(task):
            fams["tickmark_op_cpu_time_seconds"][3].append(
                f"tickmark_op_cpu_time_seconds{_labels(dict(lab, stat='median'))} {_num(task / 1e9)}"
            )
        if d.unit == NS_OP and _finite(d.ci95_lo) and _finite(d.ci95_hi) and not exact:
            fams["tickmark_op_time_ci95_low_seconds"][3].append(
                f"tickmark_op_time_ci95_low_seconds{_labels(lab)} {_num(d.ci95_lo / 1e9)}"
            )
            fams["tickmark_op_time_ci95_high_seconds"][3].append(
                f"tickmark_op_time_ci95_high_seconds{_labels(lab)} {_num(d.ci95_hi / 1e9)}"
            )
        if d.unit == MB_S and _finite(d.value):
            fams["tickmark_bandwidth_bytes_per_second"][3].append(
                f"tickmark_bandwidth_bytes_per_second{stat_lab} {_num(d.value * 1e6)}"
            )
        if _finite(d.cycles_per_op) and not exact:  # an exact run's "cycles" are its instructions again
            cyc = _labels(dict(lab, method=d.cycles_method or "none"))
            fams["tickmark_op_cycles"][3].append(f"tickmark_op_cycles{cyc} {_num(d.cycles_per_op)}")
        if _finite(d.rcv):
            fams["tickmark_sample_robust_cv_ratio"][3].append(
                f"tickmark_sample_robust_cv_ratio{_labels(lab)} {_num(d.rcv)}"
            )
        if _finite(d.round_cv):
            fams["tickmark_round_cv_ratio"][3].append(f"tickmark_round_cv_ratio{_labels(lab)} {_num(d.round_cv)}")
    out: list[str] = []
    for name, (kind, unit, help_, lines) in fams.items():
        if not lines:
            continue
        out.append(f"# TYPE {name} {kind}")
        if unit:
            out.append(f"# UNIT {name} {unit}")
        out.append(f"# HELP {name} {_esc(help_)}")
        out.extend(lines)
    out.append("# EOF")
    return "\n".join(out) + "\n"


def _label_name(k: object) -> str:
    """A label key as an OpenMetrics label name ([a-zA-Z_][a-zA-Z0-9_]*)."""
    s = "".join(c if c.isalnum() or c == "_" else "_" for c in str(k))
    return s if s and not s[0].isdigit() else f"_{s}"
