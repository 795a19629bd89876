"""NuttX on the emulated boards, against the real kernel: the core built as a NuttX application
from the same POSIX source files as on Linux, linked with the NuttX kernel that tickmark builds
(once per tree, board and configuration: the export is kept in ~/.cache/tickmark/nuttx) from the
snapshot `./bootstrap test` unpacks, and booted under qemu-system -icount on the Cortex-A53 and
the Cortex-M7 boards."""

import re
import shutil
from pathlib import Path

import pytest

from boards import (
    check_study,
    core_sources,
    need_board,
    nuttx_sources,
    run_board,
    stored,
    study_counts_again,
    study_run,
)
from conftest import need_nuttx
from snapshotfix import fetch, make_snapshot
from tickmark.base.suites import SUITES
from tickmark.targets import nuttx
from tickmark.targets.baremetal import load_board

BOARDS = ["virt-aarch64", "mps2-an500"]
STUDY = SUITES["rtos-study"]
SUITES_NBENCH = [f"cpu.{k}" for k in "assign bitfield fourier fpemu huffman idea lu nnet numsort stringsort".split()]
# lmbench's families where NuttX has what they need once configured (pipes, local sockets,
# tmpfs files, signals; the peers are threads: no processes in a flat build)
LMBENCH = [
    "ipc.pipe_lat[cross=0]",
    "ipc.unix_stream_lat[cross=0]",
    "sched.pipe_pingpong[cross=0]",
    "fs.create_delete[size=0]",
    "signal.install",
    "signal.catch",
    "sys.read",
    "sys.open_close",
    "sync.cond_pingpong[cross=0]",
]
# what NuttX lacks, and the words each skip must say
LACKS = {
    "proc.fork_exit": "lacks processes",
    "proc.spawn": "lacks processes",
    "sched.ctx_ring[procs=2,size=0]": "lacks processes",
    "sync.sem_pingpong[cross=1]": "two CPUs",
    "fs.page_fault": "lacks mmap",
    "ipc.unix_dgram_lat[cross=0]": "cannot open a loopback socket pair",
}


