"""The run engine: run benchmarks on a target (any targets.Core) in rounds and store what they
measure as it arrives. Everything that stores a run goes through here: run, matrix, campaign,
topology, profile, ingest (a captured log replayed as a round) and import (a document:
importing.py).

    run = Run(store, core, plan.Plan(["sys.*"]).config(core))   # run/plan.py checks the options
    run.open()                  # the run row: its options and the target's fingerprint -> run id
    while run.round():          # round 1 calibrates; rounds 2..R rerun with frozen iterations
        pass
    while run.extend(budget_s): # extra rounds for the noisy instances, within a time budget
        pass
    run.close()                 # complete, or incomplete with its reason (close(error) after one)

`Run.execute()` does all of it under signals(). Round 1 lets the core calibrate iterations; rounds
2..R rerun every instance with those iterations frozen (`--iters KEY=N`) and a fresh seed (the core
shuffles the order by it). Each round is a separate process. Afterwards, instances whose
round-to-round CV is above 3 % (and cpu.* kernels not yet within nbench's ±5 % criterion) get extra
rounds (only those instances, worst first), up to max_rounds, within a time budget (extra_budget).

ResultWriter (results.py) writes the result rows (one per instance key, its samples and histograms per round,
its statistics computed again from everything stored, with the run's own cycles method); signals()
is the one place where SIGTERM and SIGHUP become an interrupt.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from ..analysis import hostclock, memfn, stats
from ..base.errors import TickmarkError, interrupted_by_signals
from ..base.names import check_name
from ..base.tm1 import Reader
from ..base.waiting import Watchdog, environ_seconds
from ..store.analyses import nbench_unsettled
from .plan import RunConfig, check_patterns  # noqa: F401  (the engine's input, made by plan.py)
from .results import Disturbance, ResultWriter, split_key

if TYPE_CHECKING:
    from ..base.shapes import Row
    from ..store import Store
    from ..targets.base import Core, Session


class Progress(Protocol):
    """What a run tells of its progress (report/progress.py's Progress, a layer above)."""

    def round_started(self, rnd: int, n: int) -> None: ...

    def advance(self, key: str, rnd: int) -> None: ...


class Cancel(Protocol):
    """What stops a run from another thread (a threading.Event, a campaign's claim)."""

    def is_set(self) -> bool: ...


# what a run's function of more passes gives: (patterns, params) of the next pass, or None
MorePasses = Callable[["Run"], "tuple[Sequence[str], Sequence[str]] | None"]

NOISY_ROUND_CV = stats.NOISY_ROUND_CV
EXTRA_BUDGET_INSTANCES = 50
# An extra round of instances whose wall time was contended and whose CPU time's floor too few
# samples reached takes this many times the run's samples (a core shared with other work: the
# moments it runs alone are few, and a sample costs far less than a round's process and calibration)
FLOOR_SAMPLES = 3


def extra_budget(base_s: float, instances: int) -> float:
    """The default time for extra rounds: as long as the base rounds took, but when more than 50
    instances ran, only what the base rounds took for 50 of them (base_s x 50 / instances), and
    at least 5 s. Extra rounds are there to settle a few noisy results (an extra round for the
    150 noisiest, or two for the 75 noisiest); when hundreds are noisy, the machine is, and
    rerunning them all would double the run to move each result little."""
    share = min(1.0, EXTRA_BUDGET_INSTANCES / instances) if instances else 1.0
    return max(base_s * share, 5.0)


class TransportLost(TickmarkError):
    """The connection to the target dropped twice in a round (or could not be restored)."""


class _Interrupt(KeyboardInterrupt):
    def __init__(self, reason: str = "interrupted (cancelled)") -> None:
        super().__init__(reason)
        self.reason = reason


def signals() -> AbstractContextManager[None]:
    """While it lasts, SIGTERM and SIGHUP (a terminal closed, a kill) interrupt like Ctrl-C, with
    the signal's name as the reason, so that a run ends incomplete and never stays 'running'.
    Only the main thread can take signals; elsewhere this does nothing."""
    return interrupted_by_signals(_Interrupt)


def _user_routine_died(r: Row) -> bool:
    """A result of the user's own routine (--memfn: impl=user) that crashed or hung: the routine
    under test failed, as when it gives a wrong result."""
    return (
        r["status"] in ("crashed", "timeout")
        and r["bench"].startswith("memfn.")
        and memfn.IMPLS.get((r.get("params") or {}).get("impl")) == "user"
    )


class Run:
    """One run of benchmarks on one core (a targets.Core), stored as it arrives.

    open, round, extend and close are the steps (see the module's comment); record() stores one
    instance that was measured elsewhere (a profile); stop() ends the round in progress from
    another thread. Options of the rounds come from cfg (RunConfig); notes: more notes stored
    with the run (a matrix's group, a campaign's cell); cancel: an object whose is_set() stops
    the run between and inside rounds (a campaign's Ctrl-C, a lost claim)."""

    def __init__(
        self,
        store: Store,
        core: Core,
        cfg: RunConfig,
        progress: Progress | None = None,
        notes: dict[str, Any] | None = None,
        cancel: Cancel | None = None,
    ) -> None:
        self.store, self.core, self.cfg = store, core, cfg
        self.progress = progress
        self.cancel = cancel
        self.run_id: int | None = None
        self.hello: dict[str, Any] = {}
        self.cycles_method = "none"
        self.writer: ResultWriter | None = None
        self.iters: dict[str, int] = {}  # key -> frozen iterations (from round 1)
        self.wall_ns: dict[str, int] = {}  # key -> wall time of its last round
        self.notes: dict[str, Any] = {
            "rounds": 0,
            "planned": None,
            "problems": [],
            "junk": 0,
            "malformed": 0,
            "seeds": [],
        }
        if cfg.labels:
            self.notes["labels"] = dict(cfg.labels)
        self.notes.update(notes or {})
        self.rng: random.Random = random.Random(cfg.seed) if cfg.seed is not None else random.SystemRandom()
        self._next = 1  # the next base round
        self._pass_from = 0  # the rounds before the current pass (next_pass)
        self._session: Session | None = None
        self._lock = threading.Lock()

    @property
    def _id(self) -> int:
        """The run's id, for the steps after open() (which stores the run)."""
        assert self.run_id is not None, "Run.open() comes first"
        return self.run_id

    # ---- the steps ----
    def open(self, hello: dict[str, Any] | None = None, options: dict[str, Any] | None = None) -> int:
        """Create the run row (status 'running') -> run id. hello: the core's hello record when it
        is known already (a profile); options: more options stored with the run's."""
        c = self.cfg
        if c.name is not None:
            check_name(c.name)
        self.silence_limit()  # a bad TICKMARK_WATCHDOG is refused before the run is stored
        build = self.core.build or {}
        variant = {k: build[k] for k in ("cc", "cflags", "memfn", "cross_compile") if build.get(k)}
        self.run_id = self.store.create_run(
            name=c.name,
            suite=c.suite,
            patterns=c.patterns,
            # how the core was built, so that a later command can build the same one (a profile)
            options=dict(c.options(), **({"variant": variant} if variant else {}), **(options or {})),
            fingerprint=dict(self.core.fingerprint(None), **({"before": c.before} if c.before else {})),
            notes=self.notes,
        )
        self.writer = ResultWriter(self.store, self.run_id)
        if hello:
            self._hello(hello, 1, None)
        return self.run_id

    def round(self) -> bool:
        """The next base round: round 1 runs the patterns (the core calibrates), rounds 2..R the
        instances that ran ok with their iterations frozen -> False when the base rounds are done."""
        rnd = self._next
        nth = rnd - self._pass_from  # the round of this pass
        if nth > 1 and (nth > self.cfg.rounds or not self.iters):
            return False
        self._next += 1
        if nth == 1:
            self._round(rnd, self.cfg.patterns)
        else:
            self._round(rnd, sorted({split_key(k)[0] for k in self.iters}), sorted(self.iters))
        return True

    def extend(self, budget_s: float) -> list[str]:
        """One extra round for the instances whose wall time was contended or whose round-to-round
        CV is above 3 % (pick_extra), as many as fit in budget_s seconds -> the keys that ran
        again ([] when none deserves one, none fits, or max_rounds is reached). Contended ones
        whose CPU time's floor too few samples reached (results.Disturbance.floor_unheld) get a
        round of their own with FLOOR_SAMPLES times the samples."""
        rnd = max(self._next, self._pass_from + self.cfg.rounds + 1)
        if rnd > self._pass_from + self.cfg.max_rounds:
            return []
        chosen = self.pick_extra(budget_s)
        if not chosen:
            return []
        ds = self._disturbance()
        unheld = [k for k in chosen if k in ds and ds[k].floor_unheld]
        samples = None
        if unheld:  # a round of their own, with more samples to reach the floor (FLOOR_SAMPLES)
            chosen, samples = unheld, self.cfg.samples * FLOOR_SAMPLES
            self.notes["floor_rounds"] = self.notes.get("floor_rounds", 0) + 1
        self._next = rnd + 1
        self._round(rnd, sorted(chosen), chosen, samples=samples)  # instance keys: only those points rerun
        extended = self.notes.setdefault("extended", {})
        for k in chosen:
            extended[k] = extended.get(k, 0) + 1
        self.store.update_run(self._id, notes=self.notes)
        return chosen

    def next_pass(self, patterns: Iterable[str], params: Iterable[str] = ()) -> None:
        """More instances in this run, after the rounds so far (a sweep's second pass at the
        sizes its first pass chose): the next base rounds run `patterns` with `params`, the first
        of them calibrating the new instances, as round 1 did for the first pass."""
        self.cfg = dataclasses.replace(self.cfg, patterns=list(patterns), params=list(params))
        self._pass_from = self._next - 1
        self.iters = {}
        run = self.store.run(self.run_id)
        self.store.update_run(self._id, patterns=list(run.get("patterns") or []) + list(patterns))

    def close(self, error: BaseException | None = None) -> str | None:
        """End the run: 'complete', or 'incomplete' with its reason (a round that did not finish,
        the error or interrupt given) -> the status stored, or None when an error came before
        anything was measured (then no run is left behind)."""
        if self.run_id is None:
            return None
        if isinstance(error, KeyboardInterrupt):
            self.stop()
            self.notes.setdefault("incomplete", getattr(error, "reason", None) or "interrupted (Ctrl-C)")
        elif isinstance(error, TransportLost):
            self.notes["incomplete"] = str(error)
        elif error is not None:
            try:
                if not self.store.results(self.run_id):  # nothing measured: leave no empty run behind
                    self.store.delete_run(self.run_id)
                    return None
                self.notes.setdefault("incomplete", str(error))
                self.store.update_run(self.run_id, status="incomplete", finished=time.time(), notes=self.notes)
            except TickmarkError:  # the store fails too (busy, full, gone): later commands read it as abandoned
                return "running"
            return "incomplete"
        else:
            self.notes.pop("round_in_progress", None)
            failed = self._failed()
            if failed:
                self.notes.setdefault("incomplete", failed)
        if self.writer is not None:
            self.notes["disturbed"] = self.disturbed()
        status = "incomplete" if self.notes.get("incomplete") else "complete"
        self.store.update_run(self.run_id, status=status, finished=time.time(), notes=self.notes)
        return status

    def _failed(self) -> str | None:
        """Instances that ran and failed (a check of their own output that did not pass, a routine
        that is wrong, a point the benchmark refused), in words -> None when there is none: such a
        run is done but not all of it (incomplete)."""
        results = self.store.results(self.run_id)
        bad = [r for r in results if r["status"] == "failed" or _user_routine_died(r)]
        if bad:
            first = f"{bad[0]['key']}: {bad[0]['reason'] or bad[0]['status']}"
            more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
            return f"{len(bad)} instance{'s' if len(bad) > 1 else ''} failed: {first}{more}"
        empty = [r for r in results if r["status"] == "ok" and not stats.Stats.of(r).main]
        if empty:
            more = f" (and {len(empty) - 1} more)" if len(empty) > 1 else ""
            return (
                f"{len(empty)} instance{'s' if len(empty) > 1 else ''} without data: every sample of "
                f"{empty[0]['key']}{more} was left out (a time of 0 or less, or no operations)"
            )
        return None

    def stop(self) -> None:
        """Stop the round in progress now (from any thread); the run goes on with the next."""
        with self._lock:
            s = self._session
        if s is not None:
            s.stop()

    def execute(self, more: MorePasses | None = None) -> int:
        """open, every base round, the extra rounds, close; under signals() -> run id. more: a
        function of this run called after its rounds -> (patterns, params) of another pass
        (next_pass), or None when the run is done. A lost target ends the run incomplete, like a
        core that died; KeyboardInterrupt and TickmarkError leave the run closed and go on up."""
        with signals():
            run_id = self.open()
            try:
                while True:
                    self._pass()
                    nxt = more(self) if more else None
                    if not nxt:
                        break
                    self.next_pass(*nxt)
            except TransportLost as e:
                self.close(e)
                return run_id
            except BaseException as e:
                self.close(e)
                raise
            self.close()
        return run_id

    def _pass(self) -> None:
        """The base rounds of the current pass, then its extra rounds within their budget."""
        t0 = time.monotonic()
        while self.round():
            pass
        budget = self.cfg.budget_s
        if budget is None:
            budget = extra_budget(time.monotonic() - t0, len(self.iters))
        spent = 0.0
        while True:
            t = time.monotonic()
            if not self.extend(budget - spent):
                break
            spent += time.monotonic() - t

    def add_profile(self, key: str, profile: dict[str, Any]) -> None:
        """Keep a profile (run/profile.py) of instance key with this run."""
        with self.store.transaction():
            self.store.add_profile(self._id, key, profile)

    def record(
        self,
        rnd: int,
        key: str,
        meta: dict[str, Any],
        samples: Sequence[Row] = (),
        hists: Iterable[Row] = (),
        end: dict[str, Any] | None = None,
    ) -> stats.Stats:
        """Store one instance's records of round rnd (meta, samples, histograms and its end
        record) -> its statistics (stats.Stats)."""
        end = end or {}
        status, reason = end.get("status", "failed"), end.get("reason", "")
        if status == "ok" and end.get("verified"):  # the check the instance passed, kept with its row
            meta = dict(meta, verified=end["verified"])
        w = self.writer
        assert w is not None, "Run.open() comes first"
        with self.store.transaction():
            rid, new = w.row(key, meta, status, reason, rnd)
            w.add(rid, rnd, samples, hists)
            st = w.restat(rid)
        if new and status == "ok" and meta.get("iters"):
            self.iters[key] = meta["iters"]
        if "wall_ns" in end:
            self.wall_ns[key] = end["wall_ns"]
        return st

    # ---- one round ----
    def _argv(
        self, patterns: Iterable[str], seed: int, keys: Iterable[str] | None = None, samples: int | None = None
    ) -> list[str]:
        c = self.cfg
        argv = ["run", "--samples", str(samples or c.samples), "--seed", str(seed)]
        if c.sample_ms is not None:
            argv += ["--sample-ms", str(c.sample_ms)]
        for p in c.params:
            argv += ["--param", p]
        if c.timeout is not None:
            argv += ["--timeout", str(c.timeout)]
        if c.host_clock:
            argv.append("--host-clock")
        if c.cpu is not None:
            argv += ["--cpu", str(c.cpu)]
        for k in keys or ():
            argv += ["--iters", f"{k}={self.iters[k]}"]
        return argv + ["--", *patterns]  # patterns never read as options

    def _cancelled(self) -> None:
        """Stopped from another thread (a campaign's Ctrl-C): end like an interrupt."""
        if self.cancel is not None and self.cancel.is_set():
            raise _Interrupt()

    def _round(
        self,
        rnd: int,
        patterns: Sequence[str],
        keys: Sequence[str] | None = None,
        retried: bool = False,
        samples: int | None = None,
    ) -> None:
        self._cancelled()
        seed = self.rng.randrange(1, 2**31)
        self.notes["seeds"].append(seed)
        self.notes["round_in_progress"] = rnd
        self.store.update_run(self._id, notes=self.notes)
        if self.cfg.before:
            self.core.target.before_round(self.cfg.before)
        session = self.core.start(self._argv(patterns, seed, keys, samples))
        with self._lock:
            self._session = session
        try:
            self._read_round(session, rnd, patterns, keys, retried)
        finally:
            with self._lock:
                self._session = None

    @staticmethod
    def _timed_records(session: Session, dog: Watchdog, parser: Reader) -> Iterator[tuple[dict[str, Any], int]]:
        """The round's valid records, each with the time its line arrived (the session's own
        timestamp where it takes one, else when it was read): (record, time.monotonic_ns)."""
        for line in dog.watch(session.lines()):
            at = session.arrival_ns()
            at = time.monotonic_ns() if at is None else at
            for rec in parser.feed_line(line):
                yield rec, at

    def _read_round(
        self, session: Session, rnd: int, patterns: Sequence[str], keys: Sequence[str] | None, retried: bool
    ) -> None:
        parser = Reader()
        wanted = set(keys) if keys is not None else None
        cur: dict[str, dict[str, Any]] = {}
        saw_bye, bye = False, {}
        dog = Watchdog(self.silence_limit(), session.kill)
        order: list[str] = []
        ended: set[str] = set()
        core_errors: list[str] = []
        try:
            for rec, at in self._timed_records(session, dog, parser):
                t = rec.get("t")
                key = rec.get("key")
                if t == "hello":
                    order = list(rec.get("order") or [])
                    self._hello(rec, rnd, keys)
                elif t == "meta" and key:
                    cur[key] = {"meta": rec, "samples": [], "hists": [], "marks": []}
                elif t == "sample" and key in cur:
                    cur[key]["samples"].append(rec)
                elif t == "mark" and key in cur:  # --host-clock: the host times it as it arrives
                    cur[key]["marks"].append(dict(rec, host_ns=at))
                elif t == "hist" and key in cur:
                    cur[key]["hists"].append(rec)
                elif t == "end" and key:
                    ended.add(key)
                    inst = cur.pop(key, {"meta": {}, "samples": [], "hists": [], "marks": []})
                    if inst["marks"]:
                        inst["samples"], inst["meta"], dropped = hostclock.instance(
                            inst["meta"], inst["marks"], self.core.target.char_ns
                        )
                        if dropped:
                            self.notes["problems"].append(
                                f"round {rnd}: {key}: {dropped} host-timed sample(s) left out "
                                "(a mark missing, or the chunks' difference within the timestamps' noise)"
                            )
                    if wanted is None or key in wanted:
                        self.record(rnd, key, inst["meta"], inst["samples"], inst["hists"], rec)
                    if self.progress:
                        self.progress.advance(key, rnd)
                elif t == "bye":
                    saw_bye, bye = True, rec
                elif t == "error":  # the core's own word on what went wrong: the first cause
                    core_errors.append(f"round {rnd}: tickmark-core reported an error: {rec['reason']}")
        except BaseException:
            session.stop()
            session.clean_up(killed=True)
            raise
        finally:
            dog.cancel()
        rc, last_err = session.finish()
        session.clean_up(killed=rc < 0)
        self._cancelled()
        self.notes["junk"] += parser.junk
        self.notes["malformed"] += parser.malformed
        self.notes["problems"] += core_errors[:5] + [f"round {rnd}: TM1 {p}" for p in parser.summary()]
        if rnd == 1 and saw_bye and "instances" in bye and not retried:
            self.notes["planned"] = bye["instances"]
        if session.transport_lost:
            self._transport_lost(rnd, patterns, keys, session.transport_lost, ended, order, retried)
            return
        if rnd == 1 and rc == 2 and not self.hello:  # the core refused its command line
            raise TickmarkError(f"tickmark-core refused the run: {last_err or 'bad usage'}")
        if rc != 0 or not saw_bye:
            how = f"was killed by signal {-rc}" if rc < 0 else f"exited with status {rc}"
            if dog.fired:
                how = f"wrote nothing for {dog.seconds:.0f} s and was stopped (watchdog)"
            msg = f"round {rnd}: tickmark-core {how}" + ("" if saw_bye else " without finishing (no 'bye')")
            if last_err:
                msg += f": {last_err}"
            if core_errors:
                msg = f"{core_errors[0]}; then it {how}" + ("" if saw_bye else " without finishing (no 'bye')")
            self.notes["problems"].append(msg)
            self.notes.setdefault("incomplete", msg)
            if not cur and not saw_bye and self.core.in_process:
                # a core without isolation (bare metal) that died before the next instance's
                # first record died in that instance's setup
                nxt = next((k for k in order if k not in ended), None)
                if nxt is not None:
                    cur[nxt] = {"meta": {}, "samples": [], "hists": []}
            for key, inst in cur.items():  # instances it was in the middle of
                if (wanted is None or key in wanted) and self.store.result_id(self._id, key) is None:
                    self.record(
                        rnd,
                        key,
                        inst["meta"],
                        end={"status": "crashed", "reason": "tickmark-core died during this instance"},
                    )
        self.notes["rounds"] = rnd
        self.store.update_run(self._id, notes=self.notes)

    def silence_limit(self) -> float:
        """Seconds without a line from the core before the watchdog stops it: TICKMARK_WATCHDOG,
        else twice the per-instance time limit (the core's own default: 60 s) plus 10 s."""
        return environ_seconds("TICKMARK_WATCHDOG", 2 * (self.cfg.timeout or 60) + 10, whole=True)

    def _transport_lost(
        self,
        rnd: int,
        patterns: Sequence[str],
        keys: Sequence[str] | None,
        why: str,
        done: set[str],
        order: Sequence[str],
        retried: bool,
    ) -> None:
        """The round's connection dropped: what finished is stored; reconnect and retry the
        instances it had not finished, once; a second loss ends the run (incomplete)."""
        target = self.core.target
        self.notes["problems"].append(f"round {rnd}: connection to {target.uri} lost: {why}")
        self.store.update_run(self._id, notes=self.notes)
        if retried:
            raise TransportLost(f"connection to {target.uri} lost again in round {rnd} after a retry: {why}")
        if not target.reconnects:
            raise TransportLost(f"connection to {target.uri} lost in round {rnd}: {why}")
        try:
            target.reconnect()
        except TickmarkError as e:
            raise TransportLost(f"connection to {target.uri} lost in round {rnd} and not restored: {e}")
        todo = [k for k in order if k not in done] if order else None
        if todo == []:
            return
        self.notes.setdefault("retried_rounds", []).append(rnd)
        if todo is None:  # lost before the round said what it would run: the whole round again
            self._round(rnd, patterns, keys, retried=True)
        else:
            self._round(rnd, todo, [k for k in keys if k in todo] if keys is not None else None, retried=True)

    def _hello(self, rec: dict[str, Any], rnd: int, keys: Sequence[str] | None) -> None:
        if rnd == 1 and not self.hello:
            self.hello = rec
            # a target may know better what the core's cycles are (QEMU icount: instructions)
            self.cycles_method = self.core.cycles_method or rec.get("cycles", "none")
            fp = self.core.fingerprint(rec)
            fp["cycles_method"] = self.cycles_method  # the run's own: what its statistics are in
            if self.cfg.before:
                fp["before"] = self.cfg.before
            if self.cfg.cpu is not None:
                fp["cpu"] = self.cfg.cpu
            self.writer = ResultWriter(self.store, self._id, self.cycles_method, fp["flags"])
            order = rec.get("order") or []
            self.notes["planned"] = len(order) or None
            self.store.update_run(self._id, hello=rec, fingerprint=fp)
            if not self.core.target.reruns:
                self._board_chose(rec)
        if self.progress:
            n = len(keys) if keys is not None else len(rec.get("order") or [])
            self.progress.round_started(rnd, n)

    def _board_chose(self, hello: dict[str, Any]) -> None:
        """A target that takes no arguments (a console without a shell, a captured log): the run
        records what the board ran and the board's seed, not what was typed here."""
        if isinstance(hello.get("seed"), int):
            self.notes["seeds"][-1] = hello["seed"]
        ran = {k: hello[k] for k in ("samples", "sample_ms", "seed") if isinstance(hello.get(k), int)}
        benches = sorted({str(k).split("[", 1)[0] for k in hello.get("order") or []})
        self.store.update_run(self._id, options=dict(self.cfg.options(), **ran), notes=self.notes)
        if benches:
            self.store.update_run(self._id, patterns=benches)

    def _disturbance(self) -> dict[str, Disturbance]:
        """{key: Disturbance} of the results written in this run."""
        keys = {r["id"]: r["key"] for r in self.store.results(self.run_id)}
        assert self.writer is not None, "Run.open() comes first"
        return {keys[rid]: d for rid, d in self.writer.disturbance.items() if rid in keys}

    def disturbed(self) -> dict[str, Any]:
        """How much of the run was disturbed (stored in its notes, said at the end of `run`): the
        results whose wall time was contended ([key, on-CPU share], least on a CPU first, and
        how many extra rounds each had), out of how many had the evidence, the samples kept
        off the CPU out of those that say, and the extra rounds that took more samples to reach
        the CPU time's floor."""
        ds = self._disturbance()
        hit = sorted(((k, d.share) for k, d in ds.items() if d.share is not None and d.contended), key=lambda x: x[1])
        extended = self.notes.get("extended") or {}
        return {
            "results": [[k, round(share, 3), extended.get(k, 0)] for k, share in hit],
            "of": sum(d.share is not None for d in ds.values()),
            "samples": sum(d.off for d in ds.values()),
            "samples_of": sum(d.n for d in ds.values()),
            # extra rounds that took FLOOR_SAMPLES times the samples, for a floor too few reached
            "floor_rounds": self.notes.get("floor_rounds", 0),
        }

    def _round_cv(self) -> dict[str, float]:
        out = {}
        for r in self.store.results(self.run_id):
            main = stats.Stats.of(r).main
            if r["key"] in self.iters and main and main.round_cv is not None:
                out[r["key"]] = main.round_cv
        return out

    def pick_extra(self, budget_left: float) -> list[str]:
        """Instance keys that deserve an extra round (wall time contended, least on a CPU first:
        the one rule of analysis/verdict.py; then round-to-round CV above 3 %, worst first; then
        nbench kernels not yet within ±5 %), as many as fit in budget_left seconds."""
        cvs = self._round_cv()
        ds = self._disturbance()
        contended = {
            k: d.share for k, d in ds.items() if d.share is not None and d.contended
        }  # (no share: not contended)
        noisy = sorted((k for k in contended if k in self.iters), key=lambda k: contended[k])
        noisy += sorted((k for k, v in cvs.items() if v > NOISY_ROUND_CV and k not in noisy), key=lambda k: -cvs[k])
        noisy += [k for k in nbench_unsettled(self.store, self.run_id) if k in self.iters and k not in noisy]
        chosen: list[str] = []
        cost = 0.2  # process start and the core's own start-up calibration
        for k in noisy:
            k_cost = self.wall_ns.get(k, 1e9) / 1e9 * (FLOOR_SAMPLES if k in ds and ds[k].floor_unheld else 1)
            if cost + k_cost <= budget_left:
                chosen.append(k)
                cost += k_cost
        return chosen


def check_no_profile(store: Store, run: Row, key: str) -> None:
    """A run keeps one profile per instance: one it holds already is never replaced
    (TickmarkError saying how to keep both)."""
    if key in store.profiles(run["id"]):
        raise TickmarkError(
            f"run '{run['name'] or run['id']}' has a profile of {key} already: a run keeps one profile per "
            "instance (profile into a run of its own, without --run, to keep both)"
        )


def attach_profile(store: Store, run: Row, key: str, profile: dict[str, Any]) -> None:
    """Keep a profile of instance key with a stored run (check_no_profile: never over another)."""
    with store.transaction():
        check_no_profile(store, run, key)
        store.add_profile(run["id"], key, profile)
