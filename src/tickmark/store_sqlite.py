"""The SQLite side of the store: one database file in WAL mode (the embedded default).

A backend opens the connection and knows its dialect; the tables and every query live in store.py.
"""

import os
import sqlite3
import urllib.parse
from pathlib import Path

from .errors import TickmarkError

_MAGIC = b"SQLite format 3\x00"


class SQLiteBackend:
    kind = "sqlite"
    IntegrityError = sqlite3.IntegrityError
    DatabaseError = sqlite3.DatabaseError

    def __init__(self, path, readonly=False):
        self.path = Path(path)
        self.label = str(self.path)
        # read-only: only for a store that exists (a reading command on a fresh machine makes one)
        self.readonly = readonly and self.path.is_file() and self.path.stat().st_size > 0
        self.conn = self._connect_ro() if self.readonly else self._connect()

    def _connect(self):
        p = self.path
        if p.is_dir():
            raise TickmarkError(f"store {p} is a directory, not a database file")
        if p.exists() and p.stat().st_size > 0:
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
        if p.exists() and not (os.access(p, os.W_OK) and os.access(p.parent, os.W_OK)):
            what = "file" if not os.access(p, os.W_OK) else "folder"
            raise TickmarkError(
                f"store {p} is read-only (its {what} is not writable): cannot write here; "
                "reading commands (runs, show, export, compare) still work"
            )
        if not p.exists() and not os.access(p.parent, os.W_OK):
            raise TickmarkError(f"cannot create store {p}: its folder is not writable")
        try:
            conn = sqlite3.connect(str(p), timeout=30, isolation_level=None)
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as e:
            raise TickmarkError(f"store {p} is unreadable or corrupt: {e}")
        return conn

    def _connect_ro(self):
        """Open for reading only, also on read-only media (where SQLite cannot make the WAL's
        shared-memory file: then the file is opened as immutable)."""
        p = self.path
        try:
            with open(p, "rb") as f:
                magic = f.read(16)
        except OSError as e:
            raise TickmarkError(f"store {p} is unreadable: {e.strerror}")
        if magic != _MAGIC:
            raise TickmarkError(f"store {p} is not an SQLite database (left untouched)")
        uri = "file:" + urllib.parse.quote(str(p.resolve()))
        writable_dir = os.access(p.parent, os.W_OK) and os.access(p, os.W_OK)
        modes = ["?mode=ro"] if writable_dir else ["?mode=ro", "?immutable=1"]
        last = None
        for mode in modes:
            try:
                conn = sqlite3.connect(uri + mode, uri=True, timeout=30, isolation_level=None)
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                return conn
            except sqlite3.DatabaseError as e:
                last = e
                if "not a database" in str(e) or "malformed" in str(e):
                    break
        raise TickmarkError(f"store {p} is unreadable or corrupt: {last}")

    # ---- dialect ----
    begin_sql = "BEGIN IMMEDIATE"
    order_col = "rowid"  # insertion order of rows without a primary key

    def ddl(self, schema):
        return [s.strip() for s in schema.split(";") if s.strip()]

    def tables(self):
        return {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def before_create(self):
        """Outside any transaction, before the tables are made: the journal mode."""
        self.conn.execute("PRAGMA journal_mode = WAL")

    def lock_schema(self):
        pass  # BEGIN IMMEDIATE already holds the write lock

    # ---- statements ----
    def execute(self, sql, args=()):
        return self.conn.execute(sql, args)

    def executemany(self, sql, rows):
        self.conn.executemany(sql, rows)

    def insert(self, sql, args):
        return self.conn.execute(sql, args).lastrowid

    def close(self):
        self.conn.close()
