"""Ingest: a captured console log (a UART capture, minicom, a LAVA job log,
`tickmark-core run ... > board.log`) becomes one stored run per core run found in it.

The log is read as bytes: CR/LF line ends, bytes that are not UTF-8 and terminal escape
sequences are tolerated, and anything around the `TM1 {...}` records is noise. Each `hello`
starts a run and its `bye` ends it. A record that cannot be used (malformed, out of order,
duplicated, outside a run) is reported with its line number and left out; everything valid is
kept. The records of a run are then replayed through the same code that stores a live run
(the run engine, over a Target that reads the log), so an ingested run is shown and compared like any
other; its fingerprint is what the hello record says about the board.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from ..base.errors import TickmarkError
from ..base.names import check_name
from ..base.tm1 import Parser, clean_line, validate
from ..facts import probe
from ..targets.base import Core, Session, Target

if TYPE_CHECKING:
    from ..base.shapes import Fingerprint
    from ..store import Store
    from ..targets.base import Variant

# a TM1 record as the reader gives it
Record = dict[str, Any]

_U63 = 2**63 - 1


@dataclass
class LogRun:
    first_line: int
    hello: Record
    records: list[tuple[int, Record]] = field(default_factory=list)  # (line number, record) of the valid records
    bye: Record | None = None
    last_line: int = 0
    problems: list[str] = field(default_factory=list)  # "line N: what"
    # (line number, key, i) of a mark -> its line's time, ns
    times: dict[tuple[int, Any, Any], int] = field(default_factory=dict)

    @property
    def keys_done(self) -> int:
        return sum(1 for _, r in self.records if r.get("t") == "end")


def _uint(rec: Record, name: str, required: bool = True) -> bool:
    v = rec.get(name)
    if v is None and not required:
        return True
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= _U63


class _RunReader:
    """Checks the order of one run's records: meta, then its samples/hists, then end."""

    def __init__(self, run: LogRun) -> None:
        self.run = run
        self.open: dict[str, set[Any]] = {}  # key -> set of sample indexes seen (and ("mark", i) of marks)
        self.ended: set[str] = set()

    def add(self, n: int, rec: Record, at: int | None = None) -> None:
        """Record rec of line n; at: the time at the start of its line (ns), where the log has one."""
        t, key = rec.get("t"), rec.get("key")
        bad = self._check(t, key, rec)
        if bad:
            self.run.problems.append(f"line {n}: {bad}")
        else:
            self.run.records.append((n, rec))
            self.run.last_line = n
            if t == "mark" and at is not None:
                self.run.times[(n, key, rec["i"])] = at

    def cut(self) -> None:
        """The run ends without its bye: instances still open are left out (and named)."""
        if not self.open:
            return
        counts: dict[str, int] = {}
        first: dict[str, int] = {}
        for n, r in self.run.records:  # one pass: a log of thousands of open instances stays linear
            key = r.get("key")
            if key in self.open:
                counts[key] = counts.get(key, 0) + 1
                first.setdefault(key, n)
        for key in self.open:
            self.run.problems.append(
                f"line {first[key]}: {key} was cut off before its 'end'; its "
                f"{counts[key] - 1} sample/histogram records are left out"
            )
        self.run.records = [(n, r) for n, r in self.run.records if r.get("key") not in self.open]
        self.open = {}

    def _check(self, t: object, key: Any, rec: Record) -> str | None:
        if t in ("meta", "sample", "hist", "mark", "end") and (not isinstance(key, str) or not key):
            return f"'{t}' record without a key"
        if t == "meta":
            if key in self.ended:
                return f"second 'meta' for {key} (the instance ended already); left out"
            if key in self.open:
                return f"second 'meta' for {key} while it is in progress; left out"
            if not _uint(rec, "iters", required=False):
                return f"'meta' for {key} with a bad iters; left out"
            self.open[key] = set()
        elif t == "mark":
            if key not in self.open:
                return f"'mark' for {key} outside its instance (no 'meta' before it, or after its 'end'); left out"
            if ("mark", rec["i"]) in self.open[key]:
                return f"duplicate mark {rec['i']} of {key}; left out"
            self.open[key].add(("mark", rec["i"]))
        elif t in ("sample", "hist"):
            if key not in self.open:
                return f"'{t}' for {key} outside its instance (no 'meta' before it, or after its 'end'); left out"
            if t == "sample":
                for f in ("iters", "ops", "ns"):
                    if not _uint(rec, f):
                        return f"'sample' for {key} with a bad or missing '{f}'; left out"
                if not _uint(rec, "cyc", required=False) or not _uint(rec, "i", required=False):
                    return f"'sample' for {key} with a bad 'cyc' or 'i'; left out"
                i = rec.get("i")
                if i is not None and i in self.open[key]:
                    return f"duplicate sample {i} of {key}; left out"
                self.open[key].add(i)
        elif t == "end":
            if key not in self.open:
                return f"'end' for {key} without its 'meta'; left out"
            if not isinstance(rec.get("status", "ok"), str):
                return f"'end' for {key} with a bad status; left out"
            del self.open[key]
            self.ended.add(key)
        elif t == "bye":
            self.cut()  # instances without their end (an end left out) are named, not replayed
            self.run.bye = rec
        elif t in ("bench", "unmatched"):
            return None
        else:
            return f"unknown record type {t!r}; left out"
        return None


