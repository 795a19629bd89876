"""The serial target over a pseudo-terminal pair: a writer plays the board at a real baud rate,
either replaying a recorded core output with console noise (a board without a shell), or acting
as a shell that runs the real core for each command line typed (a board with one)."""

import json
import os
import shlex
import subprocess
import threading
import time

import pytest

from conftest import wait_run_started

pytestmark = pytest.mark.integration
try:
    import serial  # noqa: F401  (the serial target opens the port with it)
except ImportError:  # a dependency of tickmark itself: bootstrap installs it
    if os.environ.get("CI"):
        pytest.fail("pyserial is missing (pip install -e '.[test]')", pytrace=False)
    pytest.skip("pyserial missing (pip install pyserial)", allow_module_level=True)

BAUD = 115200
NOISE = [
    b"\x1b[1;32m[  OK  ]\x1b[0m Started getty on ttyS0.",
    b"\xff\xfe\x00 line noise \x80",
    b"[   12.345678] random: crng init done",
    b"",
]


@pytest.fixture(scope="module")
def core(build_cache):
    from tickmark.targets.build import build_core

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(build_cache))
        return build_core().binary


@pytest.fixture
def pty_pair(monkeypatch, build_cache):
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    master, slave = os.openpty()
    yield master, os.ttyname(slave)
    os.close(slave)
    os.close(master)


def paced_write(fd, data, baud=BAUD):
    """Write at the line rate of BAUD (10 bits per byte), in small chunks as a UART would."""
    for i in range(0, len(data), 64):
        chunk = data[i : i + 64]
        os.write(fd, chunk)
        time.sleep(len(chunk) * 10 / baud)


def with_noise(out):
    """A core's output as a console shows it: CRLF, boot noise around and between records."""
    lines = out.splitlines()
    res = [NOISE[0], NOISE[1]]
    for i, ln in enumerate(lines):
        res.append((b"\x1b[0m" if i % 4 == 1 else b"") + ln)
        if i % 3 == 2:
            res.append(NOISE[2 + i % 2])
    return b"\r\n".join(res) + b"\r\n# "


def test_board_without_shell_one_round_per_start(core, pty_pair, tmp_path, cli, monkeypatch):
    master, dev = pty_pair
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "s.db"))
    recorded = subprocess.run(
        [core, "run", "sys.getppid", "sys.clock_gettime", "--samples", "3"], capture_output=True, check=True
    ).stdout
    from tickmark.store import Store

    def board():  # the board starts when the run is waiting for it (a reset)
        wait_run_started(tmp_path / "s.db")
        paced_write(master, with_noise(recorded))

    w = threading.Thread(target=board, daemon=True)
    w.start()
    uri = f"serial:{dev}?baud={BAUD}&silence=20"
    rc, out, err = cli("run", "--target", uri, "-q", "--name", "uart")
    w.join(5)
    assert rc == 0, err
    assert "one round per start" in err
    run = Store(tmp_path / "s.db").run("uart")
    assert run["status"] == "complete" and run["notes"]["rounds"] == 1
    # what the board ran, with the board's own seed (not a seed of the harness nor typed patterns)
    hello = json.loads(recorded.split(b"\n", 1)[0][4:])
    assert run["patterns"] == ["sys.clock_gettime", "sys.getppid"]
    assert run["notes"]["seeds"] == [hello["seed"]] and run["options"]["samples"] == 3
    fp = run["fingerprint"]
    assert fp["target_uri"] == f"serial:{dev}?baud={BAUD}" and fp["baud"] == BAUD
    assert fp["arch"] == os.uname().machine and fp["kernel"] == os.uname().release  # from the hello record
    assert fp["cpu_model"] == "unknown" and fp["caches"] == []  # nothing is read from the host
    res = Store(tmp_path / "s.db").results(run["id"])
    assert sorted(r["key"] for r in res) == ["sys.clock_gettime", "sys.getppid"]
    assert all(r["status"] == "ok" and len(Store(tmp_path / "s.db").samples(r["id"])) == 3 for r in res)


