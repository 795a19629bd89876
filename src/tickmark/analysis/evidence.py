"""Does a detected figure hold under the noise the run measured? (`tickmark topology`)

Noise only ever slows a load, so a point's minimum over its samples is its best estimate; but on
a busy machine every sample of a point can be slowed, and then the minimum is wrong too. The
rounds of a sweep are separate processes at separate moments, so they measure that: a point is
*confirmed* when at least two rounds' minima lie within CONFIRM of each other (a floor that two
rounds reached is the floor, not a moment of load), and *noisy* when its rounds disagree by more.
A point measured in one round only can be neither (a one-round run measures no noise).

A figure (a cache level, the line size, a TLB level) holds when the detection finds it again,
within the tolerance of its kind, with the noisy points left out: it then rests on confirmed
points only. One that does not hold is measured again (the noisy points, in more rounds) and,
if it still does not hold, is reported as not measurable under this load with the number of
noisy points it rested on, never as a number. The check reads only the measured points, not
what the OS says, so it protects a board whose OS reports nothing. Pure: plain dicts in and out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

CONFIRM = 1.1  # two rounds' minima of a point within this factor confirm it
CACHE_TOL = 1.5  # a cache level holds when found again within one sweep step
# a set one sweep step past a cache level that another chase reads within this factor of the
# level's own latency still hits that level there (a real step costs 2x or more)
STILL_HITS = 1.25
TLB_TOL = 1.15  # a TLB level holds when found again within 15 % of its entries (as the rounds' check)


def noisy_points(minima: dict[Any, list[float]]) -> list[Any]:
    """{x: [the minimum of each round that measured x]} -> sorted xs whose rounds disagree: the
    two lowest rounds' minima more than CONFIRM apart."""
    out: list[Any] = []
    for x, vals in minima.items():
        v = sorted(v for v in vals if v and v > 0)
        if len(v) >= 2 and v[1] > CONFIRM * v[0]:
            out.append(x)
    return sorted(out)


def without(points: dict[Any, float], xs: Iterable[Any]) -> dict[Any, float]:
    """{x: ns} less the points xs."""
    drop = set(xs)
    return {x: v for x, v in points.items() if x not in drop}


def near(xs: Iterable[float], lo: float, hi: float, widen: float = CACHE_TOL) -> list[float]:
    """The xs within [lo / widen, hi * widen]."""
    return [x for x in xs if lo / widen <= x <= hi * widen]


def refusal(n: int) -> str:
    return f"not measurable under this load ({n} noisy point{'s' if n != 1 else ''})"


def _width(lo: float | None, hi: float | None) -> float:
    return hi / lo if lo and hi else float("inf")


def cache_holds(level: dict[str, Any], again: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A cache level {"size", "range"} and the levels found without the noisy points -> the one
    that matches it: within CACHE_TOL, and placed by its points as closely (its range, from the
    last size on the plateau below to the first above, no wider than the level's own or two
    sweep steps), or None. Left out, noisy points at a step widen its range: the confirmed
    points alone no longer say where it is."""
    z = level["size"]
    limit = max(CACHE_TOL**2, _width(*level["range"]))
    for lv in again:
        if lv.get("size") and max(lv["size"], z) / min(lv["size"], z) <= CACHE_TOL and _width(*lv["range"]) <= limit:
            return lv
    return None


def tlb_holds(level: dict[str, Any], again: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A TLB level {"entries", "next"} and the levels found without the noisy points -> the match:
    within TLB_TOL, its step between two counts no further apart than the level's own or TLB_TOL
    squared; or None."""
    e = level["entries"]
    limit = max(TLB_TOL**2, _width(e, level["next"]))
    for t in again:
        if (
            t.get("entries")
            and max(t["entries"], e) / min(t["entries"], e) <= TLB_TOL
            and _width(t["entries"], t["next"]) <= limit
        ):
            return t
    return None


def contradicted(level: dict[str, Any], rand: dict[Any, float]) -> tuple[float, float, float] | None:
    """A cache level {"size", "latency_ns", "plateau"} found on one curve, and the random chase
    (rand: {size: ns}) -> (size, ns, the level's latency) of the smallest set at least one sweep
    step past the level that the random chase reads within STILL_HITS of the level's latency (a
    hit in that level: the level is larger than the cache curve says, whose points past it were
    slowed in every round), or None. The level's latency is the lower of the random chase's and
    the cache curve's plateau (either may be slowed too). The random chase only adds cost (no
    prefetcher helps it, a TLB miss adds a walk), so reading a hit where the other curve read a
    miss is the other curve's disturbance, never the cache's."""
    z = level.get("size")
    lats = [x for x in (level.get("latency_ns"), (level.get("plateau") or [None] * 3)[2]) if x]
    if not z or not lats:
        return None
    lat = min(lats)
    for x in sorted(rand):
        if x >= z * CACHE_TOL and rand[x] <= lat * STILL_HITS:
            return x, rand[x], lat
    return None


def line_holds(line: dict[str, Any] | None, again: dict[str, Any] | None) -> bool:
    """The line size and the one found without the noisy strides: the same number of bytes."""
    return bool(line and again and line.get("bytes") and again.get("bytes") == line["bytes"])
