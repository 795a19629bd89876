"""The run engine: run benchmarks on a target (any targets.Core) in rounds and store what they
measure as it arrives.

Round 1 lets the core calibrate iterations; rounds 2..R rerun every instance with those iterations
frozen (`--iters KEY=N`) and a fresh seed (the core shuffles the order by it). Each round is a
separate process. Afterwards, instances whose round-to-round CV is above 3 % (and cpu.* kernels not yet
within nbench's ±5 % criterion) get extra rounds (only those instances), up to max_rounds, within a
time budget.
"""

import random
import re
import signal
import time
from dataclasses import dataclass, field

from ..analysis import nbench, stats
from ..errors import TickmarkError
from ..tm1 import Reader

NOISY_ROUND_CV = stats.NOISY_ROUND_CV


@dataclass
class RunConfig:
    patterns: list
    rounds: int = 3
    max_rounds: int = 5
    samples: int = 5
    sample_ms: int = None
    seed: int = None
    params: list = field(default_factory=list)
    timeout: int = None
    name: str = None
    suite: str = None
    budget_s: float = None  # time for extra rounds; default: as long as the base rounds took
    labels: dict = field(default_factory=dict)  # KEY=VALUE stored in the run's notes (history orders by them)

    def options(self):
        return {
            k: getattr(self, k)
            for k in ("rounds", "max_rounds", "samples", "sample_ms", "seed", "params", "timeout", "budget_s")
        }


def split_key(key):
    """'sched.ring[procs=4,size=16]' -> ('sched.ring', {'procs': 4, 'size': 16})."""
    m = re.fullmatch(r"([^\[]+)(?:\[(.*)\])?", key)
    if not m:
        return key, {}
    params = {}
    for part in filter(None, (m.group(2) or "").split(",")):
        k, _, v = part.partition("=")
        params[k] = int(v) if re.fullmatch(r"-?\d+", v) else v
    return m.group(1), params


def result_metric(meta):
    return stats.unit_for(meta.get("stat"), meta.get("bytes_per_op", 0))


class TransportLost(TickmarkError):
    """The connection to the target dropped twice in a round (or could not be restored)."""


class _Interrupt(KeyboardInterrupt):
    def __init__(self, reason="interrupted (cancelled)"):
        super().__init__(reason)
        self.reason = reason


def on_signal(signum, frame):
    """The handler of SIGTERM and SIGHUP during a run: an interrupt that names the signal."""
    raise _Interrupt(f"interrupted by {signal.Signals(signum).name}")


class Watchdog:
    """Stops a session whose output stays silent for `seconds` (a core that hangs itself, beyond
    the per-instance timeout the core enforces on its benchmarks)."""

    def __init__(self, seconds, action):
        import threading

        self.seconds, self.action, self.fired = seconds, action, False
        self._last = time.monotonic()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._done.wait(min(1.0, self.seconds / 4)):
            if time.monotonic() - self._last > self.seconds:
                self.fired = True
                self.action()
                return

    def watch(self, lines):
        for line in lines:
            self._last = time.monotonic()
            yield line

    def cancel(self):
        self._done.set()


def _kill_group(session):
    """Kill a local core's whole process group (it runs each benchmark in a child process that
    would otherwise hold its output open)."""
    import os

    pid = getattr(getattr(session, "proc", None), "pid", None)
    if pid:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass


def _remove_scratch(session, rc):
    """The scratch folder of a core that was killed ($TMPDIR/tickmark-<pid>; it removes its own
    when it ends normally)."""
    import os
    import shutil

    pid = getattr(getattr(session, "proc", None), "pid", None)
    if rc < 0 and pid:
        _kill_group(session)
        shutil.rmtree(os.path.join(os.environ.get("TMPDIR") or "/tmp", f"tickmark-{pid}"), ignore_errors=True)


