"""The SQLite side of the store: one database file in WAL mode (the embedded default).

A backend opens the connection and knows its dialect; the tables live in schema.py, every
query in store/__init__.py.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Optional

from ..base.errors import CorruptStore, TickmarkError
from ..base.waiting import environ_seconds
from . import sqlite_log
from .backend import Args, Columns

# what makes a new store's tables on a backend (schema._create_tables)
Create = Callable[["SQLiteBackend"], None]
# how the file, its log and the checkpoints done look (SQLiteBackend._looks)
Looks = tuple[Optional[tuple[int, int]], Optional[tuple[int, int, int, int]], Optional[bytes]]

_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT = 30  # seconds


def busy_timeout() -> float:
    """Seconds a command waits for another process's lock on the store before it says the store
    is busy: TICKMARK_BUSY_TIMEOUT, else 30 (another runner's commits take milliseconds; a
    long `import` or a reader holding the store can take longer)."""
    return environ_seconds("TICKMARK_BUSY_TIMEOUT", BUSY_TIMEOUT)


# Store files this process has open. Their first bytes are read (to refuse foreign files) only
# when none is open: closing any descriptor of a file drops every POSIX lock this process holds
# on it, and without its locks SQLite in another process takes the database for unused and
# removes the write-ahead log that this process is still writing to.
_OPEN: dict[str, int] = {}
_OPEN_LOCK = threading.Lock()


# The descriptors this process reads the log's index through (_shared_fd) are closed with the
# last connection, for the same reason.
_FDS: dict[str, dict[str, int]] = {}


def _is_open(p: Path) -> bool:
    with _OPEN_LOCK:
        return _OPEN.get(os.path.realpath(p), 0) > 0


def _opened(p: Path) -> str:
    key = os.path.realpath(p)
    with _OPEN_LOCK:
        _OPEN[key] = _OPEN.get(key, 0) + 1
    return key


def _shared_fd(key: str, path: str) -> int | None:
    """A descriptor of a file beside the open store `key`, opened once and kept until the store's
    last connection in this process closes -> the descriptor, or None."""
    with _OPEN_LOCK:
        fds = _FDS.setdefault(key, {})
        if path not in fds:
            try:
                fds[path] = os.open(path, os.O_RDONLY)
            except OSError:
                return None
        return fds[path]


def _closed(key: str | None) -> None:
    if key is None:
        return
    with _OPEN_LOCK:
        _OPEN[key] -= 1
        if _OPEN[key] <= 0:
            del _OPEN[key]
            for fd in _FDS.pop(key, {}).values():
                os.close(fd)


def _disk_full(p: Path) -> str:
    """' (the disk is full ...)' when the store's folder has no room left, else ''."""
    try:
        st = os.statvfs(p.parent)
    except OSError:
        return ""
    if st.f_bavail * st.f_frsize >= 1 << 20:
        return ""
    return (
        " (the disk holding it is full: SQLite needs room beside the store for its logs; "
        "free some space, the store itself is not damaged)"
    )


