"""Interrupt to thread (irq.*): a software-raised interrupt to its handler, back to the
interrupted thread, and to a higher-priority thread the handler wakes, on bare metal and FreeRTOS
(and NuttX) on the Cortex-A53 and the Cortex-M7 and bare metal on the Cortex-A7, under QEMU
(guest instructions, identical for one seed), the skips where a system has no way, and one round
trip counted independently from QEMU's own execution trace."""

import os
import re
import subprocess

import pytest

from boards import counts, need_board, run_board, stored
from conftest import need_nuttx, need_tool

CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
FREERTOS_TREE = os.environ.get("FREERTOS_KERNEL") or os.path.join(
    CACHE, "tickmark", "freertos", "FreeRTOS-Kernel-V11.2.0"
)

IRQ = ["irq.entry", "irq.return", "irq.wake"]
# (board, system) -> guest instructions: the raise to the handler's first statement (entry),
# the round trip (control loop subtracted), the raise to the woken thread (wake)
FIGURES = {
    ("virt-aarch64", "baremetal"): {"entry": 30.0, "return": 43.0},
    ("virt-aarch64", "freertos"): {"entry": 70.0, "return": 121.0},
    ("virt-aarch64", "nuttx"): {"entry": 104.0, "return": 173.0},
    ("mps2-an500", "baremetal"): {"return": 8.0},
    ("mps2-an500", "freertos"): {"return": 8.0},
    ("mps2-an500", "nuttx"): {"return": 37.0},
    ("orangepi-pc", "baremetal"): {"entry": 25.0, "return": 22.0},
}


def _target(board, system):
    return f"qemu-system:{board}" + ("" if system == "baremetal" else f"?os={system}")


@pytest.mark.parametrize("board,system", sorted(FIGURES))
def test_irq_figures_and_the_same_for_one_seed(board, system, nuttx_cache, real, cli, monkeypatch):
    need_board(board)
    if system == "nuttx":  # the kernel's export (nuttx_cache): built once per board, then kept
        need_nuttx()
    if system == "freertos":
        if not os.path.isfile(os.path.join(FREERTOS_TREE, "tasks.c")):
            need_tool(f"no FreeRTOS-Kernel tree at {FREERTOS_TREE} (./bootstrap test fetches it)")
        monkeypatch.setenv("FREERTOS_KERNEL", FREERTOS_TREE)
    run_board(cli, _target(board, system), "one", IRQ + ["loop.control"])
    _, res = stored(real, "one")
    want = FIGURES[(board, system)]
    for key in ("irq.entry", "irq.return"):
        assert res[key]["status"] == "ok", (key, res[key]["reason"])
        assert res[key]["stats"][""]["cycles_method"] == "icount-insns"
    ret = res["irq.return"]["stats"][""]["cycles_per_op"]
    # an RTOS's tick (every million instructions) may land in a sample: a tenth at most
    assert ret == pytest.approx(want["return"], abs=0.1), ret
    entry = res["irq.entry"]["stats"]["entry"]["median"]
    if "entry" in want:  # the A53's and A7's clock counts every instruction (PMCCNTR under -icount)
        assert entry == pytest.approx(want["entry"], abs=0.05), entry
    else:  # the MPS2 counter steps every 40 instructions: an average over the iterations
        assert 5 < entry < 40, entry
    wake = res["irq.wake"]
    if system == "baremetal":
        assert wake["status"] == "skip" and "lacks threads" in wake["reason"], wake["reason"]
    else:
        assert wake["status"] == "ok", wake["reason"]
        # the handler's give, the switch on its way out, the woken task's return from the take
        assert 150 < wake["stats"]["wake"]["median"] < 1000, wake["stats"]["wake"]
    run_board(cli, _target(board, system), "two", IRQ + ["loop.control"])
    _, two = stored(real, "two")
    for key, r in res.items():
        assert counts(r) == counts(two[key]), key


def test_irq_skips_on_linux_user_space(real, cli):
    """This machine's Linux: user space cannot raise an interrupt; each irq.* skips saying so."""
    rc, out, err = cli("run", *IRQ, "--rounds", "1", "--samples", "1", "--sample-ms", "1", "--name", "nat", "-q")
    assert rc == 0, err + out
    _, res = stored(real, "nat")
    for key in IRQ:
        assert res[key]["status"] == "skip" and "cannot raise an interrupt" in res[key]["reason"], res[key]


def _symbols(binary, nm):
    out = subprocess.run([nm, "-S", str(binary)], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            syms[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
        elif len(parts) == 3:  # an assembly label: no size
            syms[parts[2]] = (int(parts[0], 16), 0)
    return syms


def test_irq_return_counted_from_the_execution_trace(real, cli):
    """irq.return on the bare-metal Cortex-A53, counted from QEMU's execution trace (-singlestep:
    one translation block per instruction; -d exec,nochain: a line per block executed; -dfilter:
    the raise loop, the IRQ vector code and the C handler): the instructions of one iteration
    less the control loop's two are what tickmark reports."""
    from tickmark.targets.baremetal import build_for_board, qemu_argv

    board = need_board("virt-aarch64")
    image = build_for_board(board).binary
    syms = _symbols(image, board.vars["CROSS_COMPILE"] + "nm")
    ranges = [syms[name] for name in ("tm_arch_trap_store", "tm_bm_irq_vectors", "return_handler")]
    vec_at, _ = syms["tm_bm_irq_vectors"]
    ranges[1] = (vec_at, 0x800 + 0x100)  # the table and the IRQ code after it
    log = real.parent / "irq.log"
    iters = 1000
    argv = qemu_argv(board, image, ["run", "irq.return", "--iters", str(iters), "--samples", "1", "--seed", "1"])
    k = argv.index("-kernel")
    argv[k:k] = ["-singlestep", "-d", "exec,nochain", "-D", str(log),
                 "-dfilter", ",".join(f"{at:#x}+{size}" for at, size in ranges)]  # fmt: skip
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    pcs = re.findall(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/", log.read_text(), re.M)
    executed = {pc: pcs.count(pc) for pc in set(pcs)}
    # the warm-up batch and the sample: 2 x iters round trips, each instruction of the path once
    # per round trip (those around the loop, the call and the return, a few times). An
    # instruction that touches the interrupt controller is logged twice: under -icount QEMU
    # rewinds its block and runs it again as I/O ("cpu_io_recompile"), counting it once.
    per_iteration = [pc for pc, n in executed.items() if n >= 2 * iters]
    assert f"{syms['return_handler'][0]:016x}" in per_iteration
    assert len(per_iteration) - 2 == FIGURES[("virt-aarch64", "baremetal")]["return"]
