"""SylixOS on the emulated Orange Pi PC (Allwinner H3, Cortex-A7), against the real kernel: the
kernel library and the H3 BSP built from the snapshot vendored beside the project (no network;
once, kept in ~/.cache/tickmark/sylixos), the core from port/posix's files linked in as the
BSP's first thread, booted under qemu-system -icount; two runs with one seed count the same."""

import os
import re

import pytest

from boards import check_study, counts, need_board, run_board, stored
from conftest import need_tool
from tickmark.base.errors import TickmarkError
from tickmark.base.suites import SUITES
from tickmark.targets import sylixos

TARGET = "qemu-system:orangepi-pc?os=sylixos"
STUDY = SUITES["rtos-study"]
NBENCH = ["cpu.numsort", "cpu.stringsort", "cpu.fourier", "loop.control"]


def _need_snapshot():
    vendor = sylixos.vendor_dir()
    if not (vendor / sylixos.TARBALL).is_file():
        need_tool(f"no SylixOS snapshot in {vendor} (it is vendored beside the project)")


@pytest.fixture
def real(tmp_path, monkeypatch, build_cache, sylixos_cache):
    """The session's build cache with the SylixOS cache linked in (the kernel library and the
    BSP are built once and kept; the core is linked with them once per session), a private store."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    for var in ("TICKMARK_CORE", "TICKMARK_TARGET", "CFLAGS", sylixos.ENV_BASE, sylixos.ENV_BSP):
        monkeypatch.delenv(var, raising=False)
    need_board("orangepi-pc")
    _need_snapshot()
    return tmp_path / "results.db"


def test_a_bad_tree_or_snapshot_is_one_clear_line(tmp_path, monkeypatch, cli):
    monkeypatch.setenv(sylixos.ENV_BASE, str(tmp_path))
    rc, out, err = cli("run", "--target", TARGET, "loop.control")
    assert rc == 2 and "is not a SylixOS base project" in err and "Traceback" not in err
    monkeypatch.delenv(sylixos.ENV_BASE)
    monkeypatch.setenv(sylixos.ENV_VENDOR, str(tmp_path))
    rc, out, err = cli("run", "--target", TARGET, "loop.control")
    assert rc == 2 and "no SylixOS snapshot in" in err and "Traceback" not in err
    (tmp_path / sylixos.TARBALL).write_bytes(b"not the snapshot")
    (tmp_path / sylixos.PATCH).write_bytes(b"")
    (tmp_path / "SHA256SUMS").write_text(f"{'0' * 64}  {sylixos.TARBALL}\n{'0' * 64}  {sylixos.PATCH}\n")
    with pytest.raises(TickmarkError, match="does not match its SHA256SUMS"):
        sylixos.locate()


def test_a_board_without_a_sylixos_bsp_is_refused(cli):
    rc, out, err = cli("run", "--target", "qemu-system:virt-aarch64?os=sylixos", "loop.control")
    assert rc == 2 and "names no SylixOS BSP" in err and "orangepi-pc" in err


def test_nbench_on_sylixos_verifies_and_counts_the_same_twice(real, cli):
    """The kernel built from the snapshot, the fingerprint naming SylixOS 2.3.8, its BSP, the
    snapshot's commit and digest and the tick; the nbench kernels verify their output; a second
    run with the seed counts the same and builds nothing again."""
    run_board(cli, TARGET, "one", NBENCH)
    run, res = stored(real, "one")
    fp, hello = run["fingerprint"], run["hello"]
    assert hello["port"] == "sylixos" and fp["board"] == "orangepi-pc"
    assert fp["os"] == fp["kernel"] == "SylixOS 2.3.8" and fp["qemu_icount"] == "shift=0,sleep=off"
    rtos = fp["rtos"]
    assert rtos["name"] == "SylixOS" and rtos["version"] == "2.3.8" and rtos["commit"] == sylixos.VENDOR_COMMIT
    assert (
        rtos["bsp"].startswith("Allwinner-H3-Bsp")
        and rtos["tick"] == "1000 Hz"
        and "hz=1000" in rtos["start_parameters"]
    )
    assert re.fullmatch(r"[0-9a-f]{64}", rtos["sources_sha256"]) and re.fullmatch(
        r"[0-9a-f]{64}", rtos["config_sha256"]
    )
    for key in NBENCH:
        r = res[key]
        assert r["status"] == "ok", (key, r["reason"])
        assert r["stats"][""]["cycles_method"] == "icount-insns" and r["stats"][""]["cycles_per_op"] > 0
    assert res["loop.control"]["stats"][""]["cycles_per_op"] == pytest.approx(2.0, abs=0.01)
    builds = sylixos.cache_dir()
    before = {p.name: p.stat().st_mtime_ns for p in builds.iterdir()}
    run_board(cli, TARGET, "two", NBENCH)
    _, two = stored(real, "two")
    for key in NBENCH:
        assert counts(res[key]) == counts(two[key]), key
    assert {p.name: p.stat().st_mtime_ns for p in builds.iterdir()} == before


def test_the_rtos_study_on_sylixos_counts_the_same_twice(real, cli):
    """Every figure of the study, the interrupt rows through SylixOS's own interrupt API, and
    kernel entry: the SWI and the interrupt real, the abort and the undefined instruction skipped
    with where SylixOS sends them; a second run with one seed counts the same."""
    kinds = ["trap.syscall", "trap.irq", "trap.abort", "trap.undef"]
    run_board(cli, TARGET, "one", ["--suite", "rtos-study", *kinds])
    _, res = stored(real, "one")
    check_study(res, STUDY)
    # the handler's first statement, and the woken thread, after SylixOS's entry and dispatch
    assert 50 < res["irq.entry"]["stats"]["entry"]["median"] < 1000, res["irq.entry"]["stats"]
    assert res["irq.wake"]["stats"]["wake"]["median"] > res["irq.entry"]["stats"]["entry"]["median"]
    for key in ("trap.syscall", "trap.irq"):
        assert res[key]["status"] == "ok", (key, res[key]["reason"])
    # svc, archSwiEntry's save, archSwiHandle, the restore: a dozen instructions, not a kernel call
    assert 5 < res["trap.syscall"]["stats"][""]["cycles_per_op"] < 100, res["trap.syscall"]["stats"]
    for key in ("trap.abort", "trap.undef"):
        assert res[key]["status"] == "skip" and "API_VmmAbortIsr" in res[key]["reason"], (key, res[key]["reason"])
    run_board(cli, TARGET, "two", ["--suite", "rtos-study", *kinds])
    _, two = stored(real, "two")
    for key in [*STUDY, *kinds]:
        assert counts(res[key]) == counts(two[key]), key


def test_the_snapshot_is_checked_and_keyed(real):
    tree = sylixos.locate()
    assert tree.digest == next(
        line.split()[0]
        for line in (sylixos.vendor_dir() / "SHA256SUMS").read_text().splitlines()
        if sylixos.TARBALL in line
    )
    assert tree.identity()["sylixos"]["commit"] == sylixos.VENDOR_COMMIT
    assert sylixos.export_key(tree, "gcc 1") != sylixos.export_key(tree, "gcc 2")
    assert os.path.isfile(tree.patch)
