"""Read TM1 records (`TM1 {json}`) out of any text stream: a pipe, a console log, a UART capture.

A record is the marker `TM1 ` followed by one JSON object; anything before the marker is noise,
and one line may hold several records. Each record is checked against the protocol
(docs/protocol.md): its fields and their types, integers that fit a signed 64-bit store column,
and its place in the stream (hello first; an instance's samples and histograms between its meta
and its end; no duplicates; nothing after bye). A record that fails is dropped and reported with
its line number; every valid record is kept; nothing stops the reading.

    r = Reader()
    for line in stream:
        for rec in r.feed_line(line): ...
    r.close()           # the problems of an unfinished stream (instances without an end)
    r.problems          # [(line number, message), ...]
"""

import json
import re

from .names import MAX_WORD, plain_all, text_problem

_MARK = re.compile(r"TM1 (?=\{)")
_decoder = json.JSONDecoder(parse_constant=lambda c: _reject(f"{c} is not a number"))
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
STATUSES = ("ok", "skip", "failed", "crashed", "timeout")
MAX_PROBLEMS = 1000  # problems listed one by one; more are only counted


class _Bad(ValueError):
    pass


def _reject(msg):
    raise _Bad(msg)


# Field kinds: str, int (any int64), uint (0..int64 max), strs (list of str), uintmap (object of
# uint), params (object of int), buckets (list of [uint, uint]), benchparams (list of objects of str)
_STR, _INT, _UINT = "str", "int", "uint"
SCHEMA = {
    # type: (required fields, optional fields)
    "hello": (
        {"v": _INT, "core": _STR},
        {
            "target": _STR,
            "port": _STR,
            "cc": _STR,
            "cflags": _STR,
            "memfn": _STR,
            "seed": _UINT,
            "samples": _UINT,
            "sample_ms": _UINT,
            "clock": _STR,
            "clock_res_ns": _UINT,
            "timer_overhead_ps": _UINT,
            "loop_overhead_ps": _UINT,
            "loop_overhead_mcyc": _UINT,
            "host_clock": _INT,
            "ticks": _STR,
            "ticks_khz": _UINT,
            "fcore_khz": _UINT,
            "cycles": _STR,
            "kernel_excluded": _INT,
            "counters_grouped": _INT,
            "counters_unsupported": _STR,
            "counters": "strs",
            "cpus": _INT,
            "cpu": _INT,
            "page_size": _UINT,
            "os": _STR,
            "kernel": _STR,
            "machine": _STR,
            "tlb_src": _STR,
            "order": "strs",
        },
    ),
    "bench": (
        {"name": _STR},
        {
            "summary": _STR,
            "unit": _STR,
            "requires": _STR,
            "params": "benchparams",
            "subs": _STR,
            "stat": _STR,
            "supported": _INT,
            "reason": _STR,
        },
    ),
    "meta": (
        {"key": _STR, "bench": _STR},
        {
            "params": "params",
            "unit": _STR,
            "iters": _UINT,
            "ops_per_iter": _UINT,
            "bytes_per_op": _UINT,
            "method": _STR,
            "stat": _STR,
            "blocking": _INT,
            "calib_ns": _UINT,
            "fcore_khz": _UINT,
            "loop_overhead_ps": _UINT,
            "cold_flush": _STR,
            "cold_skip": _STR,
        },
    ),
    "sample": (
        {"key": _STR, "i": _UINT, "iters": _UINT, "ops": _UINT, "ns": _UINT},
        {
            "cyc": _UINT,
            "nivcsw": _INT,
            "minflt": _INT,
            "cpu0": _INT,
            "cpu1": _INT,
            "retaken": _INT,
            "cold": _UINT,
            "sub": "uintmap",
            "ctr_ops": _UINT,
            "ctr": "uintmap",
            "multiplexed": _INT,
            "ctr_src": _STR,
            "out": _STR,
            "out_cut": _INT,
        },
    ),
    "mark": ({"key": _STR, "i": _UINT, "iters": _UINT}, {"board_ns": _UINT}),
    "hist": (
        {"key": _STR, "buckets": "buckets"},
        {"unit": _STR, "count": _UINT, "min": _UINT, "max": _UINT, "sum": _UINT},
    ),
    "end": ({"key": _STR, "status": _STR}, {"reason": _STR, "wall_ns": _UINT, "verified": _STR}),
    "bye": ({"instances": _UINT}, {"wall_ns": _UINT}),
    "error": ({"reason": _STR}, {}),
    "unmatched": ({"pattern": _STR}, {}),
}
ENUMS = {("end", "status"): STATUSES, ("meta", "stat"): ("median", "min", "max")}


def _int_ok(v, lo):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= INT64_MAX


