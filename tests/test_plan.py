"""The run plan (run/plan.py): one place turns options into a checked RunConfig for run, matrix,
campaign cells, profile, topology and ingest, so a check that `run` makes holds for `matrix` too;
--param BENCH:NAME=V scopes a sweep to some benchmarks; --suite and patterns combine; one table of
limits, the core's own."""

import re
import subprocess
from pathlib import Path

import pytest

from conftest import row_counts
from tickmark.run.plan import LIMITS, Plan
from tickmark.store import Store

SRC = Path(__file__).resolve().parent.parent / "src" / "tickmark"


def test_one_place_makes_run_configs():
    """RunConfig was built in six places (run, matrix, profile, ingest, campaign, topology), each
    with its own subset of the checks."""
    sites = sorted(
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if re.search(r"\bRunConfig\(", p.read_text()) and p.name != "plan.py"
    )
    assert sites == [], sites


def test_profiles_are_stored_by_the_run_engine():
    """`profile` wrote profiles to the store itself (cli/profile.py), beside the engine (and the
    import of a document, which stores a run with its profiles)."""
    writers = sorted(
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if re.search(r"\bstore\.add_profile\(", p.read_text()) and not str(p.relative_to(SRC)).startswith("store/")
    )
    assert writers == ["run/engine.py", "run/importing.py"], writers


def _matrix(cli, *args):
    return cli("matrix", "--cflags", "-O1", "--cflags", "-O2", "--rounds", "1", "-q", *args)


def test_matrix_checks_what_run_checks(env, cli):
    """matrix accepted a --param no selected benchmark has and a --name whose runs exist, and
    found two variants with one run name only after the first variant's run was stored."""
    assert cli("run", "sys.fast", "--rounds", "1", "-q", "--name", "m-cc_-O2")[0] == 0
    before = row_counts(env)
    rc, out, err = _matrix(cli, "--param", "size=1", "sys.*")
    assert rc == 2 and "--param size: no selected benchmark has a parameter 'size'" in err, err
    rc, out, err = _matrix(cli, "--name", "m", "sys.fast")
    assert rc == 2 and "a run named 'm-cc_-O2' exists already" in err, err
    rc, out, err = cli("matrix", "--cflags", "-DA=1 -DB", "--cflags", "-DA=1_-DB", "--name", "col", "sys.fast", "-q")
    assert rc == 2 and "two runs would be named 'col-cc_-DA=1_-DB'" in err and err.count("\n") == 1, err
    rc, out, err = _matrix(cli, "--samples", "0", "sys.fast")
    assert rc == 2 and "--samples" in err
    assert row_counts(env) == before
    rc, out, err = _matrix(cli, "--param", "lat.*:size=4096", "lat.*", "sys.fast")
    assert rc == 0, err
    keys = {r["key"] for r in Store(env).results(Store(env).runs()[-1]["id"])}
    assert keys == {"lat.sweep[size=4096]", "sys.fast"}


def test_scoped_params_share_one_run(real, cli):
    """The context-switch sweep and a memory sweep in one run, each with its own sizes (an
    unscoped --param size applied to both); an unscoped one still applies where no scoped one does."""
    sweeps = "--param sched.ctx_ring:size=0,16 --param mem.*:size=4K --param procs=2 --param thp=0"
    quick = "--rounds 1 --samples 1 --sample-ms 1 -q --name scoped"
    rc, out, err = cli("run", "sched.ctx_ring", "mem.lat_rand", *sweeps.split(), *quick.split())
    assert rc == 0, err
    st = Store(real)
    keys = {r["key"] for r in st.results(st.run("scoped")["id"])}
    assert keys == {
        "sched.ctx_ring[procs=2,size=0]",
        "sched.ctx_ring[procs=2,size=16]",
        "mem.lat_rand[size=4096,thp=0]",
    }
    assert st.run("scoped")["options"]["params"] == ["sched.ctx_ring:size=0,16", "mem.*:size=4K", "procs=2", "thp=0"]


def test_suite_and_patterns_combine(real, cli):
    """`run --suite rtos-study 'sys.getppid'` was refused ('give patterns or --suite, not both')."""
    rc, out, err = cli(
        "run", "--suite", "rtos-study", "sys.getppid", "--rounds", "1", "--samples", "1", "--sample-ms", "1", "-q"
    )
    assert rc in (0, 1), err
    run = Store(real).runs()[-1]
    assert run["suite"] == "rtos-study" and run["patterns"][-1] == "sys.getppid"
    benches = {r["bench"] for r in Store(real).results(run["id"])}
    assert {"sys.getppid", "heap.malloc_free_4", "loop.control"} <= benches
    rc, out, err = cli("runs")
    assert "suite rtos-study + sys.getppid" in out


@pytest.mark.parametrize(
    "key,option", [("samples", "--samples"), ("sample_ms", "--sample-ms"), ("timeout", "--timeout")]
)
def test_one_table_of_limits_is_the_cores(core_binary, key, option):
    """The plan's limits (the command line's and a campaign file's: a campaign allowed 10000
    samples and 100000 ms, which the core refuses) are the core's own."""
    lo, hi = LIMITS[key]
    ok = subprocess.run([core_binary, "list", option, str(hi), "--", "sys.getppid"], capture_output=True)
    assert ok.returncode == 0, ok.stderr
    over = subprocess.run([core_binary, "list", option, str(hi + 1), "--", "sys.getppid"], capture_output=True)
    assert over.returncode == 2 and b"wants" in over.stderr
    with pytest.raises(Exception, match=rf"'{key}' must be an integer in {lo}..{hi}"):
        Plan(["sys.*"], in_file=True, **{key: hi + 1})


def _values(length):
    """A --param size=... whose values are `length` characters: 26 distinct 18-digit values,
    some with leading zeros."""
    vals = [str(10**17 + i) for i in range(26)]
    extra = length - (26 * 18 + 25)
    vals = ["0" * min(2, max(0, extra - 2 * i)) + v for i, v in enumerate(vals)]
    text = ",".join(vals)
    assert len(text) == length
    return [f"size={text}"]


PARAM_EDGES = [
    (["size=9223372036854775807"], True),
    (["size=9223372036854775808"], False),
    (_values(511), True),
    (_values(512), False),
    ([f"x{i}*:size=1" for i in range(64)] + ["mem.lat_rand:size=4K"], False),
    ([f"x{i}*:size=1" for i in range(63)] + ["mem.lat_rand:size=4K"], True),
]


@pytest.mark.parametrize("params,ok", PARAM_EDGES, ids=["2^63-1", "2^63", "511 chars", "512 chars", "65", "64"])
def test_the_core_takes_every_param_the_plan_takes(core_binary, params, ok):
    """--param values the host accepted and the core refused after the build (2^63-1: the core's
    overflow check stopped at 2^63-10; 512 characters of values; 65 --param options): the plan
    refuses, before anything is built, exactly what the core would."""
    if ok:
        Plan(["mem.lat_rand"], params=params)
    else:
        with pytest.raises(Exception, match="--param"):
            Plan(["mem.lat_rand"], params=params)
    argv = [core_binary, "run", "--samples", "1", "--sample-ms", "1", "--timeout", "5"]
    r = subprocess.run(
        argv + [a for p in params for a in ("--param", p)] + ["--", "mem.lat_rand"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    refused = r.returncode == 2 and ("bad values" in r.stderr or "wants" in r.stderr)
    assert refused != ok, (r.returncode, r.stderr[-300:])
