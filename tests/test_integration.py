"""The harness with the real C core: build (and its cache), a real run, Ctrl-C on a real run."""

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import tickmark_proc, wait_results

HAVE_CC = bool(shutil.which("make") and (shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")))
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not HAVE_CC and not os.environ.get("CI"),
        reason="no C compiler/make (install gcc: apt-get install build-essential)",
    ),
]


def test_build_is_cached_and_keyed(real, tmp_path):
    from tickmark.targets.build import build_core, sha256_file

    a = build_core()
    assert os.access(a.binary, os.X_OK) and a.cflags == "-O2"
    assert a.binary_sha256 == sha256_file(a.binary) and a.cc_version
    mtime = os.stat(a.binary).st_mtime_ns
    b = build_core()
    assert b.binary == a.binary and os.stat(b.binary).st_mtime_ns == mtime  # reused
    c = build_core(cflags="-O1")
    assert c.hash != a.hash and c.binary != a.binary
    m = tmp_path / "mymemcpy.c"
    m.write_text(
        "#include <stddef.h>\nvoid *tm_user_memcpy(void *d, const void *s, size_t n);\n"
        "void *tm_user_memcpy(void *d, const void *s, size_t n)\n"
        "{ char *o = d; const char *i = s; while (n--) *o++ = *i++; return d; }\n"
    )
    d = build_core(memfn=str(m))
    assert d.hash != a.hash
    # the routine file's variant took the objects of the plain build (copied: same mtime)
    objs = sorted(p.name for p in (Path(a.binary).parent / "obj").glob("*.o") if p.name != "buildinfo.o")
    assert len(objs) > 50
    for name in objs:
        ours, plain = Path(d.binary).parent / "obj" / name, Path(a.binary).parent / "obj" / name
        assert ours.read_bytes() == plain.read_bytes() and ours.stat().st_mtime_ns == plain.stat().st_mtime_ns
    assert (Path(d.binary).parent / "obj" / "memfn-user.o").is_file()
    r = subprocess.run([d.binary, "list", "memfn.memcpy"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "memfn.memcpy" in r.stdout
    m.write_text(m.read_text() + "/* changed */\n")
    assert build_core(memfn=str(m)).hash != d.hash
    # other link flags only (a link flag no other test uses): the objects of a finished build of
    # the same sources and flags are taken (copied before this build began), the core linked again
    t0 = time.time_ns()
    e = build_core(ldflags="-Wl,-z,noexecstack")
    assert e.hash != a.hash and e.ldflags == "-Wl,-z,noexecstack"
    for name in objs:
        ours = Path(e.binary).parent / "obj" / name
        assert ours.read_bytes() == (Path(a.binary).parent / "obj" / name).read_bytes()
        assert ours.stat().st_mtime_ns < t0, name
    r = subprocess.run([e.binary, "list", "sys.getppid"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "sys.getppid" in r.stdout


def test_build_errors_are_one_line_with_the_fix(real):
    from tickmark.base.errors import TickmarkError
    from tickmark.targets.build import build_core

    with pytest.raises(TickmarkError, match="install gcc: apt-get install build-essential"):
        build_core(cc="no-such-compiler-xyz")
    with pytest.raises(TickmarkError, match="building tickmark-core failed") as e:
        build_core(cflags="-fno-such-option-xyz")
    assert "no-such-option-xyz" in e.value.detail


def test_cli_build_failure_shows_compiler_message(real, cli):
    rc, out, err = cli("run", "sys.getppid", "--cflags", "-fno-such-option-xyz")
    lines = err.splitlines()
    assert rc == 2 and lines[0].startswith("tickmark: error: building tickmark-core failed")
    assert any("no-such-option-xyz" in line for line in lines[1:])


def test_real_run_sys_getppid(real, cli):
    rc, out, err = cli("run", "sys.getppid", "--rounds", "2", "--quiet", "--name", "real")
    assert rc == 0, err
    assert "sys.getppid" in out and "ns/op" in out and "INCOMPLETE" not in out
    rc, doc, _ = cli("export", "real")
    d = json.loads(doc)
    assert d["run"]["status"] == "complete" and d["run"]["hello"]["t"] == "hello"
    assert len(d["run"]["fingerprint"]["binary_sha256"]) == 64
    (r,) = d["results"]
    assert r["status"] == "ok" and r["key"] == "sys.getppid"
    rounds = sorted({s["round"] for s in r["samples"]})  # 2, plus extra rounds if it was noisy
    assert rounds == list(range(1, len(rounds) + 1)) and len(rounds) >= 2
    # a round taken to reach the task-clock floor of a contended instance has 3x the samples
    floor = d["run"]["notes"].get("floor_rounds", 0)  # recorded once such a round ran
    n = 5 * (len(rounds) - floor) + 15 * floor
    assert len(r["samples"]) == n and d["run"]["notes"]["rounds"] == len(rounds)
    assert len({s["iters"] for s in r["samples"]}) == 1  # frozen across rounds
    st = r["stats"][""]
    assert 1 < st["value"] < 1e6 and st["n"] == n and st["ops_per_s"] > 0
    rc, out, err = cli("list", "sys.*")
    assert rc == 0 and "sys.getppid" in out


def test_ctrl_c_on_real_run(real, cli):
    cli("list")  # build before timing anything
    p = tickmark_proc(["run", "sys.*", "loop.control", "--rounds", "3"], start_new_session=True)
    try:
        wait_results(real)
        os.killpg(p.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "INCOMPLETE: interrupted" in out
    rc, out, _ = cli("runs")
    assert "incomplete" in out
