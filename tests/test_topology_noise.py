"""Topology that refuses to guess: a figure whose evidence does not hold under the noise the
rounds measured is reported as not measurable under this load, never as a number (analysis/
evidence.py, topology.hold). The refusal comes from the measured points alone: these cases give
no OS report at all, as on a bare-metal board."""

import math

import pytest

from tickmark.analysis import evidence, os_topology
from tickmark.analysis import topology as topo

K, M = 1 << 10, 1 << 20
STRIDES = (8, 16, 32, 64, 128, 256, 512)


def key(bench, params):
    return f"{bench}[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]"


def rows(points):
    """{(bench, params tuple): [each round's minimum]} -> (results, per_round) as the store gives
    them (the headline minimum over every round; per round its own minimum)."""
    results, per_round = [], {}
    for (bench, params), mins in points.items():
        p = dict(params)
        base = {"bench": bench, "params": p, "status": "ok", "key": key(bench, p)}
        results.append(dict(base, stats={"": {"min": min(mins)}}))
        for rnd, v in enumerate(mins, 1):
            per_round.setdefault(rnd, []).append(dict(base, stats={"": {"min": v}}))
    return results, per_round


def pagelocal(curve):
    """{size: [round minima]} of the page-local chase (and the huge-page random chase beside it,
    where the levels' latencies are read) -> points."""
    out = {}
    for s, mins in curve.items():
        out[("mem.lat_pagelocal", (("size", s), ("group", 16), ("thp", 0)))] = mins
        out[("mem.lat_rand", (("size", s), ("thp", 1)))] = mins
    return out


def stride(curve):
    return {("mem.lat_stride", (("span", 256 * K), ("stride", s))): mins for s, mins in curve.items()}


