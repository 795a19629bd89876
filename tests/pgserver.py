"""A throw-away PostgreSQL server for tests: Debian's initdb/pg_ctl in a temporary directory,
a random TCP port on 127.0.0.1 and a Unix socket directory of its own, trust authentication.
PostgreSQL refuses to run as root, so as root the cluster belongs to the unprivileged user
`nobody` (the server runs as nobody through runuser)."""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time

SUPERUSER = "tickmark"


def pg_bindir():
    """The newest Debian PostgreSQL bin directory, or None."""
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True):
        if os.access(os.path.join(d, "initdb"), os.X_OK):
            return d
    exe = shutil.which("initdb")
    return os.path.dirname(exe) if exe else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    def __init__(self, bindir):
        self.bindir = bindir
        self.root = tempfile.mkdtemp(prefix="tickmark-pg-")  # not under a root-only pytest dir
        self.data = os.path.join(self.root, "data")
        self.sock = os.path.join(self.root, "sock")
        self.port = free_port()
        self.user = None if os.getuid() != 0 else "nobody"
        os.chmod(self.root, 0o755)
        os.mkdir(self.sock)
        if self.user:
            pw = pwd.getpwnam(self.user)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
            os.chown(self.sock, pw.pw_uid, pw.pw_gid)
        self._n = 0

    def _cmd(self, *argv):
        argv = [os.path.join(self.bindir, argv[0]), *argv[1:]]
        if self.user:
            argv = ["runuser", "-u", self.user, "--", *argv]
        return argv

    def start(self):
        env = dict(os.environ, LC_ALL="C", TZ="UTC")
        r = subprocess.run(
            self._cmd("initdb", "-D", self.data, "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-sync"),
            capture_output=True,
            text=True,
            env=env,
            cwd=self.root,
        )
        if r.returncode:
            raise RuntimeError(f"initdb failed: {r.stderr.strip()[-500:]}")
        opts = (
            f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=60 -c shared_buffers=16MB"
        )
        r = subprocess.run(
            self._cmd(
                "pg_ctl", "-D", self.data, "-l", os.path.join(self.root, "log"), "-o", opts, "-w", "-t", "60", "start"
            ),
            capture_output=True,
            text=True,
            env=env,
            cwd=self.root,
        )
        if r.returncode:
            log = (
                open(os.path.join(self.root, "log")).read()[-800:]
                if os.path.exists(os.path.join(self.root, "log"))
                else ""
            )
            raise RuntimeError(f"pg_ctl start failed: {r.stderr.strip()[-300:]} {log}")
        return self

    def url(self, db="postgres"):
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{db}"

    def new_database(self, prefix="t"):
        """A fresh empty database -> its URL."""
        import psycopg

        self._n += 1
        name = f"{prefix}_{os.getpid()}_{self._n}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(self.url(), autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self):
        subprocess.run(
            self._cmd("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"), capture_output=True, cwd=self.root
        )
        shutil.rmtree(self.root, ignore_errors=True)
