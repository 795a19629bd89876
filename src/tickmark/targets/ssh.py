"""ssh://[user@]host[:port] and ssh:ALIAS: a board reached through the system OpenSSH client.

The user's ssh configuration, agent, ProxyJump and host-key checking apply unchanged (a config
file of its own can be named with TICKMARK_SSH_CONFIG, passed as `ssh -F`: it then replaces both
~/.ssh/config and /etc/ssh/ssh_config). One connection per run:
the first ssh process is the ControlMaster (its socket in a private temporary folder); copying
the core and stopping a core are multiplexed over it without a new handshake.

That first process runs the holder, a small sh script on the board: it creates the run's folder
with `mktemp -d`, prints the board's fingerprint texts, then runs the command lines the harness
writes to its standard input (every round, `list`, `hello`), so a round costs neither a new ssh
session nor a login shell. When its input closes (the run ends, Ctrl-C, the harness is killed,
the connection drops) or its output is gone, it removes the folder. So no folder outlives its
connection, and nothing needs ControlPersist to keep the master alive.

`uname -m` of the board picks the cross compiler (a static build by default, so Buildroot and
musl boards work; --cc/--cflags override); the build cache keys it per compiler and flags.
A round whose connection drops is reported with `transport_lost` set on its session; the
harness then calls reconnect() and retries the round once."""

import os
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
import urllib.parse

from ..base.errors import TickmarkError
from ..base.names import decimal
from ..facts import probe
from . import toolchain
from .base import Core, Session, Target, Variant, register, shown

_DIR_MARK = "@@tickmark-dir "
_PID_MARK = "@@tickmark-pid "
_RC_MARK = "@@tickmark-rc "
_PROBE_END = "@@tickmark-probe-end"
# Holds the run's folder: created and announced, the board's fingerprint texts printed, then
# the folder removed when stdin closes (end of the run, Ctrl-C, a dropped connection).
_START_MARK = "@@tickmark-start "
_ERR_MARK = "@@tickmark-err "
# The holder: creates and announces the run's folder, prints the board's fingerprint texts, then
# runs the command lines the harness writes to its standard input, one at a time (no new ssh
# session and no login shell per round). When its input closes (end of the run, Ctrl-C, the
# harness killed, the connection dropped) or its output is gone (SIGPIPE), it removes the folder.
_HOLDER = (
    'if d=$(mktemp -d "${TMPDIR:-/tmp}/tickmark.XXXXXX"); then cd "$d" || exit 97; echo "'
    + _DIR_MARK
    + '$$ $d"\n'
    + probe.PROBE_SCRIPT
    + 'echo "'
    + _PROBE_END
    + '"\ntrap \'cd /; rm -rf "$d"; exit 0\' PIPE HUP TERM INT\n'
    + 'while IFS= read -r tm_l; do eval "$tm_l"; done\ncd /; rm -rf "$d"\nelse exit 97; fi'
)
# A dead connection is noticed within about 15 s even when no packet comes back, unless the ssh
# configuration sets ServerAliveInterval for the host (see SshTarget._keepalive).
_KEEPALIVE = ["-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"]


def parse_uri(uri):
    """'ssh://user@host:port' or 'ssh:ALIAS' -> (canonical uri, destination, port or None)."""
    if uri.startswith("ssh://"):
        try:
            u = urllib.parse.urlsplit(uri)
        except ValueError:  # e.g. an IPv6 address that is not one
            raise TickmarkError(f"bad --target '{shown(uri)}' (expected ssh://[user@]host[:port] or ssh:ALIAS)")
        if u.password is not None:  # never echoed
            raise TickmarkError("bad --target: a password cannot be part of an ssh:// URI (use a key or ssh-agent)")
        after_host = u.netloc.rpartition("@")[2].rpartition("]")[2]  # [v6 address]:port or host:port
        has_port, raw_port = ":" in after_host, after_host.partition(":")[2]
        if has_port and not (re.fullmatch(r"[0-9]{1,5}", raw_port) and 1 <= int(raw_port) <= 65535):
            # ASCII digits only, and never port 0 (which would quietly become 22)
            raise TickmarkError(f"bad --target '{shown(uri)}' (the port must be a number, 1..65535)")
        try:
            host, port, user = u.hostname, u.port, u.username
        except ValueError:
            raise TickmarkError(f"bad --target '{shown(uri)}' (the port must be a number, 1..65535)")
        if not host or u.path not in ("", "/") or u.query or u.fragment:
            raise TickmarkError(f"bad --target '{shown(uri)}' (expected ssh://[user@]host[:port] or ssh:ALIAS)")
        dest = (f"{user}@" if user else "") + (host if ":" not in host else host)
        canon = (
            "ssh://"
            + (f"{user}@" if user else "")
            + (f"[{host}]" if ":" in host else host)
            + (f":{port}" if port else "")
        )
    else:
        host, port = uri.partition(":")[2], None
        if not host or "/" in host or " " in host:
            raise TickmarkError(f"bad --target '{shown(uri)}' (expected ssh://[user@]host[:port] or ssh:ALIAS)")
        dest, canon = host, f"ssh:{host}"
    if dest.startswith("-") or dest.split("@")[-1].startswith("-"):
        raise TickmarkError(f"bad --target '{shown(uri)}' (a host name cannot start with '-')")
    return canon, dest, port


