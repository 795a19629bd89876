"""Bare-metal boards under qemu-system: the core built with each board's compiler and picolibc,
booted as the machine's only program, records through semihosting, counts in guest instructions."""

import os
import shutil
import subprocess
import sys
import time

import pytest

from boards import need_board
from conftest import need_tool, run_tmp
from tickmark.base.errors import TickmarkError
from tickmark.targets.baremetal import board_names, load_board, parse_board, semihost_args

BOARDS = ["mps2-an500", "mps2-an385", "virt-aarch64", "virt-riscv64", "orangepi-pc"]
# small slices of the four families, so a board takes seconds
PATTERNS = [
    "cpu.numsort",
    "memfn.memcpy",
    "loop.control",
    "heap.malloc_free",
    "--param",
    "size=64,16",
    "--param",
    "salign=0",
    "--param",
    "impl=0,1",
]


TRAP_MEMCPY = (
    "#include <stddef.h>\nvoid *tm_user_memcpy(void *d, const void *s, size_t n);\n"
    "void *tm_user_memcpy(void *d, const void *s, size_t n)\n"
    "{ (void)s; (void)n; __builtin_trap(); return d; }\n"
)


@pytest.fixture(scope="module")
def trap_memcpy(tmp_path_factory):
    """A user memcpy that faults. The mps2-an500 tests all build with it (one build for the
    fault test and the board test, whose memfn.memcpy points do not use it); one file for the
    whole run, so pytest-xdist workers share that build too (the file's path is part of its key)."""
    p = run_tmp(tmp_path_factory) / "trap_memcpy.c"
    tmp = p.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(TRAP_MEMCPY)
    os.replace(tmp, p)  # whole: another worker may be building from it
    return str(p)


def _run(cli, board, name, *extra):
    rc, out, err = cli(
        "run",
        "--target",
        f"qemu-system:{board}",
        "--rounds",
        "1",
        "--samples",
        "2",
        "--sample-ms",
        "2",
        "--seed",
        "7",
        "--name",
        name,
        "-q",
        *PATTERNS,
        *extra,
    )
    assert rc == 0, err + out
    return out


def _results(store_path, name):
    from tickmark.store import Store

    st = Store(str(store_path))
    run = st.run(name)
    res = {r["key"]: dict(r, samples=st.samples(r["id"])) for r in st.results(run["id"])}
    return run, res


def test_every_board_description_parses():
    assert set(BOARDS) <= set(board_names())
    for name in board_names():
        b = load_board(name)
        assert b.qemu[0].startswith("qemu-system-") and b.cross_compile.endswith("-") and b.packages


def test_bad_board_files_and_names():
    with pytest.raises(TickmarkError, match="lacks BM_ARCH"):
        parse_board("CROSS_COMPILE = x-\nQEMU = qemu-system-arm\n", "broken")
    with pytest.raises(TickmarkError, match="unknown board 'nope'.*mps2-an500"):
        load_board("nope")
    with pytest.raises(TickmarkError, match="unknown board"):
        load_board("../etc/passwd")


def test_long_argument_lists_go_through_a_file(tmp_path):
    short = semihost_args(["run", "cpu.*"], tmp_path / "a")
    assert short == ["arg=run", "arg=cpu.*"]
    assert semihost_args(["run", "mem.lat_rand[size=4096,thp=0]"], None) == [
        "arg=run",
        "arg=mem.lat_rand[size=4096,,thp=0]",
    ]
    keys = [f"--iters=memfn.memcpy[impl=0,size={n}]=5" for n in range(200)]
    long = semihost_args(["run", *keys], tmp_path / "a")
    assert long == [f"arg=@{tmp_path / 'a'}"]
    assert (tmp_path / "a").read_text().splitlines() == ["run", *keys]


