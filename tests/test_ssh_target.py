"""The SSH target against a real OpenSSH server on 127.0.0.1 (tests/sshfix.py): host-key checking
on, one multiplexed connection, the folder on the target removed at the end, after Ctrl-C, and
when the connection drops; a dropped round is retried once, a second loss ends the run incomplete."""

import json
import os
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from conftest import tickmark_proc, wait_results
from sshfix import HAVE_SSH, MISSING, Sshd

pytestmark = pytest.mark.integration

if not HAVE_SSH:
    if os.environ.get("CI"):
        pytest.fail(MISSING, pytrace=False)
    pytest.skip(MISSING, allow_module_level=True)

BENCHES = ["sys.getppid", "sys.clock_gettime", "sys.fstat", "sys.stat"]


@pytest.fixture
def sshd(tmp_path, monkeypatch, build_cache):
    s = Sshd(tmp_path / "sshd").start()
    monkeypatch.setenv("TICKMARK_SSH_CONFIG", str(s.config))
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    monkeypatch.delenv("TICKMARK_CORE", raising=False)
    monkeypatch.delenv("TICKMARK_TARGET", raising=False)
    yield s
    s.stop()


def left_on_target(s):
    """tickmark folders left in the target's TMPDIR (the fixture's own, not the shared /tmp)."""
    r = s.ssh('echo "$TMPDIR"; ls -d ${TMPDIR:-/tmp}/tickmark.* 2>/dev/null; true')
    assert r.returncode == 0, r.stderr
    tmpdir, *left = r.stdout.split()
    assert tmpdir == str(s.root / "tmp")
    return left


def test_uri_forms():
    from tickmark.base.errors import TickmarkError
    from tickmark.targets.ssh import parse_uri

    assert parse_uri("ssh://root@10.0.0.2:2222") == ("ssh://root@10.0.0.2:2222", "root@10.0.0.2", 2222)
    assert parse_uri("ssh://board") == ("ssh://board", "board", None)
    assert parse_uri("ssh:lab-imx6") == ("ssh:lab-imx6", "lab-imx6", None)
    bad_uris = (
        "ssh://root@h:99999",
        "ssh://-oProxyCommand=x",
        "ssh:",
        "ssh://h/path",
        "ssh:-F",
        "ssh://h:0",
        "ssh://h:²",
    )
    for bad in bad_uris:
        with pytest.raises(TickmarkError):
            parse_uri(bad)


def test_run_over_ssh_stores_the_targets_fingerprint(sshd, cli, monkeypatch):
    local_tmp = Path(tempfile.mkdtemp(prefix="tm-", dir="/tmp"))  # short: it holds a socket
    monkeypatch.setattr(tempfile, "tempdir", str(local_tmp))  # where the control socket's folder goes
    rc, out, err = cli(
        "run",
        "--target",
        sshd.uri,
        "sys.getppid",
        "sys.clock_gettime",
        "--rounds",
        "2",
        "--max-rounds",
        "2",
        "--samples",
        "3",
        "-q",
        "--name",
        "board",
    )
    assert rc == 0, err
    assert "INCOMPLETE" not in out and "sys.getppid" in out
    rc, doc, _ = cli("export", "board")
    d = json.loads(doc)
    fp = d["run"]["fingerprint"]
    texts = {
        k: sshd.ssh(c).stdout.strip()
        for k, c in (("arch", "uname -m"), ("kernel", "uname -r"), ("hostname", "uname -n"))
    }
    assert fp["target_uri"] == sshd.uri and fp["host"]
    assert (fp["arch"], fp["kernel"], fp["hostname"]) == (texts["arch"], texts["kernel"], texts["hostname"])
    assert fp["cpu_model"] and fp["cpus_online"] >= 1 and fp["caches"] is not None
    assert d["run"]["status"] == "complete" and {r["status"] for r in d["results"]} == {"ok"}
    assert all(len({s["round"] for s in r["samples"]}) >= 2 for r in d["results"])
    assert left_on_target(sshd) == [], d["run"]["notes"]
    assert list(local_tmp.iterdir()) == []  # the control socket's folder is gone too
    # the ssh:ALIAS form names the same machine through the user's ssh config
    rc, out, err = cli("info", "--target", "ssh:board", "--json")
    assert rc == 0, err
    info = json.loads(out)
    assert info["target_uri"] == "ssh:board" and info["arch"] == texts["arch"]
    assert list(local_tmp.iterdir()) == []
    local_tmp.rmdir()


