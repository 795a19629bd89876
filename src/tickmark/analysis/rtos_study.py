"""The RTOS-vs-Linux study: its seven figures side by side, in ns and cycles, with the
determinism of each (largest deviation of a round median from the overall median, a fraction).

The study measured heap alloc/free (1000 allocations of 4 bytes, then 1000 frees), mutex
lock/unlock, pthread_create/join and the context switch by yield, over 3 runs; it reported,
in cycles, RTOS vs Linux: heap alloc 1001 vs 11,499, mutex lock 53 vs 799, pthread_create
719 vs 85,478, context switch 47 vs 1,284. `tickmark run --suite rtos-study` repeats it on any
board; this module picks the figures out of the stored results (report/terminal/rtos_study.py
lays them out).
"""

from __future__ import annotations

from typing import Any

from ..base.shapes import Row
from .stats import Stats

# (figure, benchmark key, sub-metric or "" for the headline)
FIGURES = [
    ("heap alloc (4 B)", "heap.malloc_free_4", "malloc"),
    ("heap free (4 B)", "heap.malloc_free_4", "free"),
    ("mutex lock", "sync.mutex", "lock"),
    ("mutex unlock", "sync.mutex", "unlock"),
    ("pthread_create", "thread.create_join", "create"),
    ("pthread_join", "thread.create_join", "join"),
    ("context switch (yield)", "sched.yield_switch", ""),
    ("semaphore round trip", "sync.sem_pingpong[cross=0]", ""),
    ("queue round trip (8 B)", "ipc.queue_pingpong[cross=0]", ""),
    ("interrupt -> handler", "irq.entry", "entry"),
    ("interrupt -> thread again", "irq.return", ""),
    ("interrupt -> woken thread", "irq.wake", "wake"),
    ("thread post -> woken thread", "sched.wake_prio", "wake"),
    ("control loop (1 iteration)", "loop.control", ""),
]
PATTERNS = sorted({key for _, key, _ in FIGURES})  # instance keys: a pattern with '[' picks one point

# published cycles, (RTOS, Linux), where the study gave them
STUDY_CYCLES = {
    "heap alloc (4 B)": (1001, 11499),
    "mutex lock": (53, 799),
    "pthread_create": (719, 85478),
    "context switch (yield)": (47, 1284),
}


def rows(results: list[Row]) -> list[dict[str, Any]]:
    """One dict per figure: figure, key, ns, cycles, cycles_method, det, boots (the cycles of
    each round's median: a round is one boot of a board), status, reason."""
    by_key = {r["key"]: r for r in results}
    out: list[dict[str, Any]] = []
    for figure, key, sub in FIGURES:
        row: dict[str, Any] = {
            "figure": figure,
            "key": key + (f" {sub}" if sub else ""),
            "ns": None,
            "cycles": None,
            "cycles_method": None,
            "det": None,
            "boots": [],
            "status": "missing",
            "reason": "not run",
        }
        r = by_key.get(key)
        if r is not None:
            st = Stats.of(r)
            main, d = st.main, st.get(sub)
            row["status"], row["reason"] = r["status"], r.get("reason") or ""
            if r["status"] == "ok" and d:
                row["ns"] = d.median
                row["det"] = d.determinism
                # cycles of a part: the headline's cycles per ns applied to the part's time
                if main and main.cycles_per_op is not None and main.median:
                    per_ns = main.cycles_per_op / main.median
                    row["cycles"] = per_ns * row["ns"]
                    row["cycles_method"] = main.cycles_method
                    row["boots"] = [per_ns * x for x in d.round_medians or [] if x is not None]
            elif r["status"] == "ok":
                row["status"], row["reason"] = "no data", f"no sub-metric '{sub}'"
        out.append(row)
    return out