def _check(kind, v):
    """-> None when v is of this kind, else what is wrong."""
    if kind == _STR:
        return None if isinstance(v, str) else "is not a string"
    if kind in (_INT, _UINT):
        lo = INT64_MIN if kind == _INT else 0
        if _int_ok(v, lo):
            return None
        if isinstance(v, int) and not isinstance(v, bool):
            return f"is out of range ({v})" if abs(v) < 10**30 else "is out of range (a huge number)"
        return "is not an integer" if kind == _INT else "is not a non-negative integer"
    if kind == "strs":
        ok = isinstance(v, list) and all(isinstance(x, str) for x in v)
        return None if ok else "is not a list of strings"
    if kind in ("uintmap", "params"):
        lo = 0 if kind == "uintmap" else INT64_MIN
        ok = isinstance(v, dict) and all(_int_ok(x, lo) for x in v.values())
        return None if ok else "is not an object of integers in range"
    if kind == "buckets":
        ok = isinstance(v, list) and all(
            isinstance(b, list) and len(b) == 2 and _int_ok(b[0], 0) and _int_ok(b[1], 0) for b in v
        )
        return None if ok else "is not a list of [lower, count] integer pairs"
    if kind == "benchparams":
        ok = isinstance(v, list) and all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in v)
        return None if ok else "is not a list of parameter objects"
    raise AssertionError(kind)


def params_problem(params):
    """What is wrong with an instance's parameters as the protocol has them (an object of
    64-bit integers: meta's "params"), or None: the one check of the reader, of an imported
    document and of a stored result."""
    bad = _check("params", params)
    return f"'params' {bad}" if bad else None


