"""The sweeps of `tickmark topology`: mem.lat_rand, mem.lat_pagelocal, mem.lat_tlb,
mem.lat_stride and mem.lat_shared run through the harness, stored as one run of two passes (the
second at the sizes the first one's detection chose), so that the run holds everything its
topology is detected from (analysis/topology.py reads the knees from them)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ..analysis.os_topology import os_report
from ..analysis.topology import analyse, refine_sizes
from ..base.errors import TickmarkError
from ..base.names import printable
from ..base.units import parse_size
from ..store.analyses import round_points
from .engine import Progress, Run
from .plan import Bench, Plan, check_patterns

if TYPE_CHECKING:
    from ..base.shapes import Row
    from ..store import Store
    from ..targets.base import Core

# a key's parameters, in the core's order: ((name, value), ...)
Combo = Sequence[tuple[str, int]]
# a pass: (patterns, params)
Pass = tuple[list[str], list[str]]


def _sweep_of(benches: Iterable[Bench], bench: str, param: str) -> list[int]:
    """The points of a parameter's sweep as the core lists it ('1K,1536' -> [1024, 1536])."""
    for b in benches:
        if b.get("name") == bench:
            for p in b.get("params", []):
                if p["name"] == param:
                    return [_size(x, bench, param) for x in p["sweep"].split(",")]
    return []


def _size(text: str, bench: str, param: str) -> int:
    n = parse_size(text)
    if n is None:
        raise TickmarkError(f"the core lists {bench}'s {param} sweep with {printable(text)[:20]!r}, which is no size")
    return n


def _nice(n: int) -> int:
    """The largest size of the form {1, 1.5} x 2^k not above n."""
    k = max(0, n.bit_length() - 1)
    return (3 << (k - 1)) if k >= 1 and (3 << (k - 1)) <= n else (1 << k)


def _keys(bench: str, combos: Iterable[Combo]) -> list[str]:
    return [f"{bench}[" + ",".join(f"{k}={v}" for k, v in c) + "]" for c in combos]


def _pagelocal_keys(sizes: Iterable[int]) -> list[str]:
    return _keys("mem.lat_pagelocal", [(("size", s), ("group", PAGELOCAL_GROUP), ("thp", 0)) for s in sizes])


def _join(values: Iterable[int]) -> str:
    return ",".join(str(v) for v in sorted(set(values)))


TLB_PACKED = (8, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192)


TLB_HUGE = (256, 512)  # past any first-level DTLB, below any second level: is a huge page one entry?


TLB_SKIP = (24, 40, 144, 12288, 16384)  # points of the default sweep that topology can do without (time)


SAMPLE_MS = 5  # short samples: more of them fit the time, and the minimum is what counts
PAGELOCAL = (2 << 10, 64 << 20)  # the page-local chase from below the smallest L1 to well past any last cache
RAND_FINE = 1 << 20  # the random chase beside it: two points per octave up to here (levels' latencies)
PAGELOCAL_FINE = (8 << 10, 8 << 20)  # ... two points per octave between these sizes, one outside
PAGELOCAL_GROUP = 16


def first_pass(benches: Sequence[Bench], cap: int) -> tuple[list[str], list[str], list[int], list[int]]:
    """The coarse first pass -> (keys, params, mem.lat_rand sizes, mem.lat_pagelocal sizes).

    The page-local chase (the cache curve) at every size of the sweep from 8K to 8M (two points
    per octave), one per octave outside (from 2K: below any L1 of a Linux board; past 8M:
    memory's plateau, a last level there is refined by the second pass); the random chase in
    huge pages, which only gives the levels' latencies and the TLB's steps when the page-local
    chase is there, from 2K, at one point per octave past 1M; in 4 KiB pages every other octave from 16K and
    the largest set (page-walk cost); the TLB sweep."""
    have_pl = any(b.get("name") == "mem.lat_pagelocal" for b in benches)
    sizes = [s for s in _sweep_of(benches, "mem.lat_rand", "size") if s <= cap]
    octaves = [s for s in sizes if s & (s - 1) == 0 or s == sizes[-1]]
    huge = (
        [s for s in sizes if s >= PAGELOCAL[0] and (s in octaves or PAGELOCAL_FINE[0] <= s <= RAND_FINE)]
        if have_pl
        else sizes
    )
    small = [s for s in octaves if s >= 16 << 10 and (s.bit_length() - 15) % 2 == 0]
    small = sorted(set(small + sizes[-1:]))
    pages = [n for n in _sweep_of(benches, "mem.lat_tlb", "pages") if n not in TLB_SKIP and n * 4096 <= cap]
    pl = [s for s in sizes if PAGELOCAL[0] <= s <= PAGELOCAL[1] and s % 32 == 0] if have_pl else []
    pl = [s for s in pl if PAGELOCAL_FINE[0] <= s <= PAGELOCAL_FINE[1] or s & (s - 1) == 0]
    keys = _keys("mem.lat_rand", [(("size", s), ("thp", 1)) for s in huge] + [(("size", s), ("thp", 0)) for s in small])
    keys += _pagelocal_keys(pl)
    keys += _keys(
        "mem.lat_tlb",
        [(("pages", n), ("packed", 0), ("thp", 0)) for n in pages]
        + [(("pages", n), ("packed", 1), ("thp", 0)) for n in TLB_PACKED if n in pages]
        + [(("pages", n), ("packed", 0), ("thp", 1)) for n in TLB_HUGE if n in pages],
    )
    params = ["size=" + _join(sizes), "thp=0,1", "pages=" + _join(pages), "packed=0,1"]
    return keys, params, sizes, pl


