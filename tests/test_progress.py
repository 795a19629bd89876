"""One progress policy for every long command (report/progress.py): on a terminal one bar over
the whole command, with the time left, that does not start again each round; in a pipe plain
lines on stderr (a line per stage: a round, a matrix variant's round, a profile's step, and one
at least every EVERY seconds in between); nothing with -q."""

import re

import pytest

from conftest import need_cc
from ptyfix import run_in_pty

RUN = ("run", "--rounds", "2", "--samples", "2", "sys.fast", "ipc.ping", "sync.lockpair")


@pytest.fixture
def no_grace(monkeypatch):
    """Progress lines from the start (a command that ends within GRACE seconds prints none)."""
    from tickmark.report import progress

    monkeypatch.setattr(progress, "GRACE", 0.0)


def test_a_quick_command_prints_no_progress_line(env, cli):
    rc, out, err = cli(*RUN)
    assert rc == 0 and err == ""


def test_run_in_a_pipe_prints_a_line_per_round(env, cli, no_grace):
    rc, out, err = cli(*RUN)
    assert rc == 0, err
    lines = err.splitlines()
    # the first line comes as the run starts (a loaded machine may take seconds to get there)
    assert re.fullmatch(r"tickmark: round 1/2, 0 of 6 instances done, 0:0[0-3] spent", lines[0]), lines
    second = next(line for line in lines if line.startswith("tickmark: round 2/2, 3 of 6 instances done, "))
    assert re.search(r", about \d+:\d\d left$", second), second
    rc, out, err = cli(*RUN, "-q")
    assert rc == 0 and err == ""


def test_a_pipe_gets_a_line_at_least_every_few_seconds(env, cli, monkeypatch, no_grace):
    """An instance that takes long (a hang until its time limit) shows as lines that go on."""
    from tickmark.report import progress

    monkeypatch.setattr(progress, "EVERY", 0.3)
    monkeypatch.setenv("FAKECORE_MODE", "slowkey=ipc.ping,slow=2")
    rc, out, err = cli("run", "--rounds", "1", "--samples", "2", "sys.fast", "ipc.ping")
    assert rc == 0, err
    lines = [line for line in err.splitlines() if line.startswith("tickmark: round 1/1, ")]
    assert len(lines) >= 4, err  # about 2 s / 0.3 s while ipc.ping sleeps
    spent = [m.group(1) for m in re.finditer(r"done, (\d:\d\d) spent", err)]
    assert spent[0] in ("0:00", "0:01", "0:02", "0:03") and spent[-1] in ("0:01", "0:02", "0:03", "0:04", "0:05"), err


def test_matrix_in_a_pipe_names_the_variant_of_each_round(env, cli, no_grace):
    rc, out, err = cli("matrix", "--cflags", "-O2", "--cflags", "-Os", *RUN[1:])
    assert rc == 0, err
    assert "tickmark: built   cc -O2  (prebuilt)" in err
    rounds = re.findall(r"^tickmark: round (\d)/2 \(cc (-O.)\), \d+ of \d+ instances done", err, re.M)
    assert sorted(rounds) == [("1", "-O2"), ("1", "-Os"), ("2", "-O2"), ("2", "-Os")], err


def test_run_on_a_terminal_shows_one_bar_with_the_time_left(env):
    rc, screen = run_in_pty(RUN, columns=100)
    assert rc == 0, screen
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)  # the colours and cursor moves
    counts = [(int(a), int(b)) for a, b in re.findall(r"\b(\d+)/(\d+)\b", screen) if b != "2"]
    assert counts, screen
    assert {total for _, total in counts} == {6}, counts  # one total over both rounds
    done = [n for n, _ in counts]
    assert done == sorted(done) and done[-1] == 6, counts  # never starts again
    assert "round 2/2" in screen
    assert re.search(r"\d:\d\d:\d\d spent, \d:\d\d:\d\d left", screen), screen


def test_run_on_a_terminal_with_q_shows_no_bar(env):
    rc, screen = run_in_pty((*RUN, "-q"), columns=100)
    assert rc == 0 and "round 1/2" not in screen and "spent" not in screen


@pytest.mark.integration
def test_profile_says_each_step_in_a_pipe(real, cli, no_grace):
    need_cc()
    rc, out, err = cli("profile", "sys.getppid", "--seconds", "0.3")
    assert rc == 0, err
    steps = re.findall(r"^tickmark: ([a-z]+) .*?, (\d) of 3 steps done", err, re.M)
    assert [s for s, _ in steps][:1] == ["building"]
    assert ("measuring", "1") in steps and ("reading", "2") in steps, err
    rc, out, err = cli("profile", "sys.getppid", "--seconds", "0.3", "--name", "quiet", "-q")
    assert rc == 0 and "steps done" not in err


def test_campaign_on_a_terminal_counts_its_cells_on_one_bar(env, tmp_path):
    camp = tmp_path / "c.toml"
    camp.write_text(
        'name = "bar"\nrounds = 1\nsamples = 2\n[targets]\nhere = "local"\n'
        '[workloads]\nfast = ["sys.fast"]\nlock = ["sync.lockpair"]\n'
    )
    rc, screen = run_in_pty(("campaign", str(camp)), columns=100)
    assert rc == 0, screen
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
    assert "campaign: here: running here:default:fast" in screen
    assert re.search(r"campaign bar: here:default:\w+ +\S* *1/2 ", screen), screen
    assert re.search(r"2/2 \d:\d\d:\d\d spent", screen), screen
