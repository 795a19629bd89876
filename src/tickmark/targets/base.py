"""The target contract: everything the harness may ask of a target, its cores and their sessions,
declared here with its default. A target module subclasses Target (and Core and Session where it
must), overrides what differs, and registers its URI scheme with @register; the harness asks
only what is declared here (no probing for attributes, no tests of a target's class).

    Target    where the core runs: prepare() a Core for a Variant, fingerprint(), close();
              put_file() for the programs the core starts (exec);
              how help and errors name it: usage, profile_usage, kernel_usage, program_usage;
              what it can do: emulated, reruns, takes_prebuilt, power_cycles, reconnects
              (reconnect()), profiles (where a sampler runs: connect(), run_remote()), char_ns;
              where it runs: runs_here, host_key(); its URI options (options: uri.Option),
              parsed by from_uri() (check_uri(): checked without reaching the target);
              what it builds from besides the core and the variant: source_identity()
              (source_identity_of(): without reaching the target)
    Core      a core prepared for one target and variant: start() a Session, call() to the end;
              in_process, cycles_method, profile_runner()
    Session   one started core (a round): lines(), arrival_ns(), finish(), stop(), kill(),
              clean_up(); transport_lost, program
    Wrapping  a target (and its core) that reaches the board through another (labgrid over SSH
              or serial): what it does not define itself is the wrapped one's, whatever the
              contract declares, now or later (no capability is copied by hand)
"""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
from dataclasses import dataclass

from ..base.errors import TickmarkError
from ..base.waiting import Watchdog

_REGISTRY = {}


def shown(text, limit=80):
    """A URI (or a piece of one) as error messages quote it: control characters escaped, a long
    one cut short (a 5,000-digit option must not push the reason off the line)."""
    from ..base.names import printable

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


def signal_name(n):
    """SIGSEGV (signal 11), or 'signal N' for a number this system does not name."""
    try:
        return f"{signal.Signals(n).name} (signal {n})"
    except ValueError:
        return f"signal {n}"


class Session:
    """One started core (a round): its output lines as they arrive, then its exit status."""

    program = "tickmark-core"  # the program whose exit status finish() gives (a signal's victim)

    # why the connection to the target dropped during this round (None: it did not); the
    # harness then asks the target to reconnect() and runs what the round had not finished again
    transport_lost = None

    def lines(self):
        raise NotImplementedError

    def arrival_ns(self):
        """When the line lines() gave last arrived (time.monotonic_ns), where the session
        timestamps lines as they come off the wire (a serial console); None: it did not, take the
        time it was read."""
        return None

    def finish(self):
        """Wait for the end -> (exit status, negative for a signal; last line of its stderr)."""
        raise NotImplementedError

    def stop(self):
        """Stop it now (idempotent)."""
        raise NotImplementedError

    def kill(self):
        """Stop it at once, whatever it started (a core that stopped answering)."""
        self.stop()

    def clean_up(self, killed):
        """After the round (killed: it ended by a signal or was stopped): remove what a core that
        did not end by itself leaves behind."""


def tied_to_this_thread(argv):
    """argv started through util-linux's setpriv with a parent-death signal, where both are
    there: the process gets SIGTERM when the thread that starts it ends, however that happens (a
    tickmark killed with SIGKILL leaves no emulated machine running). A program that is not
    found is started as it is, so that the error says so."""
    setpriv = shutil.which("setpriv")
    if not (argv and setpriv and shutil.which(argv[0])):
        return list(argv)
    return [setpriv, "--pdeathsig", "TERM", "--", *argv]