def _numbers_ok(v, depth=0):
    """Every number anywhere in a record is an int64 (the protocol has no floats)."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return True
    if isinstance(v, int):
        return INT64_MIN <= v <= INT64_MAX
    if isinstance(v, float):
        return False
    if depth > 8:
        return False
    items = v.values() if isinstance(v, dict) else v
    return all(_numbers_ok(x, depth + 1) for x in items)


def validate(rec, partial=False):
    """-> None when the record has the fields and types of its type, else what is wrong (one line).
    partial: required fields may be missing (a stored copy of a record, e.g. in an import)."""
    t = rec.get("t")
    if not isinstance(t, str):
        return "no record type"
    if t not in SCHEMA:
        return f"unknown record type {t[:40]!r}"
    required, optional = SCHEMA[t]
    for name, kind in required.items():
        if name not in rec:
            if partial:
                continue
            return f"{t}: missing '{name}'"
        bad = _check(kind, rec[name])
        if bad:
            return f"{t}: '{name}' {bad}"
    for name, kind in optional.items():
        if name in rec:
            bad = _check(kind, rec[name])
            if bad:
                return f"{t}: '{name}' {bad}"
    for (rt, name), allowed in ENUMS.items():
        if rt == t and name in rec and rec[name] not in allowed:
            return f"{t}: '{name}' is not one of {', '.join(allowed)}"
    if "key" in rec and (not rec["key"] or len(rec["key"]) > MAX_WORD or text_problem(rec["key"])):
        return f"{t}: 'key' is empty, too long or has control characters or invisible ones"
    if not _numbers_ok(rec):
        return f"{t}: a number that is not a 64-bit integer"
    return None


# fields whose text is not made plain: an instance key is checked instead (validate), as it
# names the instance; a sample's `out` is a program's output (tickmark exec), read for its figures
# as it was written and never stored
_AS_WRITTEN = ("key", "out")


def _plain_texts(rec):
    """A record's texts by the store's one rule (names.plain: a control or invisible character
    the board printed becomes a visible escape), but for the fields _AS_WRITTEN."""
    return {k: v if k in _AS_WRITTEN else plain_all(v) for k, v in rec.items()}


class Reader:
    """Incremental reader: feed_line() lines (or feed() chunks), get the valid records back."""

    def __init__(self, strict=True):
        self.strict = strict  # check each record against the protocol (False: syntax only)
        self.line_no = 0
        self.junk = 0  # lines without a marker
        self.malformed = 0  # records dropped: unparsable, invalid, out of order or duplicated
        self.records = 0  # records kept
        self.problems = []  # (line number, message), at most MAX_PROBLEMS
        self._partial = ""
        self._reset()

    def _reset(self):
        self._hello = False
        self._bye = False
        self._open = {}  # key -> set of sample indexes seen
        self._ended = set()

    def problem(self, msg):
        self.malformed += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append((self.line_no, msg))

    def summary(self, limit=5):
        """The problems as short lines (the first `limit` and a count of the rest)."""
        out = [f"line {n}: {m}" for n, m in self.problems[:limit]]
        if self.malformed > limit:
            out.append(f"... {self.malformed - limit} more bad TM1 record(s)")
        return out

    def feed_line(self, line):
        """One line of text (with or without its newline) -> list of valid records (often 0 or 1)."""
        self.line_no += 1
        out = []
        pos, found = 0, False
        escaped = "\\" in line or not line.isascii()  # JSON holds a control or invisible character only so
        while True:
            m = _MARK.search(line, pos)
            if not m:
                break
            found = True
            try:
                obj, end = _decoder.raw_decode(line, m.end())
            except _Bad as e:
                self.problem(f"bad JSON: {e}")
                pos = m.end()
                continue
            except (ValueError, RecursionError):
                self.problem("bad JSON (cut off or not JSON)")
                pos = m.end()
                continue
            pos = end
            if not isinstance(obj, dict):
                self.problem("not a JSON object")
                continue
            if escaped:
                obj = _plain_texts(obj)
            if not self.strict:
                bad = None if isinstance(obj.get("t"), str) else "no record type"
            else:
                bad = validate(obj) or self._order(obj)
            if bad:
                self.problem(bad)
                continue
            self.records += 1
            out.append(obj)
        if not found and line.strip():
            self.junk += 1
        return out

    def _order(self, rec):
        """-> None when the record may come here in the stream, else what is wrong; updates the state."""
        t = rec["t"]
        if t in ("bench", "error", "unmatched"):
            return None
        key = rec.get("key")
        if t == "hello":  # a new run (a log may hold several)
            if self._hello and not self._bye:
                self._cut_off()
                self.problem("the run before this hello ended without its bye record")
            self._reset()
            self._hello = True
            return None
        if not self._hello:
            return f"{t} before the hello record"
        if self._bye:
            return f"{t} after the bye record"
        if t == "meta":
            if key in self._open:
                return f"meta: instance {_short(key)} started twice"
            if key in self._ended:
                return f"meta: instance {_short(key)} ran twice in one stream (duplicate)"
            self._open[key] = set()
        elif t in ("sample", "hist", "mark"):
            if key not in self._open:
                after = " after its end" if key in self._ended else " without its meta"
                return f"{t} for {_short(key)}{after}"
            if t in ("sample", "mark"):
                if (t, rec["i"]) in self._open[key]:
                    return f"{t} {rec['i']} of {_short(key)} twice (duplicate)"
                self._open[key].add((t, rec["i"]))
        elif t == "end":
            if key in self._ended:
                return f"end of {_short(key)} twice (duplicate)"
            if key not in self._open and rec["status"] == "ok":
                return f"end (ok) of {_short(key)} without its meta"
            self._open.pop(key, None)
            self._ended.add(key)
        elif t == "bye":
            self._cut_off()
            self._bye = True
        return None

    def _cut_off(self):
        """Instances still open when a run ends: reported (their records so far are kept)."""
        for key in list(self._open):
            self.problem(f"instance {_short(key)} has no end record")
        self._open.clear()
        return True

    def feed(self, data):
        """A chunk of text, possibly ending in the middle of a line -> list of valid records."""
        data = self._partial + data
        lines = data.split("\n")
        self._partial = lines.pop()
        return [r for line in lines for r in self.feed_line(line)]

    def close(self):
        """End of stream: a last line that had no newline (a cut-off stream) -> its records."""
        rest, self._partial = self._partial, ""
        return self.feed_line(rest) if rest else []

    def open_keys(self):
        """Instances that started (meta) and have not ended."""
        return list(self._open)


def _short(key):
    key = str(key)
    return key if len(key) <= 80 else key[:77] + "..."


def parse_text(text):
    """All valid records of a complete text -> (records, reader) so the counts can be read."""
    r = Reader()
    recs = r.feed(text)
    recs += r.close()
    return recs, r


class Parser:
    """Syntax only (a JSON object with a string "t"; the caller checks the protocol itself), one
    record per call: next_record(line) -> a record or None (a second record on the same line comes
    with the next call, or with close()). The counts are its reader's."""

    def __init__(self):
        self.reader = Reader(strict=False)
        self._queue = []

    def next_record(self, line):
        self._queue += self.reader.feed_line(line)
        return self._queue.pop(0) if self._queue else None

    def close(self):
        """The records still queued, and any record of an unfinished last line."""
        q, self._queue = self._queue, []
        return q + self.reader.close()

    @property
    def records(self):
        return self.reader.records

    @property
    def malformed(self):
        return self.reader.malformed

    @property
    def problems(self):
        return self.reader.problems

    @property
    def junk(self):
        return self.reader.junk

    @junk.setter
    def junk(self, n):
        self.reader.junk = n


# ---- console logs ----

# CSI (colours, cursor), OSC (titles, ended by BEL or ST) and two-byte escapes
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_CTRL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean_line(raw):
    """One raw console line (bytes, without its \\n) -> text: CR, escapes and control bytes removed."""
    text = raw.decode("utf-8", errors="replace")
    return _CTRL.sub("", _ANSI.sub("", text))