def test_host_key_checking_stays_on(sshd, cli, tmp_path):
    kh = tmp_path / "other_known_hosts"
    kh.write_text(
        f"[127.0.0.1]:{sshd.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIk6aVKFf1sGQpTzKW0K4nZ5x0w7R8x3m3xWbq9rU5vH\n"
    )
    cfg = tmp_path / "cfg"
    cfg.write_text(sshd.config.read_text().replace(str(sshd.root / "known_hosts"), str(kh)))
    os.environ["TICKMARK_SSH_CONFIG"] = str(cfg)
    rc, out, err = cli("info", "--target", sshd.uri)
    assert rc == 2
    assert err.startswith("tickmark: error: cannot connect to " + sshd.uri)
    assert "host key CHANGED" in err and "do not connect" in err
    assert "accept its host key" not in err  # accepting a changed key is the wrong advice


def _run_in_thread(path, uri, benches, rounds=1):
    """A run in a thread (with its own store connection) so that the test can cut it."""
    from tickmark.run.engine import Run, RunConfig
    from tickmark.store import Store
    from tickmark.targets import open_target

    box = {}

    def go():
        store = Store(path)
        tgt = open_target(uri)
        box["target"] = tgt
        try:
            core = tgt.prepare()
            box["ready"] = True
            hr = Run(store, core, RunConfig(patterns=benches, rounds=rounds, max_rounds=rounds, samples=3))
            box["hr"] = hr
            box["id"] = hr.execute()
        except Exception as e:  # noqa: BLE001 - handed to the test
            box["error"] = e
        finally:
            tgt.close()

    t = threading.Thread(target=go)
    t.start()
    return t, box


def _wait_first_result(store, box, timeout=120):
    t = time.time()
    while time.time() - t < timeout:
        hr = box.get("hr")
        if hr is not None and hr.run_id is not None and store.results(hr.run_id):
            return
        if "error" in box:
            raise box["error"]
        time.sleep(0.02)
    raise AssertionError("no result arrived")


def test_dropped_connection_is_retried_once(sshd, tmp_path):
    from tickmark.store import Store

    t, box = _run_in_thread(tmp_path / "drop.db", sshd.uri, BENCHES)
    while "hr" not in box and "error" not in box:
        time.sleep(0.02)
    store = Store(tmp_path / "drop.db")
    _wait_first_result(store, box)
    assert sshd.drop_connections()  # cut in the middle of round 1; the server stays up
    t.join(180)
    assert "error" not in box, box.get("error")
    run = store.run(str(box["id"]))
    assert run["status"] == "complete"
    assert any("lost" in p for p in run["notes"]["problems"]) and run["notes"]["retried_rounds"] == [1]
    res = store.results(box["id"])
    assert sorted(r["key"] for r in res) == sorted(BENCHES)  # finished ones kept, the rest retried
    assert all(r["status"] == "ok" and store.samples(r["id"]) for r in res)
    assert left_on_target(sshd) == []


def test_target_gone_ends_the_run_incomplete_with_exit_1(sshd, cli, tmp_path):
    cli("list", "--target", sshd.uri)  # build before timing anything
    store = os.environ["TICKMARK_STORE"]
    p = tickmark_proc(["run", "--target", sshd.uri, *BENCHES, "--rounds", "3", "-q"])
    try:
        wait_results(store)
        sshd.stop()  # the listener and every connection: the reconnect fails
        out, err = p.communicate(timeout=180)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 1, err  # an incomplete run, as the README says
    assert "Traceback" not in err and "tickmark: error" not in err
    assert "is incomplete: connection to" in err and "lost" in err
    from tickmark.store import Store

    run = Store(store).run("latest")
    assert run["status"] == "incomplete" and "lost" in run["notes"]["incomplete"]
    assert Store(store).results(run["id"])  # what finished is kept
    sshd.start()  # back up: the folder went with the connection that held it
    assert left_on_target(sshd) == []


