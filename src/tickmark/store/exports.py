"""A stored run in formats that other tools read, built from the result model (stats.Stats):

  gbench       google/benchmark's JSON output: one "iteration" entry per round (its median) and
               the median, mean, stddev and cv aggregates, as `--benchmark_repetitions` writes
               them; dashboards that import google/benchmark results read it.
  junit        JUnit XML: one test case per benchmark instance, failed when it crashed, timed
               out or failed, or when it is over a gate (significantly slower than a baseline run
               by more than a threshold); skipped ones are skipped test cases.
  openmetrics  OpenMetrics text (Prometheus push gateways): time per operation in seconds with
               its 95 % CI, bandwidth, cycles per operation, robust CV, and a state set per
               instance (ok, skip, failed, crashed, timeout).

Every function takes the run row and its result rows and returns text.
"""

import json
import math
import time
from xml.etree import ElementTree as ET

from .. import fingerprint
from ..analysis.stats import MB_S, Stats
from ..names import decimal

STATUSES = ("ok", "skip", "failed", "crashed", "timeout")


def _iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(t))


def _size_bytes(text):
    t = str(text or "").strip().upper().rstrip("B").rstrip("I")
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:], 1)
    num = t[:-1] if t[-1:] in "KMG" else t
    return decimal(num) * mult if decimal(num) is not None else 0


def _finite(x):
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


# ---------------------------------------------------------------- google/benchmark JSON
def to_gbench(run, results):
    from .. import __version__

    fp = run.get("fingerprint") or {}
    load = [float(x) for x in str(fp.get("loadavg") or "").split()[:3] if _is_float(x)]
    caches = []
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
    ctx = {
        "date": _iso(run["started"]),
        "host_name": fp.get("hostname") or fp.get("target_uri") or "",
        "executable": "tickmark-core",
        "num_cpus": int(fp.get("cpus_online") or 0),
        "mhz_per_cpu": int(round((fp.get("fcore_khz") or 0) / 1000)),
        "cpu_scaling_enabled": "freq-scaling" in (fp.get("flags") or []),
        "caches": caches,
        "load_avg": load,
        "library_version": f"tickmark {__version__}",
        "library_build_type": "release",
        "json_schema_version": 1,
        "tickmark_run": run.get("name") or str(run["id"]),
    }
    benches = []
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
        ns_of = _ns_converter(d)
        rounds = [ns_of(m) for m in d.round_medians if _finite(m) and m > 0] or [d.ns_per_op]
        counters = {}
        if d.unit == MB_S and _finite(d.value):
            counters["bytes_per_second"] = d.value * 1e6
        if _finite(d.cycles_per_op):
            counters["cycles_per_op"] = d.cycles_per_op
        iters = (r.get("meta") or {}).get("iters") or 1
        for i, ns in enumerate(rounds):
            benches.append(
                dict(
                    base,
                    name=r["key"],
                    run_type="iteration",
                    repetitions=len(rounds),
                    repetition_index=i,
                    iterations=iters,
                    real_time=ns,
                    cpu_time=ns,
                    time_unit="ns",
                    **counters,
                )
            )
        mean = sum(rounds) / len(rounds)
        sd = math.sqrt(sum((x - mean) ** 2 for x in rounds) / (len(rounds) - 1)) if len(rounds) > 1 else 0.0
        for agg, val, unit in (
            ("median", d.ns_per_op, "time"),
            ("mean", mean, "time"),
            ("stddev", sd, "time"),
            ("cv", sd / mean if mean else 0.0, "percentage"),
        ):
            benches.append(
                dict(
                    base,
                    name=f"{r['key']}_{agg}",
                    run_type="aggregate",
                    repetitions=len(rounds),
                    aggregate_name=agg,
                    aggregate_unit=unit,
                    iterations=len(rounds),
                    real_time=val,
                    cpu_time=val,
                    time_unit="ns",
                    **(counters if agg == "median" else {}),
                )
            )
    return json.dumps({"context": ctx, "benchmarks": benches}, indent=2) + "\n"


def _ns_converter(d):
    """Round medians are in the headline's unit: MB/s becomes ns per operation through the
    headline's own ratio (ns/op x MB/s is the bytes per operation, the same for every round)."""
    if d.unit != MB_S:
        return lambda v: v
    k = d.ns_per_op * d.value if _finite(d.value) and _finite(d.ns_per_op) else None
    return (lambda v: k / v) if k else (lambda v: d.ns_per_op)


def _is_float(x):
    try:
        return math.isfinite(float(x))
    except ValueError:
        return False


