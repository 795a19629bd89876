"""FreeRTOS and Linux on the emulated boards, against the real kernels: the core built with the
FreeRTOS kernel tree that `./bootstrap test` fetches (V11.2.0) and booted under qemu-system on
each FreeRTOS board, and Debian's arm64 Linux kernel booted on the same Cortex-A53 machine, all
under -icount (figures in guest instructions, the same on every run)."""

import glob
import io
import os
import re
import shutil

import pytest

from boards import check_study, counts, need_board, run_board, stored, study_counts_again, study_run
from conftest import need_nuttx, need_tool
from tickmark.base.errors import TickmarkError
from tickmark.base.suites import SUITES
from tickmark.targets.baremetal import load_board

CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
KERNEL_TREE = os.environ.get("FREERTOS_KERNEL") or os.path.join(
    CACHE, "tickmark", "freertos", "FreeRTOS-Kernel-V11.2.0"
)
ARM64_KERNELS = sorted(
    glob.glob(os.path.join(CACHE, "tickmark", "kernels", "linux-image-*-arm64", "boot", "vmlinuz-*"))
)
ARM64_BUSYBOX = os.environ.get("TICKMARK_BUSYBOX") or os.path.join(
    CACHE, "tickmark", "kernels", "busybox-static-arm64", "bin", "busybox"
)
BOARDS = ["mps2-an385", "mps2-an500", "virt-aarch64"]
STUDY = SUITES["rtos-study"]
# what FreeRTOS lacks, and the words each skip must say
LACKS = {
    "sync.cond_pingpong[cross=0]": "no condition variables",
    "sync.sem_pingpong[cross=1]": "two CPUs",
    "sys.getppid": "lacks syscalls",
    "sched.pipe_pingpong[cross=0]": "lacks pipes",
    "proc.fork_exit": "lacks processes",
    "timer.cyclic[period=200,count=500]": "1000 us step (its tick)",
}