def _session_daemons(sshd):
    """The sshd processes of the server's open connections (per connection: the monitor and its
    privilege-separated child), not the shells and cores they serve."""
    out = subprocess.run(["ps", "-eo", "pid=,ppid=,comm="], capture_output=True, text=True).stdout
    children, comm = {}, {}
    for line in out.splitlines():
        pid, ppid, name = line.split(None, 2)
        children.setdefault(int(ppid), []).append(int(pid))
        comm[int(pid)] = name.strip()
    found, todo = [], list(sshd.sessions())
    while todo:
        pid = todo.pop()
        if comm.get(pid, "").startswith("sshd"):
            found.append(pid)
            todo += children.get(pid, [])
    return found


def _board_cores(sshd):
    """The cores running in this board's TMPDIR (under pytest-xdist this machine runs the boards of
    other tests too: `ps` alone would list their cores)."""
    script = (
        'for p in /proc/[0-9]*; do case "$(readlink "$p/cwd" 2>/dev/null)" in "$TMPDIR"/*) '
        'tr "\\000" " " < "$p/cmdline" 2>/dev/null; echo;; esac; done'
    )
    return [ln for ln in sshd.ssh(script).stdout.splitlines() if ln.startswith("./tickmark-core")]


def test_the_ssh_configurations_keepalive_replaces_tickmarks(tmp_path, monkeypatch):
    """tickmark's keepalive (5 s x 3) unless the ssh configuration sets ServerAliveInterval."""
    from tickmark.targets import open_target
    from tickmark.targets.ssh import _KEEPALIVE

    cfg = tmp_path / "ssh_config"
    cfg.write_text("Host board\n  ServerAliveInterval 1\n  ServerAliveCountMax 4\n")
    monkeypatch.setenv("TICKMARK_SSH_CONFIG", str(cfg))
    assert open_target("ssh:board")._opts() == ["-F", str(cfg)]
    opts = open_target("ssh://root@127.0.0.1:2222")._opts()
    assert opts == ["-F", str(cfg), "-p", "2222", *_KEEPALIVE]


def test_a_hung_connection_leaves_nothing_on_the_board(sshd, cli, tmp_path, monkeypatch):
    """sshd frozen (SIGSTOP) in the middle of a round: the client gives up on it, reconnects, and
    over the new connection stops the core blocked on the old one and removes the old folder."""
    # given up after 3 keepalives 1 s apart unanswered (the configuration's), not 3 x 5 s (tickmark's)
    cfg = tmp_path / "ssh_config"
    cfg.write_text("Host *\n  ServerAliveInterval 1\n  ServerAliveCountMax 3\n" + sshd.config.read_text())
    monkeypatch.setenv("TICKMARK_SSH_CONFIG", str(cfg))
    cli("list", "--target", sshd.uri)  # build before timing anything
    store = os.environ["TICKMARK_STORE"]
    p = tickmark_proc(["run", "--target", sshd.uri, *BENCHES, "--rounds", "3", "--samples", "20", "-q"])
    frozen = []
    try:
        wait_results(store)
        old = left_on_target(sshd)
        assert len(old) == 1
        frozen = _session_daemons(sshd)
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, err
        assert old[0] not in left_on_target(sshd)  # gone while the old connection is still frozen
        assert not [c for c in _board_cores(sshd)], _board_cores(sshd)
    finally:
        if p.poll() is None:
            p.kill()
        for pid in frozen:
            for sig in (signal.SIGKILL, signal.SIGCONT):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
    from tickmark.store import Store

    run = Store(store).run("latest")
    assert run["status"] == "complete" and run["notes"]["retried_rounds"], run["notes"]
    assert left_on_target(sshd) == []


