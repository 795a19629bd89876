"""The power of the change-point method and its false changes on real noise: synthetic series
drawn from stored runs' samples (tools/history_power.py, docs/history.md). Used by the tools and
the tests, not by a command."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..base.shapes import Row
from .changepoints import detect
from .history import _metric


def run_draws(
    samples: Iterable[Row], meta: dict[str, Any], metric: str = "", k: int = 40, rng: np.random.Generator | None = None
) -> list[tuple[float, float]]:
    """k draws of what one run would have said (a synthetic point: its rounds drawn again with
    replacement, and the samples of each drawn round) -> [(value, standard error)] of the metric,
    computed as for a stored run (stats.compute, then _metric)."""
    from . import stats

    rng = rng if rng is not None else np.random.default_rng(0)
    by_round: dict[Any, list[Row]] = {}
    for smp in samples:
        by_round.setdefault(smp.get("round", 1), []).append(smp)
    rounds = list(by_round.values())
    out: list[tuple[float, float]] = []
    for _ in range(k):
        drawn: list[Row] = []
        for i, j in enumerate(rng.integers(0, len(rounds), len(rounds))):
            rd = rounds[j]
            drawn += [dict(rd[x], round=i + 1) for x in rng.integers(0, len(rd), len(rd))]
        st = stats.compute(drawn, meta.get("stat", "median"), meta.get("bytes_per_op", 0))
        if not st:
            continue
        value, _, _, _, _, se = _metric(st, metric, meta.get("stat", "median"))
        if value and math.isfinite(value):
            out.append((value, se))
    return out


def synthetic(
    pool: list[list[tuple[float, float]]],
    n: int,
    step: float,
    rng: np.random.Generator,
    higher_is_better: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """A series of n points drawn at random from a pool of runs, each run a list of (value,
    standard error) draws (bootstrap resamples of its samples), with a step from point n // 2 on
    (the values multiplied by step; divided where higher is better, so that a step is a slowdown)
    -> (log values, standard errors)."""
    runs = rng.integers(0, len(pool), n)
    pts = [pool[r][rng.integers(0, len(pool[r]))] for r in runs]
    y = np.log([v for v, _ in pts])
    e = np.array([se for _, se in pts], dtype=float)
    if step != 1.0:
        y[n // 2 :] += -math.log(step) if higher_is_better else math.log(step)
    return y, e


def false_change_rate(
    pools: Iterable[list[list[tuple[float, float]]]], n_series: int = 200, length: int = 30, seed: int = 1
) -> tuple[int, int]:
    """How often the method finds a change (tested or tentative) in a series where nothing
    changed: series i drawn from pools[i % len(pools)] (synthetic) -> (series with a change,
    series made)."""
    rng = np.random.default_rng(seed)
    pools = [p for p in pools if len(p) >= 2]
    if not pools:
        return 0, 0
    hits = 0
    for i in range(n_series):
        y, e = synthetic(pools[i % len(pools)], length, 1.0, rng)
        hits += bool(detect(y, e).cuts)
    return hits, n_series
