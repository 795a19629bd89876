"""What the tests of the emulated boards share (FreeRTOS, NuttX, Linux on a board): the board's
tools or a skip (a failure under CI=true), a short run of the real core on a target, the
stored results of a run by name, and the core Makefile's list of the sources of a port."""

import subprocess

from conftest import CORE, need_tool
from tickmark.base.errors import TickmarkError
from tickmark.targets.baremetal import load_board


def need_board(name):
    """The board, when its compiler and QEMU are installed -> Board (else skip; fail under CI)."""
    b = load_board(name)
    try:
        b.check_tools()
    except TickmarkError as e:
        need_tool(str(e))
    return b


def run_board(cli, target, name, patterns, *extra):
    """One short round of PATTERNS on TARGET under --seed 7, stored as NAME -> the output."""
    rc, out, err = cli(
        "run", "--target", target, "--rounds", "1", "--samples", "2", "--sample-ms", "2", "--seed", "7",
        "--name", name, "-q", *patterns, *extra,
    )  # fmt: skip
    assert rc == 0, err + out
    return out


def stored(store_path, name):
    """The stored run NAME and its results by key, each with its samples -> (run, {key: result})."""
    from tickmark.store import Store

    st = Store(str(store_path))
    run = st.run(name)
    return run, {r["key"]: dict(r, samples=st.samples(r["id"])) for r in st.results(run["id"])}


def study_run(cli, store_path, board, system):
    """The rtos-study suite on BOARD under SYSTEM (os=SYSTEM), stored as "one", counted in guest
    instructions (its fingerprint says so) -> (the target, the fingerprint, hello, {key: result})."""
    need_board(board)
    target = f"qemu-system:{board}?os={system}"
    run_board(cli, target, "one", ["--suite", "rtos-study"])
    run, res = stored(store_path, "one")
    fp = run["fingerprint"]
    assert fp["board"] == board and fp["qemu_icount"] == "shift=0,sleep=off" and fp["cycles_method"] == "icount-insns"
    return target, fp, run["hello"], res


def study_counts_again(cli, store_path, target, res, keys):
    """A second run of the suite on TARGET with the same seed, stored as "two", counts each of
    KEYS as RES did."""
    run_board(cli, target, "two", ["--suite", "rtos-study"])
    _, res2 = stored(store_path, "two")
    for key in keys:
        assert counts(res[key]) == counts(res2[key]), key


def counts(result):
    """What two runs with one seed must have alike: each sample's time, cycles and iterations."""
    return [(s["ns"], s.get("cyc"), s["iters"]) for s in result["samples"]]


def check_study(res, keys, skipped=None):
    """Every rtos-study figure of a run on a board: ok, counted in guest instructions, and the
    mutex's lock and unlock each tens of instructions; but those in SKIPPED ({key: words}) skip,
    their reason holding the words."""
    skipped = skipped or {}
    for key, words in skipped.items():
        assert res[key]["status"] == "skip" and words in res[key]["reason"], (key, res[key]["reason"])
    for key in set(keys) - set(skipped):
        r = res[key]
        assert r["status"] == "ok", (key, r["reason"])
        assert r["stats"][""]["cycles_method"] == "icount-insns" and r["stats"][""]["cycles_per_op"] > 0
    subs = res["sync.mutex"]["stats"]
    assert 10 < subs["lock"]["median"] < 1000 and 10 < subs["unlock"]["median"] < 1000


def core_sources(**make_vars):
    """The core Makefile's source list for a port (make print-build with MAKE_VARS) -> [files]."""
    args = [f"{k}={v}" for k, v in make_vars.items()]
    r = subprocess.run(["make", "-s", "-C", str(CORE), *args, "print-build"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return next(line for line in r.stdout.splitlines() if line.startswith("SRCS=")).split("=", 1)[1].split()


def nuttx_sources(tmp_path, board):
    """The source list of the NuttX port on BOARD, the kernel's export stood in for by a
    tickmark.mk of empty settings under tmp_path -> [files]."""
    export = tmp_path / "export"
    export.mkdir()
    (export / "tickmark.mk").write_text("NUTTX_CPUFLAGS =\nNUTTX_DEFINES =\nNUTTX_LIBS =\nNUTTX_LDSCRIPT = x.ld\n")
    return core_sources(PORT="nuttx", BOARD=board, NUTTX_EXPORT=export, CC="gcc")
