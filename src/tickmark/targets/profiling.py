"""Where a sampler runs: next to the core, on this machine or on an SSH board (a target's core
gives its runner: Core.profile_runner()). This is target code: how a core is started under a
sampler on each kind of target; run/profile.py drives it, profile/ reads what the sampler wrote.

A runner starts the core behind a command prefix (`perf record ... --`, `env GMON_OUT_PREFIX=...`)
in a private folder, reads the core's records, and brings the sampler's file back to the host,
where the symbols are resolved from the unstripped binary.
"""

import base64
import os
import shlex
import shutil
import subprocess
import tempfile
import time

from ..base.errors import TickmarkError
from ..base.names import decimal
from ..base.tm1 import Parser
from ..base.waiting import Watchdog


class Instance:
    """What the core reported while it ran under the sampler."""

    def __init__(self):
        self.hello, self.meta, self.samples, self.end = {}, {}, [], None
        self.key = None
        self.too_many = None

    def feed(self, rec):
        """One record; False when the run should be stopped (more than one instance selected)."""
        t = rec.get("t")
        if t == "hello":
            self.hello = rec
            order = rec.get("order") or []
            if len(order) != 1:
                self.too_many = order
                return False
            self.key = order[0]
        elif t == "meta":
            self.meta = rec
        elif t == "sample":
            self.samples.append(rec)
        elif t == "end":
            self.end = rec
        return True

    def check(self, rc, last_err):
        if self.too_many is not None:
            shown = ", ".join(self.too_many[:4]) + (" ..." if len(self.too_many) > 4 else "")
            raise TickmarkError(
                f"a profile takes one benchmark instance; this selects {len(self.too_many)} "
                f"({shown}): give one key or --param with one value"
            )
        if rc == 2 and not self.hello:
            raise TickmarkError(f"tickmark-core refused the run: {last_err or 'bad usage'}")
        if self.end is None:
            how = f"exit status {rc}" if rc >= 0 else f"signal {-rc}"
            raise TickmarkError(f"the profiled run did not finish ({how}): {last_err or 'no end record'}")
        if self.end.get("status") != "ok":
            why = self.end.get("reason") or "no reason given"
            raise TickmarkError(f"{self.key}: {self.end.get('status')} under the profiler: {why}")
        return self


class LocalRunner:
    """The core is a process of this machine (local, or a cross build under qemu-user)."""

    remote = False

    def __init__(self, core):
        self.core = core
        self.dir = tempfile.mkdtemp(prefix="tickmark-profile-")
        self.binary_path = core.argv[-1]  # the path the sampler records for the core

    def path(self, name):
        return os.path.join(self.dir, name)

    def user_only(self):
        from ..profile import perf

        return perf.user_only_needed()

    def run(self, prefix, args, timeout):
        inst, parser = Instance(), Parser()
        err = tempfile.TemporaryFile(mode="w+")
        argv = list(prefix) + list(self.core.argv) + list(args)
        try:
            proc = subprocess.Popen(
                argv,
                stdout=subprocess.PIPE,
                stderr=err,
                stdin=subprocess.DEVNULL,
                cwd=self.dir,
                text=True,
                bufsize=1,
                errors="replace",
            )
        except OSError as e:
            err.close()
            raise TickmarkError(f"cannot start {argv[0]}: {e.strerror}")
        deadline = time.monotonic() + timeout
        dog = Watchdog(timeout, proc.terminate)  # never fed: the deadline of the whole run
        stop = False
        try:
            for line in proc.stdout:
                rec = parser.next_record(line)
                if rec is not None and not inst.feed(rec):
                    stop = True
                    break
        finally:
            dog.cancel()
            if stop and proc.poll() is None:
                proc.terminate()
            try:
                proc.wait(timeout=max(5.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            proc.stdout.close()
        err.seek(0)
        lines = [x for x in err.read().strip().splitlines() if x.strip()]
        err.close()
        return inst.check(proc.returncode, lines[-1] if lines else "")

    def fetch(self, name):
        """The sampler's file, on this machine -> its path (None when it was not written)."""
        p = self.path(name)
        return p if os.path.isfile(p) else None

    def glob(self, prefix):
        found = sorted(
            (f for f in os.listdir(self.dir) if f.startswith(prefix)), key=lambda f: os.path.getmtime(self.path(f))
        )
        return found[-1] if found else None

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class SshRunner:
    """The core runs on a board over the SSH target's connection; files come back in base64."""

    remote = True

    def __init__(self, core):
        self.core, self.target = core, core.target
        r = self.target.run_remote(f"mktemp -d {shlex.quote(self.target.remote_dir)}/profile.XXXXXX")
        self.dir = r.stdout.strip()
        self.binary_path = f"{self.target.remote_dir}/{core.remote_name}"
        self.local = tempfile.mkdtemp(prefix="tickmark-profile-")

    def path(self, name):
        return f"{self.dir}/{name}"

    def user_only(self):
        r = self.target.run_remote("id -u; cat /proc/sys/kernel/perf_event_paranoid", timeout=60, check=False)
        words = r.stdout.split()
        if len(words) == 2 and words[0] == "0":
            return False
        level = words[1] if len(words) == 2 else ""
        n = decimal(level.removeprefix("-"), 3)
        return not (n is not None and (level.startswith("-") or n <= 1))

    def run(self, prefix, args, timeout):
        q = " ".join(shlex.quote(a) for a in [*prefix, self.binary_path, *args])
        r = self.target.run_remote(f"cd {shlex.quote(self.dir)} && {q} </dev/null", timeout=timeout, check=False)
        inst, parser = Instance(), Parser()
        for line in r.stdout.splitlines():
            rec = parser.next_record(line)
            if rec is not None and not inst.feed(rec):
                break
        lines = [x for x in r.stderr.strip().splitlines() if x.strip()]
        return inst.check(r.returncode, lines[-1] if lines else "")

    def fetch(self, name):
        r = self.target.run_remote(f"base64 < {shlex.quote(self.path(name))}", timeout=600, check=False)
        if r.returncode != 0:
            if "not found" in r.stderr:
                raise TickmarkError(f"{self.target.uri}: cannot bring the profile back: base64 is not installed there")
            return None
        local = os.path.join(self.local, name)
        with open(local, "wb") as f:
            f.write(base64.b64decode("".join(r.stdout.split())))
        return local

    def glob(self, prefix):
        r = self.target.run_remote(f"cd {shlex.quote(self.dir)} && ls -t", timeout=60, check=False)
        found = [f for f in r.stdout.split() if f.startswith(prefix)]
        return found[0] if found else None

    def close(self):
        shutil.rmtree(self.local, ignore_errors=True)
        try:
            self.target.run_remote(f"rm -rf {shlex.quote(self.dir)}", timeout=60, check=False)
        except TickmarkError:
            pass  # the target's own folder goes with its connection anyway
