"""The cold calls of a run (benchmarks whose descriptor has `.cold`): per result, its headline
(the steady state, warm), the median of its cold calls (one operation each, timed alone right
after the port flushed the caches), the ratio of the two and how many calls; the results whose
port could not flush, with why. Every view reads this model."""

from __future__ import annotations

from typing import TypedDict

from ...analysis.stats import COLD, Stats
from ...base import fmt
from ...base.exact import exact_counts
from ...base.names import printable
from ...base.shapes import Fingerprint, Row
from .series import result_order

COLD_NOTE = (
    "cold: one operation timed alone right after the caches were flushed, the median of the cold "
    "calls (each after its own flush, made after setup and before the samples); warm: the headline, "
    "the steady state over the samples. The cold calls are no part of the headline"
)
ICOUNT_NOTE = (
    "QEMU counts instructions and models no cache: a cold call differs from a warm one here only "
    "where its code takes another path (a first allocation, a lazy initialisation), never by a miss"
)


class ColdRow(TypedDict):
    key: str
    warm_text: str
    cold_text: str
    ratio: float | None
    ratio_text: str
    calls: int


class ColdTable(TypedDict):
    title: str
    rows: list[ColdRow]
    notes: list[str]


def cold_model(results: list[Row], fp: Fingerprint | None) -> ColdTable | None:
    """The table of cold and warm figures of a run's results, or None where no benchmark made
    cold calls (nor tried to)."""
    exact = exact_counts(fp)
    rows: list[ColdRow] = []
    flushes: list[str] = []
    skipped: list[str] = []
    for r in sorted(results, key=result_order):
        st, meta = Stats.of(r), r.get("meta") or {}
        main, cold = st.main, st.get(COLD)
        if r["status"] != "ok" or main is None:
            continue
        if cold is None:
            if meta.get("cold_skip"):
                skipped.append(f"{r['key']} ({meta['cold_skip']})")
            continue
        ratio = cold.median / main.value if main.value and cold.median is not None else None
        rows.append(
            {
                "key": r["key"],
                "warm_text": fmt.fmt_value(main, exact),
                "cold_text": fmt.fmt_value(cold, exact),
                "ratio": ratio,
                "ratio_text": "-" if ratio is None else f"{fmt.sig(ratio)}×",
                "calls": cold.n,
            }
        )
        if meta.get("cold_flush") and meta["cold_flush"] not in flushes:
            flushes.append(meta["cold_flush"])
    if not rows and not skipped:
        return None
    notes = [COLD_NOTE + "."] if rows else []
    notes += [f"flush: {printable(f)}" for f in flushes]
    if exact and rows:
        notes.append(ICOUNT_NOTE + ".")
    if skipped:
        notes.append("no cold calls: " + printable("; ".join(skipped)))
    return {"title": "cold and warm (cold/warm: their ratio)", "rows": rows, "notes": notes}