class ProcessSession(Session):
    """A session that is a local process (the core itself, or ssh/qemu running it). tied: ended
    with the thread that starts it (tied_to_this_thread), for a program that takes no parent-death
    signal of its own (QEMU; the core takes one itself); that thread must outlive the session."""

    def __init__(self, argv, what="tickmark-core", cwd=None, env=None, tied=False):
        self.argv, self.what = list(argv), what
        self.program = os.path.basename(self.argv[0]) if self.argv else what
        self.errfile = tempfile.TemporaryFile(mode="w+")
        try:
            self.proc = subprocess.Popen(
                tied_to_this_thread(self.argv) if tied else self.argv,
                stdout=subprocess.PIPE,
                stderr=self.errfile,
                stdin=subprocess.DEVNULL,
                text=True,
                bufsize=1,
                errors="replace",
                start_new_session=True,
                cwd=cwd,
                env=env,
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

    def kill(self):
        """The whole process group: a core runs each benchmark in a child process that would
        otherwise hold its output open."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.stop()

    def clean_up(self, killed):
        """A killed core leaves its scratch folder ($TMPDIR/tickmark-<pid>; it removes its own
        when it ends normally) and maybe children behind."""
        if killed:
            self.kill()
            tmp = os.environ.get("TMPDIR") or "/tmp"
            shutil.rmtree(os.path.join(tmp, f"tickmark-{self.proc.pid}"), ignore_errors=True)


class Core:
    """A core prepared for one target and variant. `build` describes it (stored with the run)."""

    in_process = False  # every benchmark runs in the one program (bare metal): a fault ends the round
    cycles_method = None  # what the core's cycles are when the target knows better than its hello

    def __init__(self, target, build=None, label=None, emulated=None):
        self.target, self.build, self.label = target, build, label
        self.emulated = target.emulated if emulated is None else emulated

    def start(self, args):
        """Start the core with ARGS (e.g. ["run", "sys.*", "--seed", "7"]) -> Session."""
        raise NotImplementedError

    def call(self, args, timeout=120):
        """Run the core with ARGS to completion -> its records. TickmarkError when it fails."""
        from ..base.tm1 import Reader

        s = self.start(args)
        p = Reader()
        out = []
        timer = Watchdog(timeout, s.stop)  # never fed: a deadline
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
        if rc < 0:  # by a signal: which process (the core, or the emulator that runs it) and which signal
            how = f"{s.program} was killed by {signal_name(-rc)}" + (f": {err}" if err else "")
            raise TickmarkError(f"tickmark-core {args[0]} failed on {self.target.uri}: {how}")
        if rc != 0:
            raise TickmarkError(f"tickmark-core {args[0]} failed on {self.target.uri}: {err or f'exit status {rc}'}")
        return out

    def fingerprint(self, hello=None):
        return self.target.fingerprint(self, hello)

    def profile_runner(self):
        """Where a sampler runs beside this core (targets/profiling.py), or None where none can."""
        return None


class Target:
    """Where the core runs. Subclasses set scheme and implement prepare() and fingerprint()."""

    scheme = None
    # how the help of --target names its URIs ("ssh://[user@]host[:port], ssh:ALIAS"): every
    # registered target has one (the help of every command and the errors read them)
    usage = None
    # how the help of `profile --target` names it where a sampler can run beside its core (its
    # `profiles`, or a wrapped target's); None: it is never profiled
    profile_usage = None
    # the URIs that boot a Linux kernel image of --kernel IMAGE [--append ARGS], in words; None: none
    kernel_usage = None
    # how the help of `exec --target` names it where it can start any program (put_file); None: not
    program_usage = None
    emulated = False  # every result of this target is flagged `emulated`
    reruns = True  # False: cannot take new arguments per round (one round per start)
    takes_prebuilt = False  # accepts a prebuilt core binary instead of building one
    power_cycles = False  # has power control: --power-cycle applies
    reconnects = False  # reconnect() can restore a connection that dropped during a round
    # where a sampler (perf, gprof) runs beside the core: None (nowhere), "here" (the core is a
    # process of this machine) or "remote" (on the target, through connect() and run_remote())
    profiles = None
    # the core runs on this machine, in its time (local, qemu-user): two such targets disturb each
    # other's numbers, so a campaign never runs their cells at once (host_key())
    runs_here = False
    options = ()  # the URI's options (uri.Option), parsed by from_uri with uri.parse
    # how long one character takes on the way from the core (a serial line: 10 bits at the baud
    # rate), in ns: the resolution of a time the host takes from a line's arrival; 0: no such limit
    char_ns = 0

    def __init__(self, uri, prebuilt=None):
        self.uri = uri
        if prebuilt and not self.takes_prebuilt:
            raise TickmarkError(f"a prebuilt core (--core/TICKMARK_CORE) cannot be used with --target {uri}")
        self.prebuilt = prebuilt

    @classmethod
    def from_uri(cls, uri, **options):
        return cls(uri, **options)

    @classmethod
    def check_uri(cls, uri):
        """The URI checked without reaching the target -> the machine its cores run on (see
        host_key()). The default makes the target and closes it again: a target reaches nothing
        before prepare(); one that does when it is made (labgrid) overrides this."""
        t = cls.from_uri(uri)
        try:
            return t.host_key()
        finally:
            t.close()

    @classmethod
    def source_identity_of(cls, uri):
        """source_identity() of the target URI names, without reaching the target (as
        check_uri(): the default makes the target and closes it again)."""
        t = cls.from_uri(uri)
        try:
            return t.source_identity()
        finally:
            t.close()

    def source_identity(self):
        """What the core is built or booted with besides the core's own sources and the variant
        (an OS's source tree, a kernel image), as it is now, read cheaply: no build, no boot ->
        {name: {"what": words, "path": ..., and a digest such as "sha256"}}; {} for a target that
        builds from the core and the variant alone (the default). A campaign keeps it in each
        cell's definition, so that another tree or an edited one runs the cell again.
        TickmarkError when it cannot be read (the tree is missing)."""
        return {}

    def host_key(self):
        """What the cores run on, as a key: two targets with the same key share a machine (a
        campaign runs one cell at a time on it). This machine for targets that run here, else
        the URI."""
        return "this machine" if self.runs_here else self.uri

    def prepare(self, variant=None):
        raise NotImplementedError

    def fingerprint(self, core, hello=None):
        raise NotImplementedError

    def base_fingerprint(self, fp, core=None):
        """What every target adds: the URI, the host that drove it, the emulated flag."""
        emulated = core.emulated if core is not None else self.emulated
        if core is not None and core.cycles_method:
            fp["cycles_method"] = core.cycles_method
        fp["target_uri"] = self.uri
        fp["host"] = socket.gethostname()
        fp["emulated"] = bool(emulated)
        if emulated and "emulated" not in fp.get("flags", []):
            fp["flags"] = list(fp.get("flags", [])) + ["emulated"]
        return fp

    def reconnect(self):
        """Restore a connection that dropped (a target that reconnects says so: reconnects)."""
        raise TickmarkError(f"{self.uri} cannot reconnect")

    def connect(self):
        """Open the connection to the target now, where it has one (else nothing to do)."""

    def put_file(self, path):
        """Copy a file into the folder where the core starts programs on the target (`tickmark exec
        --file`: the program finds it as ./NAME) -> its name there."""
        raise TickmarkError(f"{self.uri} cannot take files for a program (exec --file)")

    def has_shell(self):
        """Whether commands can be run on the target (run_remote, or this machine itself)."""
        return self.runs_here or type(self).run_remote is not Target.run_remote

    def before_round(self, command, timeout=300):
        """Run `command` (run --before: drop the caches, settle the machine) through the
        target's shell before a round; TickmarkError when it fails or there is no shell."""
        if self.runs_here:
            import subprocess

            try:
                r = subprocess.run(
                    ["sh", "-c", command], capture_output=True, text=True, errors="replace", timeout=timeout
                )
            except subprocess.TimeoutExpired:
                raise TickmarkError(f"--before command did not end within {timeout} s: {shown(command, 60)}")
        else:
            r = self.run_remote(command, timeout=timeout, check=False)
        if r.returncode != 0:
            said = " ".join((r.stderr or r.stdout or "").split())[-200:]
            raise TickmarkError(
                f"--before command failed (exit status {r.returncode}): {shown(command, 60)}"
                + (f": {said}" if said else "")
            )

    def run_remote(self, script, timeout=120, check=True, stdin=None):
        """Run a shell command on the target -> CompletedProcess (a target with a shell)."""
        raise TickmarkError(f"{self.uri} has no shell to run commands in")

    def process_limits(self):
        """What a process may do on the target (probe.process_limits: real-time priority,
        the CPUs it may run on), asked through the target's shell; None for a target without
        one (a console, a bare-metal board)."""
        from ..facts import probe

        try:
            self.connect()
            r = self.run_remote(probe.LIMITS_SCRIPT, timeout=30, check=False)
        except TickmarkError:
            return None
        return probe.process_limits(probe.parse_probe(r.stdout))

    def close(self):
        """Release what the target holds (remote folders, connections, machines). Idempotent."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Wrapping:
    """The forwarding base of a target or core that wraps another one (`inner`; labgrid's place
    over its SSH or serial target): every public member of the contract (CONTRACT: Target or Core,
    its capabilities and methods as declared above) that the wrapping class does not define
    itself is the inner one's, looked up each time it is asked (so a capability added to the
    contract is forwarded without a word in the wrapper). OWN names the contract's members that
    stay the wrapper's although it does not define them (what the base builds from the wrapper's
    own parts). Before the inner one exists, the contract's defaults answer."""

    CONTRACT = None
    OWN = frozenset()

    def __getattribute__(self, name):
        if name[:1] == "_":
            return object.__getattribute__(self, name)
        cls = type(self)
        contract = cls.CONTRACT
        if name in contract.__dict__ and name not in cls.OWN and name not in object.__getattribute__(self, "__dict__"):
            own = next((k for k in cls.__mro__ if name in k.__dict__), None)
            inner = object.__getattribute__(self, "__dict__").get("inner")
            if inner is not None and issubclass(contract, own):  # defined by the contract only: forward
                return getattr(inner, name)
        return object.__getattribute__(self, name)


class WrappingTarget(Wrapping, Target):
    """A target that reaches its board through another target (`inner`, opened by the wrapper):
    its identity (URI, scheme, options), how it is made and closed, and its fingerprint's base are
    its own; every capability and remote method (profiles, connect, run_remote, reconnects, ...)
    is the inner target's unless the wrapper defines it."""

    CONTRACT = Target
    OWN = frozenset({"scheme", "options", "from_uri", "check_uri", "host_key", "base_fingerprint", "close"})
    inner = None


class WrappingCore(Wrapping, Core):
    """The core of a WrappingTarget: the inner target's core (`inner`), started through the wrapper
    (start() is the wrapper's, and so is call(), made of it); every other capability (in_process,
    cycles_method, profile_runner, ...) is the inner core's unless the wrapper defines it."""

    CONTRACT = Core
    OWN = frozenset({"call", "fingerprint"})

    def __init__(self, target, inner):
        super().__init__(target, inner.build, inner.label, inner.emulated)
        self.inner = inner
