"""How a run ends when what it measured is not a result: the user's own routine (--memfn) that
crashes is a failed check like a wrong result (the run incomplete, exit 1), and an instance whose
every sample was left out (an ingested sample of 0 ns) has no data: the run is incomplete, exit 1,
never "complete" with 0 problems."""

import json
import subprocess
from pathlib import Path

import pytest

from conftest import need_cc

SEGV = """#include <stddef.h>
void *tm_user_memcpy(void *d, const void *s, size_t n);
void *tm_user_memcpy(void *d, const void *s, size_t n)
{
    (void)s;
    (void)n;
    *(volatile int *)0 = 1;
    return d;
}
"""


def test_a_user_routine_that_crashes_fails_the_run(real, cli, tmp_path):
    need_cc()
    src = tmp_path / "segv.c"
    src.write_text(SEGV)
    rc, out, err = cli(
        "run", "--memfn", str(src), "memfn.memcpy", "--param", "impl=0,3", "--param", "size=64",
        "--rounds", "1", "--samples", "2", "-q", "--name", "segv",
    )  # fmt: skip
    assert rc == 1, err
    assert "is incomplete: 2 instances failed: memfn.memcpy[impl=3" in err and "SIGSEGV" in err


HANG = """#include <stddef.h>
void *tm_user_memcpy(void *d, const void *s, size_t n);
void *tm_user_memcpy(void *d, const void *s, size_t n)
{
    (void)s;
    (void)n;
    for (;;)
        __asm__ volatile("");
    return d;
}
"""


def test_a_user_routine_that_hangs_fails_the_run(real, cli, tmp_path):
    """A routine that never returns is stopped at --timeout, and the run is incomplete, exit 1,
    as when it crashes (it was complete, exit 0)."""
    need_cc()
    src = tmp_path / "hang.c"
    src.write_text(HANG)
    rc, out, err = cli(
        "run", "--memfn", str(src), "memfn.memcpy", "--param", "impl=3", "--param", "size=64",
        "--rounds", "1", "--max-rounds", "1", "--samples", "2", "--timeout", "3", "-q", "--name", "hang",
    )  # fmt: skip
    assert rc == 1, err
    assert "is incomplete: 2 instances failed: memfn.memcpy[impl=3" in err and "no result after 3 s" in err, err


@pytest.fixture
def zero_log(build_cache, tmp_path):
    from tickmark.targets.build import build_core

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(build_cache))
        core = build_core().binary
    lines = subprocess.run([core, "run", "sys.getppid", "--samples", "3"], capture_output=True, check=True).stdout
    out = []
    for ln in lines.splitlines():
        if ln.startswith(b"TM1 ") and b'"t":"sample"' in ln:
            rec = json.loads(ln[4:])
            rec["ns"] = 0
            ln = b"TM1 " + json.dumps(rec, separators=(",", ":")).encode()
        out.append(ln)
    log = tmp_path / "zero.log"
    log.write_bytes(b"\n".join(out) + b"\n")
    return log


def test_an_ingested_run_whose_samples_are_all_left_out_has_no_data(real, cli, zero_log: Path):
    rc, out, err = cli("ingest", str(zero_log), "--name", "zero")
    assert rc == 1, out + err
    rc, out, err = cli("show", "zero")
    assert "incomplete" in out and "without data: every sample of sys.getppid was left out" in out, out
