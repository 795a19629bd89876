"""A real OpenSSH server on 127.0.0.1 for the SSH target's tests: a random port, throwaway host
and user keys, its own sshd_config, and a client config with a generated known_hosts so that
host-key checking stays on. Works as root (logs in as root) and as any other user (as that user)."""

import contextlib
import getpass
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

SSHD = shutil.which("sshd") or ("/usr/sbin/sshd" if os.path.exists("/usr/sbin/sshd") else None)
HAVE_SSH = bool(SSHD and shutil.which("ssh") and shutil.which("ssh-keygen"))
MISSING = "OpenSSH server/client not installed (apt-get install openssh-server openssh-client)"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sshd:
    def __init__(self, root, home=None):
        """home: a HOME for the sessions (e.g. an empty folder: no shell start-up files run)."""
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o700)
        self.user = getpass.getuser()
        self.port = _free_port()
        for name in ("host_key", "user_key"):
            subprocess.run(
                ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "tickmark-test", "-f", str(self.root / name)],
                check=True,
            )
        (self.root / "tmp").mkdir()  # the sessions' TMPDIR: what a run leaves there is its own
        (self.root / "authorized_keys").write_text((self.root / "user_key.pub").read_text())
        os.chmod(self.root / "authorized_keys", 0o600)
        host_pub = (self.root / "host_key.pub").read_text().split()
        (self.root / "known_hosts").write_text(f"[127.0.0.1]:{self.port} {host_pub[0]} {host_pub[1]}\n")
        (self.root / "sshd_config").write_text(
            f"Port {self.port}\nListenAddress 127.0.0.1\nHostKey {self.root}/host_key\n"
            f"AuthorizedKeysFile {self.root}/authorized_keys\nPidFile {self.root}/sshd.pid\n"
            "UsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
            "PubkeyAuthentication yes\nStrictModes no\nPermitRootLogin prohibit-password\n"
            f"AllowUsers {self.user}\nLogLevel ERROR\nMaxSessions 50\nMaxStartups 50\n"
            + f"SetEnv TMPDIR={self.root}/tmp"
            + (f" HOME={home}" if home else "")
            + "\n"
        )
        # The client side: the user's own config is replaced by this one (ssh -F).
        self.config = self.root / "ssh_config"
        self.config.write_text(
            f"Host board\n  HostName 127.0.0.1\n  Port {self.port}\n  User {self.user}\n"
            f"Host *\n  IdentityFile {self.root}/user_key\n  IdentitiesOnly yes\n"
            f"  UserKnownHostsFile {self.root}/known_hosts\n  StrictHostKeyChecking yes\n"
            "  BatchMode yes\n  ConnectTimeout 10\n"
        )
        self.proc = None

    @property
    def uri(self):
        return f"ssh://{self.user}@127.0.0.1:{self.port}"

    def start(self):
        if os.geteuid() == 0:
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # privilege separation directory
        self.proc = subprocess.Popen(
            [SSHD, "-D", "-e", "-f", str(self.root / "sshd_config")],
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "sshd.log", "ab"),
        )
        t = time.time()
        while time.time() - t < 10:
            if self.proc.poll() is not None:
                raise RuntimeError("sshd did not start: " + (self.root / "sshd.log").read_text()[-500:])
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("sshd did not listen within 10 s")

    def sessions(self):
        """pids of the per-connection sshd processes (children of the listener)."""
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.proc.pid)], capture_output=True, text=True).stdout
        return [int(p) for p in out.split()]

    def drop_connections(self):
        """Cut every open connection (the listener stays: a reconnect works)."""
        import signal

        pids = self.sessions()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return pids

    def stop(self):
        """Stop the listener and cut every connection (the target is gone)."""
        if self.proc and self.proc.poll() is None:
            self.drop_connections()
            self.proc.kill()
            self.proc.wait()

    def ssh(self, *cmd):
        return subprocess.run(
            ["ssh", "-F", str(self.config), "board", *cmd], capture_output=True, text=True, timeout=30
        )


def need_ssh():
    """Skip where OpenSSH is not installed; fail under CI=true, where bootstrap installs it."""
    import pytest

    if not HAVE_SSH:
        if os.environ.get("CI"):
            pytest.fail(MISSING)
        pytest.skip(MISSING)


@contextlib.contextmanager
def serving(folder, monkeypatch):
    """A started sshd that tickmark's SSH target reaches (TICKMARK_SSH_CONFIG), stopped after."""
    need_ssh()
    s = Sshd(folder).start()
    monkeypatch.setenv("TICKMARK_SSH_CONFIG", str(s.config))
    try:
        yield s
    finally:
        s.stop()