@pytest.fixture
def real(tmp_path, monkeypatch, build_cache):
    """The session's build cache (each board's FreeRTOS and Linux images are built once and
    reused by every test that boots them), the fetched kernel tree and a private store."""
    if not os.path.isfile(os.path.join(KERNEL_TREE, "tasks.c")):
        need_tool(f"no FreeRTOS-Kernel tree at {KERNEL_TREE} (./bootstrap test fetches it)")
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.setenv("FREERTOS_KERNEL", KERNEL_TREE)
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    for var in ("TICKMARK_CORE", "TICKMARK_TARGET", "CFLAGS"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path / "results.db"


def test_target_spelling_and_errors(real, cli, monkeypatch, tmp_path):
    rc, out, err = cli("run", "--target", "qemu-system:virt-riscv64?os=freertos", "loop.control")
    assert rc == 2 and "names no FreeRTOS port" in err and "mps2-an385" in err
    rc, out, err = cli("run", "--target", "qemu-system:mps2-an385?os=rtems", "loop.control")
    assert rc == 2 and "os must be one of baremetal, freertos, nuttx, zephyr, sylixos, linux" in err
    rc, out, err = cli("run", "--target", "qemu-system:mps2-an385?os=freertos", "--kernel", "/nonexistent", "x")
    assert rc == 2 and "not with os=freertos" in err
    with monkeypatch.context() as m:  # a cache without Debian's kernel (another test may link one in)
        m.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
        rc, out, err = cli("run", "--target", "qemu-system:virt-aarch64?os=linux", "sys.getppid")
    assert rc == 2 and "give it with --kernel IMAGE or in the target" in err and "os=linux&kernel=IMAGE" in err
    rc, out, err = cli("run", "--target", "qemu-system:mps2-an385?os=freertos&stack_check=3", "loop.control")
    assert rc == 2 and "stack_check must be one of 0, 1, 2" in err
    for bad in ("/nonexistent/tree", "/tmp"):
        os.environ["FREERTOS_KERNEL"] = bad
        rc, out, err = cli("run", "--target", "qemu-system:mps2-an385?os=freertos", "loop.control")
        assert rc == 2 and "is not a FreeRTOS-Kernel tree" in err and "Traceback" not in err


def test_freertos_ports_of_the_boards():
    for name in BOARDS:
        b = load_board(name)
        assert b.vars["FREERTOS_PORT"] and int(b.vars["RTOS_HEAP_SIZE"], 0) >= 1 << 20
    assert not load_board("virt-riscv64").vars.get("FREERTOS_PORT")


@pytest.mark.parametrize("board", BOARDS)
def test_study_runs_on_freertos_and_counts_are_identical(board, real, cli):
    """The rtos-study benchmarks produce valid records on every FreeRTOS board, what FreeRTOS
    lacks skips naming it, and a second run with the same seed counts the same instructions."""
    target, fp, hello, res = study_run(cli, real, board, "freertos")
    assert hello["port"] == "freertos" and hello["os"] == "FreeRTOS" and hello["kernel"] == "V11.2.0"
    rtos = fp["rtos"]
    assert rtos["version"] == "V11.2.0" and rtos["port"] == "GCC/" + load_board(board).vars["FREERTOS_PORT"]
    assert rtos["heap"].startswith("heap_4, ") and "TICK_RATE_HZ=1000" in rtos["config"]
    assert rtos["source"] == os.path.realpath(KERNEL_TREE) and re.fullmatch(r"[0-9a-f]{64}", rtos["sources_sha256"])
    check_study(res, STUDY)
    assert res["loop.control"]["stats"][""]["cycles_per_op"] == pytest.approx(2.0, abs=0.01)  # two instructions
    # the switch is timed in batches, without a clock read per switch: each event timed alone
    # (the histogram) costs more; on the Cortex-A53 the figure is the bare switch that gdb
    # counts by stepping the image (163.5 instructions: docs/rtos-study.md)
    yield_ = res["sched.yield_switch"]["stats"][""]
    assert yield_["hist"]["p50"] > yield_["median"], yield_
    if board == "virt-aarch64":
        assert abs(yield_["median"] - 163.5) < 2, yield_["median"]
    assert rtos["options"]["stack_check"] == 1 and rtos["options"]["assertions"] == "off"
    if board == "mps2-an385":
        run_board(cli, target, "lacks", [k.split("[")[0] for k in LACKS])
        _, lacks = stored(real, "lacks")
        for key, words in LACKS.items():
            assert lacks[key]["status"] == "skip" and words in lacks[key]["reason"], (key, lacks[key]["reason"])

    study_counts_again(cli, real, target, res, STUDY)


def test_a_kernel_tree_of_the_users_own_is_honoured(real, cli, tmp_path):
    """FREERTOS_KERNEL=DIR: the build compiles that tree (a copy whose version string is marked
    shows the mark in the hello record) and the fingerprint says where it came from."""
    need_board("mps2-an385")
    tree = tmp_path / "my-freertos"
    shutil.copytree(KERNEL_TREE, tree, ignore=shutil.ignore_patterns("*.md", "*.txt", "*.url"))
    task_h = tree / "include" / "task.h"
    task_h.write_text(task_h.read_text().replace('"V11.2.0"', '"V11.2.0+mine"'))
    os.environ["FREERTOS_KERNEL"] = str(tree)
    run_board(cli, "qemu-system:mps2-an385?os=freertos", "mine", ["sync.mutex"])
    run, res = stored(real, "mine")
    assert run["hello"]["kernel"] == "V11.2.0+mine" and res["sync.mutex"]["status"] == "ok"
    rtos = run["fingerprint"]["rtos"]
    assert rtos["source"] == str(tree.resolve()) and rtos["origin"] == f"FREERTOS_KERNEL={tree}"


def test_a_campaign_runs_a_cell_again_when_its_kernel_tree_changed(real, cli, tmp_path):
    """A cell's definition holds the FreeRTOS tree it is built from: after an edit to the tree of
    FREERTOS_KERNEL (a copy of the cached one, its version string marked), the next start runs
    the cell again, says why, and keeps the old run aside (it said 'nothing to run' and kept the
    old kernel's results without a word)."""
    need_board("mps2-an385")
    tree = tmp_path / "my-freertos"
    shutil.copytree(KERNEL_TREE, tree, ignore=shutil.ignore_patterns("*.md", "*.txt", "*.url"))
    os.environ["FREERTOS_KERNEL"] = str(tree)
    camp = tmp_path / "k.toml"
    camp.write_text(
        'name = "k"\nrounds = 1\nmax_rounds = 1\nsamples = 2\nsample_ms = 2\nseed = 7\n'
        '[targets]\nfree = "qemu-system:mps2-an385?os=freertos"\n[workloads]\nmutex = ["sync.mutex"]\n'
    )
    rc, out, err = cli("campaign", str(camp), "-q")
    assert rc == 0, err + out
    first, _ = stored(real, "k:free:default:mutex")
    rc, out, err = cli("campaign", str(camp))
    assert rc == 0 and "nothing to run" in err, err
    task_h = tree / "include" / "task.h"
    task_h.write_text(task_h.read_text().replace('"V11.2.0"', '"V11.2.0+mine"'))
    rc, out, err = cli("campaign", str(camp))
    assert rc == 0, err + out
    why = f"free:default:mutex: changed since run {first['id']} (the FreeRTOS kernel tree (its contents))"
    assert why in err, err
    run, res = stored(real, "k:free:default:mutex")
    assert run["id"] != first["id"] and run["hello"]["kernel"] == "V11.2.0+mine"
    assert res["sync.mutex"]["status"] == "ok"
    sources = run["notes"]["cell"]["definition"]["target_sources"]["freertos_kernel"]
    assert sources["path"] == str(tree.resolve()) and sources["sha256"] == run["fingerprint"]["rtos"]["sources_sha256"]
    kept, _ = stored(real, f"k:free:default:mutex~{first['id']}")
    assert kept["status"] == "complete" and "the FreeRTOS kernel tree" in kept["notes"]["superseded_because"]


def test_the_study_in_one_go(real, monkeypatch, nuttx_cache, cli):
    """The study's campaign on virt-aarch64: FreeRTOS, NuttX, Linux (the cached Debian kernel)
    and bare metal side by side, and the table across them: every primitive of FreeRTOS, NuttX
    and Linux in instructions, with the ratio against Linux, bare metal where it has the
    primitive. Linux is Debian's arm64 kernel booted on the board's own machine and CPU under
    the same -icount."""
    from tickmark.analysis import rtos_table
    from tickmark.report.terminal.campaign import campaign_summary
    from tickmark.run import campaign as cp
    from tickmark.run import rtos_study
    from tickmark.store import Store

    need_board("virt-aarch64")
    if not (ARM64_KERNELS and os.path.isfile(ARM64_BUSYBOX)):
        need_tool("no Debian arm64 kernel and busybox in the cache (./bootstrap test fetches them)")
    need_nuttx()
    monkeypatch.setenv("TICKMARK_BUSYBOX", ARM64_BUSYBOX)
    study = rtos_study.spec("virt-aarch64", rounds=1, kernel=ARM64_KERNELS[-1], samples=2, sample_ms=2, seed=3)
    assert list(study.targets) == ["freertos", "nuttx", "linux", "baremetal"]
    camp = cp.Campaign(study, str(real), echo=lambda m: None)
    camp.execute()
    sides = rtos_study.sides(Store(str(real)), study)
    assert [s.label for s in sides] == ["FreeRTOS", "NuttX", "Linux", "bare metal"]
    fp, hello = sides[2].run["fingerprint"], sides[2].run["hello"]
    assert hello["port"] == "linux" and hello["target"].startswith("aarch64")
    assert fp["board"] == "virt-aarch64" and fp["qemu_icount"] == "shift=0,sleep=off"
    assert "cortex-a53" in fp["qemu_args"] and fp["cycles_method"] == "icount-insns"
    assert fp["kernel"] and fp["kernel"] in os.path.basename(ARM64_KERNELS[-1])
    for res in sides[2].results:
        if res["key"].startswith("irq."):  # user space takes no interrupt: the Linux rows skip
            assert res["status"] == "skip" and "cannot raise an interrupt" in res["reason"], res["key"]
            continue
        assert res["status"] == "ok" and res["stats"][""]["cycles_method"] == "icount-insns", res["key"]
    t = rtos_table.build(sides)
    assert t.unit == "insn" and t.board == "virt-aarch64" and not t.notes and t.labels[t.reference] == "Linux"
    for row in t.rows:
        free, nx, linux, bare = row.cells
        if row.key.startswith("irq."):  # the interrupt rows: the RTOSes, and bare metal but for a wake
            assert free.value and nx.value and linux.value is None, (row.figure, free, nx, linux)
            assert bool(bare.value) == (not row.key.startswith("irq.wake")), (row.figure, bare)
            continue
        assert free.value and nx.value and linux.value, (row.figure, free, nx, linux)
        assert row.ratios[0] == linux.value / free.value and row.ratios[1] == linux.value / nx.value
        if row.key.startswith(("heap.", "loop.")):
            assert bare.value, (row.figure, bare)
        else:
            assert bare.value is None and "lacks threads" in bare.note
    rows = {r.figure: r for r in t.rows}
    # a Linux thread costs tens of thousands of instructions
    assert rows["pthread_create"].ratios[0] > 3 and rows["pthread_create"].cells[2].value > 10000
    # a yield is one system call and a switch: a few thousand instructions (with the kernel's random
    # generator never seeded, each system call paid ~9,300 more for its kernel-stack offset: 12,176)
    assert rows["context switch (yield)"].cells[2].value < 6000, rows["context switch (yield)"].cells[2]
    # the campaign's terminal summary ends with the study's table
    out = io.StringIO()
    campaign_summary(Store(str(real)), study, camp.cells, file=out)
    table = out.getvalue().split("The RTOS study on virt-aarch64: FreeRTOS, NuttX, Linux, bare metal")[1]
    assert "Linux is" in table and "skip: lacks threads" in table and "NuttX: NuttX 4ebc8a7291df" in table
    with pytest.raises(TickmarkError, match="runs neither FreeRTOS, NuttX nor Linux"):
        rtos_study.spec("virt-riscv64")
    # Linux under -icount with one --seed: every sample the same when booted again (the guest's
    # random generator seeded by QEMU's fixed -seed, KASLR off, the real-time clock held fixed;
    # before, samples differed)
    assert "nokaslr" in fp["kernel_cmdline"] and "-seed 1" in fp["qemu_args"]
    rc, out, err = cli(
        "run", "--target", study.targets["linux"], "--rounds", "1", "--samples", "2", "--sample-ms", "2",
        "--seed", "3", "--name", "linux-again", "-q", "--suite", "rtos-study",
    )  # fmt: skip
    assert rc == 0, err + out
    _, again = stored(real, "linux-again")
    for res in sides[2].results:
        first = dict(res, samples=Store(str(real)).samples(res["id"]))
        assert counts(first) == counts(again[res["key"]]), res["key"]


def test_cold_calls_count_instructions_on_freertos(real, cli):
    """Under QEMU -icount a cold call (one lock and unlock after the board's cache flush) is a
    count of guest instructions, the same for every call (QEMU models no cache), shown as
    instructions beside the warm figure and never as a time."""
    need_board("virt-aarch64")
    run_board(cli, "qemu-system:virt-aarch64?os=freertos", "cold", ["sync.mutex"])
    run, res = stored(real, "cold")
    mutex = res["sync.mutex"]
    assert mutex["meta"]["cold_flush"] == "read 2 MiB: twice the board's 1 MiB cache (BM_CACHE_BYTES)"
    colds = [s["cold"] for s in mutex["samples"]]
    assert len(colds) == 2 and len(set(colds)) == 1 and 50 < colds[0] < 1000, colds
    cold = mutex["stats"]["cold"]
    assert cold["flags"][0] == "cold" and cold["value"] == colds[0]
    rc, out, err = cli("show", "cold")
    assert rc == 0, err
    assert re.search(r"^sync\.mutex +\| +[\d.]+ insn/op \| +[\d.]+ insn/op \| +[\d.]+× \| +2$", out, re.M), out
    table = out[out.index("cold and warm") :]
    assert "models no cache" in " ".join(table.split()) and not re.search(r"\d [nuµm]?s\b", table), table
