"""The kernel-entry family (trap.*) and the two-instruction control loop: on the five bare-metal
boards under QEMU (guest instructions, identical for one seed), under FreeRTOS, on Linux, and one
system-call round trip on the Cortex-M3 counted independently, from QEMU's own execution trace."""

import os
import re
import subprocess

import pytest

from boards import counts, need_board, run_board, stored
from conftest import need_tool
from tickmark.targets.baremetal import qemu_argv

BOARDS = ["mps2-an385", "mps2-an500", "virt-aarch64", "virt-riscv64", "orangepi-pc"]
TRAPS = ["trap.syscall", "trap.abort", "trap.undef", "trap.irq"]
CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
FREERTOS_TREE = os.environ.get("FREERTOS_KERNEL") or os.path.join(
    CACHE, "tickmark", "freertos", "FreeRTOS-Kernel-V11.2.0"
)


def _run(cli, target, name, *patterns):
    run_board(cli, target, name, patterns)
    return stored(os.environ["TICKMARK_STORE"], name)[1]


def _insn(r):
    assert r["status"] == "ok", (r["key"], r["reason"])
    main = r["stats"][""]
    assert main["cycles_method"] == "icount-insns"
    return main["cycles_per_op"]


@pytest.mark.parametrize("board", BOARDS)
def test_kernel_entry_on_every_board(board, real, cli):
    """Every kind of kernel entry runs on every board, in guest instructions with the
    two-instruction control loop subtracted, and a second run with the same seed counts the same."""
    need_board(board)
    res = _run(cli, f"qemu-system:{board}", "one", "trap.*", "loop.control")
    assert sorted(res) == sorted(TRAPS + ["loop.control"])
    assert _insn(res["loop.control"]) == pytest.approx(2.0, abs=0.01)  # a count-down and a branch
    for key in TRAPS:
        # the trap instruction and a handler of a few instructions (QEMU counts no cycles for the
        # exception entry itself)
        assert 1.5 < _insn(res[key]) < 40, key
    two = _run(cli, f"qemu-system:{board}", "two", "trap.*", "loop.control")
    for key, r in res.items():
        assert counts(r) == counts(two[key]), key