def test_silence_ends_the_round(core, pty_pair, tmp_path, cli, monkeypatch):
    master, dev = pty_pair
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "s.db"))
    recorded = subprocess.run(
        [core, "run", "sys.getppid", "sys.clock_gettime", "--samples", "3"], capture_output=True, check=True
    ).stdout
    lines = recorded.splitlines()
    cut = next(i for i, ln in enumerate(lines) if b'"t":"end"' in ln) + 2  # one instance and a bit
    from tickmark.store import Store

    def board():
        wait_run_started(tmp_path / "s.db")
        paced_write(master, b"\r\n".join(lines[:cut]) + b"\r\n")  # then the board hangs

    threading.Thread(target=board, daemon=True).start()
    t = time.time()
    rc, out, err = cli("run", "--target", f"serial:{dev}?silence=2", "-q")
    assert rc == 1, err  # an incomplete run
    assert "silent for 2 s" in err
    assert time.time() - t < 30
    run = Store(tmp_path / "s.db").run("latest")
    assert run["status"] == "incomplete"
    assert any("silent for 2 s" in p for p in run["notes"]["problems"])
    ok = [r for r in Store(tmp_path / "s.db").results(run["id"]) if r["status"] == "ok"]
    assert len(ok) == 1  # the finished instance is kept


def test_board_with_shell_takes_every_round(core, pty_pair, tmp_path, cli, monkeypatch):
    master, dev = pty_pair
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "s.db"))
    typed = []
    board_core = tmp_path / "opt" / "tickmark-core"  # the core "on the board"
    board_core.parent.mkdir()
    board_core.symlink_to(core)

    def shell():  # a console with a shell: echoes the line typed, runs it with sh, answers
        buf = b""
        while True:
            try:
                data = os.read(master, 1024)
            except OSError:
                return
            buf += data
            while b"\r" in buf:
                line, buf = buf.split(b"\r", 1)
                typed.append(line.decode())
                paced_write(master, line + b"\r\n")
                r = subprocess.run(["sh", "-c", line.decode()], capture_output=True)
                paced_write(master, with_noise(r.stdout))

    threading.Thread(target=shell, daemon=True).start()
    uri = f"serial:{dev}?baud={BAUD}&core={board_core}"
    rc, out, err = cli(
        "run",
        "--target",
        uri,
        "sys.getppid",
        "--rounds",
        "2",
        "--max-rounds",
        "2",
        "--samples",
        "3",
        "-q",
        "--name",
        "shell",
    )
    assert rc == 0, err
    assert "one round per start" not in err
    from tickmark.store import Store

    st = Store(tmp_path / "s.db")
    run = st.run("shell")
    assert run["status"] == "complete" and run["notes"]["rounds"] == 2
    (r,) = st.results(run["id"])
    assert sorted({s["round"] for s in st.samples(r["id"])}) == [1, 2]
    # as the board's shell reads the lines tickmark typed (';' a token of its own)
    words = [list(shlex.shlex(t, posix=True, punctuation_chars=True)) for t in typed]
    runs_typed = [w for w in words if w[1:2] == ["run"]]
    assert len(runs_typed) == 2 and "--iters" in runs_typed[1] and "sys.getppid" in runs_typed[0]


def test_bad_serial_uris(cli):
    for uri, msg in (
        ("serial:", "expected serial:DEVICE"),
        ("serial:/dev/x?baud=12", "baud must be one of"),
        ("serial:/dev/x?speed=9600", "unknown option speed"),
        ("serial:/dev/x?core=a;reboot", "plain path"),
        ("serial:/nonexistent/ttyX", "cannot open /nonexistent/ttyX"),
    ):
        rc, out, err = cli("info", "--target", uri)
        assert rc == 2 and err.startswith("tickmark: error:") and msg in err, (uri, err)


def _recorded(core, *benches):
    return subprocess.run([core, "run", *benches, "--samples", "3"], capture_output=True, check=True).stdout


