"""A stored run as the model that the run formats render (run_model); that model as a versioned
JSON document (with raw samples) or CSV; such a document read back (strictly validated, its
statistics computed again from the raw samples). The run engine stores a document read here as a
new run (run/importing.py: import_document)."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn, Union

from ..analysis import stats
from ..analysis.stats import Stats, Summary
from ..base import tm1
from ..base.errors import TickmarkError
from ..base.exact import exact_counts
from ..base.exact import unit as shown_unit
from ..base.names import check_name, printable, text_problem
from ..base.shapes import Row, StoreReader
from ..facts import fingerprint
from .rows import MAX_TIME

# a check's type or types (isinstance's second argument)
Types = Union[type, tuple[type, ...]]

FORMAT = "tickmark-results"
VERSION = 1


def run_model(store: StoreReader, run: Row) -> dict[str, Any]:
    """A stored run as every run format renders it (report/formats.py), so that none reads the
    store: the run row, its result rows each with its raw samples ("samples") and histogram
    ("hist"), and its profiles by name."""
    results = [dict(r, samples=store.samples(r["id"]), hist=store.hists(r["id"])) for r in store.results(run["id"])]
    return {"run": run, "results": results, "profiles": store.profiles(run["id"])}


def to_document(model: dict[str, Any]) -> dict[str, Any]:
    """The run model as the versioned document that import reads back."""
    results: list[dict[str, Any]] = []
    exact = exact_counts(model["run"]["fingerprint"])
    for r in model["results"]:
        results.append(
            {
                "benchmark": r["bench"],
                "key": r["key"],
                "params": r["params"],
                "metric": shown_unit(r["metric"], exact),
                "status": r["status"],
                "reason": r["reason"],
                "unit": r["unit"],
                "stat": r["stat"],
                "meta": r["meta"],
                # the check of its own output the instance passed (None: it has none, or did not pass)
                "verified": (r["meta"] or {}).get("verified") if r["status"] == "ok" else None,
                "stats": {k: _counted(v) for k, v in r["stats"].items()} if exact else r["stats"],
                "samples": r["samples"],
                "hist": r["hist"],
            }
        )
    from .schema import RUN_COLS

    run = model["run"]
    run_doc = {k: run[k] for k in RUN_COLS}
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "run": run_doc, "results": results}
    profiles = model["profiles"]
    if profiles:  # optional: runs with profiles (tickmark profile) only
        doc["profiles"] = [profiles[k] for k in sorted(profiles)]
    return doc


def _counted(summary: Any) -> Any:
    """A metric's statistics of an exact-count run as counts: its unit insn/op, and no time, rate
    or second count of a figure that is itself the count (import recomputes them all from the
    samples)."""
    if not isinstance(summary, dict):
        return summary
    out = dict(summary, ns_per_op=None, ops_per_s=None, cycles_per_op=None)
    out["unit"] = shown_unit(summary.get("unit"), True)
    return out


def to_json(model: dict[str, Any]) -> str:
    return json.dumps(to_document(model), indent=1, sort_keys=True) + "\n"


CSV_STATS = (
    "value",
    "median",
    "min",
    "max",
    "p90",
    "mean",
    "n",
    "rcv",
    "cv",
    "round_cv",
    "ci95_lo",
    "ci95_hi",
    "determinism",
    "ops_per_s",
    "cycles_per_op",
    "cycles_method",
)


def to_csv(model: dict[str, Any]) -> str:
    """One row per result and metric of the run model."""
    run = model["run"]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        [
            "run",
            "key",
            "benchmark",
            "params",
            "sub",
            "metric",
            "status",
            "reason",
            "unit_op",
            "stat",
            "value_unit",
            *CSV_STATS,
            "flags",
        ]
    )
    exact = exact_counts(run.get("fingerprint"))  # QEMU -icount: instructions, never a rate per second
    for r in model["results"]:
        st = Stats.of(r)
        for sub, d in st.items() if st else [("", None)]:
            write_row(
                w,
                [
                    run["id"],
                    r["key"],
                    r["bench"],
                    json.dumps(r["params"], sort_keys=True),
                    sub,
                    shown_unit(r["metric"], exact),
                    r["status"],
                    r["reason"],
                    r["unit"],
                    r["stat"],
                    shown_unit(d.unit, exact) if d else "",
                    *[_csv_stat(d, k, exact) for k in CSV_STATS],
                    " ".join(d.flags if d else []),
                ],
            )
    return out.getvalue()


def _csv(v: object) -> object:
    return "" if v is None else v


def _csv_stat(d: Summary | None, name: str, exact: bool) -> object:
    """One statistic of a CSV row (every spread a fraction, as the statistics keep them: 0.023 is
    2.3 %); no rate per second for exact counts (QEMU -icount)."""
    v = getattr(d, name, None)
    if v is None or (exact and name == "ops_per_s"):
        return ""
    return v


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def write_row(w: Any, cells: Iterable[object]) -> None:
    """A CSV row whose text cells a spreadsheet never reads as a formula: a text starting with
    = + - @ (or a tab, a carriage return) gets a leading apostrophe. Numbers stay numbers."""
    w.writerow(["'" + c if isinstance(c, str) and c.startswith(_FORMULA) else c for c in cells])


# ---- import ----
class _Bad(Exception):
    pass


def _need(obj: object, key: str, types: Types, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise _Bad(f"{where}: missing '{key}'")
    v = obj[key]
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in _tuple(types)):
        raise _Bad(f"{where}.{key}: expected {_names(types)}, got {type(v).__name__}")
    return v


def _tuple(t: Types) -> tuple[type, ...]:
    return t if isinstance(t, tuple) else (t,)


def _names(types: Types) -> str:
    return " or ".join("null" if t is type(None) else t.__name__ for t in _tuple(types))


NUM = (int, float)
STATUSES = ("ok", "skip", "failed", "crashed", "timeout")


# The document's schema (JSON Schema): what import and compare accept from a file. Statistics in
# the file are not trusted: they are computed again from the raw samples (read_document).
_I64 = {"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1}
_COUNT = {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}
_ROUND = {"type": "integer", "minimum": 1, "maximum": 100000}
_TIME = {"type": "number", "minimum": 0, "maximum": MAX_TIME}  # up to the year 9999
_NOCTRL = "^[^\\x00-\\x1f\\x7f-\\x9f]*$"
_KEY = {"type": "string", "minLength": 1, "maxLength": 300, "pattern": _NOCTRL}
_WORD = {"type": "string", "maxLength": 300, "pattern": _NOCTRL}
_TEXT = {"type": "string", "maxLength": 10000}
_COUNTS = {"type": "object", "additionalProperties": _COUNT}
_JSON_TYPE = {"text": "string", "int": "integer", "bool": "boolean", "list": "array", "object": "object"}
_CACHE = {"type": "object", "additionalProperties": {"type": ["string", "integer", "null"]}}
_SAMPLE = {
    "type": "object",
    "required": ["round", "iters", "ops", "ns"],
    "properties": {
        "round": _ROUND,
        "i": _COUNT,
        "iters": _COUNT,
        "ops": _COUNT,
        "ns": _COUNT,
        "cyc": {"anyOf": [_COUNT, {"type": "null"}]},
        "ctr_ops": _COUNT,
        "ctr": _COUNTS,
        "sub": _COUNTS,
        "cold": _COUNT,
        "retaken": _I64,
        "nivcsw": _I64,
        "minflt": _I64,
        "cpu0": _I64,
        "cpu1": _I64,
        "multiplexed": _I64,
    },
}
_HIST = {
    "type": "object",
    "required": ["round", "buckets"],
    "properties": {
        "round": _ROUND,
        "count": _COUNT,
        "min": _COUNT,
        "max": _COUNT,
        "sum": _COUNT,
        "unit": _WORD,
        "buckets": {
            "type": "array",
            "items": {"type": "array", "prefixItems": [_COUNT, _COUNT], "minItems": 2, "maxItems": 2},
        },
    },
}
_RESULT = {
    "type": "object",
    "required": [
        "benchmark",
        "key",
        "params",
        "metric",
        "status",
        "reason",
        "unit",
        "stat",
        "stats",
        "samples",
        "hist",
    ],
    "properties": {
        "benchmark": _KEY,
        "key": _KEY,
        "metric": _WORD,
        "reason": _TEXT,
        "unit": _WORD,
        "status": {"enum": list(STATUSES)},
        "stat": {"enum": ["median", "min", "max"]},
        "params": {"type": "object"},  # as the TM1 reader takes them (validate)
        "verified": {"anyOf": [_TEXT, {"type": "null"}]},
        "stats": {"type": "object"},
        "meta": {
            "type": "object",
            "properties": {
                "stat": {"enum": ["median", "min", "max"]},
                "bytes_per_op": _COUNT,
                "iters": _COUNT,
                "ops_per_iter": _COUNT,
                "bench": _KEY,
                "key": _KEY,
            },
        },
        "samples": {"type": "array", "items": _SAMPLE},
        "hist": {"type": "array", "items": _HIST},
    },
}
SCHEMA = {
    "type": "object",
    "required": ["format", "version", "run", "results"],
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "run": {
            "type": "object",
            "required": [
                "started",
                "finished",
                "status",
                "name",
                "suite",
                "patterns",
                "options",
                "fingerprint",
                "hello",
            ],
            "properties": {
                "started": _TIME,
                "finished": {"anyOf": [_TIME, {"type": "null"}]},
                "status": {"enum": ["running", "complete", "incomplete"]},
                "name": {"type": ["string", "null"]},
                "suite": {"anyOf": [_WORD, {"type": "null"}]},
                "patterns": {"type": "array", "items": _WORD},
                "options": {"type": "object"},
                "notes": {
                    "type": "object",
                    "properties": {
                        "problems": {"type": "array", "items": _TEXT},
                        "rounds": _COUNT,
                        "junk": _COUNT,
                        "malformed": _COUNT,
                        "planned": {"anyOf": [_COUNT, {"type": "null"}]},
                        "round_in_progress": _COUNT,
                        "incomplete": _TEXT,
                        "seeds": {"type": "array", "items": _I64},
                        "extended": _COUNTS,
                        "labels": {
                            "type": "object",
                            "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_.-]{0,63}$"},
                            "additionalProperties": {
                                "type": "string",
                                "minLength": 1,
                                "maxLength": 200,
                                "pattern": _NOCTRL,
                            },
                        },
                    },
                },
                "fingerprint": {
                    "type": "object",
                    "properties": {
                        # every registered key of its JSON type (or null); the ones reports read closer
                        **{k.name: {"type": [_JSON_TYPE[k.type], "null"]} for k in fingerprint.keys()},
                        "flags": {"type": "array", "items": _WORD},
                        "caches": {"anyOf": [{"type": "array", "items": _CACHE}, {"type": "null"}]},
                        **{k.name: {"anyOf": [_WORD, {"type": "null"}]} for k in fingerprint.keys(export="word")},
                        **{k.name: {"anyOf": [_I64, {"type": "null"}]} for k in fingerprint.keys(export="int")},
                    },
                },
                "hello": {"type": "object", "properties": {"cycles": _WORD}},
            },
        },
        "results": {"type": "array", "items": _RESULT},
        "profiles": {"type": "array"},
    },
}
MAX_DEPTH = 64


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _scan(doc: object) -> str | None:
    """What no store keeps, anywhere in the document (checked without recursion): nesting
    deeper than MAX_DEPTH, a text or a key that breaks the store's one rule for texts
    (names.text_problem: a NUL character or a lone surrogate, any control character, an
    invisible one) -> the problem or None."""
    stack: list[tuple[object, tuple[str | int, ...]]] = [(doc, ())]
    while stack:
        v, path = stack.pop()
        if len(path) > MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        if isinstance(v, str) and _UNSTORABLE.search(v):
            return f"{_where(path)}: a NUL character or a lone surrogate (half of a UTF-16 pair) in a text"
        if isinstance(v, str) and text_problem(v):
            return f"{_where(path)}: {text_problem(v)}"
        if isinstance(v, dict):
            for k, x in v.items():
                if _UNSTORABLE.search(k):
                    return f"{_where(path)}: a NUL character or a lone surrogate in a key"
                if text_problem(k):
                    return f"{_where(path)}: in a key: {text_problem(k)}"
                stack.append((x, (*path, k)))
        elif isinstance(v, list):
            stack += [(x, (*path, i)) for i, x in enumerate(v)]
    return None


def _where(path: Iterable[str | int]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out.lstrip(".") or "document"


def validate(doc: object) -> None:
    """Raise TickmarkError naming the first thing wrong with an import document (one line)."""
    import jsonschema

    try:
        if not isinstance(doc, dict):
            raise _Bad("document is not a JSON object")
        if doc.get("format") != FORMAT:
            raise _Bad(f"format is {str(doc.get('format'))[:40]!r}, expected '{FORMAT}'")
        if doc.get("version") != VERSION:
            raise _Bad(f"version {repr(doc.get('version'))[:20]} is not supported (this tickmark reads {VERSION})")
        bad = _scan(doc)
        if bad:
            raise _Bad(bad)
        err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(SCHEMA).iter_errors(doc))
        if err is not None:
            msg = err.message if len(err.message) <= 160 else err.message[:157] + "..."
            if err.validator == "required":
                msg = "missing " + msg.split(" is a required property")[0]
            raise _Bad(f"{_where(err.absolute_path)}: {msg}")
        run = doc["run"]
        bad = tm1.validate(dict(run["hello"], t="hello"), partial=True) if run["hello"] else None
        if bad:
            raise _Bad(f"run.hello: {bad}")
        for i, r in enumerate(doc["results"]):
            bad = tm1.validate(dict(r["meta"], t="meta"), partial=True) if r.get("meta") else None
            if bad:
                raise _Bad(f"results[{i}].meta: {bad}")
            bad = tm1.params_problem(r["params"])
            if bad:
                raise _Bad(f"results[{i}].params: {bad}")
        if run["name"] is not None:
            try:
                check_name(run["name"], "run name")
            except TickmarkError as e:
                raise _Bad(str(e))
        if run["finished"] is not None and run["finished"] < run["started"]:
            raise _Bad("run.finished: before run.started")
        keys: set[str] = set()
        for i, r in enumerate(doc["results"]):
            if r["key"] in keys:
                raise _Bad(f"results[{i}].key: duplicate key {printable(r['key'])[:80]!r}")
            keys.add(r["key"])
            seen: set[tuple[Any, Any]] = set()
            for j, s in enumerate(r["samples"]):
                if "i" in s:
                    if (s["round"], s["i"]) in seen:
                        raise _Bad(f"results[{i}].samples[{j}]: sample {s['i']} of round {s['round']} twice")
                    seen.add((s["round"], s["i"]))
        if "profiles" in doc:
            _validate_profiles(doc["profiles"], keys)
    except _Bad as e:
        raise TickmarkError(f"invalid results document: {e}")


def recompute_stats(doc: dict[str, Any]) -> dict[str, Any]:
    """Replace every result's statistics by ones computed from its raw samples and histograms."""
    run = doc["run"]
    cycles = fingerprint.cycles_method(run["fingerprint"], run["hello"])  # the run's own (icount: insns)
    flags = run["fingerprint"].get("flags", [])
    for r in doc["results"]:
        r["stats"] = stats.recompute(r, r["samples"], r["hist"], cycles_method=cycles, env_flags=flags).to_dict()
    return doc


