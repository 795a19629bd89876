"""run --cpu N: the core runs the benchmarks on CPU N (as cyclictest -a N or taskset place a
program; without it, on the CPU it starts on), recorded with the run; a CPU the target cannot
run on is refused before anything runs."""

import json
import os

from conftest import need_cc, one_error_line


def test_the_benchmarks_run_on_the_cpu_asked_for(real, cli):
    need_cc()
    cpu = max(os.sched_getaffinity(0))  # the last CPU this process may use: rarely the one it starts on
    rc, out, err = cli(
        "run",
        "-q",
        "--rounds",
        "1",
        "--max-rounds",
        "1",
        "--samples",
        "2",
        "--cpu",
        str(cpu),
        "--name",
        "pinned",
        "sys.getppid",
    )
    assert rc == 0, err
    rc, out, err = cli("export", "pinned")
    run = json.loads(out)
    assert run["run"]["options"]["cpu"] == cpu
    assert run["run"]["fingerprint"]["cpu"] == cpu
    assert run["run"]["hello"]["cpu"] == cpu
    (result,) = run["results"]
    assert [(s["cpu0"], s["cpu1"]) for s in result["samples"]] == [(cpu, cpu)] * 2


def test_a_cpu_the_target_cannot_run_on_is_refused(real, cli):
    need_cc()
    rc, out, err = cli(
        "run", "-q", "--rounds", "1", "--max-rounds", "1", "--cpu", "4095", "--name", "nowhere", "sys.getppid"
    )
    one_error_line(rc, err, "--cpu names a CPU that this target cannot run on", "4095")
    rc, out, err = cli("export", "nowhere")
    assert rc != 0  # nothing ran: no run of that name


def test_a_board_that_runs_what_it_was_built_to_run_cannot_take_cpu(real, cli):
    master, slave = os.openpty()  # a console without a shell: nobody types the core's arguments
    try:
        rc, out, err = cli("run", "-q", "--target", f"serial:{os.ttyname(slave)}", "--cpu", "0")
    finally:
        os.close(slave)
        os.close(master)
    one_error_line(rc, err, "--cpu is an argument of the core", "runs what it was built to run")