def measure(
    store: Store,
    core: Core,
    rounds: int = 1,
    samples: int = 7,
    max_size: int | None = None,
    refine: bool = True,
    progress: Callable[[int], AbstractContextManager[Progress]] | None = None,
    name: str | None = None,
) -> int:
    """Run the sweeps through the harness, as one run of two passes -> its run id.

    Pass 1: mem.lat_rand with huge pages at every size, with 4 KiB pages one size per octave
    (page-walk cost), mem.lat_pagelocal (the TLB-neutral cache curve) from 1K to 64M, and
    mem.lat_tlb. Pass 2: sizes inside each knee's range, page counts inside the first TLB
    level's step, more octaves when the memory plateau is not reached, mem.lat_stride in a span
    set from the L1 found, and mem.lat_shared on the plateau of the last level the OS reports
    when it came out smaller or not measurable. What the OS reports and the memory the sweep may
    use (a quarter of what is available) are the target's own, from its fingerprint.

    progress: a function of the number of rounds -> a context manager that gives the progress
    display (or None)."""
    benches = check_patterns(
        core, ["mem.lat_rand", "mem.lat_pagelocal", "mem.lat_stride", "mem.lat_tlb", "mem.lat_shared"]
    )
    avail = core.fingerprint(None).get("mem_available")
    cap = min(x for x in (max_size, avail // 4 if isinstance(avail, int) and avail > 0 else None, 1 << 62) if x)
    keys, params, sizes, pl = first_pass(benches, cap)
    cfg = Plan(
        keys,
        rounds=rounds,
        max_rounds=rounds,
        samples=samples,
        sample_ms=SAMPLE_MS,
        params=params,
        names=[name],
        stored_suite="topology",
    ).config(None, name)

    passes: list[list[str]] = []

    def second(run: Run) -> Pass | None:  # after the first pass: the second; after it, the noisy points again; done
        passes.append(run.cfg.patterns)
        results = store.results(run.run_id)
        if len(passes) == 1:
            return second_pass(benches, results, store.run(run.run_id), cap, sizes, pl, refine)
        if len(passes) == 2 and refine:
            return again_pass(results, store.run(run.run_id), round_points(store, results))
        return None

    with progress(2 * rounds) if progress else contextlib.nullcontext() as prog:
        return Run(store, core, cfg, progress=prog).execute(more=second)


def again_pass(results: list[Row], run: Row, per_round: Any) -> Pass | None:
    """After the second pass: the figures whose evidence did not hold under the measured noise
    (analysis/evidence.py), and the two strides that decide the line size while they have few
    rounds -> (patterns, params) of a pass that measures those points again, in more rounds;
    None when every figure held and the line's strides have their rounds."""
    hello = run.get("hello") or {}
    det = analyse(results, hello.get("fcore_khz") or 0, hello, per_round, os_report(run.get("fingerprint")))
    keys = sorted({k for u in det.get("unclear") or [] for k in u["keys"]} | set(det.get("confirm") or []))
    if not keys:
        return None
    values: dict[str, set[int]] = {}
    for key in keys:
        for item in key[key.index("[") + 1 : -1].split(","):
            name, _, value = item.partition("=")
            values.setdefault(name, set()).add(int(value))
    return keys, [f"{name}={_join(vs)}" for name, vs in sorted(values.items())]


def second_pass(
    benches: Sequence[Bench],
    results: list[Row],
    run: Row,
    cap: int,
    sizes: Sequence[int],
    pl: Sequence[int],
    refine: bool,
) -> Pass:
    """The second pass from the first pass's results -> (patterns, params)."""
    hello = run.get("hello") or {}
    osr = os_report(run.get("fingerprint"))
    have_shared = any(b.get("name") == "mem.lat_shared" for b in benches)
    det = analyse(results, hello.get("fcore_khz") or 0, hello, osr=osr)
    caches = [lv for lv in det["levels"] if lv["size"]]
    knees = caches + [dict(k, range=[k["lo"], k["hi"]]) for k in det["tlb_knees"]]
    measured = {s for s, _ in det["points"]["lat_huge"]}
    if det["curve"] == "pagelocal":  # the caches' knees are refined on the cache curve alone
        knees = knees[len(caches) :]
    extra = refine_sizes(knees, measured) if refine else []
    extra = [s for s in extra if s <= cap]
    extra_pl = refine_sizes(caches, {s for s, _ in det["points"]["pagelocal"]}) if refine and pl else []
    extra_pl = [s for s in extra_pl if s <= cap and s % 32 == 0]
    mem = det["levels"][-1] if det["levels"] else None
    top = max(sizes) if sizes else 0
    # the memory plateau not reached yet: one more octave where memory allows
    if refine and mem and mem.get("still_rising") and cap > top:
        s = top * 2
        while s <= min(cap, 2 * top):  # one octave: under a hypervisor walks keep the curve rising
            extra.append(s)
            s *= 2
    # the line-size pairs: a span that misses L1 and hits L2 (see bench/mem/lat_stride.c)
    l1 = caches[0]["size"] if caches and caches[0]["name"] == "L1" else 32 << 10
    span = 8 * l1
    if len(caches) > 1:
        span = max(4 * l1, min(span, _nice(caches[1]["size"] // 2)))
    pats2 = ["mem.lat_stride"]
    params2 = [f"span={span}"]
    rand = [(("size", s), ("thp", 1)) for s in extra]
    shared_sizes, hog = [], 0
    oslv = osr.get("levels", [])
    llc = det.get("llc") or {}
    if have_shared and refine and llc.get("verdict") in ("smaller", "not measurable"):
        # sets that fit the last level when the other CPU is idle: on its plateau, or (not found
        # as a level of its own) 4x the level below it
        last = llc.get("share") or next((lv for lv in caches if lv["size"] == llc.get("size")), None)
        below = caches[len(oslv) - 2]["size"] if len(caches) >= len(oslv) - 1 >= 1 else oslv[-2]["size"]
        shared_sizes = sorted({last["at_size"], last["range"][0]}) if last else [4 * below]
        shared_sizes = [x for x in shared_sizes if x and x <= cap]
        hog = min(max(oslv[-1]["size"], 4 * shared_sizes[-1] if shared_sizes else 0), cap // 2)
        hog -= hog % 4096
    sizes2 = [dict(c)["size"] for c in rand] + shared_sizes
    if rand:
        pats2 += _keys("mem.lat_rand", rand)
    if extra_pl:
        pats2 += _pagelocal_keys(extra_pl)
        sizes2 += extra_pl
    if shared_sizes and hog:
        pats2 += _keys("mem.lat_shared", [(("size", s), ("hog", h)) for s in shared_sizes for h in (0, hog)])
        params2 += [f"hog=0,{hog}"]
    if sizes2:
        params2 += ["size=" + _join(sizes2)]
    # the first TLB level's step between two page counts of the sweep (8 apart around 64 entries,
    # a step of 12 %): every other count between them
    first = det["tlb"][0] if det["tlb"] else None
    tlb2: list[int] = []
    if refine and first and first["next"] - first["entries"] <= 16:
        tlb2 = [n for n in range(first["entries"] + 2, first["next"], 2) if n * 4096 <= cap]
    if tlb2:
        pats2 += _keys("mem.lat_tlb", [(("pages", n), ("packed", 0), ("thp", 0)) for n in tlb2])
        params2 += ["pages=" + _join(tlb2), "packed=0"]
    if sizes2 or tlb2:
        params2 += ["thp=0,1"]
    return pats2, params2
