"""Zephyr on the emulated boards, against the real kernel: the core built as a Zephyr 2.7
application from the same POSIX source files as on Linux and NuttX, with the kernel, by Zephyr's
own build (once per tree, board, configuration and core sources: the image is kept in
~/.cache/tickmark/zephyr), from the snapshot `./bootstrap test` unpacks, and booted under
qemu-system -icount on the Cortex-A53 and the Cortex-M7 boards."""

import re
import subprocess
from pathlib import Path

import pytest

from boards import check_study, core_sources, nuttx_sources, study_counts_again, study_run
from conftest import need_zephyr
from snapshotfix import fetch, make_snapshot
from tickmark.base.suites import SUITES
from tickmark.targets import zephyr
from tickmark.targets.baremetal import load_board

BOARDS = ["virt-aarch64", "mps2-an500"]
STUDY = SUITES["rtos-study"]
# board -> guest instructions of the interrupt rows: the round trip (control loop subtracted),
# the raise to the handler's first statement (entry)
IRQ_FIGURES = {"virt-aarch64": {"return": 123.0, "entry": 57.0}, "mps2-an500": {"return": 28.0}}
# the study's primitives: the benchmarks and the POSIX files they reach, compiled alike everywhere
SHARED = {
    "bench/thread/create_join.c",
    "bench/sync/mutex.c",
    "bench/sync/sem_pingpong.c",
    "bench/ipc/queue_pingpong.c",
    "bench/sched/yield.c",
    "bench/heap/malloc_free_4.c",
    "bench/common/twoparty.c",
    "port/posix/prim_sync.c",
    "port/posix/prim_queue.c",
}


