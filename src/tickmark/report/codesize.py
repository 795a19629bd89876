"""The code size beside the speed, for a comparison of two runs (compare, matrix, the reports):
the core's text, data and bss, a kernel image's size, and per benchmark the bytes of its own
functions next to its time ratio, in words ("7 % faster, 12 % larger"). The sizes come from the
runs' fingerprints (code_size: measured when the core was built; kernel_image_size), never from
this machine."""

import math

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


def _time_ratio(row):
    """A compare row's ratio as a time ratio (above 1: B slower), or None."""
    r = row.get("ratio")
    if not r or (isinstance(r, float) and math.isnan(r)):
        return None
    return 1 / r if row.get("higher") else r


def pair_model(fa, fb, rows):
    """The sizes of runs A and B (their fingerprints) beside the compare rows of the pair -> {"core":
    [{part, a, b, ratio, words}], "benches": [{bench, a, b, ratio, time_ratio, instances,
    verdicts, words}]}, or None when neither run recorded a size."""
    sa, sb = fa.get("code_size") or {}, fb.get("code_size") or {}
    core = []
    for part in CORE_PARTS:
        a, b = (sa.get("core") or {}).get(part), (sb.get("core") or {}).get(part)
        if a is not None or b is not None:
            r = _ratio(a, b)
            core.append(
                {"part": f"core {part}", "a": a, "b": b, "ratio": r, "words": change_words(r, "larger", "smaller")}
            )
    ka, kb = fa.get("kernel_image_size"), fb.get("kernel_image_size")
    if ka is not None or kb is not None:
        r = _ratio(ka, kb)
        core.append(
            {"part": "kernel image", "a": ka, "b": kb, "ratio": r, "words": change_words(r, "larger", "smaller")}
        )
    benches = []
    ba, bb = sa.get("benches") or {}, sb.get("benches") or {}
    by_bench = {}
    for row in rows:
        if not row.get("metric") and row.get("bench") in ba.keys() | bb.keys():
            by_bench.setdefault(row["bench"], []).append(row)
    for bench, brows in sorted(by_bench.items()):
        a, b = ba.get(bench), bb.get(bench)
        r = _ratio(a, b)
        times = [t for t in (_time_ratio(x) for x in brows) if t]
        t = math.exp(sum(math.log(x) for x in times) / len(times)) if times else None
        verdicts = sorted({x.get("verdict") for x in brows if x.get("verdict")})
        benches.append(
            {
                "bench": bench,
                "a": a,
                "b": b,
                "ratio": r,
                "time_ratio": t,
                "instances": len(brows),
                "verdicts": verdicts,
                "words": f"{speed_words(t)}, {change_words(r, 'larger', 'smaller')}",
            }
        )
    if not core and not benches:
        return None
    return {"core": core, "benches": benches}