@pytest.mark.parametrize("board", BOARDS)
def test_board_runs_and_verifies_and_counts_are_identical(board, real, cli, trap_memcpy):
    need_board(board)
    extra = ("--memfn", trap_memcpy) if board == "mps2-an500" else ()
    _run(cli, board, "one", *extra)
    run, res = _results(real, "one")
    fp = run["fingerprint"]
    assert fp["emulated"] is True and "emulated" in fp["flags"] and fp["board"] == board
    assert fp["cycles_method"] == "icount-insns" and fp["qemu_icount"] == "shift=0,sleep=off"
    assert run["hello"]["port"] == "baremetal"
    for key in (
        "cpu.numsort",
        "loop.control",
        "heap.malloc_free[size=16]",
        "memfn.memcpy[impl=0,size=64,salign=0,dalign=0]",
        "memfn.memcpy[impl=1,size=64,salign=0,dalign=0]",
    ):
        r = res[key]
        assert r["status"] == "ok", (key, r["reason"])
        main = r["stats"][""]
        assert main["cycles_method"] == "icount-insns" and main["cycles_per_op"] > 0
        assert len(r["samples"]) == 2
    # 1 ns of virtual time is one instruction: the empty loop is a count-down and a branch
    assert res["loop.control"]["stats"][""]["cycles_per_op"] == pytest.approx(2.0, abs=0.01)
    # the kernels check their own output: a wrong result would be status "failed"
    assert not [k for k, r in res.items() if r["status"] in ("failed", "crashed", "timeout")]

    # exported and imported, the figures are still instructions (the run's own cycles method)
    doc = real.parent / f"{board}.json"
    assert cli("export", "one", "-o", str(doc))[0] == 0
    rc, out, err = cli("import", str(doc))
    assert rc == 0 and "'one-2'" in out, err
    _, imported = _results(real, "one-2")
    assert {k: r["stats"][""].get("cycles_method") for k, r in imported.items() if r["status"] == "ok"} == {
        k: "icount-insns" for k, r in res.items() if r["status"] == "ok"
    }

    _run(cli, board, "two", *extra)
    _, res2 = _results(real, "two")
    assert res2.keys() == res.keys()
    for key, r in res.items():
        a = [(s["ns"], s.get("cyc"), s["iters"]) for s in r["samples"]]
        b2 = [(s["ns"], s.get("cyc"), s["iters"]) for s in res2[key]["samples"]]
        assert a == b2, key  # icount: the same counts on every run


