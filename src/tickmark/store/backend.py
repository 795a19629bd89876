"""What the store asks of a backend (sqlite.py's SQLiteBackend, postgres.py's PostgresBackend),
and of the cursor a statement gives, for type annotations: the dialect (DDL, JSON expressions),
the schema's tables, and statements. Each backend satisfies it by its own methods."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

# A statement's arguments, and the schema's {table: its columns}
Args = Sequence[Any]
Columns = dict[str, set[str]]


class Cursor(Protocol):
    """A statement's result: its rows, their columns (None: a statement that returns none) and
    the rows it changed."""

    @property
    def description(self) -> Any: ...

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Backend(Protocol):
    kind: str  # "sqlite" or "postgresql"
    label: str  # what messages name (a URL without its password)
    begin_sql: str
    order_col: str

    @property
    def IntegrityError(self) -> type[Exception]: ...  # (the DB-API names it so)

    @property
    def DatabaseError(self) -> type[Exception]: ...  # (the DB-API names it so)

    def ddl(self, schema: str) -> list[str]: ...

    def tables(self) -> set[str]: ...

    def indexes(self) -> set[str]: ...

    def columns(self) -> Columns: ...

    def check_privileges(self, tables: set[str], write: bool) -> None: ...

    def before_create(self) -> None: ...

    def opened(self) -> None: ...

    def check_intact(self) -> None: ...

    def lock_schema(self) -> None: ...

    @staticmethod
    def json_doc(col: str) -> str: ...

    @staticmethod
    def json_fields(doc: str, names: Iterable[str]) -> str: ...

    @staticmethod
    def json_field(doc: str, key: str, field: str) -> str: ...

    def execute(self, sql: str, args: Args = ()) -> Cursor: ...

    def executemany(self, sql: str, rows: Iterable[Args]) -> None: ...

    def insert(self, sql: str, args: Args) -> int: ...

    def close(self) -> None: ...
