"""Bounds a board must stay within: `tickmark bounds` writes them from stored runs, `tickmark
check` (and run --bounds) holds a run to them; with FreeRTOS under QEMU -icount, where the counts
are exact and the bounds sharp, and against compare's gate on the same runs."""

import json
import math
import os

import pytest

from boards import need_board
from conftest import need_tool
from tickmark.analysis import bounds as bd
from tickmark.base.errors import TickmarkError

CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
KERNEL_TREE = os.environ.get("FREERTOS_KERNEL") or os.path.join(
    CACHE, "tickmark", "freertos", "FreeRTOS-Kernel-V11.2.0"
)
FREERTOS = "qemu-system:virt-aarch64?os=freertos"


# ---------------------------------------------------------------- the file
def _file(tmp_path, text):
    p = tmp_path / "b.toml"
    p.write_text(text)
    return str(p)


def test_a_bound_by_median_and_tolerance(tmp_path):
    (b,) = bd.read(_file(tmp_path, '[[bound]]\nbench = "sys.*"\nmedian = 100\ntolerance = "5%"\n'))
    assert (b.target, b.metric, b.lo, b.hi) == ("*", "", 95.0, 105.0)


@pytest.mark.parametrize(
    "text, words",
    [
        ("x = 1\n", "unknown key 'x'"),
        ("[[bound]]\nbench = 'a'\n", "give min and max, or median and tolerance"),
        ("[[bound]]\nbench = 'a'\nmin = 3\nmax = 1\n", "min 3 is above max 1"),
        ("[[bound]]\nbench = 'a'\nmedian = 3\ntolerance = 'lots'\n", "bad tolerance 'lots'"),
        ("[[bound]]\nbench = 'a'\nmin = 'low'\nmax = 1\n", "'min' must be a number"),
        ("[[bound]]\nmin = 1\n", "'bench' must be a benchmark key or glob"),
        ("[[bound]]\nbench = 'a'\nmin = 1\nmaxx = 2\n", "unknown key 'maxx'"),
        ("[bound\n", "is not TOML"),
        ("", "has no [[bound]] entry"),
    ],
)
def test_a_bad_bounds_file_is_one_error_naming_the_entry(tmp_path, text, words):
    with pytest.raises(TickmarkError) as e:
        bd.read(_file(tmp_path, text))
    assert words in str(e.value) and "b.toml" in str(e.value)


def test_bounds_are_rounded_outward_and_widened_by_the_noise_band(tmp_path):
    def result(v, lo, hi, rcv):
        return {"key": "k", "bench": "k", "status": "ok", "stats": {"": {"value": v, "ci95_lo": lo, "ci95_hi": hi,
                "unit": "ns/op", "round_cv": rcv}}}  # fmt: skip

    runs = [{"id": 1, "fingerprint": {"target_uri": "local"}}, {"id": 2, "fingerprint": {"target_uri": "local"}}]
    got = {1: [result(100.0, 99.0, 101.0, 0.005)], 2: [result(103.0, 102.0, 104.5, 0.02)]}
    (b,) = bd.derive(runs, lambda r: got[r["id"]])
    # the range 99 .. 104.5 widened by twice the largest round CV (4 %), rounded outward
    assert 95.02 < b.lo <= 95.04 and 108.68 <= b.hi <= 108.71  # four significant digits, outward
    assert b.lo <= 99 * 0.96 and b.hi >= 104.5 * 1.04
    exact = [{"id": 1, "fingerprint": {"target_uri": "q", "qemu_icount": "shift=0"}}]
    (e,) = bd.derive(exact, lambda r: [result(72.0, 72.0, 72.0, 0.0)])
    assert 71.91 < e.lo <= 71.928 and 72.072 <= e.hi < 72.09
    assert math.isclose(bd.read(_file(tmp_path, bd.to_toml([e], note="from a test")))[0].hi, e.hi)


# ---------------------------------------------------------------- FreeRTOS under -icount
@pytest.fixture
def real(tmp_path, monkeypatch, build_cache):
    if not os.path.isfile(os.path.join(KERNEL_TREE, "tasks.c")):
        need_tool(f"no FreeRTOS-Kernel tree at {KERNEL_TREE} (./bootstrap test fetches it)")
    need_board("virt-aarch64")
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.setenv("FREERTOS_KERNEL", KERNEL_TREE)
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    for var in ("TICKMARK_CORE", "TICKMARK_TARGET", "CFLAGS"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def _run(cli, name, seed, *extra):
    rc, out, err = cli(
        "run", "--target", FREERTOS, "--suite", "rtos-study", "--rounds", "1", "--samples", "3",
        "--sample-ms", "2", "--seed", str(seed), "--name", name, "-q", *extra,
    )  # fmt: skip
    assert rc == 0, out + err


def test_bounds_of_three_freertos_runs_pass_a_fourth_and_catch_an_O0_build(real, cli):
    for i, seed in enumerate((1, 2, 3)):
        _run(cli, f"b{i}", seed)
    bounds = str(real / "board.toml")
    rc, out, err = cli("bounds", "b0", "b1", "b2", "-o", bounds)
    assert rc == 0, err
    text = open(bounds).read()
    assert 'unit = "insn/op"' in text and f'target = "{FREERTOS}"' in text and 'bench = "sync.mutex"' in text

    _run(cli, "fourth", 7)
    rc, out, err = cli("check", "fourth", "--bounds", bounds)
    assert rc == 0, out + err
    assert "figures within their bounds" in err and "fails" not in err

    _run(cli, "slow", 7, "--cflags", "-O0")
    rc, out, err = cli("check", "slow", "--bounds", bounds, "--format", "json")
    assert rc == 1, out + err
    doc = json.loads(out)
    broken = {f["key"] for f in doc["figures"] if f["state"] != "ok"}
    assert broken and "above max" in err
    for key in broken:
        assert key in err
    # the JUnit form fails the same test cases
    rc, out, _ = cli("check", "slow", "--bounds", bounds, "--format", "junit")
    assert rc == 1 and out.count('type="bounds"') == len(broken)
    # compare's gate on the same pair finds the same benchmarks changed
    rc, out, _ = cli("compare", "fourth", "slow", "--format", "json")
    assert rc == 0
    rows = [r for p in json.loads(out)["comparisons"] for r in p["rows"] if r.get("metric", "") == ""]
    changed = {r["key"] for r in rows if r["verdict"] in ("slower", "faster")}
    assert changed == broken

    # run --bounds: the same check at the end of a run
    rc, out, err = cli(
        "run", "--target", FREERTOS, "sync.mutex", "--rounds", "1", "--samples", "3", "--sample-ms", "2",
        "--seed", "7", "--cflags", "-O0", "--bounds", bounds, "-q",
    )  # fmt: skip
    assert rc == 1 and "sync.mutex" in err and "above max" in err
    # a bounded benchmark the run did not measure fails too
    rc, out, err = cli("check", "fourth", "--bounds", _file(real, '[[bound]]\nbench = "sys.nothing"\nmin = 1\n'))
    assert rc == 1 and "not measured" in err