# ---------------------------------------------------------------- JUnit XML
def to_junit(run, results, gate=None, gate_name=""):
    """gate: {result key: (slower fraction, threshold)} of the instances over the gate."""
    gate = gate or {}
    name = run.get("name") or f"run {run['id']}"
    fp = run.get("fingerprint") or {}
    cases, fails, errors, skips, total = [], 0, 0, 0, 0.0
    for r in sorted(results, key=lambda r: r["key"]):
        d = Stats.of(r).main
        secs = _run_seconds(r)
        total += secs
        tc = ET.Element("testcase", classname=f"tickmark.{r['bench'].split('.', 1)[0]}", name=r["key"])
        tc.set("time", f"{secs:.6f}")
        reason = r.get("reason") or ""
        if r["status"] == "skip":
            skips += 1
            ET.SubElement(tc, "skipped", message=reason or "skipped")
        elif r["status"] in ("crashed", "timeout", "failed") or d is None:
            fails += 1
            what = {"crashed": "crashed", "timeout": "timed out", "failed": "failed"}.get(r["status"], "no data")
            f = ET.SubElement(tc, "failure", message=f"{what}: {reason}".rstrip(": "), type=r["status"])
            f.text = f"{r['key']} {what}" + (f": {reason}" if reason else "")
        elif r["key"] in gate:
            fails += 1
            slow, thr = gate[r["key"]]
            f = ET.SubElement(
                tc,
                "failure",
                message=f"{slow * 100:.1f} % slower than {gate_name} (gate {thr * 100:g} %)",
                type="gate",
            )
            f.text = f"{r['key']}: {_value_text(d)}, significantly slower than {gate_name} by {slow * 100:.1f} %"
        if d is not None and r["status"] == "ok":
            out = ET.SubElement(tc, "system-out")
            out.text = _value_text(d) + (f" flags: {' '.join(d.flags)}" if d.flags else "")
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


def _run_seconds(r):
    """The measured time of an instance: its samples' total (from the statistics), else 0."""
    d = Stats.of(r).main
    if d is None or not _finite(d.mean) or not d.n:
        return 0.0
    ns = d.ns_per_op if _finite(d.ns_per_op) else 0.0
    iters = (r.get("meta") or {}).get("iters") or 0
    return max(0.0, ns * iters * d.n / 1e9)


def _value_text(d):
    from ..fmt import fmt_value

    return fmt_value(d)


# ---------------------------------------------------------------- OpenMetrics
def _esc(v):
    return str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(d):
    return "{" + ",".join(f'{k}="{_esc(v)}"' for k, v in d.items()) + "}"


def _num(x):
    return repr(float(x))


def to_openmetrics(run, results):
    fp = run.get("fingerprint") or {}
    run_label = run.get("name") or str(run["id"])
    base = {"run": run_label}
    fams = {
        "tickmark_run": ("info", "", "the run and the machine it measured", []),
        "tickmark_op_time_seconds": ("gauge", "seconds", "time per operation (the headline statistic)", []),
        "tickmark_op_time_ci95_low_seconds": ("gauge", "seconds", "lower end of the headline's 95 % CI", []),
        "tickmark_op_time_ci95_high_seconds": ("gauge", "seconds", "upper end of the headline's 95 % CI", []),
        "tickmark_bandwidth_bytes_per_second": ("gauge", "bytes_per_second", "bandwidth (bandwidth benchmarks)", []),
        "tickmark_op_cycles": ("gauge", "", "cycles per operation (see the run's cycles method)", []),
        "tickmark_sample_robust_cv_ratio": ("gauge", "ratio", "robust CV of the samples", []),
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
        if _finite(d.ns_per_op):
            fams["tickmark_op_time_seconds"][3].append(f"tickmark_op_time_seconds{stat_lab} {_num(d.ns_per_op / 1e9)}")
        if d.unit != MB_S and _finite(d.ci95_lo) and _finite(d.ci95_hi):
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
        if _finite(d.cycles_per_op):
            cyc = _labels(dict(lab, method=d.cycles_method or "none"))
            fams["tickmark_op_cycles"][3].append(f"tickmark_op_cycles{cyc} {_num(d.cycles_per_op)}")
        if _finite(d.rcv):
            fams["tickmark_sample_robust_cv_ratio"][3].append(
                f"tickmark_sample_robust_cv_ratio{_labels(lab)} {_num(d.rcv)}"
            )
    out = []
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


def _label_name(k):
    """A label key as an OpenMetrics label name ([a-zA-Z_][a-zA-Z0-9_]*)."""
    s = "".join(c if c.isalnum() or c == "_" else "_" for c in str(k))
    return s if s and not s[0].isdigit() else f"_{s}"
