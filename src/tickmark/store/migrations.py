"""Changes to what a store's documents hold, made once in each store that a writing command
opens (SQLite or PostgreSQL, plain SQL both take), and recorded in its `migrations` table so
that they are made once. A store only read is not changed: its readers accept the older form
(the store reads each run through fingerprint.cache_numbers as well), and so does a store
that an older tickmark keeps writing into after a migration.

    cache-sizes-as-numbers   the fingerprint's caches: level, size (bytes) and line size as
                             numbers, where fingerprints before held the OS's texts ("32K")
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any

from ..facts import fingerprint
from .backend import Backend

TABLE = "CREATE TABLE IF NOT EXISTS migrations (name TEXT NOT NULL PRIMARY KEY, done REAL NOT NULL)"


def _cache_numbers(b: Backend) -> int:
    """Every run whose fingerprint's caches are not numbers, rewritten with numbers."""
    changed = 0
    for rid, text in b.execute("SELECT id, fingerprint FROM runs").fetchall():
        fp = with_cache_numbers(_loads(text))
        if fp is not None:
            b.execute("UPDATE runs SET fingerprint = ? WHERE id = ?", (json.dumps(fp, sort_keys=True), rid))
            changed += 1
    return changed


MIGRATIONS: dict[str, Callable[[Backend], int]] = {"cache-sizes-as-numbers": _cache_numbers}


def with_cache_numbers(fp: object) -> dict[str, Any] | None:
    """A fingerprint (dict) with its caches as numbers, or None where it has nothing to change
    (no caches, numbers already, not a fingerprint at all: a damaged document is left as it is
    for the reader to refuse)."""
    if not isinstance(fp, dict) or not isinstance(fp.get("caches"), list):
        return None
    caches = fingerprint.cache_numbers(fp["caches"])
    return None if caches == fp["caches"] else dict(fp, caches=caches)


def _loads(text: object) -> Any:
    try:
        return json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        return None


def pending(b: Backend) -> list[str]:
    """The migrations this store has not had."""
    done = {name for (name,) in b.execute("SELECT name FROM migrations").fetchall()}
    return [name for name in MIGRATIONS if name not in done]


def migrate(b: Backend, names: Iterable[str]) -> dict[str, int]:
    """Make the named migrations (inside the caller's transaction, schema locked) and record
    them -> {name: documents changed}."""
    out: dict[str, int] = {}
    for name in names:
        if b.execute("SELECT 1 FROM migrations WHERE name = ?", (name,)).fetchone():
            continue  # another process made it meanwhile
        out[name] = MIGRATIONS[name](b)
        b.execute("INSERT INTO migrations (name, done) VALUES (?, ?)", (name, time.time()))
    return out
