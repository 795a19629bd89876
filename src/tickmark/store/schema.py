"""The store's schema: the tables of schema version 1, the tables and indexes added since, the
columns each table must have, and the making of a new store's tables."""

from __future__ import annotations

from . import migrations
from .backend import Backend

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE tickmark_schema (version INTEGER NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY, name TEXT UNIQUE, started REAL NOT NULL, finished REAL,
    status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete')),
    suite TEXT, patterns TEXT NOT NULL, options TEXT NOT NULL, fingerprint TEXT NOT NULL,
    hello TEXT NOT NULL, notes TEXT NOT NULL DEFAULT '{}');
CREATE TABLE results (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    key TEXT NOT NULL, bench TEXT NOT NULL, params TEXT NOT NULL, metric TEXT NOT NULL,
    status TEXT NOT NULL, reason TEXT NOT NULL, unit TEXT NOT NULL, stat TEXT NOT NULL,
    meta TEXT NOT NULL, stats TEXT NOT NULL, UNIQUE (run_id, key));
CREATE TABLE samples (
    result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE, round INTEGER NOT NULL,
    idx INTEGER NOT NULL, iters INTEGER NOT NULL, ops INTEGER NOT NULL, ns INTEGER NOT NULL,
    cyc INTEGER, extra TEXT NOT NULL);
CREATE INDEX samples_result ON samples(result_id);
CREATE TABLE hists (
    result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE, round INTEGER NOT NULL,
    data TEXT NOT NULL);
"""

# Tables added after schema version 1, made in stores that lack them (plain SQL both backends take).
_ADDED = {
    "profiles": """
CREATE TABLE IF NOT EXISTS profiles (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, key TEXT NOT NULL,
    tool TEXT NOT NULL, created REAL NOT NULL, data TEXT NOT NULL, UNIQUE (run_id, key))
""",
    # Copies of the few fields of each run's and result's documents that the commands reading
    # many runs need (history, runs), written with the documents (brief_of, head_of), so that
    # those commands read small columns instead of parsing every document: the fingerprint fields
    # that separate series and what `runs` shows (BRIEF), the labels, and the headline figures of
    # a result's statistics. A run or result without its row (written by an older tickmark, or
    # in a store only read since) is read from its documents.
    "run_brief": """
CREATE TABLE IF NOT EXISTS run_brief (
    run_id INTEGER NOT NULL PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE, fields TEXT, labels TEXT)
""",
    "result_heads": """
CREATE TABLE IF NOT EXISTS result_heads (
    result_id INTEGER NOT NULL PRIMARY KEY REFERENCES results(id) ON DELETE CASCADE,
    run_id INTEGER NOT NULL, value REAL, ci95_lo REAL, ci95_hi REAL, unit TEXT, v INTEGER,
    rounds INTEGER, round_cv REAL, task_clock REAL);
CREATE INDEX IF NOT EXISTS result_heads_run ON result_heads(run_id)
""",
    # the changes to stored documents made in this store (migrations.py)
    "migrations": migrations.TABLE,
    # campaign cells claimed by the processes that run them (claims.py)
    "claims": """
CREATE TABLE IF NOT EXISTS claims (
    campaign TEXT NOT NULL, cell TEXT NOT NULL, target TEXT NOT NULL, state TEXT NOT NULL,
    holder TEXT, lease_until REAL, claimed REAL, heartbeat REAL, finished REAL,
    takeovers INTEGER NOT NULL DEFAULT 0, previous TEXT, run_id INTEGER, message TEXT,
    UNIQUE (campaign, cell))
""",
}

# Indexes added after schema version 1, made in stores that lack them when a writing command
# opens them (an older tickmark writes into them unchanged; a store only read keeps what it has,
# and reads the same rows, slower). Every per-result table is read by result id: without its
# index each read scans the table, and filling a store grows as the square of its results.
_INDEXES = {
    "hists_result": "CREATE INDEX IF NOT EXISTS hists_result ON hists(result_id)",
}

RUN_COLS = (
    "id",
    "name",
    "started",
    "finished",
    "status",
    "suite",
    "patterns",
    "options",
    "fingerprint",
    "hello",
    "notes",
)
RESULT_COLS = ("id", "run_id", "key", "bench", "params", "metric", "status", "reason", "unit", "stat", "meta", "stats")
SAMPLE_COLS = ("result_id", "round", "idx", "iters", "ops", "ns", "cyc", "extra")
_COLUMNS = {
    "tickmark_schema": ("version",),
    "runs": RUN_COLS,
    "results": RESULT_COLS,
    "samples": SAMPLE_COLS,
    "hists": ("result_id", "round", "data"),
}
_JSON_COLS = {"patterns", "options", "fingerprint", "hello", "notes", "params", "meta", "stats"}


def _create_tables(b: Backend) -> None:
    """The tables of a new store, on backend b (inside a transaction)."""
    for stmt in b.ddl(_SCHEMA):
        b.execute(stmt)
    for ddl in (*_ADDED.values(), *_INDEXES.values()):
        for stmt in b.ddl(ddl):
            b.execute(stmt)
    b.execute("INSERT INTO tickmark_schema VALUES (?)", (SCHEMA_VERSION,))
