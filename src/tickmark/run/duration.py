"""`tickmark run timer.cyclic --duration 10m`: a long run of the periodic wake-up benchmarks, as
cyclictest runs for a duration. The core keeps a histogram of the wake-ups, never a list, so a
long run holds its memory flat whatever its length (docs/os.md).

A duration becomes the run's shape: one round, a warm-up sample and `samples` samples of `count`
wake-ups each (the core takes at most COUNT_MAX wake-ups an iteration), so that all of them
together last about the duration at the period; every wake-up, the warm-up's too, goes into the
histogram and the worst-case statement under it. The instance's time limit is the duration and a
margin. The duration counts wake-ups, one a period: a wake-up later than the next deadline skips
the periods it missed (as cyclictest does), so on a loaded machine the run lasts longer than asked.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..base.errors import TickmarkError

BENCHES = ("timer.cyclic", "timer.cyclic_rt")
COUNT_MAX = 1_000_000  # the core's limit of wake-ups per iteration (cyclic_common.c)
DEFAULT_PERIOD_US = 200  # the benchmarks' default period
SAMPLES_MAX = 1000  # run/plan.py's limit of samples
_UNITS = {"s": 1, "m": 60, "h": 3600}


def parse(text: object) -> float:
    """'10m', '90s', '1h', '600' (seconds) -> seconds; a clear error for anything else."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", str(text))
    if not m or float(m.group(1)) <= 0:
        raise TickmarkError(f"--duration takes a time such as 90s, 10m or 1h, not {text!r}")
    return float(m.group(1)) * _UNITS[m.group(2) or "s"]


def period_of(params: Iterable[str] | None) -> int:
    """The period (µs) the run's --param texts give the cyclic benchmarks, else the default; one
    value only."""
    period = None
    for text in params or ():
        scope, _, rest = text.rpartition(":")
        name, _, values = rest.partition("=")
        if name.strip() != "period" or (scope and not any(re.fullmatch(scope.replace("*", ".*"), b) for b in BENCHES)):
            continue
        vals = [v for v in values.split(",") if v.strip()]
        if len(vals) != 1 or not vals[0].strip().isdigit() or int(vals[0]) <= 0:
            raise TickmarkError(f"--duration runs one period: --param {text} gives {values!r}")
        period = int(vals[0])
    return period or DEFAULT_PERIOD_US


def shape(seconds: float, period_us: float) -> tuple[int, int]:
    """(samples, count): samples of count wake-ups, plus the warm-up sample of as many, that last
    about `seconds` at the period."""
    events = max(2, round(seconds * 1e6 / period_us))
    samples = max(1, math.ceil(events / COUNT_MAX) - 1)
    if samples > SAMPLES_MAX:
        raise TickmarkError(f"--duration {seconds:g} s at a {period_us} µs period is more wake-ups than one run holds")
    return samples, max(1, round(events / (samples + 1)))


def apply(text: object, patterns: Sequence[str], suite: str | None, run_options: dict[str, Any]) -> dict[str, Any]:
    """The run options of a --duration run -> new run_options (a --param count for the cyclic
    benchmarks, one round, the samples, the time limit); refuses anything but timer.cyclic*."""
    if suite or not patterns or any(p not in BENCHES for p in patterns):
        raise TickmarkError(f"--duration runs {' and '.join(BENCHES)} alone: name them, and nothing else")
    seconds = parse(text)
    samples, count = shape(seconds, period_of(run_options.get("params")))
    opts = dict(run_options)
    opts.update(rounds=1, max_rounds=1, samples=samples, timeout=int(seconds * 1.5) + 120)
    opts["params"] = [*(run_options.get("params") or ()), f"timer.cyclic*:count={count}"]
    return opts
