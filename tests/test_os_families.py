"""The OS-primitive and IPC benchmark families (sched, sync, thread, heap, proc, signal, ipc,
fs, timer) run on the C core alone: every instance is measured or skipped with a reason, the
sub-metrics and histograms are there, parameter sweeps give one instance per point, and
nothing is left behind -- no files, no processes, no listening sockets -- neither after a
normal run nor after a benchmark crashes or the runner itself is killed."""

import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

CORE = Path(__file__).resolve().parent.parent / "src" / "tickmark" / "core"
RECORD = re.compile(r"TM1 (\{.*\})\s*$")
FAMILIES = ["sched.*", "sync.*", "thread.*", "heap.*", "proc.*", "signal.*", "ipc.*", "fs.*", "timer.*"]
QUICK = ["--samples", "2", "--sample-ms", "5", "--param", "count=50"]
WITH_PEERS = ["sched.ctx_ring", "sched.pipe_pingpong", "ipc.*_lat", "ipc.*_bw", "sync.*_pingpong", "fs.*"]


def records(text):
    return [json.loads(m.group(1)) for line in text.splitlines() if (m := RECORD.search(line))]


@pytest.fixture(scope="module")
def core(make_core):
    return make_core()


@pytest.fixture(scope="module", autouse=True)
def subreaper():
    """Orphans of the core come to this process, so that a leftover cannot hide under init."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        pytest.skip("cannot become a child subreaper")
    yield
    libc.prctl(36, 0, 0, 0, 0)


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def parents():
    """{pid: (parent pid, state)} of every live process."""
    found = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            found[int(d.name)] = (int(fields[1]), fields[0])
    return found


def children_of(ppid):
    return [pid for pid, (parent, state) in parents().items() if parent == ppid and state != "Z"]


def descendants_of(ancestor):
    """The processes below ancestor (this process is the core's subreaper: its orphans come here)."""
    tree = parents()
    found = set()
    for pid in tree:
        p = pid
        while p in tree and p > 1:
            p = tree[p][0]
            if p == ancestor:
                found.add(pid)
                break
    return found


def core_socket_inodes():
    """Inodes of the sockets held by the tickmark-core processes of this test (those below this
    process; other programs' loopback sockets, such as a test's sshd or database, and the cores of
    tests that run beside this one in other processes are none of these tests' business)."""
    inodes = set()
    for pid in descendants_of(os.getpid()):
        proc = Path("/proc") / str(pid)
        try:
            if Path(os.readlink(proc / "exe")).name != "tickmark-core":
                continue
            for fd in (proc / "fd").iterdir():
                link = os.readlink(fd)
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
        except OSError:
            continue
    return inodes


def loopback_sockets():
    """Listening TCP and bound UDP sockets on 127.0.0.1 / ::1 held by a tickmark-core process
    (local address, inode)."""
    mine = core_socket_inodes()
    found = set()
    for name, state in (("tcp", "0A"), ("tcp6", "0A"), ("udp", "07"), ("udp6", "07")):
        try:
            lines = Path(f"/proc/net/{name}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            addr = f[1].split(":")[0]
            if f[3] == state and addr in ("0100007F", "00000000000000000000000001000000") and f[9] in mine:
                found.add((name, f[1], f[9]))
    return found


def assert_nothing_left(tmpdir, sockets_before, wait_s=3.0):
    deadline = time.time() + wait_s
    while True:
        reap()
        kids = children_of(os.getpid())
        if not kids or time.time() > deadline:
            break
        time.sleep(0.05)
    for pid in kids:  # do not leave them to the next test either
        os.kill(pid, signal.SIGKILL)
    reap()
    assert not kids, f"processes left behind: {kids}"
    assert not list(Path(tmpdir).iterdir()), f"files left in TMPDIR: {list(Path(tmpdir).iterdir())}"
    assert not (loopback_sockets() - sockets_before), "loopback sockets left open"


def test_families_measure_or_skip(core, tmp_path):
    before = loopback_sockets()
    env = dict(os.environ, TMPDIR=str(tmp_path))
    res = subprocess.run([str(core), "run", *FAMILIES, *QUICK], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    recs = records(res.stdout)
    assert recs[-1]["t"] == "bye"
    ends = {r["key"]: r for r in recs if r["t"] == "end"}
    bad = {k: (r["status"], r["reason"]) for k, r in ends.items() if r["status"] not in ("ok", "skip")}
    assert not bad, bad
    for r in ends.values():
        if r["status"] == "skip":
            assert r["reason"], r
    for fam in FAMILIES:
        assert any(k.startswith(fam[:-1]) and r["status"] == "ok" for k, r in ends.items()), fam
    samples = {}
    for r in recs:
        if r["t"] == "sample":
            samples.setdefault(r["key"], []).append(r)
    hists = {r["key"] for r in recs if r["t"] == "hist"}
    for key in (
        "sched.pipe_pingpong[cross=0]",
        "sched.yield_switch",
        "ipc.tcp_lat[cross=0]",
        "sync.sem_pingpong[cross=0]",
        "timer.cyclic[period=200,count=50]",
    ):
        assert key in hists, key
    for key, subs in (
        ("sync.mutex", {"lock", "unlock"}),
        ("heap.malloc_free_4", {"malloc", "free"}),
        ("thread.create_join", {"create", "join"}),
        ("fs.create_delete[size=0]", {"create", "delete"}),
        ("sched.ctx_ring[procs=2,size=0]", {"switch_derived", "overhead"}),
    ):
        got = set(samples[key][0].get("sub", {}))
        assert subs <= got, (key, got)
        # the parts of a pair cannot add up to more than the pair
        s = samples[key][0]
        if key != "sched.ctx_ring[procs=2,size=0]":
            assert sum(s["sub"][n] for n in subs) <= s["ns"] * 1.05 + 1000, (key, s)
    assert_nothing_left(tmp_path, before)


def test_ctx_ring_one_result_per_point(core, tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    res = subprocess.run(
        [
            str(core),
            "run",
            "sched.ctx_ring",
            "--param",
            "procs=2,4,8",
            "--param",
            "size=0,16",
            "--samples",
            "2",
            "--sample-ms",
            "5",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    ends = {r["key"]: r["status"] for r in records(res.stdout) if r["t"] == "end"}
    assert ends == {f"sched.ctx_ring[procs={p},size={s}]": "ok" for p in (2, 4, 8) for s in (0, 16)}
    res = subprocess.run(
        [str(core), "run", "sched.ctx_ring", "--param", "procs=97", "--samples", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    ends = [r for r in records(res.stdout) if r["t"] == "end"]
    assert ends and all(r["status"] == "failed" and "procs" in r["reason"] for r in ends)


def test_nothing_left_after_benchmark_crashes(core, tmp_path):
    """Crash the benchmark process (SIGSEGV) again and again while it runs with peers."""
    before = loopback_sockets()
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.Popen(
        [str(core), "run", *WITH_PEERS, "--samples", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    crashed = 0
    time.sleep(0.3)
    while proc.poll() is None and crashed < 8:
        for pid in children_of(proc.pid):
            if len(children_of(pid)) > 0:  # an instance with a peer process running
                try:
                    os.kill(pid, signal.SIGSEGV)
                except ProcessLookupError:  # it ended between the listing and the kill
                    continue
                crashed += 1
        time.sleep(0.15)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    statuses = [r["status"] for r in records(out) if r["t"] == "end"]
    assert crashed and "crashed" in statuses
    assert_nothing_left(tmp_path, before)


def test_no_processes_left_after_runner_killed(core, tmp_path):
    before = loopback_sockets()
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.Popen(
        [str(core), "run", "sched.ctx_ring", "--param", "procs=32", "--param", "size=0", "--samples", "1000"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    deadline, seen = time.time() + 20, 0
    while time.time() < deadline and seen < 31:
        seen = max(seen, sum(len(children_of(p)) for p in children_of(proc.pid)))
        time.sleep(0.02)
    assert seen == 31, f"ring did not start ({seen} members seen)"
    proc.kill()
    proc.wait()
    # the runner had no chance to clean its scratch directory; everything else must go by itself
    for d in Path(tmp_path).glob("tickmark-*"):
        for f in d.iterdir():
            f.unlink()
        d.rmdir()
    assert_nothing_left(tmp_path, before)
