"""Tests of the C core on its own: unit tests, isolation of crashing benchmarks, and cross builds run under
qemu-user producing valid TM1 streams."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "src" / "tickmark" / "core"
RECORD = re.compile(r"TM1 (\{.*\})\s*$")


def records(text):
    return [json.loads(m.group(1)) for line in text.splitlines() if (m := RECORD.search(line))]


def make(tmp_path, name, *args, env=None):
    return make_in(tmp_path / name, *args, env=env)


def make_in(out, *args, env=None):
    cmd = ["make", "-s", "-C", str(CORE), f"O={out}", "WERROR=1", *args]
    res = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "warning" not in (res.stdout + res.stderr).lower()
    return out


def test_c_unit_tests(make_core, tmp_path):
    # the unit tests link against the objects of the plain build: a copy of its folder (copy2: the
    # objects keep their times), so the shared build stays as it is
    out = tmp_path / "unit"
    shutil.copytree(make_core().parent, out, symlinks=True)
    make_in(out, "check")
    res = subprocess.run([str(out / "tickmark-unit")], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout
    assert re.search(r"^\d+ passed, 0 failed$", res.stdout, re.M)


def test_crashing_benchmarks_are_isolated(tmp_path, make_core):
    core = make_core("EXTRA_SRCS=tests/crash_bench.c")
    env = dict(os.environ, TMPDIR=str(tmp_path))
    res = subprocess.run(
        [str(core), "run", "test.*", "sys.getppid", "--timeout", "2", "--samples", "2"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    recs = records(res.stdout)
    ends = {r["key"]: r for r in recs if r["t"] == "end"}
    assert ends["test.crash"]["status"] == "crashed" and ends["test.crash"]["reason"] == "SIGSEGV"
    assert ends["test.hang"]["status"] == "timeout"
    assert ends["test.wrong"]["status"] == "failed" and "does not verify" in ends["test.wrong"]["reason"]
    assert ends["sys.getppid"]["status"] == "ok"
    assert recs[-1]["t"] == "bye"
    assert not list(tmp_path.glob("tickmark-*")), "scratch directory left behind"


def test_bad_usage_is_one_line_exit_2(make_core):
    core = make_core()
    for args in (["run", "nosuch.*"], ["run", "--samples", "0"], ["run", "--param", "x"], ["frobnicate"]):
        res = subprocess.run([str(core), *args], capture_output=True, text=True)
        assert res.returncode == 2, args
        assert len(res.stderr.strip().splitlines()) == 1, res.stderr


# (prefix, qemu-user name, Debian packages of the compiler and of the target's C library)
CROSS = [
    ("arm-linux-gnueabihf", "arm", "gcc-arm-linux-gnueabihf", "libc6-dev-armhf-cross"),
    ("aarch64-linux-gnu", "aarch64", "gcc-aarch64-linux-gnu", "libc6-dev-arm64-cross"),
    ("riscv64-linux-gnu", "riscv64", "gcc-riscv64-linux-gnu", "libc6-dev-riscv64-cross"),
]


def missing_cross_tools(prefix, qemu, gcc_pkg, libc_pkg):
    """The Debian packages (bootstrap test installs them) this cross test cannot do without."""
    if not shutil.which(f"{prefix}-gcc"):
        return [gcc_pkg, libc_pkg] + ([] if shutil.which(f"qemu-{qemu}") else ["qemu-user"])
    missing = [] if shutil.which(f"qemu-{qemu}") else ["qemu-user"]
    probe = subprocess.run(
        [f"{prefix}-gcc", "-E", "-x", "c", "-"], input="#include <stdio.h>\n", capture_output=True, text=True
    )
    if probe.returncode != 0:  # the compiler is there, its C library headers are not
        missing.append(libc_pkg)
    return missing


@pytest.mark.parametrize("prefix,qemu,gcc_pkg,libc_pkg", CROSS)
def test_cross_build_runs_under_qemu(tmp_path, prefix, qemu, gcc_pkg, libc_pkg):
    missing = missing_cross_tools(prefix, qemu, gcc_pkg, libc_pkg)
    if missing:
        msg = f"cross build for {prefix} needs Debian package(s) {', '.join(missing)} (./bootstrap test installs them)"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    out = make(tmp_path, prefix, f"CROSS_COMPILE={prefix}-", "LDFLAGS=-static")
    res = subprocess.run(
        [
            f"qemu-{qemu}",
            str(out / "tickmark-core"),
            "run",
            "sys.getppid",
            "loop.control",
            "trap.syscall",
            "trap.abort",
            "trap.undef",
            "--samples",
            "3",
            "--sample-ms",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    recs = records(res.stdout)
    hello = recs[0]
    assert hello["t"] == "hello" and hello["target"].startswith(prefix.split("-")[0])
    samples = [r for r in recs if r["t"] == "sample"]
    assert len(samples) == 15
    assert all(isinstance(r["ns"], int) and r["ns"] > 0 and r["ops"] > 0 for r in samples)
    # the kernel-entry loops of the CPU (arch/<arch>/trap.c) and its signal context (port/linux/arch)
    assert [r["status"] for r in recs if r["t"] == "end"] == ["ok"] * 5
    assert recs[-1]["t"] == "bye"


def test_instance_key_patterns_select_single_points(make_core):
    """Extra rounds rerun single sweep points by key, possibly hundreds of them at once."""
    core = make_core()
    keys = [f"mem.lat_rand[size={s},thp=0]" for s in (1024, 2048)]
    res = subprocess.run(
        [str(core), "run", *keys, *(["sys.getppid"] * 200), "--samples", "1", "--sample-ms", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    hello = records(res.stdout)[0]
    assert sorted(hello["order"]) == sorted(keys + ["sys.getppid"])
    res = subprocess.run([str(core), "run", "mem.lat_rand[size=7,thp=0]"], capture_output=True, text=True)
    assert res.returncode == 2 and "no benchmark matches" in res.stderr