def cache_sweep():
    """Two points per octave from 2K to 64M."""
    out, s = [], 2 * K
    while s <= 64 * M:
        out += [s, s * 3 // 2]
        s *= 2
    return [x for x in out if x <= 64 * M]


def staircase(size):
    """An L1 of 48K (1.3 ns), an L2 of 2M (4 ns), memory (90 ns): the Xeon guest's curve."""
    return 1.3 if size <= 48 * K else 4.0 if size <= 2 * M else 90.0


def analyse(points):
    results, per_round = rows(points)
    return topo.analyse(results, 0, {}, per_round, {"levels": []})


def test_a_noisy_stride_below_the_line_is_no_line_size():
    """Under load every sample of the 32 B pair was slowed in both rounds (to 3.8 and 4.4 ns, the
    cost of a line miss): on the minima alone the line reads 32 B at full confidence. The rounds
    disagree at that point, and without it the step is at 64 B: not measurable, never 32."""
    clean = {s: [2.9, 2.9] if s < 64 else [3.7, 3.72] for s in STRIDES}
    noisy = {**clean, 32: [3.8, 4.4]}
    assert topo.detect_line((s, min(v)) for s, v in noisy.items())["bytes"] == 32  # what it said before
    det = analyse(stride(noisy))
    line = det["line_size"]
    assert line["bytes"] is None
    assert line["unclear"] == "not measurable under this load (1 noisy point)"
    assert "32 B" in line["why"]
    assert det["unclear"] == [{"what": "line", "noisy": 1, "keys": ["mem.lat_stride[span=262144,stride=32]"]}]
    # the same strides measured quietly: 64 B, and nothing to measure again
    quiet = analyse(stride(clean))
    assert quiet["line_size"]["bytes"] == 64 and quiet["unclear"] == []


def test_a_line_that_is_there_in_every_round_is_kept():
    """A 32-byte line (Cortex-A9): the pair at 32 B costs a line miss in both rounds alike, so
    the point is confirmed and the figure stands; noise elsewhere (a slow 256 B pair) changes
    nothing."""
    curve = {s: [2.9, 2.95] if s < 32 else [3.7, 3.75] for s in STRIDES}
    curve[256] = [3.7, 5.1]
    det = analyse(stride(curve))
    assert det["line_size"]["bytes"] == 32
    assert not det["line_size"].get("unclear")
    assert det["unclear"] == []


def test_a_cache_knee_moved_by_noisy_points_is_not_measurable():
    """The L2 step of a 2M cache; under load the sets from 768K to 2M came out far above the
    plateau in both rounds, but far apart: on the minima the step reads below 1M. With those
    points left out it lies between 512K and 3M, read at 1.22M, further than one sweep step from
    what the minima said: the L2 is not measurable here, the L1 stands."""
    sizes = cache_sweep()
    quiet = {s: [staircase(s), staircase(s) * 1.02] for s in sizes}
    det = analyse(pagelocal(quiet))
    caches = [lv for lv in det["levels"] if lv["name"] != "memory"]
    assert [lv["name"] for lv in caches] == ["L1", "L2"]
    assert all(lv["size"] and not lv.get("unclear") for lv in caches)
    assert det["unclear"] == []

    slow = {768 * K: [30.0, 50.0], 1 * M: [35.0, 60.0], 3 * M // 2: [40.0, 70.0], 2 * M: [45.0, 80.0]}
    loaded = {**quiet, **slow}
    before = topo.analyse(rows(pagelocal(loaded))[0], 0, {}, None, {"levels": []})  # no rounds: no check
    l2 = [lv for lv in before["levels"] if lv["name"] == "L2"][0]
    assert l2["size"] < 1 * M  # the wrong figure the minima alone give
    det = analyse(pagelocal(loaded))
    l1, *rest = [lv for lv in det["levels"] if lv["name"] != "memory"]
    assert 40 * K <= l1["size"] <= 64 * K and not l1.get("unclear")
    # the minima make two steps of it (4 to ~40 ns, then to 90): neither is a number now
    assert rest and all(lv["size"] is None and lv["latency_ns"] is None for lv in rest)
    assert all(lv["unclear"].startswith("not measurable under this load (") for lv in rest)
    assert sum(u["noisy"] for u in det["unclear"]) == 4
    assert sorted(k for u in det["unclear"] for k in u["keys"]) == sorted(
        f"mem.lat_pagelocal[size={s},group=16,thp=0]" for s in slow
    )
    # beside an OS that reports 2M the comparison says not measurable, never DISAGREE
    osr = {"levels": [{"name": "L1d", "level": 1, "size": 48 * K}, {"name": "L2", "level": 2, "size": 2 * M}]}
    verdicts = {what: v for what, _, _, v in os_topology.compare(det, osr)}
    assert verdicts["L1d size"] == "agree" and verdicts["L2 size"] == "not measurable"


def test_tlb_level_moved_by_noisy_points_is_not_measurable():
    """A 64-entry first-level DTLB (+2 ns past it) and a 2048-entry second level (+20 ns): the
    counts 48-64 came out a TLB step slower in both rounds of a loaded run, but far apart. The
    step on the minima moves to 40 pages; without those counts it is at 64: not measurable."""
    pages = (8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 96, 128, 192, 256, 512, 1024, 1536, 2048, 3072, 4096, 8192)
    cost = {n: 0.0 if n <= 64 else 2.0 if n <= 2048 else 20.0 for n in pages}
    pts = {}
    for n in pages:
        pts[("mem.lat_tlb", (("pages", n), ("packed", 0), ("thp", 0)))] = [1.3 + cost[n], 1.31 + cost[n]]
    for n in (8, 256, 512, 1024, 2048, 4096, 8192):
        pts[("mem.lat_tlb", (("pages", n), ("packed", 1), ("thp", 0)))] = [1.3, 1.3]
    quiet = analyse(pts)
    assert [t["entries"] for t in quiet["tlb"]][:1] == [64] and quiet["unclear"] == []
    for n, (a, b) in {48: (3.4, 4.6), 56: (3.5, 4.4), 64: (3.3, 4.1)}.items():
        pts[("mem.lat_tlb", (("pages", n), ("packed", 0), ("thp", 0)))] = [a, b]
    det = analyse(pts)
    first = det["tlb"][0]
    assert first["entries"] is None and first["reach"] is None
    assert first["unclear"].startswith("not measurable under this load (")
    assert det["unclear"][0]["what"] == "L1 TLB"


@pytest.mark.parametrize(
    "mins, noisy",
    [({8: [1.0, 1.05]}, []), ({8: [1.0, 1.2]}, [8]), ({8: [1.0]}, []), ({8: [1.3, 1.0, 1.04]}, [])],
)
def test_noisy_points_are_those_whose_rounds_disagree(mins, noisy):
    """Two rounds within x1.1 confirm a point; a point measured in one round is neither."""
    assert evidence.noisy_points(mins) == noisy


def test_the_third_pass_measures_the_noisy_points_again():
    """After the second pass, the figures that do not hold give the pass that measures their
    noisy points again: their instance keys, with the parameter values they need; none when every
    figure holds."""
    from tickmark.run.topology import again_pass

    clean = {s: [2.9, 2.9] if s < 64 else [3.7, 3.72] for s in STRIDES}
    results, per_round = rows(stride({**clean, 32: [3.8, 4.4]}))
    keys, params = again_pass(results, {"hello": {}, "fingerprint": {}}, per_round)
    assert keys == ["mem.lat_stride[span=262144,stride=32]"]
    assert params == ["span=262144", "stride=32"]
    four = {s: v * 2 for s, v in clean.items()}
    results, per_round = rows(stride(four))
    assert again_pass(results, {"hello": {}, "fingerprint": {}}, per_round) is None


def test_a_line_step_both_rounds_agree_on_is_measured_again_before_it_stands():
    """A busy machine slowed the 32-B pairs in both rounds of a short run (x1.43, as a 64-B line's
    step): the two strides that decide the line are measured again in more rounds, and with the
    new rounds the step is where the line is. With four rounds of each, nothing more is asked."""
    from tickmark.run.topology import again_pass

    curve = {s: [3.95, 3.96] if s < 64 else [5.6, 5.62] for s in STRIDES}
    curve[32] = [5.65, 5.66]
    assert analyse(stride(curve))["line_size"]["bytes"] == 32
    results, per_round = rows(stride(curve))
    keys, params = again_pass(results, {"hello": {}, "fingerprint": {}}, per_round)
    assert keys == ["mem.lat_stride[span=262144,stride=16]", "mem.lat_stride[span=262144,stride=32]"]
    assert params == ["span=262144", "stride=16,32"]
    curve[16] += [3.95, 3.97]
    curve[32] += [3.96, 3.95]
    assert analyse(stride(curve))["line_size"]["bytes"] == 64
    curve = {s: v if len(v) == 4 else v * 2 for s, v in curve.items()}
    det = analyse(stride(curve))
    assert det["line_size"]["bytes"] == 64 and det["confirm"] == []
    results, per_round = rows(stride(curve))
    assert again_pass(results, {"hello": {}, "fingerprint": {}}, per_round) is None


def test_a_cache_step_the_random_chase_contradicts_is_not_measurable():
    """Under load the page-local chase read the sets from 32K to 48K at 3.3 ns in both rounds
    alike (no noisy point says it), a 48K L1 stepping at 28K; the random chase read those sets
    at 1.3 ns, L1 hits. Another chase reading a hit one sweep step past a step is the step's
    disturbance, never the cache's: the L1 is not measurable under this load, the L2 stands, and
    the slowed sets are the ones to measure again. Quiet, the same check refuses nothing."""
    sizes = cache_sweep()
    points = pagelocal({s: [staircase(s), staircase(s) * 1.02] for s in sizes})
    quiet = analyse(points)
    assert quiet["unclear"] == [] and 48 * K <= quiet["levels"][0]["size"] <= 64 * K
    for s in (32 * K, 48 * K):
        points[("mem.lat_pagelocal", (("size", s), ("group", 16), ("thp", 0)))] = [3.3, 3.32]
    before = topo.analyse(rows(points)[0], 0, {}, None, {"levels": []})  # no rounds: no check
    assert before["levels"][0]["size"] < 32 * K  # the wrong figure the page-local chase alone gives
    det = analyse(points)
    l1, l2 = det["levels"][:2]
    assert l1["size"] is None and l1["unclear"] == "not measurable under this load (the curves disagree)"
    assert "the random chase reads a 48K set at 1.30 ns" in l1["why"], l1["why"]
    assert 2 * M <= l2["size"] <= 3 * M and not l2.get("unclear")
    (u,) = det["unclear"]
    assert u["what"] == "L1" and "mem.lat_pagelocal[size=49152,group=16,thp=0]" in u["keys"]


def test_a_refused_level_sits_beside_the_os_level_its_step_read():
    """The L1's step hidden by the load and the L2's refused (its step read 2.1M): the refused
    level goes beside the OS's 2M L2 (not measurable), and the OS's L1 has no level found."""
    det = {"levels": [{"name": "L1", "size": None, "read": 2_200_000, "unclear": "not measurable under this load"}]}
    osr = {"levels": [{"name": "L1d", "size": 48 * K}, {"name": "L2", "size": 2 * M}, {"name": "L3", "size": 32 * M}]}
    pairs = os_topology.pair_levels(det["levels"], osr["levels"])
    assert [(d and d["name"], o["name"]) for d, o in pairs] == [(None, "L1d"), ("L1", "L2"), (None, "L3")]
    verdicts = {what: v for what, _, _, v in os_topology.compare(det, osr)}
    assert verdicts["L2 size"] == "not measurable" and verdicts["L1d size"] == ""
    # a level that was measured keeps its place, whatever it reads
    det["levels"][0].update(size=2 * M)
    assert [o["name"] for _, o in os_topology.pair_levels(det["levels"], osr["levels"])][0] == "L1d"


def test_a_curve_flattened_by_preemption_says_no_step_is_a_finding_it_cannot_make():
    """Under a load of context switches every set up to 256K read about 3.9 ns (other processes
    evicted the L1 between the loads) and the points' samples were preempted even after their
    retake: no cache level is placed, a flag says why no step is no finding, and the OS's 48K L1d,
    which the sweep went past, is 'not found' beside it, not left blank. The same flat curve from
    samples no switch hit (a board without caches) carries no such flag."""
    sizes = [s for s in cache_sweep() if s <= 256 * K]
    results, per_round = rows(pagelocal({s: [3.9, 3.95] for s in sizes}))
    osr = {"levels": [{"name": "L1d", "size": 48 * K}, {"name": "L2", "size": 2 * M}]}
    calm = topo.analyse(results, 0, {}, per_round, osr)
    assert [lv["name"] for lv in calm["levels"]] == ["memory"]
    assert not any(f.startswith("no cache step") for f in calm["flags"]), calm["flags"]
    for r in results:
        r["stats"][""]["preempted_samples"] = 2
    det = topo.analyse(results, 0, {}, per_round, osr)
    [flag] = [f for f in det["flags"] if f.startswith("no cache step found up to 256K")]
    assert f"{len(sizes)} of the curve's {len(sizes)} points were hit by a context switch" in flag
    verdicts = {what: v for what, _, _, v in os_topology.compare(det, osr)}
    assert verdicts == {"L1d size": "not found", "L2 size": "not measurable", "line size": ""}, verdicts
    # every view's table says the same: the L1d passed and not found; a level past the sweep's end
    # (no last-level verdict) is "not reached", with no check, never DISAGREE
    from tickmark.report.model.memory import topology_model

    osr["levels"].insert(1, {"name": "L2", "size": 1 * M})
    osr["levels"][2]["name"] = "L3"
    table = {row[6]: (row[1], row[7]) for row in topology_model(det, osr, [1])["table"]}
    assert table["48K L1d"] == ("not found", "not found") and table["2M L3"] == ("not reached", ""), table


def test_a_climb_over_several_sweep_steps_through_noisy_points_is_not_measurable():
    """An L2 whose step climbs smoothly from 1.2M to 6M, over more than three sweep steps (the
    shape a shared, busy last level gives): its size is placed by the shape of the climb. With
    two points inside the climb whose rounds disagree by x1.3, that shape is the load's, and the
    level is not measurable; with rounds that agree it stands (a wide knee alone refuses
    nothing)."""

    def climb(s):
        if s <= 48 * K:
            return 1.3
        if s <= 1200 * K:
            return 4.0
        if s >= 6 * M:
            return 90.0 if s > 24 * M else 28.0
        return 4.0 * (28.0 / 4.0) ** (math.log(s / (1200 * K)) / math.log(6 * M / (1200 * K)))

    sizes = cache_sweep()
    points = pagelocal({s: [climb(s), climb(s) * 1.02] for s in sizes})
    quiet = analyse(points)
    l2 = quiet["levels"][1]
    assert l2["size"] and l2["range"][1] / l2["range"][0] > 1.5**3 and not l2.get("unclear"), l2
    noisy = [s for s in sizes if 2 * M <= s <= 4 * M][:2]
    for s in noisy:
        points[("mem.lat_pagelocal", (("size", s), ("group", 16), ("thp", 0)))] = [climb(s), climb(s) * 1.3]
    det = analyse(points)
    l2 = det["levels"][1]
    assert l2["size"] is None and l2["unclear"] == "not measurable under this load (2 noisy points)", l2
    assert "climbs from" in l2["why"] and "more than three sweep steps" in l2["why"], l2["why"]
    assert det["levels"][0]["size"] and not det["levels"][0].get("unclear")