def _float(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"number {text[:30]} is out of range")
    return v


def _constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once (which of two would count is not JSON's to say)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise ValueError(f"key {printable(k)[:40]!r} is given twice in one object")
            seen.add(k)
    return obj


def _validate_profiles(profiles: Sequence[Any], keys: set[str]) -> None:
    from ..profile.model import GROUPS

    seen: set[str] = set()
    for i, p in enumerate(profiles):
        w = f"profiles[{i}]"
        key = _need(p, "key", str, w)
        if key not in keys:
            raise _Bad(f"{w}.key: {key!r} is not a result of this run")
        if key in seen:
            raise _Bad(f"{w}.key: duplicate key {key!r}")
        seen.add(key)
        for k in ("tool", "event", "unit"):
            _need(p, k, str, w)
        _need(p, "hits", int, w)
        _need(p, "seconds", NUM, w)
        _need(p, "ns_per_op", NUM + (type(None),), w)
        for j, r in enumerate(_need(p, "routines", list, w)):
            wr = f"{w}.routines[{j}]"
            _need(r, "name", str, wr)
            if _need(r, "group", str, wr) not in GROUPS:
                raise _Bad(f"{wr}.group: unknown value {r['group']!r}")
            for k in ("self", "total"):
                if not 0 <= _need(r, k, NUM, wr) <= 1:
                    raise _Bad(f"{wr}.{k}: a share between 0 and 1, got {r[k]!r}")
            for n, sym in enumerate(_need(r, "symbols", list, wr)):
                if not isinstance(sym, str):
                    raise _Bad(f"{wr}.symbols[{n}]: expected str, got {type(sym).__name__}")


MAX_DOCUMENT = 1 << 30  # bytes read at most (an export of a run of 300 instances x 100,000 samples)


def read_document(path: str) -> dict[str, Any]:
    """A results document from a file (or standard input: '-'): parsed, validated as a whole,
    statistics recomputed. Read with a bound: a file that does not start as a JSON object
    (/dev/zero, a binary) is refused at its first bytes, and one larger than MAX_DOCUMENT when it
    gets there."""
    import contextlib
    import sys

    try:
        with contextlib.nullcontext(sys.stdin.buffer) if path == "-" else open(path, "rb") as f:
            head = f.read(4096)
            if not head.lstrip(b" \t\r\n").startswith(b"{") and head.strip(b" \t\r\n"):
                raise TickmarkError(f"{path} is not a results document (it does not start with a JSON object)")
            data = head + f.read(MAX_DOCUMENT + 1 - len(head))
    except OSError as e:
        raise TickmarkError(f"cannot read {path}: {e.strerror}")
    if len(data) > MAX_DOCUMENT:
        raise TickmarkError(f"{path} is larger than {MAX_DOCUMENT >> 20} MiB: not a results document tickmark wrote")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TickmarkError(f"{path} is not a UTF-8 text file")
    return parse_document(text, path)


def parse_document(text: str, where: str = "document") -> dict[str, Any]:
    try:
        doc = json.loads(text, parse_float=_float, parse_constant=_constant, object_pairs_hook=_object)
    except RecursionError:
        raise TickmarkError(f"{where} is not a results document (nested too deeply)")
    except json.JSONDecodeError as e:
        raise TickmarkError(f"{where} is not valid JSON ({e.msg} at line {e.lineno})")
    except ValueError as e:
        raise TickmarkError(f"{where} is not a valid results document ({str(e)[:100]})")
    validate(doc)
    return recompute_stats(doc)
