"""What the fingerprint and `info` say about the core and the process on the target, asked of the
target itself: how the core is linked (read from the binary) and which C library its routines come
from (the build's compiler, asked with the build's flags), and what a process may do there
(real-time priority, CPU affinity), asked through the target's shell."""

import re
import shutil

import pytest

from conftest import need_cc, need_tool
from tickmark.facts import probe
from tickmark.targets import open_target
from tickmark.targets.build import build_core, c_library
from tickmark.targets.elf import elf_linkage


def test_process_limits_from_what_a_shell_prints():
    said = probe.parse_probe(
        "greeting from .bashrc\n@@tickmark uid\n1000\n\n@@tickmark rtprio\n0\n\n@@tickmark cpus_allowed\n0-3,6\n\n"
    )
    assert probe.process_limits(said) == {
        "rt_priority": {"allowed": False, "why": "RLIMIT_RTPRIO=0"},
        "affinity": {"available": True, "cpus": [0, 1, 2, 3, 6]},
    }
    assert probe.process_limits({"uid": "0", "rtprio": "0"})["rt_priority"] == {"allowed": True, "why": "root"}
    assert probe.process_limits({"uid": "7", "rtprio": "unlimited"})["rt_priority"]["allowed"] is True
    assert probe.process_limits({"rtprio": "lots", "cpus_allowed": "3-1"}) == {
        "rt_priority": None,
        "affinity": None,
    }


def test_local_limits_are_this_process():
    import os
    import resource

    limits = open_target("local").process_limits()
    assert limits["affinity"]["cpus"] == sorted(os.sched_getaffinity(0))
    hard = resource.getrlimit(resource.RLIMIT_RTPRIO)[1]
    want = os.geteuid() == 0 or hard == resource.RLIM_INFINITY or hard > 0
    assert limits["rt_priority"]["allowed"] is want


def test_a_target_without_a_shell_cannot_be_asked(cli):
    assert open_target("qemu-system:mps2-an500").process_limits() is None


@pytest.mark.integration
def test_the_build_says_how_the_core_is_linked_and_against_which_c_library(build_cache, monkeypatch):
    need_cc()
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    for name in ("CC", "CFLAGS", "LDFLAGS", "CROSS_COMPILE"):
        monkeypatch.delenv(name, raising=False)
    glibc = "glibc " + __import__("platform").libc_ver()[1]
    dynamic = build_core()
    assert (dynamic.linkage, dynamic.libc) == ("dynamic", glibc)
    static = build_core(ldflags="-static")
    assert (static.linkage, static.libc) == ("static", glibc)
    fp = probe.from_texts({"glibc": "glibc 9.99"}, static)
    assert fp["linkage"] == "static" and fp["core_libc"] == f"{glibc} (static)"  # not the target's 9.99
    fp = probe.from_texts({"glibc": "glibc 9.99"}, dynamic)
    assert fp["linkage"] == "dynamic" and fp["core_libc"] == "glibc 9.99 (shared)"  # the target's own
    assert elf_linkage(__file__) == ""  # not an ELF file


def test_a_bare_metal_build_names_picolibc():
    if not shutil.which("arm-none-eabi-gcc"):
        need_tool("no arm-none-eabi-gcc (bootstrap test installs it)")
    assert re.fullmatch(r"picolibc \d+(\.\d+)+", c_library(["arm-none-eabi-gcc"], ["--specs=picolibc.specs"]))


def test_a_musl_build_names_musl():
    if not shutil.which("musl-gcc"):
        pytest.skip("no musl-gcc (Debian's musl-tools)")
    assert c_library(["musl-gcc"], []) == "musl"