@pytest.fixture
def real(tmp_path, monkeypatch, build_cache, nuttx_cache):
    """The session's build cache with the NuttX cache linked in (each board's kernel export is
    built once and kept; the core is linked with it once per session) and a private store."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    for var in ("TICKMARK_CORE", "TICKMARK_TARGET", "CFLAGS", nuttx.ENV_DIR, nuttx.ENV_APPS):
        monkeypatch.delenv(var, raising=False)
    need_nuttx()
    return tmp_path / "results.db"


def test_the_posix_primitives_are_the_linux_files(tmp_path):
    """Threads, mutexes, semaphores and message queues: NuttX compiles the very files Linux does
    (the benchmarks and port/posix's thread.c, prim_sync.c, prim_queue.c), by the build lists."""
    linux = set(core_sources(PORT="linux"))
    on_nuttx = set(nuttx_sources(tmp_path, "virt-aarch64"))
    shared = {
        "bench/thread/create_join.c",
        "bench/sync/mutex.c",
        "bench/sync/sem_pingpong.c",
        "bench/ipc/queue_pingpong.c",
        "bench/sched/yield.c",
        "bench/heap/malloc_free_4.c",
        "bench/loop/control.c",
        "bench/common/twoparty.c",
        "port/posix/thread.c",
        "port/posix/prim_sync.c",
        "port/posix/prim_queue.c",
    }
    assert shared <= linux and shared <= on_nuttx, (shared - linux, shared - on_nuttx)
    # what differs is the port's own: the entry, the clock (the board's counter), no fork
    assert "port/nuttx/entry.c" in on_nuttx and "port/posix/entry.c" in linux
    assert "port/baremetal/time.c" in on_nuttx and "port/posix/process.c" not in on_nuttx


def test_the_benchmark_configuration_is_applied_and_checked():
    board = load_board("virt-aarch64")
    want = nuttx.wanted_settings(board)
    assert want["DEBUG_ASSERTIONS"] == "n" and want["STACK_COLORATION"] == "n" and want["PIPES"] == "y"
    assert want["INIT_ENTRYPOINT"] == '"tickmark_main"' and want["ARM64_GIC_VERSION"] == "2"  # the board's own
    base = "CONFIG_DEBUG_ASSERTIONS=y\n# CONFIG_PIPES is not set\nCONFIG_RR_INTERVAL=200\n"
    text = nuttx.apply_settings(base, {"DEBUG_ASSERTIONS": "n", "PIPES": "y"})
    assert nuttx.parse_settings(text) == {"DEBUG_ASSERTIONS": "n", "PIPES": "y", "RR_INTERVAL": "200"}
    assert nuttx.unmet({"PIPES": "y", "NET": "y"}, {"PIPES": "y"}) == [("NET", "y", "n")]
    facts = nuttx.export_facts(
        board, _tree(), base + "CONFIG_USEC_PER_TICK=1000\n", text + "CONFIG_USEC_PER_TICK=1000\n"
    )
    assert facts["tick"] == "1000 Hz" and facts["assertions"] == "off" and "DEBUG_ASSERTIONS" in facts["turned_off"]
    assert "PIPES" in facts["turned_on"] and facts["base_config"] == "qemu-armv8a:nsh"


def _tree():
    return nuttx.Tree("/src/nuttx", "/src/apps", "here", "a" * 40, "b" * 40, "", "0" * 64)


def test_target_spelling_and_errors(real, cli, monkeypatch, tmp_path):
    rc, out, err = cli("run", "--target", "qemu-system:virt-riscv64?os=nuttx", "loop.control")
    assert rc == 2 and "names no NuttX board" in err and "virt-aarch64" in err
    rc, out, err = cli("run", "--target", "qemu-system:virt-aarch64?os=nuttx&stack_check=2", "loop.control")
    assert rc == 2 and "stack_check is for os=freertos" in err
    monkeypatch.setenv(nuttx.ENV_DIR, str(tmp_path))
    rc, out, err = cli("run", "--target", "qemu-system:virt-aarch64?os=nuttx", "loop.control")
    assert rc == 2 and "is not an apache/nuttx tree" in err and "Traceback" not in err


@pytest.mark.parametrize("board", BOARDS)
def test_study_runs_on_nuttx_and_counts_are_identical(board, real, cli):
    """The rtos-study benchmarks run on NuttX on both boards, the fingerprint names NuttX, its
    commit and its configuration, and a second run with the same seed counts the same."""
    target, fp, hello, res = study_run(cli, real, board, "nuttx")
    assert hello["port"] == "nuttx" and hello["os"] == "NuttX"
    rtos = fp["rtos"]
    assert rtos["name"] == "NuttX" and rtos["commit"] == nuttx.NUTTX_COMMIT and "snapshot" in rtos["origin"]
    assert rtos["base_config"] == load_board(board).vars["NUTTX_BOARD"] and rtos["build"] == "flat"
    assert {"DEBUG_ASSERTIONS", "STACK_COLORATION", "SYSTEM_NSH"} <= set(rtos["turned_off"])
    assert (
        rtos["tick"] == "1000 Hz"
        and rtos["assertions"] == "off"
        and re.fullmatch(r"[0-9a-f]{64}", rtos["config_sha256"])
    )
    assert fp["os"] == fp["kernel"] == "NuttX (commit 4ebc8a7291df)"
    check_study(res, STUDY)
    # the switch is timed in batches: each event timed alone (the histogram) costs more
    yield_ = res["sched.yield_switch"]["stats"][""]
    assert yield_["hist"]["p50"] > yield_["median"] > 50, yield_
    export = Path(nuttx.cache_dir()) / "exports"
    before = {p.name: p.stat().st_mtime_ns for p in export.iterdir()}

    study_counts_again(cli, real, target, res, STUDY)
    assert {p.name: p.stat().st_mtime_ns for p in export.iterdir()} == before  # the kernel was not built again


def test_lmbench_families_on_nuttx(real, cli):
    """Pipes, local sockets, tmpfs files, signals and the OS calls run on NuttX (the echo peers
    are threads); what a flat build lacks skips naming it."""
    need_board("virt-aarch64")
    target = "qemu-system:virt-aarch64?os=nuttx"
    run_board(cli, target, "lm", [k.split("[")[0] for k in LMBENCH + list(LACKS)])
    _, res = stored(real, "lm")
    for key in LMBENCH:
        assert res[key]["status"] == "ok", (key, res[key]["reason"])
    for key in ("ipc.pipe_lat[cross=0]", "ipc.unix_stream_lat[cross=0]"):
        assert res[key]["meta"]["info"]["peer_thread"] == 1
    for key, words in LACKS.items():
        assert res[key]["status"] == "skip" and words in res[key]["reason"], (key, res[key]["reason"])


def test_messages_larger_than_the_pipe_buffer_on_nuttx(real, cli):
    """NuttX's pipes and local sockets hold 1K (CONFIG_DEV_PIPE_SIZE, CONFIG_DEV_FIFO_SIZE): a 4K
    round trip each way cannot be written whole before the peer reads, and runs (the echo peer
    takes the whole message before it answers), costing more than 1 byte."""
    need_board("virt-aarch64")
    patterns = ["ipc.unix_stream_lat[cross=0]", "ipc.pipe_lat[cross=0]"]
    run_board(cli, "qemu-system:virt-aarch64?os=nuttx", "msg", patterns, "--param", "msg=1,4K")
    _, res = stored(real, "msg")
    for bench in ("ipc.unix_stream_lat", "ipc.pipe_lat"):
        one, big = res[f"{bench}[cross=0]"], res[f"{bench}[cross=0,msg=4096]"]
        assert one["status"] == big["status"] == "ok", (one["reason"], big["reason"])
        assert big["meta"]["info"]["peer_thread"] == 1
        assert big["stats"][""]["cycles_per_op"] > 2 * one["stats"][""]["cycles_per_op"]


@pytest.mark.parametrize("board", BOARDS)
def test_nbench_is_verified_on_nuttx(board, real, cli):
    """The ten nbench kernels run and pass their checks on NuttX on both boards. cpu.fpemu failed
    its check there ("emulated divide of operand 0 is wrong"): the check converted its results to
    double with ldexp, which NuttX's own math library computes as x * exp(n ln 2), inexact."""
    need_board(board)
    run_board(cli, f"qemu-system:{board}?os=nuttx", "nb", ["--suite", "nbench"])
    run, res = stored(real, "nb")
    assert run["status"] == "complete" and sorted(res) == sorted(SUITES_NBENCH)
    for key, r in res.items():
        assert r["status"] == "ok" and r["meta"]["verified"], (key, r["status"], r["reason"])
    rc, out, err = cli("show", "nb")
    assert rc == 0 and re.search(r"^FP EMULATION\s*:\s*[\d.]+", out, re.M) and "FAILED" not in out, out


def test_bootstrap_unpacks_a_checked_snapshot(tmp_path):
    """A vendored snapshot (two tarballs and their SHA256SUMS) is checked and unpacked into the
    cache with notes of where each tree came from; one that fails its sums is not used."""
    vendor, sums = make_snapshot(
        tmp_path,
        (
            (f"nuttx-{nuttx.NUTTX_COMMIT[:12]}.tar.xz", "nuttx", "sched/Kconfig"),
            (f"nuttx-apps-{nuttx.APPS_COMMIT[:12]}.tar.xz", "apps", "Makefile"),
        ),
    )
    cache, _ = fetch(tmp_path, "nuttx", vendor)
    tree, apps = cache / f"nuttx-{nuttx.NUTTX_COMMIT[:12]}", cache / f"apps-{nuttx.APPS_COMMIT[:12]}"
    assert (tree / "sched" / "Kconfig").is_file() and (apps / "Makefile").is_file()
    note = Path(str(tree) + ".origin").read_text()
    assert f"commit={nuttx.NUTTX_COMMIT}" in note and "snapshot" in note
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        [tree.name, apps.name, tree.name + ".origin", apps.name + ".origin"]
    )

    # a snapshot that fails its sums, and no git to clone with (the tools it uses, git left out)
    (vendor / "SHA256SUMS").write_text(sums.replace(sums[:8], "00000000"))
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("tar", "xz", "sha256sum", "mktemp", "mkdir", "mv", "rm", "cat"):
        (tools / name).symlink_to(shutil.which(name))
    cache2, err = fetch(tmp_path / "two", "nuttx", vendor, path=str(tools))
    assert "no NuttX snapshot and no clone" in err, err
    assert not (cache2 / f"nuttx-{nuttx.NUTTX_COMMIT[:12]}").exists()


