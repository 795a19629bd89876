"""Row shapes: what each column holds once read. A store edited by hand or damaged on disk is
refused with "corrupt store" (naming the row and column), never handed on to crash a view."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..base import tm1
from ..base.errors import CorruptStore
from ..base.names import plain, plain_all
from ..base.shapes import Row
from . import migrations
from .schema import _JSON_COLS

# What each column holds once read: a store edited by hand or damaged on disk is refused with
# "corrupt store" (naming the row and column), never handed on to crash a view.
_NUM, _OPT_NUM, _TEXT, _OPT_TEXT = (int, float), (int, float, type(None)), (str,), (str, type(None))
_SHAPES: dict[str, tuple[type, ...]] = {
    "id": (int,),
    "run_id": (int,),
    "name": _OPT_TEXT,
    "started": _NUM,
    "finished": _OPT_NUM,
    "suite": _OPT_TEXT,
    "patterns": (list,),
    "options": (dict,),
    "fingerprint": (dict,),
    "hello": (dict,),
    "notes": (dict,),
    "params": (dict,),
    "meta": (dict,),
    "stats": (dict,),
}


def _loads(text: str, what: str) -> Any:
    """A JSON column -> its value, its texts by the one rule of names.plain (a store written by
    an older tickmark, or edited, may hold a control character or a lone surrogate, which no view
    or export may meet raw); CorruptStore when it is not JSON."""
    try:
        value = json.loads(text)
    except (ValueError, TypeError, RecursionError):
        raise CorruptStore(f"{what} is not valid JSON")
    return plain_all(value) if "\\" in text or not text.isascii() else value  # JSON holds such characters only so


MAX_TIME = 253402300799  # the end of the year 9999: the latest time a clock shows


def _row(cols: Sequence[str], row: Sequence[Any], table: str = "runs") -> Row:
    d = dict(zip(cols, row))
    what = f"{table} row {d.get('id')!r}"[:60]
    for k in _JSON_COLS & d.keys():
        if d[k] is not None:
            d[k] = _loads(d[k], f"{what}: {k}")
    for k, v in d.items():
        if isinstance(v, str):
            d[k] = v = plain(v)
        if isinstance(v, bool) or not isinstance(v, _SHAPES.get(k, _TEXT)):
            raise CorruptStore(f"{what}: {k} holds {type(v).__name__}, not {_SHAPES.get(k, _TEXT)[0].__name__}")
        if k in ("started", "finished") and v is not None and not 0 <= d[k] <= MAX_TIME:  # NaN too
            raise CorruptStore(f"{what}: {k} holds {str(v)[:30]}, not a time (seconds since 1970, up to 9999)")
        if k == "params" and tm1.params_problem(v):
            raise CorruptStore(f"{what}: {tm1.params_problem(v)}")
    if table == "runs" and "fingerprint" in d:  # caches as numbers, in a run written before they were
        d["fingerprint"] = migrations.with_cache_numbers(d["fingerprint"]) or d["fingerprint"]
    return d


def _dump(x: Any) -> str:
    return json.dumps(x, sort_keys=True)
