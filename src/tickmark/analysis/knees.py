"""Every step of a latency curve: knees found by a segmented fit on log-size.

A latency sweep (ns per load over the working-set size) is a staircase: plateaus where the set
fits a level, climbs where it stops fitting. The curve is read whole, not by its largest jump:

1. Noise on a busy machine only ever makes a load slower, and the true curve never falls as the
   set grows, so the curve is first replaced by its lower non-decreasing envelope (each point
   becomes the minimum over itself and every larger set).
2. On x = log2(size), y = ln(latency) the envelope is cut into straight segments by an exact
   segmented least-squares fit (dynamic programming over every way to cut the points, each
   segment paying SEGMENT_PENALTY, each at least two points long but the first and last). A
   curve of 30-60 points is cut optimally in milliseconds, so no heuristic search is needed.
3. A segment whose latency rises less than FLAT_PER_OCTAVE per octave is a plateau (a level,
   perhaps sloping a little as TLB misses mix in); neighbouring plateaus whose gap rises less
   than MIN_STEP are one, and so are two plateaus whose measured points (the medians of the raw
   points) lie less than MIN_STEP apart: one low point on memory's plateau would otherwise lower
   every point before it and make a step of its own. A plateau takes in a neighbouring point
   that lies within PLATEAU_TOL of it, or that rises less than MIN_STEP when the step after that
   point is FAR times larger (in log): a short level's last point leaning a little into a far
   larger step (8.1, 9.2, then 42 ns) is the level's, so a small step before a large one is not
   absorbed into it. A plateau narrower than MIN_SPAN between two climbs is part of one climb (a
   noisy point or two, not a level: real levels lie at least 2x apart), unless two or more
   neighbouring points inside the climb lie within INNER_TOL of each other (each measured within
   INNER_NOISY of the envelope, one as it is: not merely filled in by it) and the climb rises at
   least INNER_STEP on each side of them: a short level seen at two points only (a last-level share at 768K and 1M, 8.7
   and 9.3 ns, between 4.6 and 52 ns). A segment rising less than SLOPED per octave, an octave
   wide, with a steeper step on both sides, is a level too (a shared cache whose lines others
   take). Between two plateaus is a knee: the sizes from the last point of the plateau below to
   the first of the plateau above. A curve that ends while still climbing ends in an open knee
   (the next level not reached).

Each knee has a size estimate, its range and a confidence. The size is where the data rises,
never the middle of a wide range: when one stretch between two neighbouring points holds at
least SHARP of the step (in log), the step is sharp and the cache ends inside that stretch: at
its upper point when the two points are within CLOSE (a refined step; a physically indexed cache
over random pages loses lines before it is full), else its middle on log-size (at most half a
sweep step from either end). A gradual climb (a physically
indexed cache whose conflict misses start early, at about 0.6-0.75x its size over random
physical pages, and end past it; a cache with non-LRU replacement that loses a cyclic chase
gradually) is read where the latency is half-way up the step in log (the geometric mean of the
two plateaus), interpolated on log-size between the two measured points around it. Measured on
a Zen 3 guest this puts the L2 (512K, conflict misses from ~350K) at 0.9-1.05x its size and the
L1 (32K, rising from 32K to 64K) at 1.2x. Pure: no click, rich or store.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Union

from ..base.units import fmt_size

Curve = dict[int, float]  # a latency curve: {working-set size in bytes: ns per load}
Points = Union[Mapping[Any, Any], Iterable[tuple[Any, Any]]]  # {size: ns} or [(size, ns)]
Knee = dict[str, Any]  # size, lo, hi, below, above, rise, open, confidence, why (find_knees)
Span = Sequence[int]  # a plateau: the indices of its first and last points

FLAT_PER_OCTAVE = 1.4  # a segment rising less than this per octave of size is a plateau
SLOPED = 2.0  # a segment rising less than this per octave between two steeper steps is a level too
MIN_STEP = 1.3  # two plateaus whose gap rises less than this are one level
MIN_SPAN = 1.75  # a plateau between two knees spans at least this factor of sizes (else noise)
SEGMENT_PENALTY = 0.01  # cost of one more segment, in squared ln(latency) units
PLATEAU_TOL = 1.05  # a point this close to a plateau's end belongs to the plateau
NOISY = 1.1  # a raw point this much above the envelope was replaced by it
CLOSE = 1.25  # a sharp step between two points this close lies at the upper one (see _knee_size)
SHARP = 0.6  # a step is sharp when one stretch between neighbouring points holds this share of it (in log)
INNER_TOL = 1.1  # points of a short level inside a climb lie within this factor of each other
INNER_NOISY = 1.25  # ... each measured within this factor of the envelope, one of them within NOISY
INNER_STEP = 2.0  # ... and the climb rises at least this much on each side of them (a level's step, not a pause)
FAR = 6.0  # a point leaning off a plateau joins it when the step after it is this many times larger (in log)


def envelope(points: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """[(x, y)] sorted by x -> [(x, min of y over this and every later point)]."""
    out: list[tuple[int, float]] = []
    m = math.inf
    for x, y in reversed(points):
        m = min(m, y)
        out.append((x, m))
    return out[::-1]


def clean(points: Points) -> list[tuple[int, float]]:
    """{size: ns} or [(size, ns)] -> [(size, ns)] sorted, positive values only."""
    items = points.items() if isinstance(points, dict) else points
    return sorted((int(s), float(v)) for s, v in items if v is not None and v > 0 and s > 0)


def _line_sse(
    sx: list[float], sy: list[float], sxx: list[float], sxy: list[float], syy: list[float], i: int, j: int
) -> tuple[float, float]:
    """Least-squares line through points i..j (inclusive) from prefix sums -> (sse, slope)."""
    n = j - i + 1
    x, y = sx[j + 1] - sx[i], sy[j + 1] - sy[i]
    xx, xy, yy = sxx[j + 1] - sxx[i], sxy[j + 1] - sxy[i], syy[j + 1] - syy[i]
    vx = xx - x * x / n
    cov = xy - x * y / n
    vy = yy - y * y / n
    if vx <= 1e-12:
        return max(0.0, vy), 0.0
    slope = cov / vx
    return max(0.0, vy - slope * cov), slope


def segments(
    xs: Sequence[float], ys: Sequence[float], penalty: float = SEGMENT_PENALTY, min_len: int = 2
) -> list[tuple[int, int, float]]:
    """Optimal cut of the points into straight segments -> [(first, last, slope)] (indices).

    Segments have at least min_len points, except the first and the last, which may be one
    point alone (a sweep that starts or ends right at a step)."""
    n = len(xs)
    if n < 2:
        return [(0, n - 1, 0.0)] if n else []
    sx, sy, sxx, sxy, syy = [0.0], [0.0], [0.0], [0.0], [0.0]
    for x, y in zip(xs, ys):
        sx.append(sx[-1] + x)
        sy.append(sy[-1] + y)
        sxx.append(sxx[-1] + x * x)
        sxy.append(sxy[-1] + x * y)
        syy.append(syy[-1] + y * y)
    best = [math.inf] * (n + 1)  # best[j]: cost of the points 0..j-1
    cut = [0] * (n + 1)
    best[0] = 0.0
    for j in range(1, n + 1):
        for i in range(0, j):
            if best[i] == math.inf or (j - i < min_len and i != 0 and j != n):
                continue
            sse, _ = _line_sse(sx, sy, sxx, sxy, syy, i, j - 1)
            c = best[i] + sse + penalty
            if c < best[j]:
                best[j], cut[j] = c, i
    out: list[tuple[int, int, float]] = []
    j = n
    while j > 0:
        i = cut[j]
        _, slope = _line_sse(sx, sy, sxx, sxy, syy, i, j - 1)
        out.append((i, j - 1, slope))
        j = i
    return out[::-1]


def _clamp(x: float) -> float:
    return max(0.0, min(1.0, x))


def find_knees(points: Points, penalty: float = SEGMENT_PENALTY) -> dict[str, Any]:
    """[(size, ns)] or {size: ns} -> {"knees": [...], "plateaus": [...], "envelope": [...]}.

    A plateau: {"first", "last" (sizes), "ns" (the envelope at its last point), "slope" (x per
    octave)}. A knee: {"size" (estimate), "lo", "hi" (the last size of the plateau below and the
    first of the one above), "below", "above" (ns there), "rise" (above / below), "level_ns" (the
    middle of the plateau below), "from" (the first size of that plateau), "step" (the middle of
    the plateau above over it), "open" (no plateau after it), "confidence", "why"}."""
    raw = clean(points)
    if len(raw) < 4:
        return {"knees": [], "plateaus": [], "envelope": envelope(raw)}
    env = envelope(raw)
    sizes = [s for s, _ in env]
    lat = [v for _, v in env]
    xs = [math.log2(s) for s in sizes]
    ys = [math.log(v) for v in lat]
    segs = segments(xs, ys, penalty)
    flat = math.log(FLAT_PER_OCTAVE)
    # plateaus: flat segments; a climbing segment between them is part of a knee
    plats = [[a, b] for a, b, slope in segs if slope < flat or _sloped_level(xs, ys, sizes, a, b, slope)]
    if not plats or plats[0][0] != 0:
        # the curve starts climbing: its first point is the plateau of the smallest level seen
        plats.insert(0, [0, 0])
    merged = [plats[0]]
    for a, b in plats[1:]:
        if lat[a] / lat[merged[-1][1]] < MIN_STEP:
            merged[-1][1] = b  # the gap is no real step: one plateau
        else:
            merged.append([a, b])
    # a plateau takes in the neighbouring points of a climbing segment that lie within
    # PLATEAU_TOL of its ends, or whose small rise is followed by a far larger one (a two-point
    # segment can fit a plateau's last point and the climb after it)
    for p in merged:
        while p[1] + 1 < len(lat) and p[1] + 1 not in _starts(merged) and _joins(lat, p[1], p[1] + 1, p[1] + 2):
            p[1] += 1
        while p[0] > 0 and p[0] - 1 not in _ends(merged) and _joins(lat, p[0], p[0] - 1, p[0] - 2):
            p[0] -= 1
    # a short plateau between two climbs is a noisy point or two inside one climb, not a level,
    # unless its points were measured as they are (a level seen at two or three points only)
    merged = [p for k, p in enumerate(merged) if k in (0, len(merged) - 1) or sizes[p[1]] / sizes[p[0]] >= MIN_SPAN]
    merged = sorted(merged + _inner_levels(sizes, lat, raw, merged))
    # two plateaus whose measured points (the raw medians) lie less than MIN_STEP apart are one
    # level: the envelope made a step of one low point (a set on memory's plateau that came out
    # faster than the sets after it lowers every point before it)
    one = [merged[0]]
    for p in merged[1:]:
        if _raw_mid(raw, p) / _raw_mid(raw, one[-1]) < MIN_STEP:
            one[-1] = [one[-1][0], p[1]]
        else:
            one.append(p)
    merged = one
    knees: list[Knee] = []
    for k, (a, b) in enumerate(merged):
        nxt = merged[k + 1][0] if k + 1 < len(merged) else None
        if nxt is None:
            if b < len(env) - 1 and lat[-1] / lat[b] >= MIN_STEP:
                knees.append(_knee(sizes, lat, raw, (a, b), len(env) - 1, None, True))
            continue
        knees.append(_knee(sizes, lat, raw, (a, b), nxt, merged[k + 1], False))
    for kn, (a, b) in zip(knees, merged):
        # the step's height for its score: from the middle of the plateau below to the middle
        # of the one above (a plateau's ends may already lean into the knee)
        up = next((p for p in merged if p[0] > b), None)
        hi = _mid(lat, up) if up else lat[-1]
        kn["level_ns"] = _mid(lat, (a, b))
        kn["from"] = sizes[a]
        kn["step"] = round(hi / kn["level_ns"], 3)
        kn["confidence"] = round(kn["confidence"] * _clamp(math.log(kn["step"]) / math.log(2.0)), 2)
    plateaus = [
        {
            "first": sizes[a],
            "last": sizes[b],
            "ns": lat[b],
            "slope": round(math.exp((ys[b] - ys[a]) / (xs[b] - xs[a])) if b > a else 1.0, 3),
        }
        for a, b in merged
    ]
    return {"knees": knees, "plateaus": plateaus, "envelope": env}


def _knee(
    sizes: list[int],
    lat: list[float],
    raw: list[tuple[int, float]],
    below: Span,
    top: int,
    above: Span | None,
    is_open: bool,
) -> Knee:
    a, b = below
    lo_ns, hi_ns = lat[b], lat[top]
    size = _knee_size(sizes, lat, raw, b, top)
    rise = hi_ns / lo_ns
    # confidence: the step's height, the flatness of the plateaus around it, how closely the
    # points bracket it, and how many raw points around it the envelope had to replace
    spread = [sizes[j + 1] / sizes[j] for j in range(b, top)]
    width = sizes[top] / sizes[b]
    res_s = (1.0 if min(spread) <= 1.5 else 0.85 if min(spread) <= 2 else 0.7) * (1.0 if width <= 4 else 0.8)
    flat_s = 1.0
    for p in (below,) + ((above,) if above else ()):
        pa, pb = p
        if pb > pa:
            per_oct = math.exp(math.log(lat[pb] / lat[pa]) / math.log2(sizes[pb] / sizes[pa]))
            flat_s *= _clamp(1 - 0.3 * (per_oct - 1.1) / (FLAT_PER_OCTAVE - 1.1)) if per_oct > 1.1 else 1.0
        else:
            flat_s *= 0.7  # a one-point plateau
    span = range(max(0, a), min(len(lat), (above[1] if above else top) + 1))
    noisy = sum(1 for j in span if raw[j][1] > NOISY * lat[j])
    noise_s = 1 - 0.5 * noisy / max(1, len(span))
    conf = round(res_s * flat_s * noise_s * (0.8 if is_open else 1.0), 2)
    why = (
        f"x{rise:.2f} from {lo_ns:.2f} ns at {fmt_size(sizes[b])} to {hi_ns:.2f} ns at {fmt_size(sizes[top])}"
        + (" (still climbing at the end of the sweep)" if is_open else "")
        + (f", {noisy} noisy point(s)" if noisy else "")
    )
    return {
        "size": int(round(size)),
        "lo": sizes[b],
        "hi": sizes[top],
        "below": lo_ns,
        "above": hi_ns,
        "rise": round(rise, 3),
        "open": is_open,
        "confidence": conf,
        "why": why,
    }


def _knee_size(sizes: list[int], lat: list[float], raw: list[tuple[int, float]], b: int, top: int) -> float:
    """Where a step lies between the last point b of the plateau below and the first point top of
    the one above. When the steepest stretch between two neighbouring points holds at least
    SHARP of the step (in log: a sharp step, the cache ends inside it): its upper point when the
    two are within CLOSE (a refined step: a physically indexed cache over random pages loses
    lines before it is full, so the first set that misses is nearer its size than the last that
    fits), else the middle of the stretch on log-size (at most half a sweep step from either
    end); else, for a gradual climb, where the latency is half-way up (in log, interpolated
    between the two points around it). A point the envelope replaced (a noisy one) took the
    value of a larger set, so it says nothing here."""
    kept = [j for j in range(b, top + 1) if j in (b, top) or raw[j][1] <= NOISY * lat[j]]
    h, i = max(zip(kept, kept[1:]), key=lambda p: (lat[p[1]] / lat[p[0]], -p[0]))
    step = math.log(lat[top] / lat[b])
    if step <= 0 or math.log(lat[i] / lat[h]) >= SHARP * step:
        return sizes[i] if sizes[i] / sizes[h] <= CLOSE else math.sqrt(sizes[h] * sizes[i])
    half = math.sqrt(lat[b] * lat[top])
    i = next(j for j in kept if lat[j] >= half)
    h = kept[kept.index(i) - 1]
    f = math.log(half / lat[h]) / math.log(lat[i] / lat[h])
    return 2 ** (math.log2(sizes[h]) + f * math.log2(sizes[i] / sizes[h]))


def _sloped_level(xs: list[float], ys: list[float], sizes: list[int], a: int, b: int, slope: float) -> bool:
    """A climbing segment that is still a level: gentler than SLOPED, an octave wide, and with a
    steeper step on both sides of it (a level only part of whose capacity this core keeps, e.g. a
    shared cache that others are taking lines from, between two clear steps)."""
    if slope >= math.log(SLOPED) or a == 0 or b >= len(xs) - 1 or sizes[b] / sizes[a] < MIN_SPAN:
        return False
    before = (ys[a] - ys[a - 1]) / (xs[a] - xs[a - 1])
    after = (ys[b + 1] - ys[b]) / (xs[b + 1] - xs[b])
    return min(before, after) > 1.5 * slope


def _joins(lat: list[float], end: int, j: int, beyond: int) -> bool:
    """Point j next to a plateau's end belongs to the plateau: within PLATEAU_TOL of it, or
    within MIN_STEP when the step from j on to the point beyond is FAR times as large (in log):
    a level whose last point already leans a little into the next, far larger climb."""
    gap = abs(math.log(lat[j] / lat[end]))
    if gap <= math.log(PLATEAU_TOL):
        return True
    if gap >= math.log(MIN_STEP) or not 0 <= beyond < len(lat):
        return False
    return abs(math.log(lat[beyond] / lat[j])) >= FAR * gap


def _inner_levels(
    sizes: list[int], lat: list[float], raw: list[tuple[int, float]], plats: list[list[int]]
) -> list[list[int]]:
    """Short levels inside the climb between two plateaus: two or more consecutive points within
    INNER_TOL of each other on the envelope, each side a step of at least INNER_STEP from the
    middle of the plateau below and to the level above, as between cache levels (a last-level
    share seen at 768K and 1M only, between the L2 step and a 6x step to memory). The envelope's
    own flat stretches can be a noisy point taking the value of a larger set, so each point was
    measured within INNER_NOISY of it and one of them as it is, and the highest of them as
    measured lies a step below the level above."""
    out: list[list[int]] = []
    for (a, b), (c, d) in zip(plats, plats[1:]):
        j = b + 1
        while j + 1 < c:
            k = j
            while k + 1 < c and lat[k + 1] / lat[j] <= INNER_TOL and raw[k + 1][1] <= INNER_NOISY * lat[k + 1]:
                k += 1
            near = raw[j][1] <= INNER_NOISY * lat[j] and any(raw[i][1] <= NOISY * lat[i] for i in range(j, k + 1))
            # (measured as they came, too, they lie a step below the level above)
            top = max(v for _, v in raw[j : k + 1])
            steps = (
                lat[j] / _mid(lat, (a, b)) >= INNER_STEP
                and min(lat[c], _raw_mid(raw, (c, d))) / max(lat[k], top) >= INNER_STEP
            )
            if near and k > j and steps:
                out.append([j, k])
                j = k + 1
            else:
                j += 1
    return out


def _starts(plats: list[list[int]]) -> set[int]:
    return {a for a, _ in plats}


def _ends(plats: list[list[int]]) -> set[int]:
    return {b for _, b in plats}


def _raw_mid(raw: list[tuple[int, float]], plateau: Span) -> float:
    a, b = plateau
    vals = sorted(v for _, v in raw[a : b + 1])
    return vals[len(vals) // 2]


def _mid(lat: list[float], plateau: Span) -> float:
    a, b = plateau
    vals = sorted(lat[a : b + 1])
    return vals[len(vals) // 2]
