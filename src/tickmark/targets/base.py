"""The target interface: prepare a core for a target, start rounds, read its fingerprint."""

import socket
import subprocess
import tempfile
from dataclasses import dataclass

from ..errors import TickmarkError

_REGISTRY = {}


def shown(text, limit=80):
    """A URI (or a piece of one) as error messages quote it: control characters escaped, a long
    one cut short (a 5,000-digit option must not push the reason off the line)."""
    from ..names import printable

    text = printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def with_options(args, *options):
    """A core command line with more options: before its patterns' '--' (after it they would be
    read as patterns)."""
    args = list(args)
    at = args.index("--") if "--" in args else len(args)
    return args[:at] + list(options) + args[at:]


def register(*schemes):
    """Class decorator: this Target handles URIs starting with SCHEME: (or equal to it)."""

    def deco(cls):
        for s in schemes:
            _REGISTRY[s] = cls
        return cls

    return deco


def registered():
    return dict(_REGISTRY)


@dataclass(frozen=True)
class Variant:
    """What to build: compiler, flags and memory-routine file (None: the target's default)."""

    cc: str = None
    cflags: str = None
    memfn: str = None
    ldflags: str = None
    cross_compile: str = None


class Session:
    """One started core (a round): its output lines as they arrive, then its exit status."""

    def lines(self):
        raise NotImplementedError

    def finish(self):
        """Wait for the end -> (exit status, negative for a signal; last line of its stderr)."""
        raise NotImplementedError

    def stop(self):
        """Stop it now (idempotent)."""
        raise NotImplementedError


class ProcessSession(Session):
    """A session that is a local process (the core itself, or ssh/qemu running it)."""

    def __init__(self, argv, what="tickmark-core"):
        self.argv, self.what = list(argv), what
        self.errfile = tempfile.TemporaryFile(mode="w+")
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdout=subprocess.PIPE,
                stderr=self.errfile,
                stdin=subprocess.DEVNULL,
                text=True,
                bufsize=1,
                errors="replace",
                start_new_session=True,
            )
        except OSError as e:
            self.errfile.close()
            raise TickmarkError(f"cannot start {self.argv[0]}: {e.strerror}")
        self._rc = None

    def lines(self):
        yield from self.proc.stdout

    def finish(self):
        if self._rc is None:
            self.proc.stdout.close()
            self._rc = self.proc.wait()
            self.errfile.seek(0)
            err = [ln for ln in self.errfile.read().strip().splitlines() if ln.strip()]
            self.errfile.close()
            self._err = err[-1] if err else ""
        return self._rc, self._err

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Core:
    """A core prepared for one target and variant. `build` describes it (stored with the run)."""

    def __init__(self, target, build=None, label=None, emulated=None):
        self.target, self.build, self.label = target, build, label
        self.emulated = target.emulated if emulated is None else emulated

    def start(self, args):
        """Start the core with ARGS (e.g. ["run", "sys.*", "--seed", "7"]) -> Session."""
        raise NotImplementedError

    def call(self, args, timeout=120):
        """Run the core with ARGS to completion -> its records. TickmarkError when it fails."""
        from ..tm1 import Reader

        s = self.start(args)
        p = Reader()
        out = []
        timer = _Watchdog(timeout, s.stop)
        try:
            for line in s.lines():
                out += p.feed_line(line)
        except BaseException:
            s.stop()
            raise
        finally:
            timer.cancel()
        rc, err = s.finish()
        if timer.fired:
            raise TickmarkError(f"tickmark-core {args[0]} on {self.target.uri} did not finish in {timeout} s")
        if rc != 0:
            raise TickmarkError(f"tickmark-core {args[0]} failed on {self.target.uri}: {err or f'exit status {rc}'}")
        return out

    def fingerprint(self, hello=None):
        return self.target.fingerprint(self, hello)


class _Watchdog:
    def __init__(self, seconds, action):
        import threading

        self.fired = False

        def fire():
            self.fired = True
            action()

        self.t = threading.Timer(seconds, fire)
        self.t.daemon = True
        self.t.start()

    def cancel(self):
        self.t.cancel()


class Target:
    """Where the core runs. Subclasses set scheme and implement prepare() and fingerprint()."""

    scheme = None
    emulated = False  # every result of this target is flagged `emulated`
    reruns = True  # False: cannot take new arguments per round (one round per start)
    takes_prebuilt = False  # accepts a prebuilt core binary instead of building one

    def __init__(self, uri, prebuilt=None):
        self.uri = uri
        if prebuilt and not self.takes_prebuilt:
            raise TickmarkError(f"a prebuilt core (--core/TICKMARK_CORE) cannot be used with --target {uri}")
        self.prebuilt = prebuilt

    @classmethod
    def from_uri(cls, uri, **options):
        return cls(uri, **options)

    def prepare(self, variant=None):
        raise NotImplementedError

    def fingerprint(self, core, hello=None):
        raise NotImplementedError

    def base_fingerprint(self, fp, core=None):
        """What every target adds: the URI, the host that drove it, the emulated flag."""
        emulated = core.emulated if core is not None else self.emulated
        fp["target_uri"] = self.uri
        fp["host"] = socket.gethostname()
        fp["emulated"] = bool(emulated)
        if emulated and "emulated" not in fp.get("flags", []):
            fp["flags"] = list(fp.get("flags", [])) + ["emulated"]
        return fp

    def close(self):
        """Release what the target holds (remote folders, connections, machines). Idempotent."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
