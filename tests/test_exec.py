"""`tickmark exec`: any program as a benchmark, with the real core (its exec mode), on this machine,
over SSH (tests/sshfix.py) and in a Linux kernel image under qemu-system; figures read from a
program's output; the figures' statistics and direction."""

import glob
import json
import os
import shutil
import stat
import subprocess
import sys

import pytest

from tickmark.analysis import stats
from tickmark.analysis.figures import Figure, FigureMissing
from tickmark.base.errors import TickmarkError
from tickmark.base.tm1 import Reader
from tickmark.store import Store

CPU_LOOP = "i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done"


def records(binary, *args, timeout=120):
    """The core's records of `tickmark-core ARGS` -> (exit status, records)."""
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)
    r = Reader()
    recs = [rec for line in p.stdout.splitlines() for rec in r.feed_line(line)]
    assert r.malformed == 0, r.problems
    return p.returncode, recs


def of(recs, t):
    return [r for r in recs if r["t"] == t]


# ---------------------------------------------------------------- the core's exec mode
def test_core_exec_times_each_run_and_counts_what_the_kernel_counted(core_binary):
    rc, recs = records(core_binary, "exec", "--samples", "3", "--warmup", "1", "--", "sleep", "0.01")
    assert rc == 0
    hello, meta = of(recs, "hello")[0], of(recs, "meta")[0]
    assert hello["order"] == ["exec.sleep"] and meta["key"] == "exec.sleep" and meta["method"] == "exec"
    samples = of(recs, "sample")
    assert [s["i"] for s in samples] == [0, 1, 2]
    for s in samples:
        assert s["ops"] == 1 and s["ns"] >= 10_000_000  # the sleep is in the wall time
        ctr = s["ctr"]
        assert {"task_clock", "context_switches", "page_faults"} <= set(ctr)
        assert 0 < ctr["task_clock"] < s["ns"] and ctr["page_faults"] > 0
    assert of(recs, "end")[0]["status"] == "ok" and of(recs, "bye")[0]["instances"] == 1


def test_core_exec_counts_the_programs_children(core_binary):
    """The CPU time of what the program starts (a subshell's loop) is the program's: about what
    the same loop costs run directly (CPU time, not wall time: the load of the machine aside)."""

    def cpu(script):
        rc, recs = records(core_binary, "exec", "--samples", "3", "--warmup", "0", "--", "sh", "-c", script)
        assert rc == 0
        return sorted(s["ctr"]["task_clock"] for s in of(recs, "sample"))[1]

    direct, in_child = cpu(CPU_LOOP), cpu(f"({CPU_LOOP}); true")
    assert in_child > 0.5 * direct, (direct, in_child)


@pytest.mark.parametrize(
    "argv, status, reason",
    [
        (["sh", "-c", "echo the disk is gone >&2; exit 3"], "failed", "exited with status 3: the disk is gone"),
        (["sh", "-c", "kill -SEGV $$"], "crashed", "killed by SIGSEGV"),
        (["/no/such/program"], "failed", "cannot run /no/such/program: No such file or directory"),
        (["sleep", "5"], "timeout", "no result after 1 s"),
    ],
)
def test_core_exec_a_failing_program_fails_the_instance(core_binary, argv, status, reason):
    rc, recs = records(core_binary, "exec", "--samples", "2", "--warmup", "0", "--timeout", "1", "--", *argv)
    assert rc == 0  # the core did its job; the instance says what the program did
    end = of(recs, "end")[0]
    assert (end["status"], end["reason"]) == (status, reason)
    assert of(recs, "sample") == []


def test_core_exec_sends_the_output_it_is_asked_for(core_binary):
    text = 'TM1 {"t":"bye","instances":9}\nscore: 12.5\n\u00e9\n'
    rc, recs = records(core_binary, "exec", "--samples", "2", "--capture", "--", "printf", "%s", text)
    assert rc == 0
    samples = of(recs, "sample")
    assert [s["out"] for s in samples] == [text, text]  # a record-like line in it stays text
    assert len(of(recs, "bye")) == 1 and of(recs, "bye")[0]["instances"] == 1
    rc, recs = records(core_binary, "exec", "--samples", "1", "--", "echo", "x")
    assert "out" not in of(recs, "sample")[0]  # not asked: discarded


