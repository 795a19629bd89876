"""The denormalised copies: run_brief (a run's fingerprint fields that separate series, and its
labels) and result_heads (a result's headline figures), written with the documents they copy, and
filled for the runs and results of a store made before them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .backend import Backend
from .rows import _dump

# result_heads' figures: the headline's, and its on-CPU time per operation (history --metric task-clock)
HEAD_COLS = ("value", "ci95_lo", "ci95_hi", "unit", "v", "rounds", "round_cv", "task_clock")


def brief_fields() -> list[str]:
    """The fingerprint fields run_brief keeps: those that separate series in a history, and the
    variant (what `runs` shows)."""
    from ..facts import fingerprint

    return [k.name for k in fingerprint.keys(separates=True)] + ["variant"]


def brief_of(fp: object) -> str | None:
    """run_brief's fields of a fingerprint (JSON text; None where it is not an object)."""
    return _dump({k: fp.get(k) for k in brief_fields()}) if isinstance(fp, dict) else None


def labels_of(notes: object) -> str | None:
    """run_brief's labels of a run's notes (JSON text; None where they are not an object)."""
    labels = notes.get("labels") if isinstance(notes, dict) else []
    return _dump(labels or {}) if isinstance(labels, (dict, type(None))) else None


def head_of(stats: object) -> tuple[Any, ...]:
    """result_heads' figures of a result's statistics (HEAD_COLS): the headline's value, CI,
    unit, statistics version, rounds, rounds' CV and task-clock per operation; all None where the
    statistics hold no headline or a figure is not of its type (such a result is read whole:
    recomputed or refused)."""
    d = stats.get("") if isinstance(stats, dict) else None
    if not isinstance(d, dict):
        return (None,) * len(HEAD_COLS)
    value, lo, hi, unit, v, rounds, rcv = (d.get(k) for k in HEAD_COLS[:-1])
    per_op = d.get("counters_per_op")
    task_clock = per_op.get("task_clock") if isinstance(per_op, dict) else None
    if not (
        all(_is_number(x) for x in (value, lo, hi, rcv, task_clock))
        and isinstance(unit, (str, type(None)))
        and _is_int(v)
        and (rounds is None or _is_int(rounds))
    ):
        return (None,) * len(HEAD_COLS)
    return (_float(value), _float(lo), _float(hi), unit, v, rounds, _float(rcv), _float(task_clock))


def _is_number(x: Any) -> bool:
    return x is None or isinstance(x, float) or (_is_int(x) and abs(x) < 2**53)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and abs(x) < 2**63


def _fill_run_brief(b: Backend) -> None:
    """run_brief for the runs of a store made before it (inside the transaction that makes it)."""
    _fill(b, "SELECT id, fingerprint, notes FROM runs", "run_brief (run_id, fields, labels) VALUES (?,?,?)", _brief_row)


def _brief_row(rid: int, fp: str, notes: str) -> tuple[int, str | None, str | None]:
    return (rid, brief_of(_parsed(fp)), labels_of(_parsed(notes)))


def _fill_result_heads(b: Backend) -> None:
    """result_heads for the results of a store made before it."""
    cols = ", ".join(HEAD_COLS)
    _fill(
        b,
        "SELECT id, run_id, stats FROM results",
        f"result_heads (result_id, run_id, {cols}) VALUES (?, ?{', ?' * len(HEAD_COLS)})",
        lambda rid, run_id, stats: (rid, run_id, *head_of(_parsed(stats))),
    )


def _fill(b: Backend, select: str, insert: str, row: Callable[..., tuple[Any, ...]], page: int = 5000) -> None:
    """Rows made from every row of a table, `page` at a time (by id)."""
    after = 0
    while True:
        rows = b.execute(f"{select} WHERE id > ? ORDER BY id LIMIT ?", (after, page)).fetchall()
        if not rows:
            return
        b.executemany(f"INSERT INTO {insert}", [row(*r) for r in rows])
        after = rows[-1][0]


def _parsed(text: str) -> Any:
    """A JSON column's value, None where it is not JSON (read whole, and refused, later)."""
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return None


_FILL: dict[str, Callable[[Backend], None]] = {"run_brief": _fill_run_brief, "result_heads": _fill_result_heads}


def _float(x: float | None) -> float | None:
    return None if x is None else float(x)