MAX_LINE = 16 << 20  # bytes: far beyond the longest record (a hello listing thousands of keys)


def _lines(stream: IO[bytes], outside: list[str]) -> Iterator[tuple[int, bytes]]:
    """(line number, raw line without its newline) of a binary stream, each line read with a
    bounded buffer: a line longer than MAX_LINE (no console prints one; /dev/zero is one) ends
    the reading, with a problem in outside."""
    n = 0
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        n += 1
        if len(raw) > MAX_LINE:
            outside.append(f"line {n}: longer than {MAX_LINE >> 20} MiB (not a console log?): the rest is not read")
            return
        yield n, raw.rstrip(b"\n")


def split_runs(stream: IO[bytes]) -> tuple[list[LogRun], list[str], Parser]:
    """Read a log (a binary file object) -> (runs, problems outside any run, Parser). Every record
    left out is a problem with its line number: nothing is dropped silently."""
    parser = Parser()
    runs: list[LogRun] = []
    outside: list[str] = []
    cur: _RunReader | None = None
    n = 0
    for n, raw in _lines(stream, outside):
        line = clean_line(raw)
        if "TM1 " not in line:
            if line.strip():
                parser.junk += 1
            continue
        said = len(parser.problems)
        recs = parser.reader.feed_line(line)  # every record of the line (one line may hold several)
        for _, why in parser.problems[said:]:
            (cur.run.problems if cur else outside).append(f"line {n}: {why}; left out")
        for rec in recs:
            cur = _one_record(n, rec, runs, outside, cur, _line_time(line))
    if cur is not None and cur.run.bye is None:
        cur.run.problems.append(f"line {n}: the log ends before the run's final record (bye): cut off")
        cur.cut()
    for run in runs:
        _untimed_marks(run)
    return runs, outside, parser


# A time at the start of a line, in seconds: `ts '%.s'` or `ts -s '%.s'` (1732700000.123456 ...),
# grabserial -t ([0.123456 0.000012] ...), or any "[ 12.345678] " in front of the text.
_LINE_TIME = re.compile(r"\s*\[?\s*(\d{1,12})(?:\.(\d{1,9}))?[\]\s]")


def _line_time(line: str) -> int | None:
    """The time at the start of a captured line -> ns, or None when the line has none."""
    m = _LINE_TIME.match(line)
    if not m:
        return None
    frac = (m.group(2) or "").ljust(9, "0")
    return int(m.group(1)) * 10**9 + int(frac)


def _untimed_marks(run: LogRun) -> None:
    """Host-clock marks of a log without times at the start of their lines cannot be timed: the
    instance is stored as failed, saying how to capture the console, and its marks left out."""
    untimed = {r["key"] for n, r in run.records if r.get("t") == "mark" and (n, r["key"], r["i"]) not in run.times}
    if not untimed:
        return
    why = (
        "host-clock marks without times: capture the console with a time at the start of each line "
        "(ts '%.s', grabserial -t)"
    )
    recs = []
    for n, r in run.records:
        if r.get("key") in untimed and r.get("t") == "mark":
            continue
        if r.get("key") in untimed and r.get("t") == "end":
            r = dict(r, status="failed", reason=why)
        recs.append((n, r))
    run.records = recs
    run.problems.append(f"{', '.join(sorted(untimed))}: {why}")


def _one_record(
    n: int, rec: Record, runs: list[LogRun], outside: list[str], cur: _RunReader | None, at: int | None = None
) -> _RunReader | None:
    """One record of line n (at: the time at its start) into the runs -> the run reader now current."""
    t = rec.get("t")
    if t == "error":  # the core's own word: named first, as the cause of what follows
        said = f"line {n}: tickmark-core reported an error: {rec.get('reason')}"
        (cur.run.problems if cur is not None and cur.run.bye is None else outside).insert(0, said)
        return cur
    bad = validate(rec)  # the fields and types the replay needs: what it would refuse is said here
    if bad:
        (cur.run.problems if cur is not None and cur.run.bye is None else outside).append(f"line {n}: {bad}; left out")
        return cur
    if t == "hello":
        if cur is not None and cur.run.bye is None:
            cur.run.problems.append(f"line {n}: a new run starts before the previous one ended (no 'bye')")
            cur.cut()
        run = LogRun(first_line=n, hello=rec, last_line=n)
        runs.append(run)
        return _RunReader(run)
    if cur is None or cur.run.bye is not None:
        if t not in ("bench", "unmatched"):
            outside.append(f"line {n}: '{t}' record outside a run (no 'hello' before it); left out")
        return cur
    cur.add(n, rec, at)
    return cur