def test_core_exec_usage_errors(core_binary):
    for args in (["exec"], ["exec", "--samples", "0", "--", "true"], ["exec", "--bogus", "1", "--", "true"]):
        p = subprocess.run([core_binary, *args], capture_output=True, text=True, timeout=30)
        assert p.returncode == 2 and p.stderr.startswith("tickmark-core: exec: "), (args, p.stderr)


# ---------------------------------------------------------------- figures
def test_figure_specs_and_values():
    f = Figure.parse("throughput:Mbit/s:higher=([0-9.]+) Mbit", "regex")
    assert (f.name, f.unit, f.higher) == ("throughput", "Mbit/s", True)
    assert f.value("interim 100.0 Mbit/s\nfinal 941.5 Mbit/s\n") == 941.5  # the last match
    assert Figure.parse("score:higher=score: (\\S+)").value("score: 1,234.5") == 1234.5
    assert Figure.parse("t:lower=[0-9]+ ms").value("took 12 ms") == 12.0  # no group: the match
    j = Figure.parse("bw:bit/s:higher=end.sum.0.bits", "json")
    assert j.value('{"end": {"sum": [{"bits": 12e6}]}}') == 12e6
    assert j.value('noise\n{"end": {"sum": [{"bits": 3}]}}\n') == 3.0  # the last JSON line
    for out, why in (
        ("nothing", "no JSON"),
        ('{"end": {}}', "no field end.sum"),
        ('{"end":{"sum":[{"bits":"x"}]}}', "not a number"),
    ):
        with pytest.raises(FigureMissing, match=why):
            j.value(out)
    with pytest.raises(FigureMissing, match="no match"):
        f.value("nothing here")
    for bad in ("x=1", "x:sideways=1", "9x:higher=1", "x:higher=(", "x:higher=", "x:u:v:higher=1"):
        with pytest.raises(TickmarkError):
            Figure.parse(bad)
    with pytest.raises(TickmarkError):
        Figure.parse("x:higher=a..b", "json")


