"""Hostile names: every command that makes a name follows the same rules."""

import os
import subprocess

import pytest

from conftest import row_counts
from hostilefix import RUN, _store, one_error_line, store_readable  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


def _fake_log(tmp_path, env):
    """A captured log of one run of the synthetic core -> its path."""
    log = tmp_path / "board.log"
    core = os.environ["TICKMARK_CORE"].split()
    r = subprocess.run([*core, "run", "sys.fast", "--samples", "2"], capture_output=True, env=env)
    log.write_bytes(r.stdout)
    return log


LONG = "n" * 95


MADE_NAMES = [
    ([*RUN, "sys.fast", "--name", "a\u202eb"], "invisible character U+202E"),
    ([*RUN, "sys.fast", "--name", "ab\u200b"], "invisible character U+200B"),
    ([*RUN, "sys.fast", "--name", "\u2066x"], "invisible character U+2066"),
    ([*RUN, "sys.fast", "--name", "x\ufeff"], "invisible character U+FEFF"),
    ([*RUN, "sys.fast", "--name", "a\u2028b"], "invisible character U+2028"),
    (["ingest", "{log}", "--name", "a\u202eb"], "invisible character U+202E"),
    (["ingest", "{log}", "--name", "\x1b]0;PWN\x07"], "control characters"),
    (["profile", "sys.fast", "--name", "a\u200db"], "invisible character U+200D"),
    (["matrix", "--cflags", "-O1", "--cflags", "-O2", "--name", LONG, "sys.fast"], "longer than 100"),
    (["matrix", "--cflags", "-O1", "--cflags", "-O2", "--name", "a\u202e", "sys.fast"], "invisible character"),
    (["campaign", "{camp_long}"], "longer than 89"),
]


@pytest.mark.parametrize("args,says", MADE_NAMES, ids=[" ".join(a)[:40] for a, _ in MADE_NAMES])
def test_every_name_a_command_makes_follows_the_rules(env, cli, tmp_path, args, says):
    rc, out, err = cli(*RUN, "sys.fast", "--name", "base")
    assert rc == 0, err
    camp = tmp_path / "long.toml"
    camp.write_text(f'name = "{"c" * 40}"\n[targets]\n{"t" * 20} = "local"\n[workloads]\n{"w" * 20} = ["sys.fast"]\n')
    argv = [a.format(log=_fake_log(tmp_path, os.environ), camp_long=camp) for a in args]
    before = row_counts(env)
    rc, out, err = cli(*argv)
    one_error_line(rc, err, says)
    assert "\x1b" not in err and "\u202e" not in err and "\x07" not in err
    assert row_counts(env) == before
    store_readable(cli, "base")


def test_a_campaign_never_adopts_a_run_it_did_not_make(env, cli, tmp_path):
    for name, status in (("c:a:default:w", "complete"), ("c:a:default:v", "incomplete")):
        rc, out, err = cli(*RUN, "sys.fast", "--name", "mine")
        assert rc == 0, err
        st = _store()
        st.update_run(st.run("mine")["id"], name=name, status=status)  # a user's run with a cell's name
    camp = tmp_path / "c.toml"
    camp.write_text('name = "c"\nrounds = 1\n[targets]\na = "local"\n[workloads]\nw = ["sys.fast"]\nv = ["sys.fast"]\n')
    rc, out, err = cli("campaign", str(camp))
    one_error_line(rc, err, "a run named 'c:a:default:w' exists that campaign c did not make", "and 1 more")
    st = _store()
    assert sorted(r["name"] for r in st.runs()) == ["c:a:default:v", "c:a:default:w"], "renamed or adopted"
    assert "campaign" not in st.run("c:a:default:w")["notes"]
    store_readable(cli, "c:a:default:w", "c:a:default:v")
