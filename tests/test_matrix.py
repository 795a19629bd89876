"""matrix and counters with the real C core (needs a C compiler and make): a deliberately failing
build cell is reported and the rest run; software counters are stored per sample; hardware
counters are either measured or reported as not supported here."""

import os
import shutil

import pytest

from tickmark.analysis import counters
from tickmark.cli import main
from tickmark.store import Store

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not (shutil.which("cc") and shutil.which("make")) and not os.environ.get("CI"), reason="needs cc and make"
    ),
]


@pytest.fixture(autouse=True)
def cache(monkeypatch, build_cache):
    """The session's build cache (the variants of these matrices are built once)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.delenv("CFLAGS", raising=False)


FAST = ["--rounds", "2", "--max-rounds", "2", "--samples", "3", "--sample-ms", "2", "-q"]


def _exit(args):
    try:
        return main(args)
    except SystemExit as e:
        return e.code


def test_matrix_failing_cell_is_reported_and_the_rest_run(tmp_path, capsys):
    db = str(tmp_path / "r.db")
    rc = _exit(
        [
            "--store",
            db,
            "matrix",
            "--cflags",
            "-O0",
            "--cflags",
            "-O2",
            "--cflags",
            "-fno-such-flag",
            "--name",
            "m",
            *FAST,
            "sys.getppid",
            "loop.control",
        ]
    )
    out, err = capsys.readouterr()
    assert rc == 1
    assert "-fno-such-flag" in err and "failed to build" in err and "error" in err
    st = Store(db)
    runs = st.runs()
    assert [r["fingerprint"]["variant"] for r in runs] == ["cc -O0", "cc -O2"]
    assert [r["name"] for r in runs] == ["m-cc_-O0", "m-cc_-O2"]
    for r in runs:
        assert r["status"] == "complete" and r["notes"]["matrix"] == "m"
        assert {x["key"] for x in st.results(r["id"])} == {"sys.getppid", "loop.control"}
        assert r["notes"]["rounds"] == 2
    # the core clock is estimated on a chain in assembly, the same at -O0 as at -O2 (in C at -O0
    # the chain went through memory and the clock came out at a sixth: cycles/op six times low)
    o0, o2 = (r["hello"]["fcore_khz"] for r in runs)
    assert o2 > 0 and 0.8 < o0 / o2 < 1.25, (o0, o2)
    # the comparison of the variants is printed at the end
    assert "B = m-cc_-O2" in out and "sys.getppid" in out and "verdict" in out


def test_run_variant_options_and_counters_in_samples(tmp_path, capsys):
    db = str(tmp_path / "r.db")
    assert _exit(["--store", db, "run", "--cflags", "-O1", "--name", "o1", *FAST, "sys.getppid"]) == 0
    capsys.readouterr()
    st = Store(db)
    run = st.run("o1")
    assert run["fingerprint"]["variant"] == "cc -O1" and run["fingerprint"]["cflags"] == "-O1"
    av = counters.availability(run["hello"])
    res = st.results(run["id"])[0]
    samples = st.samples(res["id"])
    assert samples
    if "task_clock" in av["software"]:
        for s in samples:
            assert s["ctr"]["task_clock"] > 0 and s["ctr_ops"] >= s["ops"]
            assert "context_switches" in s["ctr"] and "page_faults" in s["ctr"]
            assert s["multiplexed"] in (0, 1)
        assert res["stats"][""]["counters_per_op"]["task_clock"] > 0
    else:  # a machine that does not let this process count at all
        assert "task_clock" in av["unsupported"] or not av["software"]
    if av["hardware"]:
        assert all("cycles" in s["ctr"] for s in samples if "cycles" in av["hardware"])
    else:
        assert av["hardware_status"] == counters.NOT_SUPPORTED
    if {"instructions", "cycles"} <= set(av["hardware"]):  # IPC exactly when both were counted
        assert 0 < res["stats"][""]["counters"]["ipc"] < 10
    else:
        assert "ipc" not in (res["stats"][""].get("counters") or {})
    # show --counters and compare display them
    assert _exit(["--store", db, "show", "--counters", "o1"]) == 0
    text = capsys.readouterr().out
    assert "hardware counters: " in text
    if "task_clock" in av["software"]:
        assert "task-clock/op" in text