class SQLiteBackend:
    kind = "sqlite"
    _key: str | None = None  # the open file's entry in _OPEN (_opened)
    _lost: str | None = None  # why the store can no longer be written (check_intact)
    IntegrityError = sqlite3.IntegrityError
    DatabaseError = sqlite3.DatabaseError

    def __init__(self, path: str | Path, create: Create | None = None, readonly: bool = False) -> None:
        """create(backend) makes the tables of a new store (on a private file, see _create);
        readonly: open an existing store for reading only (also on read-only media)."""
        self.path = Path(os.path.expanduser(str(path)))
        self.label = str(self.path)
        try:
            self._check_path()
            if readonly and not self.path.exists() and create is not None:
                self.conn = self._connect_absent(create)
                return
            self.readonly = readonly and self.path.is_file()  # an empty file too: reading never makes tables
            self.conn = self._connect_ro() if self.readonly else self._connect(create)
        except OSError as e:  # a name too long, a folder that cannot be searched, ...
            raise TickmarkError(f"cannot open store {self.label}: {e.strerror or e}")
        except UnicodeDecodeError:  # SQLite's message quotes a damaged schema
            raise CorruptStore(f"store {self.label} is corrupt: its schema is damaged")
        self.conn.text_factory = self._text

    def _check_path(self) -> None:
        """Only a database file keeps results: not SQLite's in-memory name, not a device."""
        name = str(self.path)
        if name == ":memory:" or name.startswith("file:"):
            raise TickmarkError(f"store '{name}' would keep nothing: give the path of a database file")
        if self.path.exists() and not self.path.is_file() and not self.path.is_dir():
            raise TickmarkError(f"store {name} is not a regular file (give the path of a database file)")

    def _text(self, raw: bytes) -> str:
        """Text columns: UTF-8, or the file is damaged."""
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CorruptStore(f"store {self.label} is corrupt: a text column is not UTF-8")

    def _connect(self, create: Create | None = None) -> sqlite3.Connection:
        p = self.path
        if p.is_dir():
            raise TickmarkError(f"store {p} is a directory, not a database file")
        if p.exists() and p.stat().st_size > 0 and not _is_open(p):
            try:
                with open(p, "rb") as f:
                    magic = f.read(16)
            except OSError as e:
                raise TickmarkError(f"store {p} is unreadable: {e.strerror}")
            if magic != _MAGIC:
                raise TickmarkError(f"store {p} is not an SQLite database (left untouched)")
        else:
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise TickmarkError(f"cannot create store directory {p.parent}: {e.strerror}")
            if create is not None and not p.exists():
                self._create(create)
        if p.exists() and not (os.access(p, os.W_OK) and os.access(p.parent, os.W_OK)):
            what = "file" if not os.access(p, os.W_OK) else "folder"
            raise TickmarkError(
                f"store {p} is read-only (its {what} is not writable): cannot write here; "
                "reading commands (runs, show, export, compare) still work"
            )
        sqlite_log.check(p)  # reads no descriptor of the store: safe while it is open here
        try:
            conn = sqlite3.connect(str(p), timeout=busy_timeout(), isolation_level=None)
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as e:
            raise TickmarkError(f"store {p} is unreadable or corrupt: {e}")
        self._key = _opened(p)
        self._ident = sqlite_log.ident(p)
        return conn

    def opened(self) -> None:
        """Once the store has been read (its log and index are open): a writer binds the log to
        its file and notes which log is its own (sqlite_log), and what the file looks like."""
        if not self.readonly:
            assert self._key is not None  # a writer's file, opened by _connect
            self._logs = sqlite_log.own_logs(self.path)
            sqlite_log.bind(self.path, self._ident, self._logs["-wal"])
            self._index = _shared_fd(self._key, f"{self.path}-shm")
            self._seen = self._looks()

    _seen: Looks | None = None  # the file, its log and the checkpoints done, as this writer last left them (_looks)
    _index: int | None = None  # a descriptor of the log's index, kept open while the store is (see _OPEN)

    def _looks(self) -> Looks:
        """(size and time of change of the file, identity, size and time of change of its log,
        frames of the log written back into the file): what changes when SQLite writes."""
        try:
            st = os.stat(self.path)
            db = (st.st_size, st.st_mtime_ns)
        except OSError:
            db = None
        try:
            st = os.stat(f"{self.path}-wal")
            wal = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError:
            wal = None
        return db, wal, self._backfilled()

    def _backfilled(self) -> bytes | None:
        """The frames of the log that SQLite has written back into the file (the log index's
        nBackfill), read through a descriptor held open; None where unknown."""
        if self._index is None:
            return None
        try:
            raw = os.pread(self._index, 4, 96)
        except OSError:
            return None
        return raw if len(raw) == 4 else None

    def _changed_in_place(self) -> bool:
        """The file's bytes changed since this writer last wrote, though nobody wrote through
        SQLite meanwhile (its log and the frames written back from it are as they were): a file
        copied over the store (cp keeps the inode), or the store emptied. A checkpoint another
        writer has under way is waited for (up to 2 s)."""
        if self._seen is None:
            return False
        now = self._looks()
        db, wal, back = now
        if db is not None and db[0] == 0 and self._seen[0] and self._seen[0][0] > 0:
            return True
        if db == self._seen[0] or wal != self._seen[1] or back != self._seen[2]:
            self._seen = now
            return False
        for _ in range(20):
            time.sleep(0.1)
            if self._backfilled() != back:
                self._seen = self._looks()
                return False
        return True

    def check_intact(self) -> None:
        """The store's name still leads to the file this connection writes, with the contents
        it wrote: not deleted, replaced, emptied or copied over meanwhile (SQLite would go on
        writing into the lost file, or write its log of the old contents into the new ones).
        When it does not, the log this connection wrote is emptied and removed before it can be
        applied to a file at that name (sqlite_log), and the connection closed."""
        if self.readonly:
            return
        if self._lost:
            raise TickmarkError(self._lost)
        try:
            st = os.stat(self.path)
        except OSError:
            st = None
        replaced = st is None or (st.st_dev, st.st_ino) != getattr(self, "_ident", None)
        if replaced or self._changed_in_place():
            self._lost = (
                f"store {self.label} was deleted, replaced or emptied (or another file copied over it) "
                "while this command wrote to it: what it wrote is lost"
            )
            sqlite_log.remove_own(self.path, getattr(self, "_logs", {}), empty=not replaced)
            self.close()
            raise TickmarkError(self._lost)

    def _wrote(self, sql: str) -> None:
        """After a statement: a write that has ended (committed, or outside any transaction)
        leaves the file as this writer knows it."""
        if self._seen is not None and not self.conn.in_transaction and not _reads(sql):
            self._seen = self._looks()

    def _before(self, sql: str) -> None:
        """Before a statement: one that starts a write checks that the file is still this
        store's (check_intact)."""
        if self._lost:
            raise TickmarkError(self._lost)
        if self._seen is not None and not self.conn.in_transaction and not _reads(sql):
            self.check_intact()

    def _connect_absent(self, create: Create) -> sqlite3.Connection:
        """A store that does not exist yet, only read: an empty store in memory (a reading command
        says there are no runs), without creating the file or its folder."""
        self.readonly = True
        conn = sqlite3.connect(":memory:", isolation_level=None)
        conn.text_factory = self._text
        self.conn = conn
        create(self)
        return conn

    def _connect_ro(self) -> sqlite3.Connection:
        """Open for reading only, also on read-only media (where SQLite cannot make the WAL's
        shared-memory file: then the file is opened as immutable)."""
        p = self.path
        if not _is_open(p):  # see _OPEN: never close a descriptor of a store this process has open
            try:
                with open(p, "rb") as f:
                    magic = f.read(16)
            except OSError as e:
                raise TickmarkError(f"store {p} is unreadable: {e.strerror}")
            if magic and magic != _MAGIC:
                raise TickmarkError(f"store {p} is not an SQLite database (left untouched)")
        sqlite_log.check(p)  # reads no descriptor of the store: safe while it is open here
        uri = "file:" + urllib.parse.quote(str(p.resolve()))
        writable_dir = os.access(p.parent, os.W_OK) and os.access(p, os.W_OK)
        modes = ["?mode=ro"] if writable_dir else ["?mode=ro", "?immutable=1"]
        last = None
        for mode in modes:
            conn = None
            try:
                conn = sqlite3.connect(uri + mode, uri=True, timeout=busy_timeout(), isolation_level=None)
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                self._key = _opened(p)
                return conn
            except sqlite3.DatabaseError as e:
                last = e
                if conn is not None:
                    conn.close()
                if "not a database" in str(e) or "malformed" in str(e):
                    raise CorruptStore(f"store {p} is unreadable or corrupt: {e}")
        if writable_dir and _disk_full(p):
            conn = self._read_in_memory(uri)
            if conn is not None:
                self._key = _opened(p)
                return conn
        raise TickmarkError(f"cannot read store {p}: {last}{_disk_full(p)}")

    def _read_in_memory(self, uri: str) -> sqlite3.Connection | None:
        """A store whose shared-memory file cannot be made beside it (a full disk): read with the
        write-ahead log's index in this process's memory (SQLite's exclusive locking mode, which
        holds the store's lock until the command ends) -> connection, or None."""
        conn = None
        try:
            conn = sqlite3.connect(uri + "?mode=rw", uri=True, timeout=busy_timeout(), isolation_level=None)
            conn.execute("PRAGMA locking_mode = EXCLUSIVE")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.DatabaseError:
            if conn is not None:
                conn.close()
            return None

    def _create(self, create: Create) -> None:
        """A new store appears whole: made in WAL mode in a private file, then linked to its name
        (os.link fails when the name exists). Runners that start together on a new store thus
        never see it half made, and never open it in another journal mode, which would let one
        of them delete the write-ahead log the others are writing to."""
        p = self.path
        tmp = p.with_name(f".{p.name}.{os.getpid()}-{threading.get_ident()}.new")
        try:
            conn = sqlite3.connect(str(tmp), isolation_level=None)
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                self.conn = conn
                conn.execute("BEGIN IMMEDIATE")
                create(self)
                conn.execute("COMMIT")
            finally:
                # no connection while the new file is linked to its name (the one that reads the
                # store is made next, by _connect)
                self.conn = None  # type: ignore[assignment]
                conn.close()  # the last connection: its log is written back and removed
            try:
                sqlite_log.check(p)  # a log left by a file deleted from that name
                os.link(tmp, p)
            except FileExistsError:
                pass  # another runner made it first: use theirs
        except OSError as e:
            raise TickmarkError(f"cannot create store {p}: {e.strerror}")
        finally:
            for f in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
                try:
                    f.unlink()
                except FileNotFoundError:
                    pass

    # ---- dialect ----
    begin_sql = "BEGIN IMMEDIATE"
    order_col = "rowid"  # insertion order of rows without a primary key

    def ddl(self, schema: str) -> list[str]:
        return [s.strip() for s in schema.split(";") if s.strip()]

    def tables(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def indexes(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}

    def columns(self) -> Columns:
        """{table: set of its columns}."""
        return {
            t: {r[0] for r in self.conn.execute("SELECT name FROM pragma_table_info(?)", (t,))} for t in self.tables()
        }

    # SQLite keeps any value in any column (a store edited by hand): the integer columns of samples
    # are checked when a run's results are read (PostgreSQL's columns are typed)
    INT_SAMPLE_COLS = ("round", "idx", "iters", "ops", "ns", "cyc")

    def mistyped_samples(self, run_id: int) -> tuple[str, tuple[int]]:
        """SQL and arguments: the first sample of a run whose integer column holds another type
        -> (result id, the columns' types...)."""
        types = ", ".join(f"typeof({c})" for c in self.INT_SAMPLE_COLS)
        ok = " AND ".join(f"typeof({c}) = 'integer'" for c in self.INT_SAMPLE_COLS[:-1])
        sql = (
            f"SELECT result_id, {types} FROM samples WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)"
            f" AND NOT ({ok} AND typeof(cyc) IN ('integer', 'null')) LIMIT 1"
        )
        return sql, (run_id,)

    def check_privileges(self, tables: set[str], write: bool) -> None:
        pass  # a file's permissions are checked when it is opened

    def before_create(self) -> None:
        """Outside any transaction, before the tables are made: the journal mode."""
        self.conn.execute("PRAGMA journal_mode = WAL")

    def lock_schema(self) -> None:
        pass  # BEGIN IMMEDIATE already holds the write lock

    @staticmethod
    def json_doc(col: str) -> str:
        """A JSON text column as the database's JSON value (SQLite's JSON functions read text)."""
        return col

    @staticmethod
    def json_fields(doc: str, names: Iterable[str]) -> str:
        """SQL for a JSON array (text) of the top-level fields `names` of a JSON text column (null
        where absent), the document parsed once."""
        return "json_array(" + ", ".join(f"json_extract({doc}, '$.\"{n}\"')" for n in names) + ")"

    @staticmethod
    def json_field(doc: str, key: str, field: str) -> str:
        """SQL for doc[key][field] (doc: a json_doc expression)."""
        return f"json_extract({doc}, '$.\"{key}\".{field}')"

    # ---- statements ----
    def execute(self, sql: str, args: Args = ()) -> sqlite3.Cursor:
        self._before(sql)
        cur = self.conn.execute(sql, args)
        self._wrote(sql)
        return cur

    def executemany(self, sql: str, rows: Iterable[Args]) -> None:
        self._before(sql)
        self.conn.executemany(sql, rows)
        self._wrote(sql)

    def insert(self, sql: str, args: Args) -> int:
        rid = self.execute(sql, args).lastrowid
        assert rid is not None  # an INSERT sets it
        return rid

    def close(self) -> None:
        self.conn.close()
        _closed(getattr(self, "_key", None))
        self._key = None
        self._index = None


def _reads(sql: str) -> bool:
    """A statement that only reads."""
    return sql.lstrip()[:6].upper() in ("SELECT", "PRAGMA")
