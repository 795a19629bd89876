"""What the tests of a Linux kernel image under qemu-system (`--kernel`) share: the Debian kernel
that `./bootstrap test` unpacks (or the one the environment names), the tools a boot needs, and
a private store with the session's build cache for the core."""

import glob
import os
import shutil

import pytest

from conftest import need_tool

KERNELS = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "tickmark", "kernels")


def debian_kernel(rt=False):
    """The kernel image to boot: TICKMARK_TEST_KERNEL (TICKMARK_TEST_RT_KERNEL with rt), else the
    newest unpacked Debian amd64 kernel (its PREEMPT_RT build with rt) -> path (else skip; fail
    under CI)."""
    given = os.environ.get("TICKMARK_TEST_RT_KERNEL" if rt else "TICKMARK_TEST_KERNEL")
    if given:
        return given
    found = [
        k
        for k in sorted(glob.glob(os.path.join(KERNELS, "linux-image-*-amd64", "boot", "vmlinuz-*")))
        if ("-rt-" in k) == rt
    ]
    if found:
        return found[-1]
    msg = f"no Debian kernel unpacked under {KERNELS} (./bootstrap test fetches it)"
    if os.environ.get("CI"):
        pytest.fail(msg)
    pytest.skip(msg)


def boot_store(tmp_path, monkeypatch, build_cache):
    """busybox-static and qemu-system-x86 there (else skip; fail under CI), the session's build
    cache for the core, and a private store -> the store's path."""
    if not (os.path.isfile("/bin/busybox") and shutil.which("qemu-system-x86_64")):
        need_tool("needs busybox-static and qemu-system-x86")
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "r.db"))
    monkeypatch.delenv("TICKMARK_CORE", raising=False)
    return tmp_path / "r.db"