class SshCore(Core):
    def __init__(self, target, build, remote_name):
        super().__init__(target, build, label=build.get("variant") if build else None)
        self.remote_name = remote_name

    def start(self, args):
        return SshSession(self.target, self.remote_name, list(args))

    def profile_runner(self):
        from .profiling import SshRunner

        return SshRunner(self)


class SshSession(Session):
    """One round, run by the holder's shell on the board over the master connection.

    The command line written to the holder echoes a start mark, the core's pid, the last lines
    of its stderr and its exit status around the core's own output; a stream that ends before
    the exit status lost its connection (transport_lost holds why)."""

    def __init__(self, target, remote_name, args):
        self.target = target
        self.transport_lost = None
        self.id = target._next_id()
        self._pid = None
        self._started = False  # the start mark was read (kept here: stop() drains where lines() stopped)
        self._rc = None
        self._err = []
        q = " ".join(shlex.quote(a) for a in args)
        line = (
            f'echo "{_START_MARK}{self.id}"; ./{remote_name} {q} </dev/null 2>.err & tm_p=$!; '
            f'echo "{_PID_MARK}$tm_p"; wait $tm_p; tm_s=$?; tail -n 3 .err | sed "s/^/{_ERR_MARK}/"; '
            f'echo "{_RC_MARK}{self.id} $tm_s"'
        )
        if not target._send(line):
            self.transport_lost = "the connection closed before the round could start"

    def lines(self):
        stream = self.target._master.stdout if self.target._master else None
        while self._rc is None and self.transport_lost is None and stream is not None:
            try:
                line = stream.readline()
            except (OSError, ValueError):
                line = ""
            if not line:
                self.transport_lost = self.target._why_lost()
                break
            if not self._started:  # what an earlier, abandoned command left in the stream
                self._started = line.strip() == f"{_START_MARK}{self.id}"
            elif line.startswith(_PID_MARK):
                self._pid = line[len(_PID_MARK) :].strip()
            elif line.startswith(_ERR_MARK):
                self._err.append(line[len(_ERR_MARK) :].strip())
            elif line.startswith(f"{_RC_MARK}{self.id} "):
                n = line.split()[-1]
                self._rc = decimal(n, 3) if decimal(n, 3) is not None else 255
            else:
                yield line

    def finish(self):
        for _ in self.lines():  # the rest of the stream, if the caller stopped reading
            pass
        if self.transport_lost is not None:
            return 255, f"connection to {self.target.uri} lost: {self.transport_lost}"
        n = self._rc
        rc = -(n - 128) if n > 128 else n
        return rc, (self._err[-1] if self._err else "")

    def stop(self):
        if self._rc is not None or self.transport_lost is not None:
            return
        if decimal(self._pid or "", 10) is not None and self.target.master_alive():
            self.target.run_remote(f"kill -TERM {self._pid} 2>/dev/null", timeout=10, check=False)
        drain = threading.Thread(target=lambda: [None for _ in self.lines()], daemon=True)
        drain.start()
        drain.join(15)


