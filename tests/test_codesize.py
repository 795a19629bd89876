"""Code size of every build: the core's text, data and bss and each benchmark's own functions,
measured with binutils when the core is built, stored in the run's fingerprint and shown beside
the speed in compare, matrix and the reports."""

import os
import shutil
from pathlib import Path

import pytest

from tickmark.cli import main
from tickmark.report.model.codesize import pair_model, speed_words
from tickmark.store import Store
from tickmark.targets import sizes


@pytest.fixture
def cache(monkeypatch, build_cache):
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.delenv("CFLAGS", raising=False)
    monkeypatch.delenv("CC", raising=False)


def _listed(binary):
    import json
    import subprocess

    out = subprocess.run([binary, "list"], capture_output=True, text=True, timeout=60).stdout
    return [json.loads(line[4:])["name"] for line in out.splitlines() if line.startswith("TM1 ")]


def test_a_build_knows_its_size_and_every_benchmarks(cache, core_binary):
    from tickmark.targets.build import SIZES, build_core

    b = build_core()
    cs = b.code_size
    assert set(cs["core"]) == {"text", "data", "bss"} and cs["core"]["text"] > 10_000
    assert os.path.getsize(b.binary) > cs["core"]["text"] > 0
    names = _listed(b.binary)
    assert sorted(cs["benches"]) == sorted(names) and all(n > 0 for n in cs["benches"].values())
    # what nm says the bench file's object defines, function by function
    obj = next(Path(b.binary).parent.glob("obj/getppid.c.*.o"))
    assert cs["benches"]["sys.getppid"] == sizes.function_bytes([str(obj)], b.cc)[str(obj)]
    # a build made before sizes were measured gets them when it is next used, and keeps them
    (Path(b.binary).parent / SIZES).unlink()
    assert build_core().code_size == cs and (Path(b.binary).parent / SIZES).is_file()


def test_a_benchmark_counts_the_shared_helper_it_calls(cache, core_binary):
    """ipc.tcp_* measured 10 B each: their code is in bench/common/twoparty.c, a file that defines
    no benchmark. A benchmark's bytes are its file's and those of each helper file it calls into."""
    from tickmark.targets.build import build_core

    b = build_core()
    cs = b.code_size
    objs = Path(b.binary).parent / "obj"
    own, helper = next(objs.glob("tcp_lat.c.*.o")), next(objs.glob("twoparty.c.*.o"))
    by_obj = sizes.function_bytes([str(own), str(helper)], b.cc)
    assert by_obj[str(own)] < 100 < by_obj[str(helper)]
    assert cs["benches"]["ipc.tcp_lat"] == by_obj[str(own)] + by_obj[str(helper)]
    assert cs["helpers"]["ipc.tcp_lat"] == ["bench/common/twoparty.c"]
    assert "sys.getppid" not in cs["helpers"]  # calls no helper: its own functions only
    # a helper reached through another helper counts too
    assert cs["helpers"]["irq.wake"] == ["bench/common/wakeup.c", "bench/irq/irq_common.c"]


def test_the_cross_binutils_measure_a_cross_build(cache):
    assert sizes.tool("clang", "nm") == shutil.which("nm")
    if not shutil.which("aarch64-linux-gnu-gcc"):
        if os.environ.get("CI"):
            pytest.fail("gcc-aarch64-linux-gnu missing (bootstrap installs it)")
        pytest.skip("no aarch64-linux-gnu-gcc")
    from tickmark.targets.build import build_core

    assert sizes.tool("aarch64-linux-gnu-gcc", "nm").endswith("aarch64-linux-gnu-nm")
    b = build_core(cross_compile="aarch64-linux-gnu-", ldflags="-static")
    assert b.code_size["tool"] == "aarch64-linux-gnu-nm" and b.code_size["benches"]["cpu.numsort"] > 0


