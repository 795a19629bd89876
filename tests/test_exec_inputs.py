"""What `tickmark exec` takes from the user and from the program: files that are not files (a
device, a FIFO), a figure whose regular expression backtracks without end, JSON nested deeper
than a parser goes, commands whose programs share a file name, and a command's name with
--shell. Each gives a clear result, never a traceback, a hang or a full disk."""

import os
import tempfile
import time

import pytest

from conftest import one_error_line


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_file_that_is_not_a_regular_file_is_refused(env, cli, tmp_path, kind):
    path = "/dev/zero"
    if kind == "fifo":
        path = str(tmp_path / "pipe")
        os.mkfifo(path)
    rc, out, err = cli("exec", "-q", "--runs", "2", "--rounds", "1", "--file", path, "--", "true")
    one_error_line(rc, err, "not a regular file")


def test_files_left_by_a_killed_tickmark_are_removed(env, cli, tmp_path):
    from tickmark.targets.local import LocalTarget

    dead = os.fork()
    if dead == 0:
        os._exit(0)
    os.waitpid(dead, 0)
    left = tempfile.mkdtemp(prefix=f"tickmark-files-{dead}-")
    (tmp_path / "input.txt").write_text("x")
    t = LocalTarget("local")
    try:
        assert t.put_file(str(tmp_path / "input.txt")) == "input.txt"
        assert not os.path.exists(left)
        assert os.path.basename(t.workdir).startswith(f"tickmark-files-{os.getpid()}-")
    finally:
        t.close()


def test_a_figure_that_backtracks_without_end_fails_in_time(real, cli):
    t = time.monotonic()
    rc, out, err = cli(
        "exec", "-q", "--runs", "3", "--rounds", "1", "--timeout", "2", "--name", "bt",
        "--figure", "x:higher=(a+)+b", "--", "sh", "-c", "printf 'a%.0s' $(seq 40)",
    )  # fmt: skip
    assert rc == 1 and "figure x missing: run 1: /(a+)+b/ took longer than 2 s" in err, err
    assert time.monotonic() - t < 300  # 2**40 steps of backtracking otherwise
    assert "Traceback" not in err


def test_json_nested_too_deeply_is_a_missing_figure(real, cli, tmp_path):
    doc = tmp_path / "deep.json"
    doc.write_text("[" * 100000 + "]" * 100000)
    rc, out, err = cli(
        "exec", "-q", "--runs", "2", "--rounds", "1", "--name", "deep",
        "--json-figure", "x:higher=a.b", "--", "cat", str(doc),
    )  # fmt: skip
    assert rc == 1 and "figure x missing: run 1: the output's JSON is nested too deeply to read" in err, err
    assert "Traceback" not in err
    rc, out, err = cli("show", "deep")  # stored, with the program's own times
    assert rc == 0 and "exec.cat " in out and "ms/op" in out, out


def test_commands_whose_programs_share_a_file_name(real, cli, tmp_path):
    local = tmp_path / "bld"
    local.mkdir()
    (local / "true").symlink_to("/bin/true")
    os.chdir(tmp_path)
    rc, out, err = cli(
        "exec", "-q", "--runs", "2", "--rounds", "1", "--name", "two", "-c", "/bin/true", "-c", "./bld/true"
    )
    assert rc == 0, err
    assert "/bin/true" in out and "./bld/true" in out
    rc, out, err = cli("exec", "-q", "--runs", "2", "--rounds", "1", "--name", "ab", "-c", "echo a/b", "-c", "echo c")
    assert rc == 0, err
    assert "echo a/b" in out and "echo b " not in out


def test_a_shell_command_is_named_by_its_program(real, cli):
    rc, out, err = cli("exec", "-q", "--runs", "2", "--rounds", "1", "--shell", "-c", "echo hi | cat", "--name", "sh1")
    assert rc == 0, err
    rc, out, err = cli("show", "sh1")
    assert rc == 0 and "exec.echo" in out and "exec.sh" not in out, out


def test_several_commands_each_get_their_table(real, cli):
    rc, out, err = cli("exec", "-q", "--runs", "2", "--rounds", "1", "--name", "pair", "-c", "true", "-c", "echo x")
    assert rc == 0, err
    assert "'pair-true'" in out and "'pair-echo_x'" in out, out  # each run's own table, its name above it