@register("ssh")
class SshTarget(Target):
    scheme = "ssh"
    usage = program_usage = "ssh://[user@]host[:port], ssh:ALIAS"
    profile_usage = "ssh"
    reconnects = True
    profiles = "remote"

    @classmethod
    def from_uri(cls, uri, **options):
        canon, dest, port = parse_uri(uri)
        t = cls(canon, **options)
        t.dest, t.port = dest, port
        return t

    def host_key(self):
        """The board: its host and port, whoever logs in (ssh:ALIAS: the alias)."""
        if self.uri.startswith("ssh://"):
            return f"ssh://{self.dest.rpartition('@')[2]}:{self.port or 22}"
        return self.uri

    def __init__(self, uri, **options):
        super().__init__(uri, **options)
        if not shutil.which("ssh"):
            raise TickmarkError("ssh not found; install the OpenSSH client: apt-get install openssh-client")
        self.dest, self.port = None, None
        self._ctl_dir = None
        self._master = None
        self.remote_dir = None
        self.texts = None
        self.machine = None
        self._uploaded = {}  # local binary -> remote name
        self._seq = 0
        self._master_err = None
        self._holder_pid = None
        self._alive = None  # the keepalive options, once asked

    # ---- the connection ----
    def _opts(self):
        opts = []
        cfg = os.environ.get("TICKMARK_SSH_CONFIG")
        if cfg:
            opts += ["-F", cfg]
        if self.port:
            opts += ["-p", str(self.port)]
        return opts + self._keepalive(opts)

    def _keepalive(self, opts):
        """tickmark's keepalive options, unless the ssh configuration sets ServerAliveInterval for
        this host: then none, so that its own interval and count apply (ssh keeps the first value
        it reads, and -o options come before the configuration files). `ssh -G` tells, asked
        without BatchMode: Debian's ssh gives BatchMode an interval of 300 s of its own, which is
        no choice of the user's (a hung board would stall a run for 15 minutes)."""
        if self._alive is None:
            try:
                r = subprocess.run(
                    ["ssh", "-G", *opts, "-o", "BatchMode=no", "--", self.dest],
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    text=True,
                    errors="replace",
                    timeout=30,
                )
                conf = dict(ln.split(None, 1) for ln in r.stdout.splitlines() if " " in ln.strip())
            except (OSError, subprocess.SubprocessError):
                conf = {}
            self._alive = _KEEPALIVE if conf.get("serveraliveinterval", "0").strip() == "0" else []
        return self._alive

    def _popen(self, script, master=False, **kw):
        ctl = ["-o", f"ControlPath={self._ctl_dir}/cm", "-o", "ControlMaster=" + ("yes" if master else "no")]
        argv = ["ssh", *self._opts(), *ctl, "--", self.dest, script]
        kw.setdefault("stdin", subprocess.DEVNULL)
        return subprocess.Popen(argv, text=True, errors="replace", bufsize=1, start_new_session=True, **kw)

    def connect(self):
        """Open the master connection and the run's folder on the board; read its fingerprint."""
        if self.master_alive():
            return
        if self._ctl_dir is None:
            base = tempfile.gettempdir()
            if len(base) > 60 and os.path.isdir("/tmp"):  # a socket path has ~100 bytes at most
                base = "/tmp"
            self._ctl_dir = tempfile.mkdtemp(prefix="tickmark-ssh-", dir=base)
        try:
            os.unlink(f"{self._ctl_dir}/cm")  # a stale socket of a master that was killed
        except FileNotFoundError:
            pass
        err = self._master_err = tempfile.TemporaryFile(mode="w+", errors="replace")
        self._master = self._popen(_HOLDER, master=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        lines = _read_until(self._master.stdout, _PROBE_END, 60)
        # what the board's shell start-up files print (~/.bashrc) comes before the holder's mark
        marks = [i for i, ln in enumerate(lines) if ln.startswith(_DIR_MARK)]
        start = marks[-1] if marks else None
        if start is None or lines[-1].strip() != _PROBE_END:
            self._master.kill()
            self._master.wait()
            err.seek(0)
            said = [ln.strip() for ln in err.read().splitlines() if ln.strip()]
            err.close()
            if self._master.returncode == 97:
                said = ["mktemp -d failed on the target"]
            raise TickmarkError(f"cannot connect to {self.uri}: {said[-1] if said else 'no answer'}{_hint(said)}")
        pid, _, self.remote_dir = lines[start][len(_DIR_MARK) :].strip().partition(" ")
        self._holder_pid = pid if decimal(pid, 10) is not None else None
        self._uploaded = {}
        self.texts = probe.parse_probe("".join(lines[start + 1 : -1]))
        self.machine = self.texts.get("uname_m")
        if not self.machine:
            raise TickmarkError(f"{self.uri}: 'uname -m' gave nothing; is this a Linux/POSIX target?")

    def _next_id(self):
        self._seq += 1
        return self._seq

    def _send(self, line):
        """Write one command line to the holder's shell -> False when the connection is gone."""
        try:
            self._master.stdin.write(line + "\n")
            self._master.stdin.flush()
            return True
        except (AttributeError, OSError, ValueError):
            return False

    def _why_lost(self):
        """What ssh said when the master connection ended."""
        m = self._master
        try:
            m.wait(5)
        except (AttributeError, subprocess.TimeoutExpired):
            return "no answer from the target"
        try:
            self._master_err.seek(0)
            said = [ln.strip() for ln in self._master_err.read().splitlines() if ln.strip()]
        except (AttributeError, ValueError):
            said = []
        return said[-1] if said else f"ssh exited with status {m.returncode} (the connection closed)"

    def master_alive(self):
        return self._master is not None and self._master.poll() is None

    def run_remote(self, script, timeout=120, check=True, stdin=None):
        """Run a shell command on the board over the master connection -> CompletedProcess."""
        p = self._popen(
            script,
            stdin=stdin if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise TickmarkError(f"{self.uri}: a command on the target did not finish in {timeout} s")
        if check and p.returncode != 0:
            last = (err.strip().splitlines() or [f"exit status {p.returncode}"])[-1]
            raise TickmarkError(f"{self.uri}: {last}")
        return subprocess.CompletedProcess(p.args, p.returncode, out, err)

    def reconnect(self):
        """After a dropped connection: a new master, a new folder, the cores copied again. A
        connection that hung rather than closed leaves its holder, a blocked core and its folder
        on the board: they are stopped and removed over the new connection."""
        cores = dict(self._uploaded)
        old_dir, old_holder = self.remote_dir, self._holder_pid
        self._drop_master()
        self.connect()
        if old_dir:
            self.run_remote(_cleanup_script(old_dir, old_holder), timeout=30, check=False)
        for binary, name in cores.items():
            self._upload(binary, name)

    # ---- the core ----
    def prepare(self, variant=None):
        self.connect()
        b = toolchain.build(variant or Variant(), machine=self.machine, static=True, where=self.uri)
        return SshCore(self, b.as_dict(), self._upload(b.binary, f"tickmark-core-{b.hash}"))

    def _upload(self, binary, name):
        with open(binary, "rb") as f:
            r = self.run_remote(
                f"cd {shlex.quote(self.remote_dir)} && cat > {name}.part && chmod 700 {name}.part "
                f"&& mv {name}.part {name}",
                timeout=600,
                check=False,
                stdin=f,
            )
        if r.returncode != 0:
            last = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
            raise TickmarkError(f"cannot copy the core to {self.uri}: {last}")
        self._uploaded[binary] = name
        return name

    def put_file(self, path):
        """Into the run's folder on the board, where the core runs (copied again after a
        reconnection, like the core)."""
        self.connect()
        name = os.path.basename(path)
        if not re.fullmatch(r"[A-Za-z0-9._+-]+", name) or name.startswith("tickmark-core"):
            raise TickmarkError(f"--file {shown(name, 60)}: a file name of letters, digits and '._+-'")
        return self._upload(os.path.abspath(path), name)

    def fingerprint(self, core, hello=None):
        fp = probe.from_texts(self.texts or {}, core.build if core else None, hello)
        return self.base_fingerprint(fp, core)

    # ---- the end ----
    def _drop_master(self):
        m, self._master = self._master, None
        if m is None:
            return
        try:
            m.stdin.close()  # the holder removes the folder, then the master ends
        except OSError:
            pass
        try:
            m.wait(15)
        except subprocess.TimeoutExpired:
            m.kill()
            m.wait()
        m.stdout.close()
        if self._master_err is not None:
            self._master_err.close()
            self._master_err = None

    def close(self):
        self._drop_master()
        if self._ctl_dir:
            shutil.rmtree(self._ctl_dir, ignore_errors=True)
            self._ctl_dir = None


def _hint(said):
    """Advice for a failed connection, only where it is good advice: accepting a host key is
    right for a board never seen before, wrong for one whose key changed."""
    text = " ".join(said).lower()
    if "identification has changed" in text or "host key for" in text and "has changed" in text:
        return (
            " (the board's host key CHANGED since it was accepted: if the board was reinstalled, "
            "check its new key and remove the old one with ssh-keygen -R; otherwise do not connect)"
        )
    if "host key verification failed" in text or "no " in text and "host key is known" in text:
        return " (a board not seen before: accept its host key once with a plain ssh, then retry)"
    if "permission denied" in text:
        return " (tickmark runs ssh without a terminal, so no password prompt: use a key or ssh-agent)"
    return ""


def _cleanup_script(folder, holder_pid):
    """Shell for the board: stop what still runs in the folder of a lost connection (its holder,
    a core blocked on the dead connection, the core's children: found by their working folder
    where /proc tells it, else the holder by its PID), asking first and then forcing, and remove
    the folder and the scratch folders of what had to be forced."""
    d = shlex.quote(folder)
    return (
        f"d={d}; ps=; if [ -d /proc/self ]; then for p in /proc/[0-9]*; do "
        '[ "$(readlink "$p/cwd" 2>/dev/null)" = "$d" ] && ps="$ps ${p#/proc/}"; done; '
        f"else ps={holder_pid or ''}; fi; "
        'if [ -n "$ps" ]; then kill -TERM $ps 2>/dev/null; sleep 1; kill -KILL $ps 2>/dev/null; '
        'for p in $ps; do rm -rf "${TMPDIR:-/tmp}/tickmark-$p"; done; fi; rm -rf "$d"'
    )


def _read_until(stream, end, timeout):
    """Lines from a pipe up to the line END (included), or what came before EOF or timeout."""
    box = []

    def read():
        for line in stream:
            box.append(line)
            if line.strip() == end:
                return

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(timeout)
    return list(box)