def test_shell_start_up_files_that_print_do_no_harm(tmp_path, monkeypatch, build_cache, cli):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text('echo "Welcome to the board, $USER"\necho "@@tickmark-dir nonsense"\n')
    s = Sshd(tmp_path / "sshd", home=home).start()
    try:
        if "Welcome to the board" not in s.ssh("true").stdout:
            pytest.skip("the login shell does not read ~/.bashrc for ssh commands here")
        monkeypatch.setenv("TICKMARK_SSH_CONFIG", str(s.config))
        monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
        monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
        monkeypatch.delenv("TICKMARK_CORE", raising=False)
        rc, out, err = cli("run", "--target", s.uri, "sys.getppid", "--rounds", "1", "--samples", "3", "-q")
        assert rc == 0, err
        assert "sys.getppid" in out and "INCOMPLETE" not in out
        assert list((s.root / "tmp").glob("tickmark.*")) == []  # the board is this machine
    finally:
        s.stop()


def test_connection_failures_get_advice_only_where_it_is_good(sshd, cli, tmp_path):
    cfg = tmp_path / "cfg"
    unknown = tmp_path / "empty_known_hosts"
    unknown.write_text("")
    cfg.write_text(sshd.config.read_text().replace(str(sshd.root / "known_hosts"), str(unknown)))
    os.environ["TICKMARK_SSH_CONFIG"] = str(cfg)
    rc, out, err = cli("info", "--target", sshd.uri)  # a board never seen: accept its key once
    assert rc == 2 and "accept its host key once with a plain ssh" in err, err
    closed = Sshd(tmp_path / "closed")  # never started: nothing listens on its port
    os.environ["TICKMARK_SSH_CONFIG"] = str(sshd.config)
    rc, out, err = cli("info", "--target", f"ssh://{sshd.user}@127.0.0.1:{closed.port}")
    assert rc == 2 and "Connection refused" in err and "host key" not in err and "ssh-agent" not in err, err


def test_ctrl_c_removes_the_folder(sshd, cli):
    cli("list", "--target", sshd.uri)  # build before timing anything
    store = os.environ["TICKMARK_STORE"]
    p = tickmark_proc(["run", "--target", sshd.uri, *BENCHES, "--rounds", "3"], start_new_session=True)
    try:
        wait_results(store)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "INCOMPLETE" in out
    deadline = time.time() + 10
    while left_on_target(sshd) and time.time() < deadline:
        time.sleep(0.1)
    assert left_on_target(sshd) == []
    assert not _board_cores(sshd)


def test_info_asks_the_board_and_the_fingerprint_tells_its_static_core_from_the_hosts(sshd, cli, monkeypatch):
    """The board's static core and this machine's dynamic one differ in the fingerprint (compare
    names it); info asks the board itself what a process may do there."""
    from tickmark.facts.probe import cpu_list

    local_tmp = Path(tempfile.mkdtemp(prefix="tm-", dir="/tmp"))  # short: it holds a socket
    monkeypatch.setattr(tempfile, "tempdir", str(local_tmp))
    one = ("sys.getppid", "--rounds", "1", "--samples", "3", "-q")
    assert cli("run", *one, "--name", "host")[0] == 0
    rc, out, err = cli("run", "--target", sshd.uri, *one, "--name", "board")
    assert rc == 0, err
    rc, out, err = cli("compare", "host", "board")
    assert rc == 0, err
    glibc = "glibc " + __import__("platform").libc_ver()[1]
    assert "differs: linkage: dynamic | static" in out
    assert f"differs: core_libc: {glibc} (shared) | {glibc} (static)" in out
    said = sshd.ssh("id -u; ulimit -H -r; sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status")
    uid, rtprio, cpus = said.stdout.split()
    rc, out, err = cli("info", "--target", sshd.uri)
    assert rc == 0, err
    lines = {line.split("  ", 1)[0]: line.split("  ", 1)[1].strip() for line in out.splitlines() if "  " in line}
    allowed = "yes" if rtprio == "unlimited" or int(rtprio) > 0 else "no"
    assert lines["real-time prio"] == ("yes (root)" if uid == "0" else f"{allowed} (RLIMIT_RTPRIO={rtprio})")
    assert lines["CPU affinity"].startswith("yes, CPUs [")
    assert lines["core links"] == f"static, C library {glibc} (static)"
    rc, out, err = cli("info", "--target", sshd.uri, "--json")
    fp = json.loads(out)
    assert fp["affinity"]["cpus"] == cpu_list(cpus)
    assert fp["linkage"] == "static"
    local_tmp.rmdir()
