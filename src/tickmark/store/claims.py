"""Claims on campaign cells, kept in the store, so that several campaign processes (on several
hosts, through a PostgreSQL store) split the cells of one campaign between them.

One row per cell: its state (pending, running, done, failed), the machine it runs on (the
`target` column: the key of the machine its target runs on, Target.host_key(), so that two
targets on one machine share it), who holds it (HOST:PID) and until when (a lease, in the
database's clock so that the hosts' clocks do not matter). A process claims a cell in a
transaction that first locks the rows of the cell's machine (SELECT ... FOR UPDATE on PostgreSQL;
SQLite's BEGIN IMMEDIATE locks the whole store): a cell is free when it is pending, or running
under a lease that has run out (its holder died: the cell is taken over), and only while no other
cell of the same machine runs under a live lease (whoever holds it, this process included), so
that a machine still runs one cell at a time whichever host and target drive it. While a cell
runs, its holder renews the lease (keep_alive); a holder that finds its lease gone stops claiming
that cell's result.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..base.errors import TickmarkError

if TYPE_CHECKING:
    from . import Store


class ClaimedCell(Protocol):
    """What register takes of a campaign cell: its id and the machine it runs on."""

    @property
    def id(self) -> str: ...

    @property
    def machine(self) -> str | None: ...


# The database's clock, in seconds since the epoch.
_NOW = {
    "postgresql": "extract(epoch from clock_timestamp())::double precision",
    "sqlite": "((julianday('now') - 2440587.5) * 86400.0)",
}
_LOCK = {"postgresql": " FOR UPDATE", "sqlite": ""}

COLS = (
    "cell",
    "target",
    "state",
    "holder",
    "lease_until",
    "claimed",
    "heartbeat",
    "finished",
    "takeovers",
    "previous",
    "run_id",
    "message",
)


def holder_id() -> str:
    """This process: HOST:PID."""
    return f"{socket.gethostname()}:{os.getpid()}"


def holder_gone(holder: str | None) -> bool:
    """A holder (HOST:PID) known to have ended: a process of this host that is no more (a
    tickmark killed with SIGKILL), whose lease need not be waited out."""
    from .owner import owner_gone

    host, _, pid = str(holder or "").rpartition(":")
    return pid.isdigit() and owner_gone({"host": host, "pid": int(pid)})


def now(store: Store) -> float:
    return store._x(f"SELECT {_NOW[store.kind]}").fetchone()[0]


def register(store: Store, campaign: str, cells: Iterable[ClaimedCell], finished: Iterable[str]) -> None:
    """Make a row for every cell (c.id, on the machine c.machine); the runs stored decide what is
    done: cells whose run is stored complete (`finished`: cell ids) are done, the other cells that
    are not running are pending (a new start retries the cells that failed, and a cell whose run
    was set aside runs again)."""
    done = set(finished)
    with store.transaction():
        for c in cells:
            store._x(
                "INSERT INTO claims (campaign, cell, target, state) VALUES (?,?,?,?) ON CONFLICT DO NOTHING",
                (campaign, c.id, c.machine, "pending"),
            )
            store._x(
                "UPDATE claims SET state = ?, target = ? WHERE campaign = ? AND cell = ? AND state <> 'running'",
                ("done" if c.id in done else "pending", c.machine, campaign, c.id),
            )


def claim(
    store: Store, campaign: str, target: str, cells: Sequence[str], holder: str, lease: float
) -> tuple[str, str | None] | None:
    """Claim the first free cell of the machine `target` among `cells` (ids, in order) -> (cell
    id, previous holder or None) or None. See the module's comment for what is free."""
    t_now = _NOW[store.kind]
    with store.transaction():
        rows = store._x(
            f"SELECT cell, state, holder, lease_until, {t_now} FROM claims WHERE campaign = ? AND target = ?"
            f" ORDER BY cell{_LOCK[store.kind]}",
            (campaign, target),
        ).fetchall()
        if not rows:
            return None
        current = rows[0][4]
        by_cell = {r[0]: r for r in rows}
        live = {r[0] for r in rows if r[1] == "running" and (r[3] or 0) >= current and not holder_gone(r[2])}
        if live:
            return None
        for cid in cells:
            r = by_cell.get(cid)
            if r is None:
                continue
            _, state, who, until, _ = r
            expired = state == "running" and cid not in live
            if state == "pending" or expired:
                store._x(
                    f"UPDATE claims SET state = 'running', holder = ?, lease_until = {t_now} + ?, claimed = {t_now},"
                    f" heartbeat = {t_now}, takeovers = takeovers + ?, previous = ?, message = NULL"
                    " WHERE campaign = ? AND cell = ?",
                    (holder, float(lease), 1 if expired else 0, who if expired else None, campaign, cid),
                )
                return cid, (who if expired else None)
    return None


def keep_alive(store: Store, campaign: str, cells: Iterable[str], holder: str, lease: float) -> list[str]:
    """Renew the leases of `cells` held by `holder` -> the cells whose claim was lost."""
    lost: list[str] = []
    for cid in cells:
        cur = store._x(
            f"UPDATE claims SET lease_until = {_NOW[store.kind]} + ?, heartbeat = {_NOW[store.kind]}"
            " WHERE campaign = ? AND cell = ? AND holder = ? AND state = 'running'",
            (float(lease), campaign, cid, holder),
        )
        if cur.rowcount == 0:
            lost.append(cid)
    return lost


def settle(
    store: Store,
    campaign: str,
    cell: str,
    holder: str,
    state: str,
    run_id: int | None = None,
    message: str | None = None,
) -> bool:
    """The end of a cell: done, failed, or pending again (interrupted: free for anyone). Only
    the holder settles its claim -> whether it still held it."""
    cur = store._x(
        f"UPDATE claims SET state = ?, finished = {_NOW[store.kind]}, lease_until = NULL, run_id = ?, message = ?"
        " WHERE campaign = ? AND cell = ? AND holder = ? AND state = 'running'",
        (state, run_id, message, campaign, cell, holder),
    )
    return cur.rowcount > 0


def unsettled(store: Store, campaign: str, target: str) -> list[str]:
    """Cells of the machine `target` that are not done or failed yet."""
    return [
        r[0]
        for r in store._x(
            "SELECT cell FROM claims WHERE campaign = ? AND target = ? AND state IN ('pending', 'running')",
            (campaign, target),
        )
    ]


def status(store: Store, campaign: str) -> dict[str, dict[str, Any]]:
    """{cell id: {column: value, 'now': database time}} of a campaign (empty before its first start)."""
    try:
        rows = store._x(
            f"SELECT {', '.join(COLS)}, {_NOW[store.kind]} FROM claims WHERE campaign = ?", (campaign,)
        ).fetchall()
    except TickmarkError:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        d = dict(zip(COLS, r))
        d["now"] = r[-1]
        out[d["cell"]] = d
    return out