def test_figure_statistics_carry_unit_and_direction():
    samples = [
        {"round": 1 + i // 5, "i": i, "iters": 1, "ops": 1, "ns": 1000, "value": 10.0 + i % 3} for i in range(10)
    ]
    st = stats.recompute({"meta": {"figure": {"unit": "points", "higher": True}}}, samples, [])
    d = st.main
    assert d.unit == "points" and d.higher_is_better and d.median == 11.0 and d.ci95_lo <= 11.0 <= d.ci95_hi
    assert list(st) == [""]  # no task-clock, no cycles: a figure is the program's own number
    low = stats.recompute({"meta": {"figure": {"unit": "ms", "higher": False}}}, samples, []).main
    assert not low.higher_is_better
    # a program's run: the task-clock is a sub-metric of its own
    runs = [
        {"round": 1, "i": i, "iters": 1, "ops": 1, "ns": 2000 + i, "ctr_ops": 1, "ctr": {"task_clock": 500 + i}}
        for i in range(9)
    ]
    st = stats.recompute({"meta": {"method": "exec", "stat": "median"}}, runs, [])
    assert st.main.median == 2004 and st.get(stats.TASK_CLOCK).median == 504


# ---------------------------------------------------------------- tickmark exec
def _results(db, ref):
    st = Store(str(db))
    run = st.run(ref)
    return run, {r["key"]: r for r in st.results(run["id"])}


def test_exec_sleep_and_a_cpu_bound_command(real, cli):
    rc, out, err = cli(
        "exec", "-q", "--runs", "5", "--rounds", "2", "--max-rounds", "2", "--name", "nap", "--", "sleep", "0.01"
    )
    assert rc == 0, err
    assert "exec.sleep" in out and "task-clock" in out
    run, res = _results(real, "nap")
    assert run["status"] == "complete" and run["options"]["exec"]["argv"] == ["sleep", "0.01"]
    wall, cpu = res["exec.sleep"]["stats"][""], res["exec.sleep"]["stats"]["task-clock"]
    assert wall["median"] >= 10e6 and wall["ci95_lo"] <= wall["median"] <= wall["ci95_hi"]
    assert wall["n"] == 10 and wall["rounds"] == 2
    assert cpu["median"] < 0.5 * wall["median"] and cpu["ci95_lo"] <= cpu["median"] <= cpu["ci95_hi"]
    # google/benchmark's JSON: real_time the wall time, cpu_time the program's task-clock, per round
    rc, gb, err = cli("export", "nap", "--format", "gbench")
    assert rc == 0, err
    entries = json.loads(gb)["benchmarks"]
    rounds = [e for e in entries if e["run_type"] == "iteration"]
    assert [e["real_time"] for e in rounds] == wall["round_medians"]
    assert [e["cpu_time"] for e in rounds] == cpu["round_medians"]
    assert not [e for e in rounds if "label" in e]  # a label says so where cpu_time is wall time
    (median,) = [e for e in entries if e.get("aggregate_name") == "median"]
    assert median["cpu_time"] == cpu["median"] and median["real_time"] == wall["median"]
    rc, out, err = cli("exec", "-q", "--runs", "3", "--rounds", "2", "--name", "spin", "--", "sh", "-c", CPU_LOOP)
    assert rc == 0, err
    _, res = _results(real, "spin")
    sleep_cpu = cpu["median"]
    wall, cpu = res["exec.sh"]["stats"][""], res["exec.sh"]["stats"]["task-clock"]
    # CPU time, not wall time (the load of the machine aside): the loop's is many times the sleep's
    assert cpu["median"] > 10 * sleep_cpu and wall["median"] > 0.9 * cpu["median"]
    assert cpu["ci95_lo"] <= cpu["median"] <= cpu["ci95_hi"] and wall["ci95_lo"] <= wall["median"]


def test_exec_a_failing_command_is_a_failed_result_and_exit_1(real, cli):
    rc, out, err = cli("exec", "-q", "--runs", "2", "--name", "bad", "--", "sh", "-c", "echo no input >&2; exit 1")
    assert rc == 1
    assert "exec.sh failed: exited with status 1: no input" in err
    run, res = _results(real, "bad")
    assert res["exec.sh"]["status"] == "failed" and run["notes"]["rounds"] == 1  # no second round


def test_exec_figures_are_stored_with_unit_and_direction(real, cli):
    rc, out, err = cli(
        "exec", "-q", "--runs", "3", "--rounds", "1", "--name", "fig",
        "--figure", "score:points:higher=score: ([0-9.]+)", "--json-figure", "lat:us:lower=lat.p50",
        "--", "sh", "-c", 'echo "score: 41.5 points"; echo \'{"lat": {"p50": 7}}\'',
    )  # fmt: skip
    assert rc == 0, err
    assert "41.5 points" in out and "7.00 us" in out
    _, res = _results(real, "fig")
    score, lat = res["exec.sh.score"], res["exec.sh.lat"]
    assert score["unit"] == "points" and score["meta"]["figure"]["higher"] is True
    assert score["stats"][""]["median"] == 41.5 and score["stats"][""]["higher"] is True
    assert lat["stats"][""]["median"] == 7 and lat["meta"]["figure"]["higher"] is False
    assert "out" not in json.dumps(Store(str(real)).samples(res["exec.sh"]["id"]))  # outputs are not kept
    # the exports and history say a figure in its unit, never as a time
    rc, om, err = cli("export", "fig", "--format", "openmetrics")
    assert rc == 0, err
    assert 'tickmark_figure{run="fig",benchmark="exec.sh.score",key="exec.sh.score",unit="points",' in om
    assert not [ln for ln in om.splitlines() if ln.startswith("tickmark_op_time") and "exec.sh." in ln]
    rc, gb, err = cli("export", "fig", "--format", "gbench")
    assert rc == 0, err
    entries = json.loads(gb)["benchmarks"]
    assert {e["run_name"] for e in entries} == {"exec.sh"} and all(e["score"] == 41.5 for e in entries[:1])
    rc, hist, err = cli("history", "exec.sh.score")
    assert rc == 0 and "41.5 points" in hist, err
    rc, out, err = cli("exec", "-q", "--runs", "2", "--rounds", "1", "--figure", "x:higher=x=(\\d+)", "--", "echo", "y")
    assert rc == 1 and "exec.echo.x failed: figure x missing: run 1: no match" in err


def test_two_commands_interleaved_and_compared(real, cli):
    """Two programs' scores (no timing in it): the higher one is better, whatever its time."""
    rc, out, err = cli(
        "exec", "-q", "--runs", "5", "--rounds", "2", "--max-rounds", "2", "--name", "pair", "--format", "json",
        "--bench", "score",
        "--figure", "score::higher=score: (\\d+)", "-c", "echo score: 10", "-c", "sh -c 'echo score: 20'",
    )  # fmt: skip
    assert rc == 0, err
    doc = json.loads(out)
    (c,) = doc["comparisons"]
    assert (c["a"], c["b"]) == (
        "pair-echo_score_10 (echo score: 10)",
        "pair-sh_-c_echo_score_20 (sh -c echo score: 20)",
    )
    rows = {(r["key"], r["metric"]): r for r in c["rows"]}
    assert rows[("exec.score.score", "")]["verdict"] == "faster" and rows[("exec.score.score", "")]["ratio"] == 2.0
    assert ("exec.score", "task-clock") in rows and rows[("exec.score", "")]["verdict"]
    st = Store(str(real))
    runs = st.runs()
    assert [r["name"] for r in runs] == ["pair-echo_score_10", "pair-sh_-c_echo_score_20"]
    assert all(r["notes"]["exec_group"] == "pair" and r["notes"]["rounds"] == 2 for r in runs)


@pytest.mark.alone
def test_two_commands_get_a_time_verdict(real, cli):
    rc, out, err = cli(
        "exec", "-q", "--runs", "10", "--rounds", "3", "--format", "json", "-c", "sleep 0.01", "-c", "sleep 0.04"
    )
    assert rc == 0, err
    rows = {(r["key"], r["metric"]): r for r in json.loads(out)["comparisons"][0]["rows"]}
    main = rows[("exec.sleep", "")]
    assert main["verdict"] == "slower" and 2 < main["ratio"] < 5 and main["multiple"].endswith("slower")


def test_exec_file_is_in_the_commands_folder_and_output_fits_80_columns(real, cli, tmp_path, monkeypatch):
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/sh\necho ok: 3\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, err = cli(
        "exec",
        "-q",
        "--runs",
        "2",
        "--rounds",
        "1",
        "--file",
        str(script),
        "--figure",
        "ok:higher=ok: (\\d)",
        "--",
        "./job.sh",
    )
    assert rc == 0, err
    assert "exec.job.sh.ok" in out and max(len(line) for line in out.splitlines()) <= 80


def test_exec_bad_input_is_one_line_and_exit_2(real, cli, tmp_path):
    for args, said in (
        ((), "no command to run"),
        (("-c", "true", "--", "false"), "not both"),
        (("--figure", "x=1", "--", "true"), "bad --figure"),
        (("--kernel", str(tmp_path / "k"), "--", "true"), "--target qemu-system"),
        (("--", "printf", "a\nb"), "line break"),
        (("--shell", "--", "true"), "--shell"),
        (("--bench", "", "--", "true"), "bad --bench"),
    ):
        rc, out, err = cli("exec", *args)
        assert rc == 2 and err.count("\n") == 1 and said in err, (args, err)
    assert not os.path.exists(real) or Store(str(real)).runs() == []


# ---------------------------------------------------------------- other targets
@pytest.mark.integration
def test_exec_over_ssh(real, cli, tmp_path, monkeypatch):
    from sshfix import serving

    with serving(tmp_path / "sshd", monkeypatch) as sshd:
        script = tmp_path / "job.sh"
        script.write_text("#!/bin/sh\nsleep 0.01\necho result: 5 ops\n")
        rc, out, err = cli(
            "exec", "-q", "--target", sshd.uri, "--runs", "3", "--rounds", "2", "--max-rounds", "2", "--name", "far",
            "--file", str(script), "--figure", "result:ops:higher=result: (\\d+)", "--", "sh", "./job.sh",
        )  # fmt: skip
        assert rc == 0, err
        run, res = _results(real, "far")
        assert run["fingerprint"]["target_uri"] == sshd.uri and run["status"] == "complete"
        wall = res["exec.sh"]["stats"][""]
        assert wall["median"] >= 10e6 and wall["n"] == 6 and "task-clock" in res["exec.sh"]["stats"]
        assert res["exec.sh.result"]["stats"][""]["median"] == 5 and res["exec.sh.result"]["unit"] == "ops"
        left = sshd.ssh('ls -d "$TMPDIR"/tickmark.* 2>/dev/null; true').stdout.split()
        assert left == []  # the run's folder (and the file in it) removed
        rc, out, err = cli("exec", "-q", "--target", sshd.uri, "--runs", "2", "--rounds", "1", "--", "false")
        assert rc == 1 and "exec.false failed: exited with status 1" in err


KERNELS = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "tickmark", "kernels")


