"""A clock on the host side (run --host-clock): the core's marks, the samples the host makes of
their arrival times and the resolution it states; a captured log with a time on each line; and
the acceptance check: a bare-metal board under qemu-system, its UART on a pseudo-terminal, timed
from the host against its own clock over the same chunks."""

import json
import re
import socket
import subprocess
import threading
import time

import pytest

from boards import need_board
from conftest import need_tool, wait_run_started
from tickmark.analysis import hostclock


def _marks(chunk_ns, n_samples, iters=1000, offset=0, jitter=()):
    """The marks of one instance whose iterations take chunk_ns per `iters` on both clocks, each
    mark costing 5 us to print; jitter: extra ns on the host's time of mark k."""
    out, t, k = [], 1_000_000, 0
    out.append({"i": 0, "iters": 0, "host_ns": t + offset, "board_ns": t})
    for _ in range(n_samples):
        for n in (iters, 2 * iters):
            k += 1
            t += chunk_ns * n // iters + 5000
            extra = jitter[k] if k < len(jitter) else 0
            out.append({"i": k, "iters": n, "host_ns": t + offset + extra, "board_ns": t})
    return out


def test_samples_cancel_what_a_mark_costs():
    marks = _marks(2_000_000, 4, offset=777)
    recs, dropped = hostclock.samples(marks, ops_per_iter=10)
    assert dropped == 0 and len(recs) == 4
    for s in recs:  # the 2N chunk less the N chunk: exactly N iterations, the 5 us per mark gone
        assert s == {"i": s["i"], "iters": 1000, "ops": 10000, "ns": 2_000_000, "clock": "host", "board_ns": 2_000_000}
    # a mark lost on the line, or a longer chunk that came out shorter: that pair is left out
    recs, dropped = hostclock.samples([m for m in marks if m["i"] != 3], 10)
    assert dropped == 1 and [s["i"] for s in recs] == [0, 2, 3]
    late = [dict(m, host_ns=m["host_ns"] + (5_000_000 if m["i"] == 1 else 0)) for m in marks]
    assert hostclock.samples(late)[1] == 1


def test_a_pair_whose_board_chunks_came_out_reversed_keeps_the_board_figure_of_the_others():
    """Under load the board's own clock can read a longer chunk as shorter in one pair: that pair
    has no board time, and the board's figure is the median of the pairs that have one (a run of a
    busy machine once stored no board figure at all), with how many were without."""
    marks = _marks(2_000_000, 4, offset=777)
    noisy = [dict(m, board_ns=m["board_ns"] + (3_000_000 if m["i"] == 1 else 0)) for m in marks]
    recs, meta, dropped = hostclock.instance({"ops_per_iter": 1}, noisy, 0)
    assert dropped == 0 and len(recs) == 4 and "board_ns" not in recs[0]
    hc = meta["host_clock"]
    assert hc["board_ps_per_op"] == 2_000_000 and hc["board_samples_dropped"] == 1
    hc = hostclock.instance({"ops_per_iter": 1}, marks, 0)[1]["host_clock"]
    assert hc["board_ps_per_op"] == 2_000_000 and "board_samples_dropped" not in hc


