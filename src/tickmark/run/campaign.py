"""Campaigns: targets x variants x workloads (x loads) from one TOML file, run as one job.

A cell is one (target, variant, workload[, load]); it becomes one stored run named
CAMPAIGN:TARGET:VARIANT:WORKLOAD (CAMPAIGN:TARGET:VARIANT:WORKLOAD:LOAD for a cell under a
background load, which runs on this machine beside the cell's run as `tickmark run --load`
runs it), with the campaign and the cell, and the cell's definition (what
it measures: the target's URI and what the target builds from (an OS tree, a kernel image), the
variant's compiler, flags and routine file, the workload's patterns and the parameters), in the
run's notes. Targets run in parallel, one worker thread each
(its own store connection, its target opened once, at its first cell, for all its cells: an SSH
connection, a labgrid place), and one cell at a time on each machine (targets with the same
machine: Target.host_key(), e.g. two names for "local"), so that cells never disturb each other's
numbers. A second start of the same campaign skips the cells that are stored complete with the
same definition and runs the others again (a partial run, or the run of a definition that
changed, is kept under another name: NAME~ID).

Everything in the file is checked before a cell runs: its keys, the run options (run/plan.py,
the command line's limits), every target's URI (without reaching the target) and every workload's
patterns and parameters (on a core of this machine: every core has the same benchmarks).

Several processes (on several hosts, through a PostgreSQL store) may run one campaign together:
each cell is claimed in the store before it runs (store/claims.py), under a lease that a
keep-alive thread renews; a cell whose holder died is taken over once its lease has run out.

The file and its cells are campaign_file.py's.
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..base.errors import TickmarkError
from ..base.names import MAX_NAME, check_name
from ..store import claims
from .campaign_file import cells
from .load import IDLE

if TYPE_CHECKING:
    from ..base.shapes import Row
    from ..store import Store
    from ..targets.base import Core, Target
    from .campaign_file import Cell, Spec
    from .engine import Run


class Progress(Protocol):
    """What a campaign tells of its progress: a step for each cell this process ran
    (report/progress.py's Progress, a layer above)."""

    def step(self, detail: str = "") -> None: ...


def _file_sha256(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def definition(spec: Spec, c: Cell) -> dict[str, Any]:
    """What the cell measures, stored with its run: a stored run of another definition is not
    the cell's result (the cell runs again). The target's URI, what the target builds from (its
    OS tree or kernel image, by path and digest), the variant, the workload's patterns and the
    parameters. The rounds and samples are left out: they change how precisely the same thing
    is measured, not what."""
    var, wl = spec.variants[c.variant], spec.workloads[c.workload]
    d = {
        "target_uri": spec.targets[c.target],
        "target_sources": spec.target_sources(c.target),
        "cc": var.get("cc"),
        "cflags": var.get("cflags"),
        "memfn": os.path.basename(var["memfn"]) if var.get("memfn") else None,
        "memfn_sha256": _file_sha256(var["memfn"]) if var.get("memfn") else None,
        "patterns": list(wl["patterns"]),
        "params": list(spec.options.get("params", [])),
    }
    if c.load != IDLE:
        d["load"] = c.load
    return d


_SHOWN = {"target_uri": "target URI", "memfn_sha256": "memfn file's content"}


def changed(run: Row, spec: Spec, c: Cell) -> list[str]:
    """What differs between the cell's definition now and the one its stored run was made
    with -> the differing items, in words ([]: the same). A run stored before definitions were
    kept has only the target's URI to compare; an item its definition lacks (kept before tickmark
    recorded that item) is not compared."""
    cell = (run.get("notes") or {}).get("cell") or {}
    now = definition(spec, c)
    then = cell.get("definition")
    if not isinstance(then, dict):
        then = {"target_uri": cell.get("target_uri")}
    out: list[str] = []
    for k in now:
        if k not in then or now[k] == then[k]:
            continue
        out += _sources_changed(now[k], then[k]) if k == "target_sources" else [_SHOWN.get(k, k)]
    return out


def _sources_changed(now: object, then: object) -> list[str]:
    """The items of two target_sources that differ, in words: 'the FreeRTOS kernel tree (its
    contents)' when the same path holds other contents, '(another one)' when it is another path."""
    new: dict[str, Any] = now if isinstance(now, dict) else {}
    old: dict[str, Any] = then if isinstance(then, dict) else {}
    if "unreadable" in new:
        return [f"{new['unreadable']['what']} (not readable now)"]
    out = []
    for k in list(new) + [k for k in old if k not in new]:
        a, b = new.get(k), old.get(k)
        if a == b:
            continue
        a, b = a if isinstance(a, dict) else {}, b if isinstance(b, dict) else {}
        what = a.get("what") or b.get("what") or k
        if a and b and a.get("path") == b.get("path"):
            out.append(f"{what} (its contents)")
        else:
            out.append(f"{what} (another one)")
    return out


# room for the '~ID' that a cell's unfinished run gets when it is set aside (set_aside; a '-N'
# more only when someone took that name by hand)
_ASIDE = len("~") + 10


def check_cell_names(spec: Spec) -> None:
    """Every cell's run name follows the name rules, with room for '~ID' (names.check_name)."""
    for c in cells(spec):
        try:
            check_name(c.run_name, "cell run name")
        except TickmarkError as e:
            raise TickmarkError(f"campaign {spec.path}: {e}")
        if len(c.run_name) > MAX_NAME - _ASIDE:
            raise TickmarkError(
                f"campaign {spec.path}: cell run name '{c.run_name[:60]}...' is longer than {MAX_NAME - _ASIDE} "
                "characters (NAME:TARGET:VARIANT:WORKLOAD[:LOAD]): shorten those names"
            )


def is_cells_run(run: Row, spec: Spec, c: Cell) -> bool:
    """Whether a stored run is this campaign's run of cell c (its notes say so, and it was
    measured into this store, not imported: an exported run, another host's or forged, says
    anything): a run of another origin that happens to have the cell's name is never adopted,
    renamed or skipped."""
    notes = run.get("notes") or {}
    cell = notes.get("cell")
    if "imported_from" in notes:
        return False
    return notes.get("campaign") == spec.name and isinstance(cell, dict) and cell.get("id") == c.id


def foreign_runs(store: Store, spec: Spec, cs: Iterable[Cell]) -> list[str]:
    """Names of the cells' runs that the store holds but this campaign did not make."""
    out = []
    for c in cs:
        if not store.name_taken(c.run_name):
            continue
        try:
            run = store.run(c.run_name)
        except TickmarkError:
            if store.name_taken(c.run_name):
                raise
            continue  # set aside by another process of this campaign meanwhile
        if not is_cells_run(run, spec, c):
            out.append(c.run_name)
    return out


# ---------------------------------------------------------------- state in the store
def mark_finished(store: Store, spec: Spec, cs: Iterable[Cell]) -> None:
    """Cells whose run is stored complete, with the cell's definition of now, become 'finished'
    (skipped); a cell whose definition changed says what changed (it runs again)."""
    for c in cs:
        if not store.name_taken(c.run_name):
            continue
        run = store.run(c.run_name)
        if run["status"] != "complete" or not is_cells_run(run, spec, c):
            continue
        diff = changed(run, spec, c)
        if diff:
            c.message = f"changed since run {run['id']} ({', '.join(diff)}): runs again, that run is kept aside"
            continue
        c.state, c.run_id = "finished", run["id"]
        c.results = len(store.results(run["id"]))


def aside_name(store: Store, name: str, run_id: int) -> str:
    """The name a cell's run is kept under when the cell runs again: NAME~ID, or NAME~ID-N when a
    run holds that name already (whoever made it)."""
    aside, n = f"{name}~{run_id}", 1
    while store.name_taken(aside):
        n += 1
        aside = f"{name}~{run_id}-{n}"
    return aside


def set_aside(store: Store, spec: Spec, c: Cell) -> bool:
    """Before a cell runs: a run of the cell that did not finish (an earlier start, or a holder
    that died), or one of a definition that changed since, is renamed NAME~ID, kept, so the cell
    can run again under its name. -> False when the cell's run is stored complete after all
    (nothing to run), or when a run of another origin holds the cell's name (the cell fails)."""
    if not store.name_taken(c.run_name):
        return True
    run = store.run(c.run_name)
    if not is_cells_run(run, spec, c):
        c.state, c.message = "failed", f"a run named '{c.run_name}' exists that this campaign did not make"
        return False
    diff = changed(run, spec, c)
    if run["status"] == "complete" and not diff:
        c.state, c.run_id = "finished", run["id"]
        c.results = len(store.results(run["id"]))
        return False
    notes = dict(run.get("notes") or {}, superseded_by_rerun=True)
    if diff:
        notes["superseded_because"] = f"the cell's definition changed: {', '.join(diff)}"
    store.update_run(
        run["id"],
        name=aside_name(store, c.run_name, run["id"]),
        status="incomplete" if run["status"] == "running" else run["status"],
        notes=notes,
    )
    return True


# ---------------------------------------------------------------- running
class _CellStop:
    """What stops one cell: the campaign's stop, or the loss of the cell's claim."""

    def __init__(self, campaign: threading.Event) -> None:
        self.campaign, self.lost = campaign, threading.Event()

    def is_set(self) -> bool:
        return self.campaign.is_set() or self.lost.is_set()


class Campaign:
    """Runs the cells of a campaign that this process can claim (claims.py): one worker thread
    per target, one cell at a time on each target across every process sharing the store; a
    keep-alive thread renews the leases of the cells being run. Cells held by others are waited
    for (and taken over when their holder's lease runs out) until every cell is settled."""

    def __init__(
        self,
        spec: Spec,
        store_target: str | None,
        echo: Callable[[str], object] | None = None,
        prebuilt: str | None = None,
        poll: float | None = None,
        progress: Progress | None = None,
    ) -> None:
        """echo: a function that shows a message; progress: counts a step for each cell this
        process runs (report/progress.py)."""
        self.spec, self.store_target = spec, store_target
        self.echo: Callable[[str], object] = echo or (lambda s: None)
        self.progress = progress
        self.prebuilt = prebuilt
        self.cells = cells(spec)
        self.cancel = threading.Event()
        self.lock = threading.Lock()
        self.active: dict[str, Run] = {}  # target name -> engine.Run in progress
        self.held: dict[str, _CellStop] = {}  # cell id -> _CellStop of the cells this process runs now
        self.holder = claims.holder_id()
        self.lease = spec.lease
        self.poll = poll if poll is not None else min(2.0, self.lease / 4)

    def by_target(self) -> dict[str, list[Cell]]:
        out: dict[str, list[Cell]] = {}
        for c in self.cells:
            out.setdefault(c.target, []).append(c)
        return out

    def execute(self) -> list[Cell]:
        """Run the cells this process claims; returns the cells. KeyboardInterrupt after stopping
        the workers."""
        from ..store import Store

        store = Store(self.store_target)
        try:
            claims.register(store, self.spec.name, self.cells, [c.id for c in self.cells if c.state == "finished"])
            return self._execute(store)
        finally:
            store.close()

    def _execute(self, store: Store) -> list[Cell]:
        todo = {t: [c for c in cs if c.state == "pending"] for t, cs in self.by_target().items()}
        todo = {t: cs for t, cs in todo.items() if cs}
        # Completion is kept in events of our own: after a Thread.join() that Ctrl-C interrupted,
        # is_alive() said False here while the worker still ran (CPython 3.11).
        self.finished = {t: threading.Event() for t in todo}
        alive = threading.Event()
        threading.Thread(target=self._keep_alive, args=(alive,), name="campaign-lease", daemon=True).start()
        for t, cs in todo.items():
            threading.Thread(target=self._worker, args=(t, cs), name=f"campaign-{t}", daemon=True).start()
        try:
            while not all(e.is_set() for e in self.finished.values()):
                time.sleep(0.1)
        except KeyboardInterrupt:
            # stop what runs, again and again: a worker may be starting its next round just now
            deadline = time.monotonic() + 60
            while not all(e.is_set() for e in self.finished.values()) and time.monotonic() < deadline:
                self.stop()
                time.sleep(0.2)
            raise
        finally:
            alive.set()
        self._others(store)
        return self.cells

    def stop(self) -> None:
        self.cancel.set()
        with self.lock:
            runs = list(self.active.values())
        for run in runs:
            run.stop()

    def _claim_lost(self, store: Store, cid: str) -> bool:
        """Whether this process's claim on the cell is gone (renewing it fails); a store error counts as kept."""
        try:
            return bool(claims.keep_alive(store, self.spec.name, [cid], self.holder, self.lease))
        except TickmarkError:
            return False

    def _keep_alive(self, done: threading.Event) -> None:
        """Renew the leases of the cells being run, every quarter lease; a lost claim stops its cell."""
        from ..store import Store

        store: Store | None = None
        try:
            store = Store(self.store_target)
            while not done.wait(self.lease / 4):
                with self.lock:
                    held = dict(self.held)
                if not held:
                    continue
                try:
                    lost = claims.keep_alive(store, self.spec.name, list(held), self.holder, self.lease)
                except TickmarkError as e:
                    self.echo(f"cannot renew the leases: {e}")
                    continue
                for cid in lost:
                    self.echo(f"{cid}: the claim was taken over (this process was too slow to renew it); stopping")
                    held[cid].lost.set()
                    self.stop_cell(cid)
        except TickmarkError as e:
            self.echo(f"cannot renew the leases: {e}")
        finally:
            if store is not None:
                store.close()

    def stop_cell(self, cid: str) -> None:
        target = cid.split(":", 1)[0]
        with self.lock:
            run = self.active.get(target)
        if run is not None:
            run.stop()

    def _others(self, store: Store) -> None:
        """Cells that other processes ran or hold: their state as the store says."""
        st = claims.status(store, self.spec.name)
        for c in self.cells:
            row = st.get(c.id)
            if c.state not in ("pending", "not run", "lost") or row is None:
                continue
            if row["state"] == "done":
                mark_finished(store, self.spec, [c])
                if c.state == "finished":
                    c.message = f"by {row['holder']}"
            elif row["state"] == "running":
                c.state, c.message = "elsewhere", f"running on {row['holder']}"

    def _worker(self, tname: str, cs: Sequence[Cell]) -> None:
        from ..store import Store
        from ..targets import open_target

        uri = self.spec.targets[tname]
        machine = cs[0].machine or uri  # (cells() names each cell's machine: its URI where none is known)
        store: Store | None = None
        tgt: Target | None = None
        mine = {c.id: c for c in cs}
        try:
            store = Store(self.store_target)
            cores: dict[str, Core] = {}
            while not self.cancel.is_set():
                got = claims.claim(store, self.spec.name, machine, list(mine), self.holder, self.lease)
                if got is None:
                    left = [cid for cid in claims.unsettled(store, self.spec.name, machine) if cid in mine]
                    if not left:
                        break
                    time.sleep(self.poll)  # a cell runs on this target's machine now (this process's or another's)
                    continue
                cid, previous = got
                c = mine.pop(cid)
                if previous:
                    self.echo(f"{tname}: taking over {cid} from {previous} (its lease ran out)")
                try:
                    runs = set_aside(store, self.spec, c)
                except TickmarkError as e:  # the store refused: the cell fails, its claim is settled
                    c.state, c.message, runs = "failed", f"cannot set its earlier run aside: {e}", False
                if not runs:
                    end = "done" if c.state == "finished" else "failed"
                    claims.settle(store, self.spec.name, cid, self.holder, end, c.run_id, c.message or None)
                    continue
                if tgt is None:
                    self.echo(f"{tname}: opening {uri}")
                    kw = {"prebuilt": self.prebuilt} if self.prebuilt and uri == "local" else {}
                    try:
                        tgt = open_target(uri, **kw)
                    except BaseException:
                        claims.settle(store, self.spec.name, cid, self.holder, "pending")
                        mine[cid] = c
                        raise
                stop = _CellStop(self.cancel)
                with self.lock:
                    self.held[cid] = stop
                try:
                    self._cell(store, tgt, cores, c, stop)
                finally:
                    with self.lock:
                        self.held.pop(cid, None)
                    if self.progress:
                        self.progress.step(cid)
                end = {"done": "done", "failed": "failed"}.get(c.state, "pending")
                if not claims.settle(store, self.spec.name, cid, self.holder, end, c.run_id, c.message or None):
                    c.state, c.message = "lost", "its claim was taken over by another process (lease ran out)"
                if c.state == "failed" and _target_gone(c.message):
                    for rest in mine.values():
                        rest.state, rest.message = "not run", f"target {tname} became unavailable"
                    mine.clear()
                    break
            for c in mine.values():
                if c.state == "pending" and self.cancel.is_set():
                    c.state = "interrupted"
        except TickmarkError as e:
            for c in cs:
                if c.state == "pending":
                    c.state, c.message = "failed", f"target {tname}: {e}"
            self.echo(f"{tname}: {e}")
        except Exception as e:  # a bug: say it, do not let the thread die silently
            for c in cs:
                if c.state == "pending":
                    c.state, c.message = "failed", f"target {tname}: {type(e).__name__}: {e}"
            self.echo(f"{tname}: internal error {type(e).__name__}: {e}")
        finally:
            for c in cs:
                if c.state == "pending" and c.id not in mine:
                    c.state = "interrupted" if self.cancel.is_set() else "not run"
            if tgt is not None:
                tgt.close()
            if store is not None:
                store.close()
            self.finished[tname].set()

    def _run_under_load(self, store: Store, run: Run, c: Cell) -> int | None:
        """The cell's run, beside its load (none for an idle cell), which is stopped after it
        however it ends and recorded in the run's fingerprint -> the run's id."""
        if c.load == IDLE:
            return run.execute()
        from .load import Load, record

        load = Load(c.load)
        try:
            load.start()
            return run.execute()
        finally:
            record(store, run.run_id, load.stop())

    def _cell(self, store: Store, tgt: Target, cores: dict[str, Core], c: Cell, stop: _CellStop) -> None:
        from .engine import Run
        from .matrix import variant

        spec = self.spec
        var = spec.variants[c.variant]
        t0 = time.monotonic()
        run: Run | None = None
        try:
            if c.variant not in cores:
                self.echo(f"{c.target}: preparing variant {c.variant}")
                v = variant(cc=var.get("cc"), cflags=var.get("cflags"), memfn=var.get("memfn"))
                try:
                    core = tgt.prepare(v)
                except TickmarkError as e:  # the connection may have dropped since the last cell: once more
                    if not tgt.reconnects:
                        raise
                    self.echo(f"{c.target}: {e}; reconnecting")
                    tgt.reconnect()
                    core = tgt.prepare(v)
                if core.build is not None:
                    core.build = dict(core.build, variant=c.variant)
                cores[c.variant] = core
            core = cores[c.variant]
            cfg = spec.plan(c.workload, c.run_name, c.load).config(core, c.run_name, params_checked=True)
            notes: dict[str, Any] = {
                "campaign": spec.name,
                "cell": {
                    "target": c.target,
                    "target_uri": spec.targets[c.target],
                    "variant": c.variant,
                    "workload": c.workload,
                    "id": c.id,
                    "definition": definition(spec, c),
                },
                "campaign_runner": {"host": socket.gethostname(), "pid": os.getpid()},
            }
            if c.load != IDLE:
                notes["cell"]["load"] = c.load
            run = Run(store, core, cfg, notes=notes, cancel=stop)
            with self.lock:
                self.active[c.target] = run
            self.echo(f"{c.target}: running {c.id}")
            c.run_id = self._run_under_load(store, run, c)
            stored = store.run(str(c.run_id))
            c.state = "done" if stored["status"] == "complete" else "failed"
            if c.state == "failed":  # stored incomplete (a lost target): run again on resume
                c.message = str(stored["notes"].get("incomplete") or "incomplete")
        except KeyboardInterrupt:
            c.state, c.run_id = "interrupted", run.run_id if run else None
        except TickmarkError as e:  # the engine closed the run: incomplete, or none when nothing was measured
            c.state, c.message = "failed", str(e)
            c.run_id = run.run_id if run else None
            if not stop.lost.is_set() and self._claim_lost(store, c.id):  # stalled past the lease, then failed
                self.echo(f"{c.id}: the claim was taken over (this process was too slow to renew it); stopping")
                stop.lost.set()
        finally:
            with self.lock:
                self.active.pop(c.target, None)
            c.seconds = time.monotonic() - t0
        if stop.lost.is_set():
            if c.run_id is not None:
                mine = store.run(c.run_id)  # another process runs the cell now: this run is not the cell's
                if mine["name"] == c.run_name:
                    store.update_run(c.run_id, name=aside_name(store, c.run_name, c.run_id), status="incomplete")
            c.state, c.message = "lost", "its claim was taken over by another process (lease ran out)"
            return
        if c.run_id is not None and store.name_taken(c.run_name):
            c.results = len(store.results(c.run_id))
        elif c.run_id is not None and c.state != "lost":  # nothing measured: the engine left no run behind
            c.run_id = None
        self.echo(f"{c.target}: {c.id} {c.state}" + (f": {c.message}" if c.message else ""))


def _target_gone(message: str) -> bool:
    """A failure that says the target itself went away (the rest of its cells cannot run)."""
    m = message.lower()
    return any(
        w in m
        for w in (
            "unavailable",
            "not acquired",
            "connection refused",
            "connection closed",
            "orphaned",
            "timed out",
            "no route",
            "could not resolve",
        )
    )


# ---------------------------------------------------------------- summary
def held_elsewhere(store: Store, spec: Spec, cs: Iterable[Cell]) -> None:
    """Cells not run by this process (still 'pending' here, as with --status): who holds them,
    from the claims in the store."""
    st = claims.status(store, spec.name)
    for c in cs:
        row = st.get(c.id)
        if c.state != "pending" or row is None:
            continue
        if row["state"] == "running":
            left = (row["lease_until"] or 0) - row["now"]
            c.state = "running"
            if holder_gone(store, c, row["holder"]):
                c.state = "abandoned"
                when = f"in {left:.0f} s, when its lease runs out" if left >= 0 else "now (its lease ran out)"
                c.message = f"on {row['holder']}, which ended without finishing it: the next start takes it over {when}"
            elif left >= 0:
                c.message = f"on {row['holder']}, lease renewed, {left:.0f} s left"
            else:
                c.message = f"on {row['holder']}, silent for {-left:.0f} s past its lease: the next claim takes it over"
        elif row["state"] == "failed":
            c.state, c.message = "failed", f"on {row['holder']}: {row['message'] or 'failed'}"
        if row["takeovers"]:
            c.message += f" (taken over from {row['previous']})"


def holder_gone(store: Store, c: Cell, holder: object) -> bool:
    """Whether the process holding a cell (HOST:PID) is known to have ended: it ran on this host
    and its PID is gone, or belongs to a process that started later than the cell's run (the
    run's writer, as a run is read 'abandoned': store.owner_gone)."""
    from ..store.owner import owner_gone

    host, _, pid = str(holder).rpartition(":")
    if not pid.isdigit():
        return False
    owner: dict[str, Any] = {"host": host, "pid": int(pid)}
    if store.name_taken(c.run_name):
        try:
            run_owner = (store.run(c.run_name).get("notes") or {}).get("owner")
        except TickmarkError:
            run_owner = None
        if isinstance(run_owner, dict) and run_owner.get("host") == host and run_owner.get("pid") == int(pid):
            owner = run_owner  # with the process's start time: a PID used again is told apart
    return owner_gone(owner)


def report_order(spec: Spec, cs: Iterable[Cell]) -> list[str]:
    """Run names of the stored cells for a report: the baseline target's first (its idle cell
    first of all), so that the report compares every other cell with the baseline's first cell."""
    stored = [c for c in cs if c.state in ("done", "finished")]
    return [c.run_name for c in sorted(stored, key=lambda c: (c.target != spec.baseline, c.load != IDLE))]