# ---- the replay: a Target that reads the log instead of starting a core ----


class _LogSession(Session):
    def __init__(self, run: LogRun) -> None:
        self.run = run
        self._arrival: int | None = None

    def lines(self) -> Iterator[str]:
        yield "TM1 " + json.dumps(self.run.hello) + "\n"
        for n, rec in self.run.records:
            self._arrival = self.run.times.get((n, rec.get("key"), rec.get("i"))) if rec.get("t") == "mark" else None
            yield "TM1 " + json.dumps(rec) + "\n"

    def arrival_ns(self) -> int | None:
        """The time the log gives the line of the record last replayed (a mark's)."""
        return self._arrival

    def finish(self) -> tuple[int, str]:
        return 0, "" if self.run.bye is not None else "the log ends before the run's final record (bye)"

    def stop(self) -> None:
        pass


class _LogCore(Core):
    def __init__(self, target: LogTarget, run: LogRun) -> None:
        super().__init__(target, None)
        self.run = run

    def start(self, args: list[str]) -> _LogSession:
        return _LogSession(self.run)


class LogTarget(Target):
    """A captured log: the board is known only by what its hello record says."""

    scheme: Any = "log"  # (targets.Target says None: targets is not annotated yet)
    reruns = False

    def __init__(self, uri: str) -> None:
        super().__init__(uri)

    def prepare(self, variant: Variant | None = None) -> Core:
        raise TickmarkError("a captured log cannot run anything")

    def fingerprint(self, core: _LogCore, hello: Record | None = None) -> Fingerprint:
        fp = probe.from_texts({}, None, hello or core.run.hello)
        fp = self.base_fingerprint(fp, core)
        fp["host"] = None  # nothing drove it: it was captured
        fp["ingested_on"] = socket.gethostname()
        return fp


def store_run(store: Store, run: LogRun, name: str | None, source: str) -> int:
    """One LogRun -> a stored run (its id)."""
    from .engine import Run
    from .plan import Plan

    order = run.hello.get("order") or []
    benches = sorted({k.split("[", 1)[0] for k in order}) or sorted(
        {r.get("bench") or r["key"].split("[", 1)[0] for _, r in run.records if r.get("t") == "meta"}
    )
    # what the board ran (its samples, sample length and seed) is stored from its hello record
    # by the engine, as for any target that takes no arguments
    cfg = Plan(benches, rounds=1, max_rounds=1, names=[name], default_suite=None).config(None, name)
    notes = {
        "ingested": {
            "source": source,
            "lines": [run.first_line, run.last_line],
            "problems": run.problems[:200],
            "problem_count": len(run.problems),
        },
        "reruns": "one round per start: a captured log cannot rerun anything",
    }
    return Run(store, _LogCore(LogTarget(f"log:{source}"), run), cfg, notes=notes).execute()


def _names(name: str | None, n: int, store: Store) -> Sequence[str | None]:
    if name is None:
        return [None] * n
    names = [name] + [f"{name}-{i}" for i in range(2, n + 1)]
    for x in names:
        check_name(x, "--name (several runs: NAME, NAME-2, ...)")
        if store.name_taken(x):
            raise TickmarkError(f"a run named '{x}' exists already (choose another --name)")
    return names


def ingest(
    store: Store, stream: IO[bytes], source: str, name: str | None = None, echo: Callable[[str], object] = print
) -> list[int]:
    """Store every run of the log -> list of run ids. TickmarkError when the log holds no run."""
    runs, outside, parser = split_runs(stream)
    for p in outside:
        echo(p)
    if not runs:
        cause = next((p for p in outside if "reported an error" in p or "the rest is not read" in p), None)
        raise TickmarkError(
            f"no tickmark run in {source} (no usable 'hello' record; "
            f"{parser.records} records, {parser.junk} other lines)" + (f"; {cause}" if cause else "")
        )
    ids = []
    for run, nm in zip(runs, _names(name, len(runs), store)):
        for p in run.problems:
            echo(p)
        rid = store_run(store, run, nm, source)
        ids.append(rid)
        row = store.run(str(rid))
        replayed = row["notes"].get("malformed") or 0  # records the replay refused (none, when split_runs said all)
        for p in row["notes"].get("problems") or [] if replayed else []:
            echo(p)
        results = len(store.results(rid))
        state = "" if run.bye is not None else ", incomplete: cut off before its end"
        if not state and row["status"] != "complete":
            state = f", incomplete: {row['notes'].get('incomplete') or 'not every instance finished'}"
        echo(
            f"lines {run.first_line}-{run.last_line}: stored as run {rid}"
            + (f" '{row['name']}'" if row["name"] else "")
            + f" ({results} results{state}; "
            f"{len(run.problems) + replayed} problem(s) above)"
        )
    return ids
