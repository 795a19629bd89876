#!/usr/bin/env python3
"""How well `tickmark history` finds a step, and how often it finds one where there is none,
on synthetic series built from the real noise of stored runs (docs/history.md, "How often it is
wrong, and what it can see").

    python tools/history_power.py --store NOISE.db [--metric task-clock] [--series 200]
    python tools/history_power.py --speed      # the search's time on 1,000 .. 100,000 points

NOISE.db holds runs of one build on one machine (made, for example, with
`for i in $(seq 60); do tickmark --store NOISE.db run -q BENCHMARKS; done`). Each benchmark's runs
are one pool. A synthetic point is a run drawn at random from a pool, with its rounds and their
samples drawn again with replacement (a bootstrap of the run), and its statistics computed as a
stored run's are: the value and the run's own standard error that history reads. A series of n
points takes its points from one pool (series i from pool i mod pools); from point n // 2 on,
every value is multiplied by the step (divided, for bandwidth: a step is always a slowdown):
analysis/detection_power.synthetic. The detector is analysis/changepoints.py's, as `history` calls it.

Prints a Markdown table: per step and series length, in how many series the change was found at
the right run (and in how many any other change was reported), and the false-change rate (step
1: series with any change, tentative ones included).
"""

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tickmark.analysis import changepoints, detection_power, stats  # noqa: E402
from tickmark.store import Store  # noqa: E402

LENGTHS = (6, 8, 10, 20, 50)
STEPS = (1.0, 1.05, 1.10, 1.50, 3.0)
REPLICATES = 40  # bootstrap replicates kept per run


def pools(path, metric):
    """{benchmark key: ([run draws], higher is better)}: per run, REPLICATES (value, standard
    error) draws of what it would have said (analysis/detection_power.run_draws)."""
    st = Store(path)
    rng = np.random.default_rng(1)
    metric = "" if metric == "headline" else metric
    out = {}
    try:
        for r in st.runs():
            if r["status"] != "complete":
                continue
            for res in st.results(r["id"]):
                if res["status"] != "ok":
                    continue
                meta = res.get("meta") or {}
                draws = detection_power.run_draws(st.samples(res["id"]), meta, metric, REPLICATES, rng)
                if draws:
                    higher = stats.is_bandwidth(meta.get("stat"), meta.get("bytes_per_op", 0)) and not metric
                    out.setdefault(res["key"], ([], higher))[0].append(draws)
    finally:
        st.close()
    return {k: v for k, v in out.items() if len(v[0]) >= 10}


def table(p, n_series, seed=7):
    rng = np.random.default_rng(seed)
    keys = sorted(p)
    rows = {}
    for step in STEPS:
        for n in LENGTHS:
            right = other = anyc = 0
            for i in range(n_series):
                pool, higher = p[keys[i % len(keys)]]
                y, e = detection_power.synthetic(pool, n, step, rng, higher)
                cuts = [c for c, _, _ in changepoints.detect(y, e).cuts]
                anyc += bool(cuts)
                right += (n // 2) in cuts
                other += any(c != n // 2 for c in cuts)
            rows[(step, n)] = (right, other, anyc)
    return keys, rows


def markdown(keys, rows, n_series, metric):
    head = "| step | " + " | ".join(f"{n} runs" for n in LENGTHS) + " |"
    out = [
        f"Metric: {metric}; {n_series} series per cell, drawn from the runs of {len(keys)} benchmarks "
        f"({', '.join(keys)}).",
        "",
        head,
        "|---|" + "--:|" * len(LENGTHS),
    ]
    for step in STEPS:
        cells = []
        for n in LENGTHS:
            right, other, anyc = rows[(step, n)]
            if step == 1.0:
                cells.append(f"{anyc} ({anyc / n_series * 100:.1f} %)")
            else:
                cells.append(f"{right}" + (f" (+{other} elsewhere)" if other else ""))
        name = "none: false changes" if step == 1.0 else (f"+{(step - 1) * 100:.0f} %" if step < 2 else f"{step:g}×")
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def speed(lengths=(1000, 10000, 100000), repeat=5):
    """Seconds the search takes on a series of each length without a change and with two steps
    (normal noise; the best of `repeat`) -> Markdown lines."""
    import time

    rng = np.random.default_rng(2)
    out = ["| points | no change | two steps |", "|--:|--:|--:|"]
    for n in lengths:
        y, e = rng.normal(0, 0.01, n), np.full(n, 0.005)
        stepped = y.copy()
        stepped[n // 3 :] += 0.05
        stepped[2 * n // 3 :] -= 0.1
        cells = []
        for series in (y, stepped):
            best = math.inf
            for _ in range(repeat):
                t = time.perf_counter()
                changepoints.detect(series, e)
                best = min(best, time.perf_counter() - t)
            cells.append(f"{best * 1000:.1f} ms")
        out.append(f"| {n:,} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", help="runs of one build (the pools); without it, --speed only")
    ap.add_argument("--speed", action="store_true", help="time the search on series of 1,000 to 100,000 points")
    ap.add_argument("--metric", default="headline", help="headline or task-clock")
    ap.add_argument("--series", type=int, default=200)
    a = ap.parse_args()
    if a.speed:
        print(speed())
    if not a.store:
        return
    p = pools(a.store, a.metric)
    if not p:
        sys.exit("no benchmark with 10 complete runs in that store")
    keys, rows = table(p, a.series)
    print(markdown(keys, rows, a.series, a.metric))


if __name__ == "__main__":
    main()
