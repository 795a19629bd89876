"""Where a store is: what --store or TICKMARK_STORE names (a path, an sqlite:/// URL or a
postgresql:// URL), and the per-user SQLite file by default."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..base.errors import TickmarkError
from ..base.names import printable

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_SQLITE_URL = "sqlite:///"


def locate(target: str | Path) -> str | Path:
    """What --store or TICKMARK_STORE names -> a postgresql:// URL, or the Path of an SQLite file.
    An SQLite file may also be given as a URL: sqlite:///relative.db, sqlite:////absolute.db.
    Another URL scheme (mysql://...) is refused, never taken for a file name (its folders would
    spell out the URL, password and all); the message names only the scheme."""
    if isinstance(target, Path) or is_pg_url(target):
        return target
    text = str(target)
    m = _SCHEME.match(text)
    if text.startswith(_SQLITE_URL) and len(text) > len(_SQLITE_URL):
        return Path(text[len(_SQLITE_URL) :])
    if m and m.group(1).lower() in ("sqlite", "postgresql", "postgres"):
        raise TickmarkError(
            f"bad store URL ({m.group(1)}:...): write sqlite:///relative.db, sqlite:////absolute.db "
            "or postgresql://USER@HOST/DB"
        )
    if m and text[m.end() :].startswith("//"):
        raise TickmarkError(
            f"store URLs of scheme '{printable(m.group(1))[:20]}' are not supported: give an SQLite file "
            "(a path, or sqlite:///PATH) or a postgresql:// URL"
        )
    return Path(text)


def is_pg_url(target: object) -> bool:
    from .postgres import is_url

    return is_url(target)


def default_path() -> str | Path:
    """TICKMARK_STORE (a path or a URL, see locate), else the per-user SQLite file."""
    env = os.environ.get("TICKMARK_STORE")
    if env:
        return locate(env)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "tickmark" / "results.db"
