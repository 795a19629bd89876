"""labgrid targets and campaigns against real parts: labgrid's coordinator and exporter from PyPI,
two places whose NetworkService is the test's sshd (tests/sshfix.py), and a power switch served
by the test (labgrid's simplerest model). A campaign over both places and two variants; the
exporter killed in the middle of one; the place released after errors and Ctrl-C."""

import os
import signal
import threading
import time

import pytest

from conftest import tickmark_proc, wait_results
from labgridfix import Lab, PowerSwitch, have_labgrid
from sshfix import HAVE_SSH, MISSING, Sshd
from tickmark.store import Store

pytestmark = pytest.mark.integration

for ok, why in ((HAVE_SSH, MISSING), (have_labgrid(), "labgrid is not installed (pip install -e '.[test]')")):
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(why, pytrace=False)
        pytest.skip(why, allow_module_level=True)

QUICK = ["loop.control", "sys.getppid"]
CAMPAIGN = """
name = "{name}"
rounds = {rounds}
max_rounds = {rounds}
samples = 3
sample_ms = 5

[targets]
pa = "labgrid:pa"
pb = "labgrid:pb"

[variants]
O2 = {{ cflags = "-O2" }}
Os = {{ cflags = "-Os" }}

[workloads]
quick = ["loop.control", "sys.getppid"]
"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    sshd = Sshd(root / "sshd").start()
    switch = PowerSwitch()
    lab = Lab(root / "lab", sshd, {"pa": "board-a", "pb": "board-b"}, power={"board-a": switch})
    try:
        lab.start()
    except Exception:
        lab.stop()
        sshd.stop()
        switch.stop()
        raise
    lab.sshd, lab.switch = sshd, switch
    yield lab
    lab.stop()
    sshd.stop()
    switch.stop()


@pytest.fixture
def lg(lab, tmp_path, monkeypatch, build_cache):
    monkeypatch.setenv("LG_COORDINATOR", lab.address)
    monkeypatch.setenv("TICKMARK_SSH_CONFIG", str(lab.sshd.config))
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))  # each variant is built once for the session
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    monkeypatch.delenv("TICKMARK_CORE", raising=False)
    monkeypatch.delenv("TICKMARK_TARGET", raising=False)
    yield lab  # nothing acquired: the lab is new, or the test before checked it (below)
    assert lab.acquired() == {}, "a place was left acquired"


def test_run_on_a_place_stores_the_boards_fingerprint_and_releases_it(lg, cli):
    rc, out, err = cli("run", "--target", "labgrid:pb", *QUICK, "--rounds", "1", "--samples", "3", "-q")
    assert rc == 0, err
    assert "sys.getppid" in out
    st = Store(os.environ["TICKMARK_STORE"])
    fp = st.run("latest")["fingerprint"]
    assert fp["target_uri"] == "labgrid:pb"
    assert fp["labgrid"] == {
        "place": "pb",
        "coordinator": lg.address,
        "via": f"ssh://{lg.sshd.user}@127.0.0.1:{lg.sshd.port}",
        "resources": ["NetworkService"],
        "power_cycled": False,
    }
    assert {r["key"]: r["status"] for r in st.results(st.run("latest")["id"])} == {k: "ok" for k in QUICK}


def test_place_is_released_after_an_error_and_after_ctrl_c(lg, cli):
    rc, out, err = cli("run", "--target", "labgrid:pa", "no.such.bench")
    assert rc == 2 and "no benchmark matches 'no.such.bench'" in err and err.count("\n") == 1
    assert lg.acquired() == {}
    rc, out, err = cli("run", "--target", "labgrid:nowhere", "sys.getppid")
    assert rc == 2 and err.count("\n") == 1 and "labgrid place nowhere" in err, err
    # someone else holds the place: tickmark waits in the reservation queue, then gives up saying
    # who holds it; their place stays theirs and no reservation is left behind
    lg.client("-p", "pb", "acquire")
    try:
        who = lg.acquired()["pb"]
        rc, out, err = cli("run", "--target", "labgrid:pb?queue=2", "sys.getppid")
        assert rc == 2 and "waiting in labgrid's reservation queue (up to 2 s)" in err, err
        last = err.strip().splitlines()[-1]
        assert (
            last.startswith("tickmark: error: labgrid place pb: still taken after 2 s") and f"acquired by {who}" in last
        )
        assert "pb" in lg.acquired()
        assert "Reservation" not in lg.client("reservations").stdout
    finally:
        lg.client("-p", "pb", "release")
    p = tickmark_proc(
        ["run", "--target", "labgrid:pa", "sys.getppid", "--rounds", "50", "--samples", "20"], start_new_session=True
    )
    try:
        wait_results(os.environ["TICKMARK_STORE"])  # in the middle of the run
        assert "pa" in lg.acquired()
        os.kill(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert lg.acquired() == {}


def _lines_until(stream, text, timeout):
    """The lines of stream up to the first one holding text (or its end, or timeout)."""
    lines = []

    def read():
        for line in stream:
            lines.append(line)
            if text in line:
                return

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(timeout)
    return lines


def test_two_campaigns_wanting_one_place_queue_for_it(lg, tmp_path):
    """The second campaign waits in labgrid's reservation queue while the first holds the place,
    and runs its cells once the first releases it. The first is paused (SIGSTOP) while it holds
    the place, until the second waits in the queue: a first campaign that ends sooner than the
    second starts (2 s) would leave it nothing to wait for. Each has a store of its own (the
    paused one may hold its store's lock)."""
    procs = []
    for name in ("qa", "qb"):
        f = tmp_path / f"{name}.toml"
        f.write_text(
            f'name = "{name}"\nrounds = 2\nmax_rounds = 2\nsamples = 3\nsample_ms = 5\n'
            '[targets]\npa = "labgrid:pa"\n[variants]\nO2 = { cflags = "-O2" }\nOs = { cflags = "-Os" }\n'
            '[workloads]\nquick = ["loop.control", "sys.getppid"]\n'
        )
        procs.append((name, f))
    stores = {name: str(tmp_path / f"{name}.db") for name, _ in procs}
    first = tickmark_proc(["campaign", str(procs[0][1])], env={"TICKMARK_STORE": stores["qa"]}, start_new_session=True)
    second = None
    try:
        said = _lines_until(first.stderr, "running pa:O2:quick", 240)  # the place is acquired first
        os.killpg(first.pid, signal.SIGSTOP)
        assert "pa" in lg.acquired(), "".join(said)
        second = tickmark_proc(
            ["campaign", str(procs[1][1])], env={"TICKMARK_STORE": stores["qb"]}, start_new_session=True
        )
        deadline = time.time() + 60
        waiting = ""
        while time.time() < deadline and "waiting" not in waiting:
            waiting = lg.client("reservations").stdout
            time.sleep(0.3)
        assert "state: waiting" in waiting and "name=pa" in waiting, waiting
        os.killpg(first.pid, signal.SIGCONT)
        out1, err1 = first.communicate(timeout=300)
        out2, err2 = second.communicate(timeout=300)
    finally:
        for p in (first, second):
            if p is not None and p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    assert first.returncode == 0, err1
    assert second.returncode == 0, err2
    assert "labgrid place pa is taken (acquired by" in err2 and "waiting in labgrid's reservation queue" in err2
    runs = {r["name"]: r for name in stores for r in Store(stores[name]).runs()}
    a = [runs[f"qa:pa:{v}:quick"] for v in ("O2", "Os")]
    b = [runs[f"qb:pa:{v}:quick"] for v in ("O2", "Os")]
    assert all(r["status"] == "complete" for r in a + b)
    assert max(r["finished"] for r in a) <= min(r["started"] for r in b)  # b ran once a let go
    assert "Reservation" not in lg.client("reservations").stdout


def test_power_cycle_through_the_places_power_switch(lg, cli):
    lg.switch.log.clear()
    # a bounded wait in the queue: a place an earlier test left held fails this one, never hangs the suite
    rc, out, err = cli("run", "--target", "labgrid:pa?queue=120", "--power-cycle", "sys.getppid", "--rounds", "1", "-q")
    assert rc == 0, err
    assert lg.switch.log == [("set", "0", "0"), ("set", "0", "1")]  # off, then on
    st = Store(os.environ["TICKMARK_STORE"])
    assert st.run("latest")["fingerprint"]["labgrid"]["power_cycled"] is True
    rc, out, err = cli("run", "--target", "labgrid:pb?power-cycle=1", "sys.getppid")
    assert rc == 2 and "labgrid place pb has no power control" in err and err.count("\n") == 1


def test_campaign_over_two_places_and_two_variants_then_compare(lg, cli, tmp_path):
    f = tmp_path / "lab.toml"
    f.write_text(CAMPAIGN.format(name="lab1", rounds=2))
    rc, out, err = cli("campaign", str(f))
    assert rc == 0, err
    assert "4 done" in out and out.count("cross-target compare") == 2
    names = [f"lab1:{t}:{v}:quick" for t in ("pa", "pb") for v in ("O2", "Os")]
    st = Store(os.environ["TICKMARK_STORE"])
    runs = {r["name"]: r for r in st.runs()}
    assert sorted(runs) == sorted(names)
    for n in names:
        assert runs[n]["status"] == "complete" and runs[n]["n_results"] == 2
        assert runs[n]["fingerprint"]["target_uri"] == f"labgrid:{n.split(':')[1]}"
    rc, out, err = cli("compare", "lab1:pa:O2:quick", "lab1:pb:O2:quick", "lab1:pa:Os:quick")
    assert rc == 0, err
    assert "B = lab1:pb:O2:quick" in out and "B = lab1:pa:Os:quick" in out and "sys.getppid" in out


def test_exporter_killed_mid_campaign_keeps_finished_cells_and_resumes(lg, tmp_path):
    f = tmp_path / "lab.toml"
    f.write_text(CAMPAIGN.format(name="lab2", rounds=4))
    store = os.environ["TICKMARK_STORE"]
    p = tickmark_proc(["campaign", str(f)], start_new_session=True)
    try:
        deadline, done = time.time() + 240, 0
        while time.time() < deadline and not done and p.poll() is None:
            try:
                st = Store(store)
                done = sum(r["status"] == "complete" for r in st.runs())
                st.close()
            except Exception:
                pass
            time.sleep(0.1)
        if not done:  # the campaign ended or stalled before its first cell: say how
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate(timeout=60)
            raise AssertionError(f"no cell finished (exit {p.returncode}): {err[-1500:]} {out[-1500:]}")
        lg.kill_exporter()  # the lab loses its exporter: its boards are no longer managed
        out, err = p.communicate(timeout=240)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        if lg.exporter.poll() is not None:
            lg.start_exporter()
    assert p.returncode == 1, err
    assert "became unavailable" in out and "start the campaign again" in err, out[:1500]
    st = Store(store)
    complete = {r["name"]: r["id"] for r in st.runs() if r["status"] == "complete"}
    assert 1 <= len(complete) < 4
    assert lg.acquired() == {}

    # the exporter is back: a second start runs only the missing cells
    p = tickmark_proc(["campaign", str(f)])
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    assert f"{len(complete)} finished" in out and f"{4 - len(complete)} done" in out
    st = Store(store)
    now = {r["name"] for r in st.runs() if r["status"] == "complete"}
    assert now == {f"lab2:{t}:{v}:quick" for t in ("pa", "pb") for v in ("O2", "Os")}
    for name, rid in complete.items():  # the cells finished before the exporter died were not run again
        assert st.run(name)["id"] == rid


def test_a_place_forwards_every_capability_of_its_boards_target(lg, monkeypatch):
    """labgrid copied five of the SSH target's flags by hand and missed profiles, connect,
    run_remote and the core's profile_runner; it forwards the contract now (targets/base.py
    Wrapping): a capability added to the contract reaches the board's target with no word in
    labgrid.py."""
    from tickmark.targets import open_target
    from tickmark.targets.base import Core, Target
    from tickmark.targets.ssh import SshCore, SshTarget

    monkeypatch.setattr(Target, "teleports", False, raising=False)
    monkeypatch.setattr(SshTarget, "teleports", True, raising=False)
    monkeypatch.setattr(Target, "warp", lambda self, n: "none", raising=False)
    monkeypatch.setattr(SshTarget, "warp", lambda self, n: f"{self.uri} x{n}", raising=False)
    monkeypatch.setattr(Core, "turbo", None, raising=False)
    monkeypatch.setattr(SshCore, "turbo", "ssh's", raising=False)
    with open_target("labgrid:pb") as t:
        ssh = t.inner
        assert isinstance(ssh, SshTarget) and t.uri == "labgrid:pb" and t.power_cycles  # its own
        assert (t.profiles, t.reconnects, t.reruns, t.emulated) == ("remote", True, True, False)
        assert t.teleports is True and t.warp(3) == f"{ssh.uri} x3"
        t.connect()
        assert t.run_remote("echo $((6 * 7))").stdout.strip() == "42"
        core = t.prepare()
        assert core.turbo == "ssh's" and core.in_process is False
        runner = core.profile_runner()
        assert runner is not None and runner.remote
        runner.close()
        assert core.fingerprint()["target_uri"] == "labgrid:pb"  # the fingerprint stays the place's


def test_profile_on_a_place_over_ssh(lg, cli):
    """`profile --target labgrid:PLACE` was refused ('profiles are not supported') though the
    place's board is an SSH target, which can profile."""
    import shutil

    if not shutil.which("gprof"):
        if os.environ.get("CI"):
            pytest.fail("gprof is not installed (bootstrap installs binutils)")
        pytest.skip("gprof is not installed")
    rc, out, err = cli("profile", "sys.getppid", "--target", "labgrid:pb", "--tool", "gprof", "--seconds", "0.5")
    assert rc == 0, err
    assert out.startswith("sys.getppid: gprof (") and "profile stored with run" in out
    prof = Store(os.environ["TICKMARK_STORE"]).profiles(1)["sys.getppid"]
    assert prof["tool"] == "gprof" and prof["routines"]