def _kernels():
    found = sorted(glob.glob(os.path.join(KERNELS, "linux-image-*-amd64", "boot", "vmlinuz-*")))
    std = [k for k in found if "-rt-" not in k]
    rt = [k for k in found if "-rt-" in k]
    if not (std and rt and os.path.isfile("/bin/busybox") and shutil.which("qemu-system-x86_64")):
        msg = "needs the Debian amd64 and rt-amd64 kernels (./bootstrap test), busybox-static and qemu-system-x86"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    return std[-1], rt[-1]


@pytest.mark.integration
def test_exec_on_two_kernel_images_is_one_comparison(real, cli, tmp_path):
    """The kernel built two ways, one program: one exec over two kernel images, interleaved."""
    kernels = _kernels()
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/sh\necho score: 3\n")
    rc, out, err = cli(
        "exec", "-q", "--target", "qemu-system:x86_64", "--kernel", kernels[0], "--kernel", kernels[1],
        "--runs", "3", "--rounds", "2", "--max-rounds", "2", "--warmup", "0", "--name", "kern", "--file", str(script),
        "--figure", "score::higher=score: (\\d)", "--", "sh", "./job.sh",
    )  # fmt: skip
    assert rc == 0, err
    assert "B = kern-" in out and "exec.sh" in out and "kernel image" in out  # the images' sizes beside
    st = Store(str(real))
    runs = st.runs()
    assert len(runs) == 2
    for run, k in zip(runs, kernels):
        fp = run["fingerprint"]
        assert fp["kernel_image"] == os.path.basename(k) and fp["kernel_image_size"] == os.path.getsize(k)
        assert fp["variant"] == os.path.basename(k) and fp.get("code_size") is None  # the program's, not the core's
        res = {r["key"]: r for r in st.results(run["id"])}
        assert res["exec.sh"]["status"] == "ok" and res["exec.sh"]["stats"][""]["n"] == 6
        assert res["exec.sh.score"]["stats"][""]["median"] == 3


@pytest.mark.parametrize("python", [sys.executable])
def test_exec_of_a_program_that_prints_much(real, cli, python):
    """An output of megabytes is cut at 1 MiB and said so when a figure is missing from it."""
    rc, out, err = cli(
        "exec", "-q", "--runs", "1", "--rounds", "1", "--figure", "end:higher=END (\\d+)", "--",
        python, "-c", "print('x' * 2_000_000); print('END 1')",
    )  # fmt: skip
    assert rc == 1 and "cut at 1 MiB" in err
