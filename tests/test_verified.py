"""Verification is a result: a benchmark whose check of its own output fails is `failed`, its run
incomplete and the command's exit status 1; a check that passed is shown and exported; with
every memfn implementation failed, no empty table. With the real core (a C compiler and make)."""

import json
from pathlib import Path

import pytest

from tickmark.store import Store

pytestmark = pytest.mark.integration
DATA = Path(__file__).resolve().parent / "data"
QUICK = ["--rounds", "1", "--samples", "2", "--sample-ms", "2"]


def test_a_routine_that_fails_the_kernels_check_fails_the_run(real, cli):
    """`run cpu.stringsort --memfn broken_memmove.c -q; echo $?` printed 0 and `show` said complete."""
    rc, out, err = cli("run", "cpu.stringsort", "--memfn", str(DATA / "broken_memmove.c"), *QUICK, "-q", "--name", "b")
    assert rc == 1, err
    assert (
        "tickmark: run 1 is incomplete: 1 instance failed: cpu.stringsort: stringsort: sorted strings are wrong" in err
    )
    run = Store(real).run("b")
    assert run["status"] == "incomplete"
    rc, out, err = cli("show", "b")
    assert "INCOMPLETE: 1 instance failed: cpu.stringsort" in out and "verified" not in out
    doc = json.loads(cli("export", "b")[1])
    (r,) = doc["results"]
    assert r["status"] == "failed" and r["verified"] is None


def test_compare_gives_a_failed_check_as_the_reason_a_run_is_incomplete(real, cli):
    """`compare` called a run with a benchmark that failed its check "interrupted; some results
    missing": the reason is the failed verification the run recorded."""
    rc, out, err = cli("run", "cpu.stringsort", *QUICK, "-q", "--name", "good")
    assert rc == 0, err
    rc, out, err = cli("run", "cpu.stringsort", "--memfn", str(DATA / "broken_memmove.c"), *QUICK, "-q", "--name", "b")
    assert rc == 1, err
    rc, out, err = cli("compare", "good", "b")
    assert "is incomplete: 1 instance failed: cpu.stringsort: stringsort: sorted strings are wrong" in err, err
    assert "interrupted" not in err


def test_checks_that_passed_are_shown_and_exported(real, cli, tmp_path):
    rc, out, err = cli("run", "cpu.numsort", "memfn.memmove", "--param", "impl=0,1", "--param", "size=64", *QUICK, "-q")
    assert rc == 0, err
    assert "verified (each checked its own output): cpu.numsort, memfn.memmove" in out
    doc = json.loads(cli("export", "latest")[1])
    got = {r["benchmark"]: r["verified"] for r in doc["results"]}
    assert got["cpu.numsort"] == "the heapsort output equals the input sorted by qsort"
    assert got["memfn.memmove"].startswith("memmove of this implementation agrees with the reference")
    # an import keeps it
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc))
    assert cli("import", str(path))[0] == 0
    rc, out, err = cli("show", "latest")
    assert "verified (each checked its own output): cpu.numsort, memfn.memmove" in out


def test_every_memfn_result_failed_prints_no_empty_table(real, cli):
    broken = ["--memfn", str(DATA / "memfn_broken_memcpy.c")]
    rc, out, err = cli("run", "memfn.memcpy", *broken, *"--param impl=3 --param size=64".split(), *QUICK, "-q")
    assert rc == 1, err
    assert "FAILED verification, not timed: memcpy[user]" in out
    assert "winner" not in out and "routine  size" not in out, out