def test_resolution_is_the_character_or_the_jitter_measured():
    quiet = _marks(1_000_000, 5)
    r = hostclock.resolution(quiet, char_ns=86_805, sample_ns=1_000_000)
    assert r["jitter_ns"] == pytest.approx(0, abs=1) and r["res_ns"] == 86_805
    assert r["sample_pct"] == pytest.approx(200 * 6**0.5 * 86_805 / 1_000_000)
    noisy = _marks(1_000_000, 5, jitter=[0, 40_000, -40_000, 40_000, -40_000, 40_000, -40_000, 40_000, 0, 0, 0])
    r = hostclock.resolution(noisy, char_ns=0, sample_ns=1_000_000)
    assert 20_000 < r["jitter_ns"] < 60_000 and r["res_ns"] == r["jitter_ns"]
    no_board = [{k: v for k, v in m.items() if k != "board_ns"} for m in noisy]  # fitted to the chunks
    assert 20_000 < hostclock.jitter_ns(no_board) < 80_000
    assert hostclock.jitter_ns(noisy[:4]) is None  # too few marks to tell
    # the sample length tickmark picks: 1 % with a 1 ms jitter assumed, longer on a slow line
    assert hostclock.sample_ms(0) == 490 and hostclock.sample_ms(10 * 10**9 // 300) > 490


def test_core_prints_marks_of_alternating_chunks(make_core):
    core = make_core()
    res = subprocess.run(
        [str(core), "run", "loop.control", "--host-clock", "--samples", "3", "--iters", "5000"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    recs = [json.loads(m.group(1)) for m in re.finditer(r"TM1 (\{.*\})", res.stdout)]
    assert recs[0]["host_clock"] == 1
    meta = next(r for r in recs if r["t"] == "meta")
    assert meta["method"] == "host-clock" and meta["loop_overhead_ps"] == 0
    marks = [r for r in recs if r["t"] == "mark"]
    assert [m["i"] for m in marks] == list(range(7)) and not [r for r in recs if r["t"] == "sample"]
    assert [m["iters"] for m in marks] == [0, 5000, 10000, 5000, 10000, 5000, 10000]
    assert all(b["board_ns"] >= a["board_ns"] for a, b in zip(marks, marks[1:]))
    bad = subprocess.run([str(core), "run", "loop.control", "--host-clock", "--text"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--host-clock" in bad.stderr


def test_a_local_run_timed_from_the_host(real, cli):
    rc, out, err = cli(
        "run", "loop.control", "--host-clock", "--rounds", "1", "--samples", "5", "--sample-ms", "60",
        "--name", "hc", "-q",
    )  # fmt: skip
    # chunks of 60 ms and more: a mark read late by a loaded host (tens of ms) leaves most pairs standing
    assert rc == 0, err + out
    from tickmark.store import Store

    st = Store(str(real))
    run = st.run("hc")
    assert run["fingerprint"]["host_clock"] is True and "host-clock" in run["fingerprint"]["flags"]
    assert run["options"]["host_clock"] is True
    (res,) = st.results(run["id"])
    samples = st.samples(res["id"])
    hc = res["meta"]["host_clock"]
    # a pair whose longer chunk came out shorter (this machine's noise above a chunk) is left out, and said
    assert res["status"] == "ok" and samples and len(samples) + hc["samples_dropped"] == 5
    assert all(s["clock"] == "host" for s in samples)
    assert hc["char_ns"] == 0 and hc["res_ns"] >= 0 and hc["host_ps_per_op"] > 0 and hc["board_ps_per_op"] > 0
    assert "Host clock against the board's" in out and "host-clock" in out


def _log(marks, with_times=True):
    """A captured console log of one host-timed instance (grabserial -t style times)."""
    hello = {"t": "hello", "v": 1, "core": "0.1.0", "port": "baremetal", "samples": 3, "host_clock": 1, "seed": 1}
    meta = {"t": "meta", "bench": "loop.control", "key": "loop.control", "iters": 1000, "ops_per_iter": 1,
            "method": "host-clock", "stat": "median"}  # fmt: skip
    lines = [f"TM1 {json.dumps(hello)}", f"TM1 {json.dumps(meta)}"]
    for m in marks:
        rec = {"t": "mark", "key": "loop.control", "i": m["i"], "iters": m["iters"], "board_ns": m["board_ns"]}
        t = m["host_ns"]
        lines.append((f"[{t // 10**9}.{t % 10**9:09d} 0.000001] " if with_times else "") + f"TM1 {json.dumps(rec)}")
    lines += ['TM1 {"t":"end","key":"loop.control","status":"ok","reason":""}', 'TM1 {"t":"bye","instances":1}']
    return "\r\n".join(lines) + "\r\n"


def test_a_captured_log_with_times_is_timed_by_them(tmp_path, real, cli):
    marks = _marks(3_000_000, 3)
    (tmp_path / "timed.log").write_text(_log(marks))
    rc, out, err = cli("ingest", str(tmp_path / "timed.log"), "--name", "timed")
    assert rc == 0, err + out
    (tmp_path / "plain.log").write_text(_log(marks, with_times=False))
    rc, out, err = cli("ingest", str(tmp_path / "plain.log"), "--name", "plain")
    assert "capture the console with a time at the start of each line" in out + err
    from tickmark.store import Store

    st = Store(str(real))
    (timed,) = st.results(st.run("timed")["id"])
    assert [s["ns"] for s in st.samples(timed["id"])] == [3_000_000] * 3  # the log's times, not the replay's
    (plain,) = st.results(st.run("plain")["id"])
    assert plain["status"] == "failed" and "without times" in plain["reason"] and not st.samples(plain["id"])


@pytest.mark.alone
def test_host_timed_board_under_qemu_agrees_with_its_own_clock(real, cli, tmp_path):
    """The acceptance check: a bare-metal Cortex-M7 under qemu-system without -icount (its
    board counter then follows the host's time), its UART on a pseudo-terminal, runs with
    --host-clock compiled in; the harness reads the console as from a board (serial:), timestamps
    the marks and states a resolution; timed by the host and by the board over the same chunks,
    the two agree within that resolution."""
    from tickmark.store import Store
    from tickmark.targets.build import build_core

    try:
        import serial  # noqa: F401
    except ImportError:
        need_tool("pyserial is missing")
    b = need_board("mps2-an500")
    args = "run loop.control trap.syscall --host-clock --samples 5 --sample-ms 100 --seed 3"
    info = build_core(
        cc="arm-none-eabi-gcc",
        cflags=f"-O2 '-DTM_BUILTIN_ARGS=\"{args}\"'",
        cross_compile=b.cross_compile,
        ldflags="",
        make_vars={"PORT": "baremetal", "BOARD": "mps2-an500", "BM_CONSOLE": "uart-cmsdk"},
    )
    mon = tmp_path / "monitor.sock"
    argv = b.qemu + ["-display", "none", "-monitor", f"unix:{mon},server=on,wait=off", "-serial", "pty", "-S"]
    qemu = subprocess.Popen(
        argv + ["-kernel", info.binary], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True
    )
    try:
        pts = re.search(r"(/dev/pts/\d+)", qemu.stdout.readline()).group(1)  # "char device redirected to ..."

        def power_on():  # the board starts once the harness reads its console (QEMU began paused)
            wait_run_started(real, timeout=120)
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(str(mon))
                s.sendall(b"cont\n")
                time.sleep(0.5)

        threading.Thread(target=power_on, daemon=True).start()
        rc, out, err = cli("run", "--target", f"serial:{pts}?baud=115200&silence=60", "--name", "hosted", "-q")
        assert rc == 0, err + out
    finally:
        qemu.kill()
        qemu.wait()
    st = Store(str(real))
    res = {r["key"]: r for r in st.results(st.run("hosted")["id"])}
    rows = {r["key"]: r for r in hostclock.agreement(res.values())}
    assert sorted(rows) == ["loop.control", "trap.syscall"]
    for key, r in rows.items():
        assert r["char_ns"] == 86805  # 10 bits at 115200 baud
        assert r["res_ns"] >= r["char_ns"] and r["sample_pct"] > 0
        assert abs(r["differ_pct"]) <= r["sample_pct"], (key, r)
    assert "Host clock against the board's" in out


LATE = 499_500  # a chunk of 1 ms whose middle mark arrives this late reads t2 - 2·t1 + t0 = 1 us


def test_a_sample_within_the_timestamps_noise_is_left_out(tmp_path, real, cli):
    """A mark that arrived late made a 1 ms chunk of getppid calls read as 2 us (1.29 ns a call,
    beside the board's 7.35 us) and the run complete, exit 0; a sample shorter than one
    timestamp's resolution is left out now, and a run with no other sample has no data."""
    one = _marks(1_000_000, 6, jitter=[0, LATE])
    recs, meta, dropped = hostclock.instance({"ops_per_iter": 1}, one, 0)
    assert dropped == 1 and [s["ns"] for s in recs] == [1_000_000] * 5
    assert meta["host_clock"]["res_ns"] > 1000 and meta["host_clock"]["samples_dropped"] == 1
    every = _marks(1_000_000, 6, jitter=[LATE if k % 2 else 0 for k in range(13)])
    recs, meta, dropped = hostclock.instance({"ops_per_iter": 1}, every, 0)
    assert recs == [] and dropped == 6
    (tmp_path / "late.log").write_text(_log(every))
    rc, out, err = cli("ingest", str(tmp_path / "late.log"), "--name", "late")
    assert rc == 1 and "without data" in out + err, out + err