@pytest.fixture
def real(tmp_path, monkeypatch, build_cache, zephyr_cache):
    """The session's build cache with the Zephyr cache linked in (each board's image is built
    once and kept) and a private store."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    for var in ("TICKMARK_CORE", "TICKMARK_TARGET", "CFLAGS", zephyr.ENV_BASE, zephyr.ENV_MODULES):
        monkeypatch.delenv(var, raising=False)
    need_zephyr()
    return tmp_path / "results.db"


def test_the_posix_benchmarks_are_the_same_files_on_linux_nuttx_and_zephyr(tmp_path):
    """Thread, mutex, semaphore, queue and heap benchmarks: Linux, NuttX and Zephyr compile the
    very same files, by the build lists; what Zephyr does differently is in its port."""
    linux = set(core_sources(PORT="linux"))
    on_nuttx = set(nuttx_sources(tmp_path, "virt-aarch64"))
    for board in ("virt-aarch64", "mps2-an500"):
        # the list Zephyr's build compiles too (port/zephyr/app/CMakeLists.txt reads it)
        on_zephyr = set(core_sources(PORT="zephyr", BOARD=board))
        assert SHARED <= linux and SHARED <= on_nuttx and SHARED <= on_zephyr, (
            SHARED - linux,
            SHARED - on_nuttx,
            SHARED - on_zephyr,
        )
        # Zephyr's own: threads with a stack each, the kernel's spin locks; one CPU as on NuttX
        assert {"port/zephyr/thread.c", "port/nuttx/cpu.c", "port/zephyr/prim_spin.c"} <= on_zephyr
        assert "port/posix/prim_spin.c" in linux and "port/posix/thread.c" in linux
        assert not any(f.startswith("port/posix/") and f.endswith(("thread.c", "cpu.c")) for f in on_zephyr)


def test_the_benchmark_configuration():
    board = load_board("mps2-an500")
    want = zephyr.wanted_settings(board)
    assert want["ASSERT"] == "n" and want["STACK_SENTINEL"] == "n" and want["STACK_CANARIES"] == "n"
    assert want["POSIX_API"] == "y" and want["SYS_CLOCK_TICKS_PER_SEC"] == "1000"
    assert want["DYNAMIC_INTERRUPTS"] == "y"  # irq.* connects its handler at run time
    final = (
        'CONFIG_BOARD="tickmark_mps2_an500"\nCONFIG_SOC="tickmark_mps2_an500"\nCONFIG_SYS_CLOCK_TICKS_PER_SEC=1000\n'
        "CONFIG_TICKLESS_KERNEL=y\nCONFIG_TIMESLICING=y\nCONFIG_TIMESLICE_SIZE=10\n"
        "CONFIG_MINIMAL_LIBC_MALLOC_ARENA_SIZE=1048576\nCONFIG_HEAP_MEM_POOL_SIZE=65536\n"
        "CONFIG_TM_THREAD_STACK_SIZE=8192\nCONFIG_FPU=y\nCONFIG_FPU_SHARING=y\nCONFIG_SPEED_OPTIMIZATIONS=y\n"
    )
    tree = zephyr.Tree("/src/zephyr", ["/src/cmsis"], "here", "a" * 40, "2.7.0", "0" * 64)
    facts = zephyr.image_facts(board, tree, final)
    assert facts["tick"] == "1000 Hz (tickless)" and "time slice 10 ms" in facts["scheduler"]
    assert facts["assertions"] == "off" and facts["stack_checks"] == "off" and facts["fpu"] == "on, shared"
    assert facts["thread_stack"] == 8192 and "1024 KiB arena" in facts["heap"] and facts["version"] == "2.7.0"
    assert "ASSERT" in facts["turned_off"] and re.fullmatch(r"[0-9a-f]{64}", facts["config_sha256"])
    # one setting differs: another digest
    assert zephyr.image_facts(board, tree, final + "CONFIG_ASSERT=y\n")["config_sha256"] != facts["config_sha256"]


def test_target_spelling_and_errors(real, cli, monkeypatch, tmp_path):
    rc, out, err = cli("run", "--target", "qemu-system:virt-riscv64?os=zephyr", "loop.control")
    assert rc == 2 and "names no Zephyr board" in err and "mps2-an500" in err
    rc, out, err = cli("run", "--target", "qemu-system:mps2-an500?os=zephyr&assert=1", "loop.control")
    assert rc == 2 and "is for os=freertos" in err
    monkeypatch.setenv(zephyr.ENV_BASE, str(tmp_path))
    rc, out, err = cli("run", "--target", "qemu-system:mps2-an500?os=zephyr", "loop.control")
    assert rc == 2 and "is not a Zephyr tree" in err and "Traceback" not in err


def irq_figures(board, res):
    """The interrupt rows, through Zephyr's own interrupt entry and exit (irq_connect_dynamic):
    the round trip exact, the raise to the handler exact where the clock counts every
    instruction (the A53's PMCCNTR_EL0), the raise to the woken thread after the handler's give
    and the switch on the kernel's way out."""
    want = IRQ_FIGURES[board]
    ret = res["irq.return"]["stats"][""]["cycles_per_op"]
    assert ret == pytest.approx(want["return"], abs=0.1), ret  # a tick may land in a sample
    entry = res["irq.entry"]["stats"]["entry"]["median"]
    if "entry" in want:
        assert entry == pytest.approx(want["entry"], abs=0.05), entry
    else:  # the MPS2 counter steps every 40 instructions: an average over the iterations
        assert 5 < entry < 80, entry
    wake = res["irq.wake"]["stats"]["wake"]["median"]
    assert entry + 100 < wake < 1000, (entry, wake)


@pytest.mark.parametrize("board", BOARDS)
def test_study_runs_on_zephyr_and_counts_are_identical(board, real, cli):
    """The rtos-study benchmarks run on Zephyr on both boards (the M7's image compiled for the
    Cortex-M7), the interrupt rows through the kernel's interrupt API; the fingerprint names
    Zephyr 2.7.0, its commit and its configuration, and a second run with the same seed counts
    the same without building again."""
    target, fp, hello, res = study_run(cli, real, board, "zephyr")
    assert hello["port"] == "zephyr" and hello["os"] == "Zephyr"
    rtos = fp["rtos"]
    assert fp["os"] == "Zephyr 2.7.0" and rtos["commit"] == zephyr.ZEPHYR_COMMIT and "snapshot" in rtos["origin"]
    assert rtos["board"] == load_board(board).vars["ZEPHYR_BOARD"]
    assert re.fullmatch(r"[0-9a-f]{64}", rtos["config_sha256"])
    assert rtos["assertions"] == "off" and rtos["stack_checks"] == "off" and rtos["tick"].startswith("1000 Hz")
    check_study(res, STUDY)  # every row counted, the interrupt rows too
    irq_figures(board, res)
    image = Path(zephyr.cache_dir()) / "images" / fp["build_hash"] / "zephyr.elf"
    if board == "mps2-an500":  # the M7's own image: ARMv7E-M with the double-precision FPU, hard float
        attrs = subprocess.run(["arm-none-eabi-readelf", "-A", str(image)], capture_output=True, text=True).stdout
        assert "Tag_CPU_arch: v7E-M" in attrs and "FPv5/FP-D16" in attrs and "VFP registers" in attrs, attrs
    images = Path(zephyr.cache_dir()) / "images"
    before = {p.name: p.stat().st_mtime_ns for p in images.iterdir()}

    study_counts_again(cli, real, target, res, STUDY)
    assert {p.name: p.stat().st_mtime_ns for p in images.iterdir()} == before  # not built again


def test_bootstrap_unpacks_a_checked_snapshot_or_says_how_to_get_zephyr(tmp_path):
    """A vendored snapshot (two tarballs and their SHA256SUMS) is checked and unpacked into the
    cache with notes of where each tree came from; without one, bootstrap says how to get Zephyr
    2.7 with west, and nothing is unpacked."""
    vendor, _ = make_snapshot(
        tmp_path,
        (
            (f"zephyr-v2.7.0-{zephyr.ZEPHYR_COMMIT[:12]}.tar.xz", "zephyr", "VERSION"),
            (f"cmsis-{zephyr.CMSIS_COMMIT[:12]}.tar.xz", "cmsis", "CMSIS/Core/x.h"),
        ),
    )
    cache, _ = fetch(tmp_path, "zephyr", vendor)
    tree, cmsis = cache / f"zephyr-{zephyr.ZEPHYR_COMMIT[:12]}", cache / f"cmsis-{zephyr.CMSIS_COMMIT[:12]}"
    assert (tree / "VERSION").is_file() and (cmsis / "CMSIS").is_dir()
    note = Path(str(tree) + ".origin").read_text()
    assert f"commit={zephyr.ZEPHYR_COMMIT}" in note and "snapshot" in note

    cache2, err = fetch(tmp_path / "two", "zephyr", tmp_path / "nothing-here")
    assert "west init" in err and "zephyr-v2.7.0" in err and "ZEPHYR_BASE" in err, err
    assert not (cache2 / tree.name).exists()