def _symbols(binary):
    """name -> (address, size) of the image's functions (arm-none-eabi-nm -S)."""
    out = subprocess.run(["arm-none-eabi-nm", "-S", str(binary)], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            syms[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return syms


def test_svc_round_trip_counted_independently(real, cli):
    """One SVC round trip on the Cortex-M3, counted from QEMU's execution trace (-singlestep:
    one translation block per instruction; -d exec: a line per block executed; -dfilter: only
    the trap loop and the SVC handler), against tickmark's figure: the instructions of one
    iteration of the loop, less the control loop's two, are what trap.syscall reports."""
    from tickmark.targets.baremetal import build_for_board

    board = need_board("mps2-an385")
    image = build_for_board(board).binary
    syms = _symbols(image)
    loop_at, loop_size = syms["tm_arch_trap_call"]
    isr_at, isr_size = syms["tm_bm_svc_isr"]
    log = real.parent / "svc.log"
    iters = 1000
    argv = qemu_argv(board, image, ["run", "trap.syscall", "--iters", str(iters), "--samples", "1", "--seed", "1"])
    k = argv.index("-kernel")
    argv[k:k] = ["-singlestep", "-d", "exec,nochain", "-D", str(log),
                 "-dfilter", f"{loop_at & ~1:#x}+{loop_size},{isr_at & ~1:#x}+{isr_size}"]  # fmt: skip
    r = subprocess.run(argv, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    pcs = re.findall(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/", log.read_text(), re.M)
    counts = {int(pc, 16): pcs.count(pc) for pc in set(pcs)}
    # the warm-up batch and the sample: 2 x iters round trips; the loop's instructions ran that
    # many times each, those around it (call, return, the split of a 64-bit count) a few times
    per_iteration = {pc: n for pc, n in counts.items() if n == 2 * iters}
    assert (isr_at & ~1) in per_iteration  # the handler ran once per call
    assert len(per_iteration) == 4  # svc, the handler's bx lr, subs, bne
    res = _run(cli, "qemu-system:mps2-an385", "svc", "trap.syscall", "loop.control")
    control = _insn(res["loop.control"])
    assert control == pytest.approx(2.0, abs=0.01)
    assert _insn(res["trap.syscall"]) == pytest.approx(len(per_iteration) - control, abs=0.01)


def _loop_length(objdump, binary, function):
    """Instructions from the target of the loop's backward branch to the branch itself, in the
    disassembly of one function."""
    out = subprocess.run([objdump, "-d", str(binary)], capture_output=True, text=True, check=True).stdout
    body = re.search(rf"^[0-9a-f]+ <{function}>:\n(.*?)(?:\n\n|\Z)", out, re.M | re.S).group(1)
    insns = [(int(m.group(1), 16), m.group(2)) for m in re.finditer(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2,8} )+\s*(.*)$",
                                                                      body, re.M)]  # fmt: skip
    for i, (at, text) in enumerate(insns):
        m = re.search(r"\b(?:b\.ne|bne(?:\.n)?|bnez|jne|jnz)\s+(?:\w+,\s*)*([0-9a-f]+)\b", text)
        if m and int(m.group(1), 16) < at:
            start = next(j for j, (a, _) in enumerate(insns) if a == int(m.group(1), 16))
            return i - start + 1
    raise AssertionError(f"no backward branch in {function}")


@pytest.mark.parametrize("board", ["mps2-an385", "virt-aarch64", "virt-riscv64"])
def test_control_loop_is_two_instructions_in_the_image(board, real):
    """The compiled control loop is a count-down and a branch (before: 6 instructions on the
    Cortex-M3, 3 on the Cortex-A53), read from the board image's disassembly."""
    from tickmark.targets.baremetal import build_for_board

    b = need_board(board)
    image = build_for_board(b).binary
    objdump = b.cross_compile + "objdump"
    assert _loop_length(objdump, image, "tm_control_loop") == 2


def test_control_loop_is_two_instructions_natively(core_binary):
    if os.uname().machine not in ("x86_64", "aarch64", "riscv64"):
        pytest.skip("no loop of its own on this architecture")
    assert _loop_length("objdump", core_binary, "tm_control_loop") == 2


def test_kernel_entry_on_linux(real, cli):
    """On Linux the same names measure the kernel's path: getppid by the instruction, SIGSEGV and
    SIGILL whose handlers step over the instruction; no interrupt can be raised from user space."""
    rc, out, err = cli("run", "trap.*", "--rounds", "1", "--samples", "3", "--sample-ms", "2", "--name", "lx", "-q")
    assert rc == 0, err + out
    from tickmark.store import Store

    st = Store(str(real))
    res = {r["key"]: r for r in st.results(st.run("lx")["id"])}
    for key in ("trap.syscall", "trap.abort", "trap.undef"):
        assert res[key]["status"] == "ok", (key, res[key]["reason"])
        assert res[key]["stats"][""]["median"] > 0
    assert res["trap.irq"]["status"] == "skip" and "cannot raise an interrupt" in res["trap.irq"]["reason"]


@pytest.mark.parametrize("board", ["mps2-an385", "mps2-an500", "virt-aarch64"])
def test_kernel_entry_under_freertos(board, real, cli, monkeypatch):
    """On the Cortex-M boards the handlers go into a copy of the vector table, beside FreeRTOS's
    own (its tick keeps running); on the Cortex-A53 the vectors are FreeRTOS's: each skips saying so."""
    need_board(board)
    if not os.path.isfile(os.path.join(FREERTOS_TREE, "tasks.c")):
        need_tool(f"no FreeRTOS-Kernel tree at {FREERTOS_TREE} (./bootstrap test fetches it)")
    monkeypatch.setenv("FREERTOS_KERNEL", FREERTOS_TREE)
    res = _run(cli, f"qemu-system:{board}?os=freertos", "rtos", "trap.*")
    for key in TRAPS:
        if board == "virt-aarch64":
            assert res[key]["status"] == "skip" and "exception vectors are the system's" in res[key]["reason"], key
        else:
            assert 1.5 < _insn(res[key]) < 40, key