def test_what_needs_an_os_skips_with_its_reason(real, cli, trap_memcpy, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # the study table's rows on one line each
    need_board("mps2-an500")
    rc, out, err = cli(
        "run",
        "--target",
        "qemu-system:mps2-an500",
        "--rounds",
        "1",
        "--samples",
        "1",
        "--sample-ms",
        "1",
        "--name",
        "os",
        "-q",
        "--memfn",
        trap_memcpy,
        "sys.getppid",
        "heap.malloc_free",
        "--param",
        "size=1M",
        "thread.create_join",
        "heap.malloc_free_4",
        "sync.mutex",
        "sched.yield_switch",
        "loop.control",
    )
    assert rc == 0, err + out
    _, res = _results(real, "os")
    assert res["sys.getppid"]["status"] == "skip" and "baremetal port lacks syscalls" in res["sys.getppid"]["reason"]
    assert res["thread.create_join"]["status"] == "skip" and "threads" in res["thread.create_join"]["reason"]
    r = res["heap.malloc_free[size=1048576]"]  # 64 MiB of blocks in 4 MiB of RAM: skipped, not crashed
    assert r["status"] == "skip" and "free memory" in r["reason"]
    # the rtos-study view with this bare-metal run in columns of its own (beside itself here: the
    # column is named by its system, and by its run as both are bare metal)
    rc, out, err = cli("show", "os", "--beside", "os")
    assert rc == 0, err
    heap = next(line for line in out.splitlines() if line.startswith("heap alloc (4 B)"))
    # instruction counts under an insn heading, never beside cycles (the study's published hardware
    # cycles have a table of their own)
    assert heap.split("|")[2].strip() == "97" and "bare metal (os): insn" in out and "(os): cycles" not in out


def test_bad_targets_are_one_line_errors(real, cli):
    rc, out, err = cli("run", "--target", "qemu-system:nope", "loop.control")
    assert rc == 2 and "unknown board 'nope'" in err and "Traceback" not in err
    rc, out, err = cli("run", "--target", "qemu-system:mps2-an500?icount=2", "loop.control")
    assert rc == 2 and "icount is 0 or 1" in err
    rc, out, err = cli("run", "--target", "qemu-system:mps2-an500", "--kernel", "/nonexistent", "loop.control")
    assert rc == 2 and "--kernel" in err


def test_a_fault_is_reported(real, cli, trap_memcpy):
    """A benchmark that faults ends the machine: that instance is 'crashed', the exit status
    and the fault text are kept in the run's problems."""
    need_board("mps2-an500")
    rc, out, err = cli(
        "run",
        "--target",
        "qemu-system:mps2-an500",
        "--rounds",
        "1",
        "--samples",
        "1",
        "--sample-ms",
        "1",
        "--name",
        "bad",
        "-q",
        "--memfn",
        trap_memcpy,
        "memfn.memcpy",
        "--param",
        "impl=3",
        "--param",
        "size=64",
        "--param",
        "salign=0",
    )
    run, res = _results(real, "bad")
    assert res["memfn.memcpy[impl=3,size=64,salign=0,dalign=0]"]["status"] == "crashed"
    problems = " ".join(run["notes"]["problems"])
    assert "exited with status 1" in problems and "fault" in problems


@pytest.mark.parametrize(
    "qemu,package",
    [
        ("qemu-system-arm", "qemu-system-arm"),
        ("qemu-system-aarch64", "qemu-system-arm"),
        ("qemu-system-riscv64", "qemu-system-misc"),
    ],
)
def test_qemu_is_installed(qemu, package):
    """The boards' emulators: a skip here (a fail under CI=true) explains the skips below."""
    if not shutil.which(qemu):
        need_tool(f"{qemu} not found (apt-get install {package})")
    r = subprocess.run([qemu, "--version"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and "QEMU emulator version" in r.stdout, r.stdout + r.stderr


def test_compare_refuses_instructions_against_time_and_warns_on_emulation():
    from types import SimpleNamespace

    from tickmark.analysis.compare import check_comparable, mixing_warning

    icount = SimpleNamespace(label="an500", fingerprint={"qemu_icount": "shift=0,sleep=off", "emulated": True})
    tcg = SimpleNamespace(label="tcg", fingerprint={"emulated": True, "flags": ["emulated"]})
    real = SimpleNamespace(label="real", fingerprint={"emulated": False, "flags": []})
    with pytest.raises(TickmarkError, match="an500 .guest instructions under QEMU -icount. with real"):
        check_comparable(icount, real)
    with pytest.raises(TickmarkError, match="units differ"):
        check_comparable(tcg, icount)
    check_comparable(icount, icount)
    check_comparable(tcg, real)
    assert "tcg ran emulated and real did not" in mixing_warning(real, tcg)
    assert mixing_warning(tcg, tcg) is None and mixing_warning(real, real) is None


def test_uart_console_for_boards_without_a_debugger(real):
    """BM_CONSOLE=uart-cmsdk: no semihosting at all, the core's output on the board's UART0
    (QEMU's serial port) and its arguments compiled in (TM_BUILTIN_ARGS), as on a board
    without a debugger."""
    import subprocess
    import threading

    from tickmark.base.tm1 import Parser
    from tickmark.targets.build import build_core

    b = need_board("mps2-an500")
    info = build_core(
        cc="arm-none-eabi-gcc",
        cflags="-O2 '-DTM_BUILTIN_ARGS=\"run loop.control --samples 2 --sample-ms 1 --seed 3\"'",
        cross_compile=b.cross_compile,
        ldflags="",
        make_vars={"PORT": "baremetal", "BOARD": "mps2-an500", "BM_CONSOLE": "uart-cmsdk"},
    )
    argv = b.qemu + ["-display", "none", "-monitor", "none", "-serial", "stdio", "-kernel", info.binary]
    argv += ["-icount", "shift=0,sleep=off"]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    guard = threading.Timer(90, p.kill)
    guard.start()
    recs, parser = [], Parser()
    try:
        for line in p.stdout:  # the program idles after its last record: nothing to exit to
            rec = parser.next_record(line)
            if rec:
                recs.append(rec)
                if rec["t"] == "bye":
                    break
    finally:
        guard.cancel()
        p.kill()
        p.wait()
    kinds = [r["t"] for r in recs]
    assert kinds[0] == "hello" and kinds[-1] == "bye" and kinds.count("sample") == 2
    assert recs[0]["port"] == "baremetal" and recs[0]["seed"] == 3
    end = next(r for r in recs if r["t"] == "end")
    assert end["key"] == "loop.control" and end["status"] == "ok"


def _children(pid):
    """{pid: command line} of the processes whose parent is pid (from /proc)."""
    out = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    stat = f.read()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    with open(f"/proc/{d}/cmdline") as f:
                        out[int(d)] = f.read()
            except OSError:
                continue  # ended meanwhile
    return out


def _gone(pid, within_s):
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True  # ended; its parent (init) has not reaped it yet
        except OSError:
            return True
        time.sleep(0.1)
    return False


def test_an_emulated_machine_ends_with_the_tickmark_that_was_killed(real, tmp_path):
    """tickmark killed with SIGKILL (no handler runs) while its board runs: the QEMU it started
    gets its parent-death signal and ends, never left running with init as its parent."""
    need_board("mps2-an385")
    env = dict(os.environ, TICKMARK_STORE=str(real))
    # one long sample: QEMU writes nothing for a long while (a write to the closed pipe would end it anyway)
    args = ["run", "--target", "qemu-system:mps2-an385", "cpu.numsort", "--samples", "1", "--sample-ms", "10000", "-q"]
    p = subprocess.Popen([sys.executable, "-m", "tickmark.cli", *args], env=env, start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline, qemu = time.monotonic() + 300, []
        while not qemu and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.2)
            qemu = [c for c, cmd in _children(p.pid).items() if "qemu-system" in cmd]
        assert qemu, "no QEMU started"
        p.kill()
        p.wait()
        assert _gone(qemu[0], 10), f"QEMU {qemu[0]} still runs after its tickmark was killed"
    finally:
        if p.poll() is None:
            p.kill()
