"""run --before COMMAND: a shell command on the target before each round (lmbench-style runs
drop the page cache so), recorded in the run's fingerprint; one that fails stops the run with
its exit status and what it said."""

import json

from conftest import one_error_line


def test_a_command_before_each_round(env, cli, tmp_path):
    log = tmp_path / "before.log"
    rc, out, err = cli(
        "run", "-q", "--rounds", "2", "--max-rounds", "2", "--samples", "2", "sys.fast", "--name", "bf",
        "--before", f"echo round >> {log}",
    )  # fmt: skip
    assert rc == 0, err
    assert log.read_text().splitlines() == ["round", "round"]
    rc, out, err = cli("export", "bf")
    assert json.loads(out)["run"]["fingerprint"]["before"] == f"echo round >> {log}"
    rc, out, err = cli("run", "-q", "--rounds", "1", "--samples", "2", "sys.fast", "--before", "echo no >&2; exit 3")
    one_error_line(rc, err, "--before command failed (exit status 3)", ": no")
    rc, out, err = cli("run", "-q", "sys.fast", "--before", "a\nb")
    one_error_line(rc, err, "--before takes one line")
