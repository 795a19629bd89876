"""Every command's --help: whole summaries, what the arguments may be, the defaults, only the
options and targets the command takes, and lines that fit the width."""

import re

import pytest

from tickmark.cli import cli

COMMANDS = sorted(cli.commands)
# the commands that describe the core or the target and read no store
STORELESS = {"suites", "list", "info"}


def help_of(call, *args):
    rc, out, err = call(*args, "--help")
    assert rc == 0, err
    return out


@pytest.mark.parametrize("width", [60, 80, 120])
def test_every_help_fits_its_width(cli, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    for args in [()] + [(c,) for c in COMMANDS]:
        out = help_of(cli, *args)
        long = [line for line in out.splitlines() if len(line) > width]
        assert not long, (args, long)


def test_the_command_list_gives_each_summary_whole(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = help_of(cli)
    listed = " ".join(out.split("Commands:")[1].split())
    assert "..." not in listed and "\u2026" not in listed
    for name in COMMANDS:
        first = cli_first_sentence(name)
        assert f"{name} {first}" in listed, name


def cli_first_sentence(name):
    text = " ".join(cli.commands[name].help.split())
    return re.match(r"(.+?\.)(\s|$)", text).group(1)


def test_run_help_says_what_patterns_may_be(cli):
    out = " ".join(help_of(cli, "run").split())
    assert "'mem.bw_copy[size=4096]'" in out and "'sys.*'" in out
    assert "tickmark list" in out and "tickmark suites" in out
    assert re.search(r"--timeout INTEGER RANGE Per-instance time limit \(seconds; default 60\)", out)


def test_store_is_offered_where_it_is_used(cli):
    for name in COMMANDS:
        has = "--store" in help_of(cli, name)
        assert has == (name not in STORELESS), name
    rc, _, err = cli("suites", "--store", "x.db")
    assert rc == 2 and "No such option '--store'" in err


def test_profile_offers_the_targets_it_can_profile_on(cli):
    """The help texts read what each target says of itself (targets/: usage, profile_usage,
    kernel_usage, program_usage), no list of their own."""
    from tickmark.targets import targets

    def flat(text):  # the help as one line, a URI broken at its hyphen joined again
        return " ".join(re.sub(r"-\n\s+", "-", text).split())

    out = flat(help_of(cli, "profile"))
    offered = re.search(r"--target URI Where to run: (.*?)\. ", out).group(1)
    wrapping = [cls for cls in targets() if cls.__name__ == "LabgridTarget"]
    for cls in targets():
        assert cls.usage, cls  # every target says how --target names it
        # a sampler runs beside its core (labgrid: beside its board's SSH target's)
        assert (cls.profile_usage is not None) == (cls.profiles is not None or cls in wrapping), cls
        assert (cls.profile_usage or "\0") in offered or not cls.profile_usage, cls
    assert offered == ", ".join(cls.profile_usage for cls in targets() if cls.profile_usage)
    assert "--kernel" not in out and "--append" not in out  # no kernel image is profiled
    assert "serial:" not in out and "qemu-system:" not in out
    run = flat(help_of(cli, "run"))
    assert all(cls.usage in run for cls in targets())
    execs = flat(help_of(cli, "exec"))
    booting = [cls.kernel_usage for cls in targets() if cls.kernel_usage]
    assert booting and all(f"With --target {u}" in execs and f"With --target {u}" in run for u in booting)
    assert all(cls.program_usage in execs for cls in targets() if cls.program_usage)
    assert "serial:" not in execs
