"""The code size beside the speed, for a comparison of two runs (compare, matrix, the reports):
the core's text, data and bss, a kernel image's size, and per benchmark the bytes of its own
functions next to its time ratio, in words ("7 % faster, 12 % larger"). The sizes come from the
runs' fingerprints (code_size: measured when the core was built; kernel_image_size), never from
this machine."""

import math

from ...analysis.verdict import CPU_TIME, time_ratio_of

CORE_PARTS = ("text", "data", "bss")


def _ratio(a, b):
    return b / a if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > 0 else None


def change_words(ratio, more, less):
    """'12 % larger' / '3 % smaller' / 'same' for a ratio B/A (None: '-')."""
    if ratio is None or math.isnan(ratio):
        return "-"
    pct = (ratio - 1) * 100
    if abs(pct) < 0.5:
        return "same"
    return f"{abs(pct):.0f} % {more if pct > 0 else less}"


def speed_words(time_ratio):
    """The speed of B against A from a time ratio B/A: '7 % faster' (B takes 0.93 of A's time)."""
    if time_ratio is None or time_ratio <= 0:
        return "-"
    pct = (1 / time_ratio - 1) * 100  # how much more work B does in A's time
    if abs(pct) < 0.5:
        return "same speed"
    return f"{abs(pct):.0f} % {'faster' if pct > 0 else 'slower'}"


SETTLED = {"faster", "slower", "no difference beyond noise"}


def _speed(brows):
    """(time ratio, words, which) of a benchmark's instance rows, by compare's one verdict
    (analysis/verdict.py): its headline rows, each decided on what the one rule for disturbed
    evidence decided it on (wall time, or task-clock where wall time was contended); the
    geometric mean of their deciding time ratios, in words when every verdict among them is
    called, else 'speed inconclusive'. which: "task-clock" when it decided any of them."""
    rows = [x for x in brows if not x.get("metric")]
    times = [t for t in (time_ratio_of(x) for x in rows) if t]
    t = math.exp(sum(math.log(x) for x in times) / len(times)) if times else None
    verdicts = {x.get("verdict") for x in rows}
    which = CPU_TIME if any((x.get("decided") or {}).get("on") == CPU_TIME for x in rows) else ""
    if rows and len(times) == len(rows) and verdicts <= SETTLED:
        same = verdicts == {"no difference beyond noise"}
        return t, "same speed" if same else speed_words(t), which
    return t, "speed inconclusive", ""


def pair_model(fa, fb, rows):
    """The sizes of runs A and B (their fingerprints) beside the compare rows of the pair -> {"core":
    [{part, a, b, ratio, words}], "benches": [{bench, a, b, ratio, time_ratio, speed_from,
    instances, words}]}, or None when neither run recorded a size."""
    sa, sb = fa.get("code_size") or {}, fb.get("code_size") or {}
    core = []
    for part in CORE_PARTS:
        a, b = (sa.get("core") or {}).get(part), (sb.get("core") or {}).get(part)
        if a is not None or b is not None:
            core.append(_size_row(f"core {part}", a, b))
    ka, kb = fa.get("kernel_image_size"), fb.get("kernel_image_size")
    if ka is not None or kb is not None:
        core.append(_size_row("kernel image", ka, kb))
    benches = []
    ba, bb = sa.get("benches") or {}, sb.get("benches") or {}
    by_bench = {}
    for row in rows:
        if row.get("bench") in ba.keys() | bb.keys() and not row.get("metric"):
            by_bench.setdefault(row["bench"], []).append(row)
    for bench, brows in sorted(by_bench.items()):
        a, b = ba.get(bench), bb.get(bench)
        r = _ratio(a, b)
        t, speed, which = _speed(brows)
        benches.append(
            {
                "bench": bench,
                "a": a,
                "b": b,
                "ratio": r,
                "time_ratio": t,
                "speed_from": which or "wall time",
                "instances": len([x for x in brows if not x.get("metric")]),
                "words": f"{speed}{' (task-clock)' if which else ''}, {change_words(r, 'larger', 'smaller')}",
            }
        )
    if not core and not benches:
        return None
    return {"core": core, "benches": benches}


def _size_row(part, a, b):
    r = _ratio(a, b)
    return {"part": part, "a": a, "b": b, "ratio": r, "words": change_words(r, "larger", "smaller")}