def test_the_kernel_build_prints_its_progress(tmp_path, monkeypatch, capsys):
    """The kernel's build (about two and a half minutes the first time) said nothing until it was
    done: each of its steps prints a line every PROGRESS_EVERY seconds (here 1) on stderr."""
    from types import SimpleNamespace

    from tickmark.base.errors import TickmarkError
    from tickmark.targets import build

    monkeypatch.setattr(build, "PROGRESS_EVERY", 1)
    monkeypatch.setattr(nuttx, "_kconfiglib", lambda: str(tmp_path))
    tree = tmp_path / "nuttx"
    (tree / "tools").mkdir(parents=True)
    script = tree / "tools" / "configure.sh"
    script.write_text("#!/bin/sh\necho 'CC:  sched/sched_yield.c'\nsleep 3.5\nexit 1\n")
    script.chmod(0o755)
    (tmp_path / "apps").mkdir()
    (tmp_path / "exports").mkdir()
    with pytest.raises(TickmarkError, match="failed at configure.sh"):
        nuttx._build_export(
            load_board("virt-aarch64"), SimpleNamespace(path=tree, apps=tmp_path / "apps"), tmp_path / "exports" / "k"
        )
    lines = [line for line in capsys.readouterr().err.splitlines() if "building NuttX for virt-aarch64" in line]
    assert len(lines) >= 2, lines
    assert "configure.sh, 1 s, 1 file compiled (log: " in lines[0] and "build.log)" in lines[0]