class HostRun:
    def __init__(self, store, core, cfg, progress=None):
        """core: a targets.Core (the core prepared for the target and variant)."""
        self.store, self.core, self.cfg = store, core, cfg
        self.build = core.build
        self.progress = progress
        self.cancel = None  # a threading.Event that stops the run between and inside rounds
        self.run_id = None
        self.hello = {}
        self.cycles_method = "none"
        self.env_flags = []
        self.iters = {}  # key -> frozen iterations (from round 1)
        self.wall_ns = {}  # key -> wall time of its last round
        self.notes = {"rounds": 0, "planned": None, "problems": [], "junk": 0, "malformed": 0, "seeds": []}
        if cfg.labels:
            self.notes["labels"] = dict(cfg.labels)
        self.rng = random.Random(cfg.seed) if cfg.seed is not None else random.SystemRandom()

    # ---- one round ----
    def _argv(self, patterns, seed, keys=None):
        c = self.cfg
        argv = ["run", *patterns, "--samples", str(c.samples), "--seed", str(seed)]
        if c.sample_ms is not None:
            argv += ["--sample-ms", str(c.sample_ms)]
        for p in c.params:
            argv += ["--param", p]
        if c.timeout is not None:
            argv += ["--timeout", str(c.timeout)]
        for k in keys or ():
            argv += ["--iters", f"{k}={self.iters[k]}"]
        return argv

    def _cancelled(self):
        """Stopped from another thread (a campaign's Ctrl-C): end like an interrupt."""
        if self.cancel is not None and self.cancel.is_set():
            raise _Interrupt()

    def _round(self, rnd, patterns, keys=None, retried=False):
        self._cancelled()
        seed = self.rng.randrange(1, 2**31)
        self.notes["seeds"].append(seed)
        self.notes["round_in_progress"] = rnd
        self.store.update_run(self.run_id, notes=self.notes)
        session = self.core.start(self._argv(patterns, seed, keys))
        self._session = session
        parser = Reader()
        wanted = set(keys) if keys is not None else None
        cur, saw_bye, bye = {}, False, {}
        dog = Watchdog(self.silence_limit(), lambda: _kill_group(session) or session.stop())
        order, ended = [], set()
        try:
            for rec in (r for line in dog.watch(session.lines()) for r in parser.feed_line(line)):
                t = rec.get("t")
                key = rec.get("key")
                if t == "hello":
                    order = list(rec.get("order") or [])
                    self._hello(rec, rnd, keys)
                elif t == "meta" and key:
                    cur[key] = {"meta": rec, "samples": [], "hists": []}
                elif t == "sample" and key in cur:
                    cur[key]["samples"].append(rec)
                elif t == "hist" and key in cur:
                    cur[key]["hists"].append(rec)
                elif t == "end" and key:
                    ended.add(key)
                    inst = cur.pop(key, {"meta": {}, "samples": [], "hists": []})
                    if wanted is None or key in wanted:
                        self._finish(key, rnd, inst, rec)
                    if self.progress:
                        self.progress.advance(key, rnd)
                elif t == "bye":
                    saw_bye, bye = True, rec
        except BaseException:
            session.stop()
            raise
        finally:
            dog.cancel()
        rc, last_err = session.finish()
        _remove_scratch(session, rc)
        self._cancelled()
        self.notes["junk"] += parser.junk
        self.notes["malformed"] += parser.malformed
        self.notes["problems"] += [f"round {rnd}: TM1 {p}" for p in parser.summary()]
        if rnd == 1 and saw_bye and "instances" in bye and not retried:
            self.notes["planned"] = bye["instances"]
        lost = getattr(session, "transport_lost", None)
        if lost:
            self._transport_lost(rnd, patterns, keys, lost, ended, order, retried)
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
            self.notes["problems"].append(msg)
            self.notes.setdefault("incomplete", msg)
            if not cur and not saw_bye and getattr(self.core, "in_process", False):
                # a core without isolation (bare metal) that died before the next instance's
                # first record died in that instance's setup
                nxt = next((k for k in order if k not in ended), None)
                if nxt is not None:
                    cur[nxt] = {"meta": {}, "samples": [], "hists": []}
            for key, inst in cur.items():  # instances it was in the middle of
                if (wanted is None or key in wanted) and self.store.result_id(self.run_id, key) is None:
                    self._finish(
                        key,
                        rnd,
                        {"meta": inst["meta"], "samples": [], "hists": []},
                        {"status": "crashed", "reason": "tickmark-core died during this instance"},
                    )
        self.notes["rounds"] = rnd
        self.store.update_run(self.run_id, notes=self.notes)

    def silence_limit(self):
        """Seconds without a line from the core before the watchdog stops it: twice the
        per-instance time limit (the core's own default: 60 s) plus 10 s."""
        return 2 * (self.cfg.timeout or 60) + 10

    def _transport_lost(self, rnd, patterns, keys, why, done, order, retried):
        """The round's connection dropped: what finished is stored; reconnect and retry the
        instances it had not finished, once; a second loss ends the run (incomplete)."""
        target = self.core.target
        self.notes["problems"].append(f"round {rnd}: connection to {target.uri} lost: {why}")
        self.store.update_run(self.run_id, notes=self.notes)
        if retried:
            raise TransportLost(f"connection to {target.uri} lost again in round {rnd} after a retry: {why}")
        reconnect = getattr(target, "reconnect", None)
        if reconnect is None:
            raise TransportLost(f"connection to {target.uri} lost in round {rnd}: {why}")
        try:
            reconnect()
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

    def _hello(self, rec, rnd, keys):
        if rnd == 1 and not self.hello:
            self.hello = rec
            # a target may know better what the core's cycles are (QEMU icount: instructions)
            self.cycles_method = getattr(self.core, "cycles_method", None) or rec.get("cycles", "none")
            fp = self.core.fingerprint(rec)
            self.env_flags = fp["flags"]
            order = rec.get("order") or []
            self.notes["planned"] = len(order) or None
            self.store.update_run(self.run_id, hello=rec, fingerprint=fp)
        if self.progress:
            n = len(keys) if keys is not None else len(rec.get("order") or [])
            self.progress.round_started(rnd, n)

    def _finish(self, key, rnd, inst, end):
        meta = inst["meta"]
        status, reason = end.get("status", "failed"), end.get("reason", "")
        st = self.store
        with st.transaction():
            rid = st.result_id(self.run_id, key)
            if rid is None:
                bench, params = split_key(key)
                rid = st.add_result(
                    self.run_id,
                    key=key,
                    bench=meta.get("bench", bench),
                    params=meta.get("params", params),
                    metric=result_metric(meta),
                    status=status,
                    reason=reason,
                    unit=meta.get("unit", ""),
                    stat=meta.get("stat", "median"),
                    meta=meta,
                )
                row_status = status
            else:
                row_status = None
                if status not in ("ok", "skip"):
                    st.update_result(rid, status=status, reason=f"round {rnd}: {reason}" if rnd > 1 else reason)
            if inst["samples"]:
                st.add_samples(rid, rnd, [dict(s, round=rnd) for s in inst["samples"]])
            for h in inst["hists"]:
                st.add_hist(rid, rnd, {k: v for k, v in h.items() if k not in ("t", "key")})
            if row_status is not None and status == "ok" and meta.get("iters"):
                self.iters[key] = meta["iters"]
            if "wall_ns" in end:
                self.wall_ns[key] = end["wall_ns"]
            self._restat(rid, meta or None)

    def _restat(self, rid, meta=None):
        st = self.store
        row = next(r for r in st.results(self.run_id) if r["id"] == rid) if meta is None else None
        meta = meta or row["meta"]
        s = stats.summarize(
            st.samples(rid),
            stat=meta.get("stat", "median"),
            bytes_per_op=meta.get("bytes_per_op", 0),
            hists=st.hists(rid),
            cycles_method=self.cycles_method,
            env_flags=self.env_flags,
        )
        st.update_result(rid, stats=s)
        return s

    # ---- the whole run ----
    def execute(self):
        c = self.cfg
        self.run_id = self.store.create_run(
            name=c.name,
            suite=c.suite,
            patterns=c.patterns,
            options=c.options(),
            fingerprint=self.core.fingerprint(None),
            notes=self.notes,
        )
        old = {}
        if _main_thread():  # a terminal closed or a kill: the run ends as incomplete, not 'running'
            for sig in (signal.SIGTERM, signal.SIGHUP):
                old[sig] = signal.signal(sig, on_signal)
        t0 = time.monotonic()
        try:
            self._round(1, c.patterns)
            if self.iters:
                benches = sorted({split_key(k)[0] for k in self.iters})
                for rnd in range(2, c.rounds + 1):
                    self._round(rnd, benches, sorted(self.iters))
                self._extend(c.rounds + 1, time.monotonic() - t0)
            self.notes.pop("round_in_progress", None)
            status = "incomplete" if self.notes.get("incomplete") else "complete"
            self.store.update_run(self.run_id, status=status, finished=time.time(), notes=self.notes)
        except TransportLost as e:
            self.notes["incomplete"] = str(e)
            self.store.update_run(self.run_id, status="incomplete", finished=time.time(), notes=self.notes)
            raise
        except TickmarkError:
            if not self.store.results(self.run_id):  # nothing measured: leave no empty run behind
                self.store.delete_run(self.run_id)
            raise
        except KeyboardInterrupt as e:
            if getattr(self, "_session", None):
                self._session.stop()
                _remove_scratch(self._session, -1)
            self.notes.setdefault("incomplete", getattr(e, "reason", None) or "interrupted (Ctrl-C)")
            self.store.update_run(self.run_id, status="incomplete", finished=time.time(), notes=self.notes)
            raise
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
        return self.run_id

    def _round_cv(self):
        out = {}
        for r in self.store.results(self.run_id):
            main = stats.Stats.of(r).main
            if r["key"] in self.iters and main and main.round_cv is not None:
                out[r["key"]] = main.round_cv
        return out

    def pick_extra(self, budget_left):
        """Instance keys that deserve an extra round (round-to-round CV above 3 %, worst first,
        then nbench kernels not yet within ±5 %), as many as fit in budget_left seconds."""
        cvs = self._round_cv()
        noisy = sorted((k for k, v in cvs.items() if v > NOISY_ROUND_CV), key=lambda k: -cvs[k])
        noisy += [k for k in nbench.unsettled(self.store, self.run_id) if k in self.iters and k not in noisy]
        chosen, cost = [], 0.2  # process start and the core's own start-up calibration
        for k in noisy:
            k_cost = self.wall_ns.get(k, 1e9) / 1e9
            if cost + k_cost <= budget_left:
                chosen.append(k)
                cost += k_cost
        return chosen

    def _extend(self, rnd, base_s):
        """Extra rounds for the instances whose round-to-round CV is above 3 %, worst first."""
        budget = self.cfg.budget_s if self.cfg.budget_s is not None else max(base_s, 5.0)
        spent = 0.0
        extra = {}
        while rnd <= self.cfg.max_rounds:
            chosen = self.pick_extra(budget - spent)
            if not chosen:
                break
            t = time.monotonic()
            self._round(rnd, sorted(chosen), chosen)  # instance keys: only those points rerun
            spent += time.monotonic() - t
            for k in chosen:
                extra[k] = extra.get(k, 0) + 1
            rnd += 1
        self.notes["extended"] = extra


def _main_thread():
    import threading

    return threading.current_thread() is threading.main_thread()


def check_patterns(core, patterns):
    """The bench records the patterns select, as the core decides; error when one selects nothing."""
    recs = core.call(["list", *patterns])
    for r in recs:
        if r.get("t") == "unmatched":
            raise TickmarkError(f"no benchmark matches '{r.get('pattern')}' (tickmark list shows them)")
    return [r for r in recs if r.get("t") == "bench"]
