"""The code size beside the speed, for a comparison of two runs (compare, matrix, the reports):
the core's text, data and bss, a kernel image's size, and per benchmark the bytes of its own
functions next to its time ratio, in words ("7 % faster, 12 % larger"). The sizes come from the
runs' fingerprints (code_size: measured when the core was built; kernel_image_size), never from
this machine."""

from __future__ import annotations

import math
from typing import Any, TypedDict

from ...analysis.compare import multiple_of
from ...analysis.verdict import CPU_TIME, time_ratio_of
from ...base.exact import exact_counts
from ...base.shapes import Fingerprint

CORE_PARTS = ("text", "data", "bss")


class SizeRow(TypedDict):
    """A part of the core (text, data, bss) or the kernel image: its size in A and B."""

    part: str
    a: int | None
    b: int | None
    ratio: float | None
    words: str


class BenchSize(TypedDict):
    """A benchmark's own code size in A and B beside its speed."""

    bench: str
    a: int | None
    b: int | None
    ratio: float | None
    time_ratio: float | None
    speed_from: str
    instances: int
    words: str


class CodeSize(TypedDict):
    core: list[SizeRow]
    benches: list[BenchSize]
    measure: str


def _ratio(a: object, b: object) -> float | None:
    return b / a if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > 0 else None


def change_words(ratio: float | None, more: str, less: str) -> str:
    """'1.12× larger' / '1.03× smaller' / '521× larger' / 'same' for a ratio B/A (None: '-'): a
    multiple, as the speed is given, never a percentage of thousands."""
    if ratio is None or math.isnan(ratio) or ratio <= 0:
        return "-"
    m = ratio if ratio >= 1 else 1 / ratio
    if m < 1.005:
        return "same"
    return f"{_times(m)} {more if ratio > 1 else less}"


def _times(m: float) -> str:
    return (f"{m:.2f}" if m < 10 else f"{m:.1f}" if m < 100 else f"{m:.0f}") + "×"


def speed_words(time_ratio: float | None, exact: bool = False) -> str:
    """The speed of B against A from a time ratio B/A as compare words it: '17.6× slower',
    '2.13× faster' (B takes 0.47 of A's time); of instruction counts (exact): '1.20× more
    instructions'."""
    if time_ratio is None or time_ratio <= 0:
        return "-"
    if abs(time_ratio - 1) < 0.005:
        return "same count" if exact else "same speed"
    return multiple_of(time_ratio, False, exact)


SETTLED = {"faster", "slower", "no difference beyond noise"}


def _speed(brows: list[dict[str, Any]], exact: bool = False) -> tuple[float | None, str, str]:
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
        return t, ("same count" if exact else "same speed") if same else speed_words(t, exact), which
    return t, "count inconclusive" if exact else "speed inconclusive", ""


def pair_model(fa: Fingerprint, fb: Fingerprint, rows: list[dict[str, Any]]) -> CodeSize | None:
    """The sizes of runs A and B (their fingerprints) beside the compare rows of the pair -> {"core":
    [{part, a, b, ratio, words}], "benches": [{bench, a, b, ratio, time_ratio, speed_from,
    instances, words}]}, or None when neither run recorded a size."""
    sa, sb = fa.get("code_size") or {}, fb.get("code_size") or {}
    exact = exact_counts(fa) and exact_counts(fb)  # ratios of instruction counts, not of times
    core: list[SizeRow] = []
    for part in CORE_PARTS:
        a, b = (sa.get("core") or {}).get(part), (sb.get("core") or {}).get(part)
        if a is not None or b is not None:
            core.append(_size_row(f"core {part}", a, b))
    ka, kb = fa.get("kernel_image_size"), fb.get("kernel_image_size")
    if ka is not None or kb is not None:
        core.append(_size_row("kernel image", ka, kb))
    benches: list[BenchSize] = []
    ba, bb = sa.get("benches") or {}, sb.get("benches") or {}
    by_bench: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row.get("bench") in ba.keys() | bb.keys() and not row.get("metric"):
            by_bench.setdefault(row["bench"], []).append(row)
    for bench, brows in sorted(by_bench.items()):
        a, b = ba.get(bench), bb.get(bench)
        r = _ratio(a, b)
        t, speed, which = _speed(brows, exact)
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
    return {"core": core, "benches": benches, "measure": "insn" if exact else "time"}


def _size_row(part: str, a: Any, b: Any) -> SizeRow:
    r = _ratio(a, b)
    return {"part": part, "a": a, "b": b, "ratio": r, "words": change_words(r, "larger", "smaller")}