def _board(tmp_path, master, data, then=None):
    def board():
        wait_run_started(tmp_path / "s.db")
        paced_write(master, data)
        if then:
            then()

    t = threading.Thread(target=board, daemon=True)
    t.start()
    return t


def test_noise_that_looks_like_a_bye_does_not_end_the_round(core, pty_pair, tmp_path, cli, monkeypatch):
    master, dev = pty_pair
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "s.db"))
    lines = _recorded(core, "sys.getppid", "sys.clock_gettime").splitlines()
    first_end = next(i for i, ln in enumerate(lines) if b'"t":"end"' in ln)
    noise = [b'[   7.1] watchdog: TM1 "t":"bye" seen in a log', b'echo \'TM1 {"t":"bye"\'', b'TM1 {"t":"bye"}']
    data = b"\r\n".join(lines[: first_end - 1] + noise + lines[first_end - 1 :]) + b"\r\n"
    _board(tmp_path, master, data)
    rc, out, err = cli("run", "--target", f"serial:{dev}?silence=20", "-q")
    assert rc == 0, err
    from tickmark.store import Store

    st = Store(tmp_path / "s.db")
    run = st.run("latest")
    assert run["status"] == "complete"
    assert sorted((r["key"], r["status"]) for r in st.results(run["id"])) == [
        ("sys.clock_gettime", "ok"),
        ("sys.getppid", "ok"),
    ]


def test_a_console_that_writes_without_newlines_is_silent(core, pty_pair, tmp_path, cli, monkeypatch):
    master, dev = pty_pair
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "s.db"))
    lines = _recorded(core, "sys.getppid", "sys.clock_gettime").splitlines()
    cut = next(i for i, ln in enumerate(lines) if b'"t":"end"' in ln) + 1
    stop = threading.Event()

    def flood():  # then garbage, fast and without end, and no newline ever
        while not stop.is_set():
            try:
                os.write(master, b"\x1b[0m#" * 4096)
            except OSError:
                return

    _board(tmp_path, master, b"\r\n".join(lines[:cut]) + b"\r\n", then=flood)
    t = time.time()
    try:
        rc, out, err = cli("run", "--target", f"serial:{dev}?silence=3", "-q")
    finally:
        stop.set()
    assert rc == 1, err
    assert "silent for 3 s" in err
    assert time.time() - t < 60  # not the watchdog's 130 s
    from tickmark.store import Store

    st = Store(tmp_path / "s.db")
    ok = [r for r in st.results(st.run("latest")["id"]) if r["status"] == "ok"]
    assert len(ok) == 1


def test_an_unplugged_console_ends_the_run_incomplete_with_exit_1(core, tmp_path, cli, monkeypatch):
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "s.db"))
    master, slave = os.openpty()
    dev = os.ttyname(slave)
    os.close(slave)  # only the harness holds the console open
    lines = _recorded(core, "sys.getppid", "sys.clock_gettime").splitlines()
    cut = next(i for i, ln in enumerate(lines) if b'"t":"end"' in ln) + 1
    _board(tmp_path, master, b"\r\n".join(lines[:cut]) + b"\r\n", then=lambda: time.sleep(2) or os.close(master))
    rc, out, err = cli("run", "--target", f"serial:{dev}?silence=20", "-q")
    assert rc == 1, err  # an incomplete run, as the README says; not an error (2)
    assert "tickmark: error" not in err and "is incomplete" in err
    from tickmark.store import Store

    st = Store(tmp_path / "s.db")
    run = st.run("latest")
    assert run["status"] == "incomplete"
    assert [r["key"] for r in st.results(run["id"]) if r["status"] == "ok"]


def test_info_on_a_console_without_a_shell_says_why(pty_pair, cli):
    master, dev = pty_pair
    rc, out, err = cli("info", "--target", f"serial:{dev}")
    assert rc == 2 and err.startswith("tickmark: error:") and "has no shell (no core=PATH)" in err, err
    assert "None" not in out + err