def test_speed_and_size_in_words():
    fa = {"code_size": {"core": {"text": 1000, "data": 10, "bss": 5}, "benches": {"cpu.numsort": 1000}}}
    fb = {"code_size": {"core": {"text": 880, "data": 10, "bss": 5}, "benches": {"cpu.numsort": 1120}}}
    rows = [
        {"key": "cpu.numsort", "bench": "cpu.numsort", "metric": "", "ratio": 1 / 1.07, "verdict": "faster"},
        {"key": "cpu.numsort", "bench": "cpu.numsort", "metric": "task-clock", "ratio": 2.0},
    ]
    m = pair_model(fa, fb, rows)
    assert [(c["part"], c["words"]) for c in m["core"]] == [
        ("core text", "1.14× smaller"),
        ("core data", "same"),
        ("core bss", "same"),
    ]
    (b,) = m["benches"]
    assert b["words"] == "1.07× faster, 1.12× larger" and b["instances"] == 1 and b["speed_from"] == "wall time"
    # a rate (higher is better) is turned into a time ratio first
    up = pair_model(fa, fb, [dict(rows[0], ratio=1.07, higher=True)])
    assert up["benches"][0]["words"] == "1.07× faster, 1.12× larger"
    # one side kept off the CPU: compare's one rule decided the row on task-clock, and so does
    # this table (never a rule of its own: a wall-time row without a verdict stays unsettled)
    tc = dict(rows[1], ratio=1.25, verdict="slower")
    why = "contention: on CPU 20% of the time in A, 100% in B"
    decided = dict(rows[0], verdict="slower", decided={"on": "task-clock", "ratio": 1.25, "why": why})
    m = pair_model(fa, fb, [decided, tc])["benches"][0]
    assert m["words"] == "1.25× slower (task-clock), 1.12× larger" and m["speed_from"] == "task-clock"
    for wall in (dict(rows[0], verdict="inconclusive"), dict(rows[0], verdict="inconclusive", decided={"on": None})):
        assert pair_model(fa, fb, [wall, tc])["benches"][0]["words"] == "speed inconclusive, 1.12× larger"
    assert speed_words(1.25) == "1.25× slower" and pair_model({}, {}, rows) is None
    kern = pair_model({"kernel_image_size": 8_000_000}, {"kernel_image_size": 6_000_000}, [])
    assert kern["core"] == [{"part": "kernel image", "a": 8e6, "b": 6e6, "ratio": 0.75, "words": "1.33× smaller"}]


@pytest.mark.integration
def test_matrix_o2_os_shows_sizes_beside_the_ratios(cache, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    db = str(tmp_path / "r.db")
    fast = ["--rounds", "2", "--max-rounds", "2", "--samples", "3", "--sample-ms", "2", "-q"]
    rc = main(
        [
            "--store",
            db,
            "matrix",
            "--cflags",
            "-O2",
            "--cflags",
            "-Os",
            "--name",
            "m",
            *fast,
            "cpu.numsort",
            "sys.getppid",
        ]
    )
    out, err = capsys.readouterr()
    assert rc == 0, err
    st = Store(db)
    o2, os_ = (r["fingerprint"]["code_size"] for r in st.runs())
    assert o2["core"]["text"] > 0 and os_["core"]["text"] > 0
    ratio = os_["benches"]["cpu.numsort"] / o2["benches"]["cpu.numsort"]
    section = out[out.index("code size") :]
    assert "core text" in section and "core data" in section and "core bss" in section
    line = next(ln for ln in section.splitlines() if ln.startswith("cpu.numsort"))
    m = ratio if ratio >= 1 else 1 / ratio
    words = f"{m:.2f}× {'larger' if ratio > 1 else 'smaller'}" if m >= 1.005 else "same"
    assert words in line and ("speed" in line or "faster" in line or "slower" in line)
    assert max(len(ln) for ln in section.splitlines()) <= 80
    for fmt, marks in (
        ("md", ("| core text |", "| functions of |", "| cpu.numsort |")),
        ("html", ("Code size beside the speed",)),
    ):
        rc = main(["--store", db, "report", "m-cc_-O2", "m-cc_-Os", "--format", fmt])
        doc, err = capsys.readouterr()
        assert rc == 0, err
        assert all(m in doc for m in marks), fmt
        assert f"{ratio:.3f}" in doc
