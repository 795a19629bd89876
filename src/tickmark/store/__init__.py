"""The result store: runs, results, raw samples and histograms, written as they arrive.

One API (Store) over two backends: an SQLite file in WAL mode (the default,
${XDG_DATA_HOME:-~/.local/share}/tickmark/results.db; sqlite.py) and a shared PostgreSQL
database named by a postgresql:// URL (postgres.py). `--store PATH|URL` or TICKMARK_STORE
choose. The schema (schema.py) is written once (SQLite's dialect; the PostgreSQL backend translates
it).
A file or database that is not a tickmark store is never written to.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, cast

from ..base.errors import CorruptStore, NoRun, TickmarkError
from ..base.names import decimal
from ..base.shapes import Fingerprint, Row
from ..base.units import NS_OP
from . import migrations
from .backend import Args, Backend, Columns
from .copies import _FILL, HEAD_COLS, brief_fields, brief_of, head_of, labels_of
from .location import default_path, is_pg_url, locate
from .owner import _abandoned, process_owner
from .rows import _dump, _loads, _row
from .schema import _ADDED, _COLUMNS, _INDEXES, _JSON_COLS, RESULT_COLS, RUN_COLS, SCHEMA_VERSION, _create_tables

if TYPE_CHECKING:
    from .sqlite import SQLiteBackend


class _Rows(list[Any]):
    """The rows of a statement, all read at once (so a damaged page is met inside the store),
    and `rowcount`, the rows it changed."""

    rowcount = -1

    def fetchone(self) -> Any:
        return self[0] if self else None

    def fetchall(self) -> list[Any]:
        return list(self)


RUN_PAGE = 1000  # runs that run_rows reads at a time

# Extra fields of a sample record beside the columns (kept in `extra`).
_SAMPLE_COLS = ("iters", "ops", "ns", "cyc")


class Store:
    """The result store API; `target` is a file path (SQLite) or a URL (see locate)."""

    def __init__(self, path: str | Path | None = None, readonly: bool = False) -> None:
        target = locate(path) if path is not None else default_path()
        self.readonly = readonly
        if is_pg_url(target):
            from .postgres import PostgresBackend

            self.backend: Backend = PostgresBackend(str(target), readonly=readonly)
        else:
            from .sqlite import SQLiteBackend

            self.backend = SQLiteBackend(target, create=_create_tables, readonly=readonly)
        self.kind = self.backend.kind
        self.path = self.backend.label  # what messages name (a URL without its password)
        self._open()

    def _open(self) -> None:
        b = self.backend
        try:
            tables = b.tables()
            if not tables and getattr(b, "readonly", False):
                raise TickmarkError(f"store {self.path} holds no tickmark tables (tickmark run makes a store)")
            if not tables:
                b.before_create()
                with self.transaction():
                    b.lock_schema()
                    tables = b.tables()  # another runner may have made them meanwhile
                    if not tables:
                        _create_tables(b)
                        tables = b.tables()
            if "tickmark_schema" not in tables:
                b.close()
                what = "an SQLite database" if self.kind == "sqlite" else "a PostgreSQL database (schema)"
                raise TickmarkError(f"store {self.path} is {what} but not a tickmark store (left untouched)")
            b.check_privileges(tables, write=not getattr(b, "readonly", False))
            (ver,) = b.execute("SELECT max(version) FROM tickmark_schema").fetchone()
            if ver != SCHEMA_VERSION:
                b.close()
                raise TickmarkError(
                    f"store {self.path} has schema version {ver}; this tickmark reads version {SCHEMA_VERSION}"
                )
            self._check_tables(b.columns())
            b.opened()
            missing = [t for t in _ADDED if t not in tables]
            missing_ix = [i for i in _INDEXES if i not in b.indexes()]
            if (missing or missing_ix) and not getattr(b, "readonly", False):  # a store only read keeps them
                self._add(missing, missing_ix)
            self._tables = b.tables()
            if "migrations" in self._tables and not getattr(b, "readonly", False):
                self._migrate()
        except b.DatabaseError as e:
            raise self._db_error(e)
        except UnicodeDecodeError:  # SQLite's message quotes a damaged schema
            raise CorruptStore(f"store {self.path} is corrupt: its schema is damaged")

    def _add(self, missing: Iterable[str], missing_ix: Iterable[str]) -> None:
        """The tables and indexes added since schema version 1 that the store lacks, made (and
        filled) in one transaction. A PostgreSQL role that may not change the schema uses the
        store as it is."""
        b = self.backend
        try:
            with self.transaction():
                b.lock_schema()
                have = b.tables()
                for t in missing:
                    if t not in have:
                        for stmt in b.ddl(_ADDED[t]):
                            b.execute(stmt)
                        if t in _FILL:
                            _FILL[t](b)
                for i in missing_ix:
                    for stmt in b.ddl(_INDEXES[i]):
                        b.execute(stmt)
        except b.DatabaseError as e:
            if getattr(e, "sqlstate", None) != "42501":  # not a privilege it lacks
                raise

    def _migrate(self) -> None:
        """The changes to stored documents this store has not had (migrations.py), made in one
        transaction; a PostgreSQL role that may not change the runs uses the store as it is."""
        b = self.backend
        if not migrations.pending(b):
            return
        try:
            with self.transaction():
                b.lock_schema()
                migrations.migrate(b, migrations.pending(b))
        except b.DatabaseError as e:
            if getattr(e, "sqlstate", None) != "42501":  # not a privilege it lacks
                raise

    def _check_tables(self, have: Columns) -> None:
        """Every table of the schema with its columns (a store edited by hand may have lost one:
        it is corrupt, never read half-way)."""
        for table, cols in _COLUMNS.items():
            if table not in have:
                raise CorruptStore(f"store {self.path} is corrupt: its table {table} is missing")
            lost = [c for c in cols if c not in have[table]]
            if lost:
                raise CorruptStore(f"store {self.path} is corrupt: table {table} has no column {lost[0]}")

    def close(self) -> None:
        self.backend.close()

    def _db_error(self, e: Exception) -> TickmarkError:
        """A database error as one line that says which kind of trouble it is."""
        try:
            self.backend.check_intact()  # the file deleted or emptied under a writer: say that
        except TickmarkError as lost:
            return lost
        msg = _one_line(e)
        low = msg.lower()
        if getattr(e, "sqlstate", None) == "42501":  # PostgreSQL: the role lacks a privilege
            return TickmarkError(
                f"store {self.path}: the database role is not allowed to do this ({msg}); writing needs "
                "INSERT and UPDATE on tickmark's tables (a new store: CREATE on the schema)"
            )
        if "readonly" in low or "read-only" in low or "read only" in low:
            return TickmarkError(
                f"store {self.path} is read-only: cannot write here ({msg}); "
                "reading commands (runs, show, export, compare) still work"
            )
        if "not a database" in low or "malformed" in low or "corrupt" in low:
            return CorruptStore(f"store {self.path} is unreadable or corrupt: {msg}")
        if "no such column" in low or "no such table" in low:  # tables changed by damage or by hand
            return CorruptStore(f"store {self.path} is corrupt: its tables are not tickmark's ({msg})")
        if "unable to open" in low or "permission" in low:
            return TickmarkError(f"cannot open store {self.path}: {msg} (check the permissions of the file and folder)")
        if "locked" in low or "busy" in low:
            return TickmarkError(f"store {self.path} is busy (another process holds it): {msg}")
        return TickmarkError(f"store {self.path}: {msg}")

    def _x(self, sql: str, args: Args = ()) -> _Rows:
        try:
            cur = self.backend.execute(sql, args)
            rows = _Rows(cur.fetchall() if cur.description is not None else ())
            rows.rowcount = cur.rowcount  # rows an UPDATE or DELETE changed
            return rows
        except self.backend.IntegrityError:
            raise
        except self.backend.DatabaseError as e:
            raise self._db_error(e)
        except UnicodeDecodeError:  # SQLite's message quotes a damaged schema
            raise CorruptStore(f"store {self.path} is corrupt: its schema is damaged")

    def _row(self, cols: Sequence[str], row: Sequence[Any], table: str = "runs") -> Row:
        try:
            return _row(cols, row, table)
        except CorruptStore as e:
            raise CorruptStore(f"store {self.path} is corrupt: {e}")

    def _json(self, text: str, what: str, kind: type = dict) -> Any:
        """A JSON column that must hold a `kind` (an object by default) -> its value."""
        try:
            v = _loads(text, what)
        except CorruptStore as e:
            raise CorruptStore(f"store {self.path} is corrupt: {e}")
        if not isinstance(v, kind):
            raise CorruptStore(f"store {self.path} is corrupt: {what} is not a JSON {kind.__name__}")
        return v

    def _ints(self, values: Iterable[object], what: str) -> None:
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise CorruptStore(f"store {self.path} is corrupt: {what} holds a value that is not an integer")

    def _insert(self, sql: str, args: Args) -> int:
        try:
            return self.backend.insert(sql, args)
        except self.backend.IntegrityError:
            raise
        except self.backend.DatabaseError as e:
            raise self._db_error(e)

    def transaction(self) -> _Tx:
        return _Tx(self)

    # ---- runs ----
    def create_run(
        self,
        *,
        name: str | None = None,
        suite: str | None = None,
        patterns: Iterable[str] = (),
        options: dict[str, Any] | None = None,
        fingerprint: Fingerprint | None = None,
        hello: dict[str, Any] | None = None,
        status: str = "running",
        started: float | None = None,
        finished: float | None = None,
        notes: dict[str, Any] | None = None,
    ) -> int:
        if status == "running":  # who writes it, so that a later command can tell an abandoned run
            notes = {} if notes is None else notes
            notes.setdefault("owner", process_owner())  # in the caller's notes too: they are written back
        try:
            run_id = self._insert(
                "INSERT INTO runs (name, started, finished, status, suite, patterns, options,"
                " fingerprint, hello, notes) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    name,
                    time.time() if started is None else started,
                    finished,
                    status,
                    suite,
                    _dump(list(patterns)),
                    _dump(options or {}),
                    _dump(migrations.with_cache_numbers(fingerprint) or fingerprint or {}),
                    _dump(hello or {}),
                    _dump(notes or {}),
                ),
            )
        except self.backend.IntegrityError:
            raise NameTaken(f"a run named '{name}' exists already (choose another --name)")
        self._brief(run_id, fingerprint=fingerprint or {}, notes=notes or {})
        return run_id

    def name_taken(self, name: str) -> bool:
        return self._x("SELECT 1 FROM runs WHERE name = ?", (name,)).fetchone() is not None

    def update_run(self, run_id: int, **fields: Any) -> None:
        self.backend.check_intact()
        sets = ", ".join(f"{k} = ?" for k in fields)
        vals = [_dump(v) if k in _JSON_COLS else v for k, v in fields.items()]
        self._x(f"UPDATE runs SET {sets} WHERE id = ?", (*vals, run_id))
        self._brief(run_id, **{k: v for k, v in fields.items() if k in ("fingerprint", "notes")})

    def _brief(self, run_id: int, **docs: Any) -> None:
        """Keep run_brief's copy of what changed in the run's fingerprint or notes."""
        cols = {"fields": brief_of(docs["fingerprint"])} if "fingerprint" in docs else {}
        if "notes" in docs:
            cols["labels"] = labels_of(docs["notes"])
        if cols and "run_brief" in self._tables:
            names = ", ".join(cols)
            sets = ", ".join(f"{k} = excluded.{k}" for k in cols)
            self._x(
                f"INSERT INTO run_brief (run_id, {names}) VALUES (?{', ?' * len(cols)})"
                f" ON CONFLICT (run_id) DO UPDATE SET {sets}",
                (run_id, *cols.values()),
            )

    def delete_run(self, run_id: int) -> None:
        with self.transaction():
            self._x("DELETE FROM runs WHERE id = ?", (run_id,))

    def run(self, ref: Any) -> Row:
        """A run by numeric id, name, or 'latest' -> dict; TickmarkError if none."""
        ref = str(ref)
        cols = ", ".join(RUN_COLS)
        if ref == "latest":
            row = self._x(f"SELECT {cols} FROM runs ORDER BY id DESC LIMIT 1").fetchone()
            if not row:
                raise NoRun(f"no runs stored yet in {self.path} (tickmark run makes one)")
        else:
            row = None
            if decimal(ref) is not None:  # an id first: a name never hides a run id
                row = self._x(f"SELECT {cols} FROM runs WHERE id = ?", (decimal(ref),)).fetchone()
            if not row:
                row = self._x(f"SELECT {cols} FROM runs WHERE name = ?", (ref,)).fetchone()
            if not row:
                raise NoRun(f"no run '{ref}' in {self.path} (tickmark runs lists them)")
        return _abandoned(self._row(RUN_COLS, row))

    def runs(self) -> list[Row]:
        cols = ", ".join(RUN_COLS)
        runs = [_abandoned(self._row(RUN_COLS, r)) for r in self._x(f"SELECT {cols} FROM runs ORDER BY id")]
        counts = dict(self._x("SELECT run_id, count(*) FROM results GROUP BY run_id").fetchall())
        for r in runs:
            r["n_results"] = counts.get(r["id"], 0)
        return runs

    def run_rows(
        self, fields: Iterable[str] = (), newest: int | None = None, since: float | None = None, page: int = RUN_PAGE
    ) -> Iterator[Row]:
        """The runs, oldest first, for commands that read many (runs, history), read a page of
        `page` runs at a time, so that what is held does not grow with the store: each run's row
        without its documents but `patterns`, with `n_results`, its labels (`notes`: {"labels":
        ...}, and the whole notes of a run still marked running) and, as `fingerprint`, only the
        fingerprint fields named in `fields`: from run_brief, or read by the database from the
        stored fingerprint (fields run_brief does not keep; runs without a brief).
        `newest`: only the newest N runs; `since`: only runs started since (epoch seconds)."""
        names = list(dict.fromkeys(fields))
        kept = set(brief_fields())
        extra = [n for n in names if n not in kept]
        b = self.backend
        brief = "run_brief" in self._tables
        sql = (
            "SELECT r.id, r.name, r.started, r.finished, r.status, r.suite, r.patterns, "
            + ("s.fields, s.labels, " if brief else "NULL, NULL, ")
            + (
                f"CASE WHEN s.fields IS NULL THEN {b.json_fields('r.fingerprint', names)} END, "
                if brief and names
                else (f"{b.json_fields('r.fingerprint', names)}, " if names else "NULL, ")
            )
            + ("CASE WHEN s.labels IS NULL THEN r.notes END, " if brief else "r.notes, ")
            + (f"{b.json_fields('r.fingerprint', extra)}, " if extra else "NULL, ")
            + "CASE WHEN r.status = 'running' THEN r.notes END,"
            " (SELECT count(*) FROM results WHERE run_id = r.id) FROM runs r"
            + (" LEFT JOIN run_brief s ON s.run_id = r.id" if brief else "")
            + " WHERE r.id > ?"
            + (" AND r.started >= ?" if since is not None else "")
            + " ORDER BY r.id LIMIT ?"
        )
        after = 0
        if newest is not None:
            if newest <= 0:
                return
            row = self._x("SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?", (newest - 1,)).fetchone()
            after = row[0] - 1 if row else 0  # fewer runs than that: all of them
        cols = ("id", "name", "started", "finished", "status", "suite", "patterns")
        while True:
            rows = self._x(sql, (after,) + ((since,) if since is not None else ()) + (page,))
            for row in rows:
                yield self._run_row(cols, row, names, extra)
            if len(rows) < page:
                return
            after = rows[-1][0]

    def _run_row(self, cols: Sequence[str], row: Sequence[Any], names: list[str], extra: list[str]) -> Row:
        """A row of run_rows' statement -> the run (see run_rows)."""
        brief, labels, from_doc, notes, extras, running, n_results = row[7:]
        r = self._row(cols, row[:7])
        what = f"run {r['id']}"
        values = {}
        if brief is not None:
            values = self._json(brief, f"{what}: run_brief")
            if not set(names) - set(extra) <= set(values):  # kept by another version: not these fields
                values = self.run(r["id"])["fingerprint"]
        elif names:
            values = dict(zip(names, self._json(from_doc, f"{what}: fingerprint", list)))
        if extra:
            values.update(zip(extra, self._json(extras, f"{what}: fingerprint", list)))
        r["fingerprint"] = {k: values.get(k) for k in names}
        if labels is not None:
            labels = self._json(labels, f"{what}: run_brief")
        else:
            labels = self._json(notes, f"{what}: notes").get("labels")
        if not isinstance(labels, (dict, type(None))):
            raise CorruptStore(f"store {self.path} is corrupt: {what}: its labels are not a JSON object")
        r["notes"] = self._json(running, f"{what}: notes") if running is not None else {}
        if labels:
            r["notes"]["labels"] = labels
        r["n_results"] = n_results
        return _abandoned(r)

    # ---- results ----
    def result_id(self, run_id: int, key: str) -> int | None:
        row = self._x("SELECT id FROM results WHERE run_id = ? AND key = ?", (run_id, key)).fetchone()
        return row[0] if row else None

    def add_result(
        self,
        run_id: int,
        *,
        key: str,
        bench: str,
        params: dict[str, Any] | None = None,
        metric: str = NS_OP,
        status: str = "ok",
        reason: str | None = "",
        unit: str | None = "",
        stat: str = "median",
        meta: dict[str, Any] | None = None,
        stats: dict[str, Any] | None = None,
    ) -> int:
        result_id = self._insert(
            "INSERT INTO results (run_id, key, bench, params, metric, status, reason, unit, stat,"
            " meta, stats) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                run_id,
                key,
                bench,
                _dump(params or {}),
                metric,
                status,
                reason or "",
                unit or "",
                stat,
                _dump(meta or {}),
                _dump(stats or {}),
            ),
        )
        self._head(result_id, stats or {})
        return result_id

    def update_result(self, result_id: int, **fields: Any) -> None:
        sets = ", ".join(f"{k} = ?" for k in fields)
        vals = [_dump(v) if k in _JSON_COLS else v for k, v in fields.items()]
        self._x(f"UPDATE results SET {sets} WHERE id = ?", (*vals, result_id))
        if "stats" in fields:
            self._head(result_id, fields["stats"])

    def _head(self, result_id: int, stats: object) -> None:
        """Keep result_heads' copy of a result's headline figures."""
        if "result_heads" in self._tables:
            sets = ", ".join(f"{k} = excluded.{k}" for k in HEAD_COLS)
            self._x(
                f"INSERT INTO result_heads (result_id, run_id, {', '.join(HEAD_COLS)})"
                f" SELECT id, run_id{', ?' * len(HEAD_COLS)} FROM results WHERE id = ?"
                f" ON CONFLICT (result_id) DO UPDATE SET {sets}",
                (*head_of(stats), result_id),
            )

    def results(self, run_id: Any) -> list[Row]:
        cols = ", ".join(RESULT_COLS)
        self._check_samples(run_id)
        rows = [
            self._row(RESULT_COLS, r, "results")
            for r in self._x(f"SELECT {cols} FROM results WHERE run_id = ? ORDER BY id", (run_id,))
        ]
        self._refresh_stats(run_id, rows)
        return rows

    def _check_samples(self, run_id: int) -> None:
        """The samples of a run hold integers where the schema says so (SQLite, which keeps any
        value in any column: a store edited by hand)."""
        if self.kind != "sqlite":
            return
        sq = cast("SQLiteBackend", self.backend)  # (its kind, above)
        bad = self._x(*sq.mistyped_samples(run_id)).fetchone()
        if bad:
            col, kind = next((c, t) for c, t in zip(sq.INT_SAMPLE_COLS, bad[1:]) if t not in ("integer", "null"))
            raise CorruptStore(f"store {self.path} is corrupt: samples of result {bad[0]}: column {col} holds {kind}")

    def results_of(self, run_ids: Iterable[int], benches: Iterable[str] | None = None) -> dict[int, list[Row]]:
        """{run id: [result rows]} of many runs at once (one query per 500 runs); `benches`: only
        results of these benchmark names."""
        cols = ", ".join(RESULT_COLS)
        ids = list(run_ids)
        out: dict[int, list[Row]] = {i: [] for i in ids}
        for k in range(0, len(ids), 500):
            chunk = ids[k : k + 500]
            marks = ",".join("?" * len(chunk))
            for r in self._x(f"SELECT {cols} FROM results WHERE run_id IN ({marks}) ORDER BY run_id, id", chunk):
                if benches is None or r[3] in benches:
                    out[r[1]].append(self._row(RESULT_COLS, r, "results"))
        for rid, rows in out.items():
            self._refresh_stats(rid, rows)
        return out

    def headlines(self, run_ids: Iterable[int], like: Sequence[str] | None = None) -> dict[int, list[Row]]:
        """{run id: [result rows]} of many runs, each row with only its headline statistics
        (value, CI, unit, rounds and their CV, task-clock per operation), from result_heads (where a result has no row
        there, from its statistics): what a history of thousands of runs needs, without parsing
        every result's statistics. `like`: SQL LIKE patterns (with a backslash as the escape) of
        benchmark names or keys to keep. Results whose statistics another version computed come
        whole, recomputed (results_of)."""
        from ..analysis.stats import STATS_VERSION

        heads = "result_heads" in self._tables
        where = ""
        args: list[str] = []
        if like:
            where = " AND (" + " OR ".join("bench LIKE ? ESCAPE '\\' OR key LIKE ? ESCAPE '\\'" for _ in like) + ")"
            args = [p for pat in like for p in (pat, pat)]
        ids = list(run_ids)
        out: dict[int, list[Row]] = {i: [] for i in ids}
        stale: set[int] = set()
        for k in range(0, len(ids), 500):
            chunk = ids[k : k + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._x(
                f"SELECT id, run_id, key, bench, status, stat{'' if heads else ', stats'} FROM results"
                f" WHERE run_id IN ({marks}){where} ORDER BY run_id, id",
                chunk + args,
            )
            figures: dict[int, Sequence[Any]] = {}
            if heads:  # a query of its own: a join makes PostgreSQL read the whole of result_heads
                cols = ", ".join(HEAD_COLS)
                figures = {
                    r[0]: r[1:]
                    for r in self._x(f"SELECT result_id, {cols} FROM result_heads WHERE run_id IN ({marks})", chunk)
                }
                whole = [r[0] for r in rows if r[0] not in figures]
                for j in range(0, len(whole), 500):  # no copy of their figures: from their statistics
                    part = whole[j : j + 500]
                    for rid, stats in self._x(
                        f"SELECT id, stats FROM results WHERE id IN ({','.join('?' * len(part))})", part
                    ):
                        figures[rid] = head_of(self._json(stats, f"result {rid}: stats"))
            for row in rows:
                rid, run_id, key, bench, status, stat = row[:6]
                fig = figures[rid] if heads else head_of(self._json(row[6], f"result {rid}: stats"))
                value, lo, hi, unit, ver, rounds, rcv, task_clock = fig
                # another version's, or edited by hand; or a figure, whose direction is its own
                # (not a time, not a bandwidth): read whole below
                if ver != STATS_VERSION or (unit not in (None, NS_OP) and stat != "max"):
                    if status == "ok":
                        stale.add(run_id)
                    continue
                head: dict[str, Any] = {"value": value, "ci95_lo": lo, "ci95_hi": hi, "unit": unit, "v": ver}
                head.update(rounds=rounds or 0, round_cv=rcv)
                if task_clock is not None:
                    head["counters_per_op"] = {"task_clock": task_clock}
                out[run_id].append(
                    {"run_id": run_id, "key": key, "bench": bench, "status": status, "stat": stat, "stats": {"": head}}
                )
        if stale:
            for rid, whole in self.results_of(sorted(stale)).items():
                out[rid] = whole
        return out

    def _refresh_stats(self, run_id: int, rows: list[Row]) -> None:
        """Statistics stored by another version of stats.py are recomputed from the raw samples
        (and written back where the store is writable)."""
        from ..analysis import stats
        from ..facts import fingerprint

        stale = [r for r in rows if not stats.is_current(r["stats"])]
        if not stale:
            return
        run = self._x("SELECT hello, fingerprint FROM runs WHERE id = ?", (run_id,)).fetchone()
        hello, fp = (self._json(x or "{}", f"run {run_id}") for x in run) if run else ({}, {})
        hello, fp = (x if isinstance(x, dict) else {} for x in (hello, fp))
        for r in stale:
            new = stats.recompute(
                r,
                self.samples(r["id"]),
                self.hists(r["id"]),
                cycles_method=fingerprint.cycles_method(fp, hello),
                env_flags=fp.get("flags") or (),
            )
            r["stats"] = new.to_dict()
            try:
                self.update_result(r["id"], stats=r["stats"])
            except (TickmarkError, self.backend.DatabaseError):
                pass  # a read-only store: the fresh statistics are used without being kept

    def add_samples(self, result_id: int, rnd: int, samples: Iterable[Row]) -> None:
        rows = []
        for i, s in enumerate(samples):
            extra = {k: v for k, v in s.items() if k not in _SAMPLE_COLS + ("t", "key", "i", "round")}
            rows.append((result_id, rnd, s.get("i", i), s["iters"], s["ops"], s["ns"], s.get("cyc"), _dump(extra)))
        try:
            self.backend.executemany("INSERT INTO samples VALUES (?,?,?,?,?,?,?,?)", rows)
        except self.backend.DatabaseError as e:
            raise self._db_error(e)

    def samples(self, result_id: Any) -> list[Row]:
        out = []
        for rnd, idx, iters, ops, ns, cyc, extra in self._x(
            "SELECT round, idx, iters, ops, ns, cyc, extra FROM samples WHERE result_id = ?"
            f" ORDER BY round, idx, {self.backend.order_col}",
            (result_id,),
        ):
            what = f"a sample of result {result_id}"
            self._ints((rnd, idx, iters, ops, ns) + (() if cyc is None else (cyc,)), what)
            s: Row = {"round": rnd, "i": idx, "iters": iters, "ops": ops, "ns": ns}
            if cyc is not None:
                s["cyc"] = cyc
            s.update(self._json(extra, what))
            out.append(s)
        return out

    def add_hist(self, result_id: int, rnd: int, data: dict[str, Any]) -> None:
        self._x("INSERT INTO hists VALUES (?,?,?)", (result_id, rnd, _dump(data)))

    def hists(self, result_id: Any) -> list[Row]:
        rows = self._x(
            f"SELECT round, data FROM hists WHERE result_id = ? ORDER BY round, {self.backend.order_col}", (result_id,)
        )
        self._ints([r for r, _ in rows], f"a histogram of result {result_id}")
        return [dict(self._json(d, f"a histogram of result {result_id}"), round=r) for r, d in rows]

    # ---- profiles (one per run and instance key; a new one replaces the old) ----
    def add_profile(self, run_id: int, key: str, data: dict[str, Any], created: float | None = None) -> None:
        """Call inside a transaction (the old profile is deleted, then the new one written)."""
        self._x("DELETE FROM profiles WHERE run_id = ? AND key = ?", (run_id, key))
        self._x(
            "INSERT INTO profiles (run_id, key, tool, created, data) VALUES (?,?,?,?,?)",
            (run_id, key, data.get("tool", ""), created or time.time(), _dump(data)),
        )

    def profiles(self, run_id: Any) -> dict[str, Row]:
        """key -> profile dict of a run."""
        return {
            k: self._json(d, f"a profile of run {run_id}")
            for k, d in self._x("SELECT key, data FROM profiles WHERE run_id = ? ORDER BY key", (run_id,))
        }

    def count(self, table: str) -> int:
        return self._x(f"SELECT count(*) FROM {table}").fetchone()[0]


class NameTaken(TickmarkError):
    """A run's name that another run took first (perhaps a moment ago, in another process)."""


class _Tx:
    """BEGIN/COMMIT, ROLLBACK on any exception (the connection is in autocommit otherwise)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def __enter__(self) -> _Tx:
        self.store.backend.check_intact()
        self.store._x(self.store.backend.begin_sql)
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> Literal[False]:
        if et is None:
            self.store._x("COMMIT")
            return False
        try:
            self.store._x("ROLLBACK")
        except TickmarkError:
            pass  # the database rolled back by itself (a full disk, say): the first error is the one to tell
        return False


def _one_line(e: Exception) -> str:
    """A database error's message on one line (PostgreSQL's primary message, without the
    statement it quotes)."""
    text = getattr(getattr(e, "diag", None), "message_primary", None) or str(e)
    return " ".join(text.split()) or type(e).__name__
