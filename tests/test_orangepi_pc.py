"""Linux on the emulated Orange Pi PC (Allwinner H3, Cortex-A7): Debian's armhf multiplatform
kernel with the board's device tree from the same package, and Debian's armhf busybox, both from
the cache `./bootstrap test` fills, booted on QEMU's orangepi-pc machine under -icount: the
nbench kernels verify, and a second boot with one --seed counts the same instructions. (Bare
metal on the board is in test_qemu_system.py and test_trap.py with the other boards.)"""

import glob
import os
import shutil

import pytest

from boards import counts, need_board, run_board, stored
from conftest import need_tool
from tickmark.base.errors import TickmarkError
from tickmark.targets.baremetal import load_board
from tickmark.targets.kernel_image import board_dtb, cached_kernel

CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
ARMHF_KERNELS = sorted(
    glob.glob(os.path.join(CACHE, "tickmark", "kernels", "linux-image-*-armmp", "boot", "vmlinuz-*"))
)
ARMHF_BUSYBOX = os.environ.get("TICKMARK_BUSYBOX") or os.path.join(
    CACHE, "tickmark", "kernels", "busybox-static-armhf", "bin", "busybox"
)


def _need_linux(monkeypatch):
    need_board("orangepi-pc")
    if not (ARMHF_KERNELS and os.path.isfile(ARMHF_BUSYBOX)):
        need_tool("no Debian armhf kernel and busybox in the cache (./bootstrap test fetches them)")
    if not shutil.which("arm-linux-gnueabihf-gcc"):
        need_tool("no arm-linux-gnueabihf-gcc (bootstrap installs gcc-arm-linux-gnueabihf)")
    monkeypatch.setenv("TICKMARK_BUSYBOX", ARMHF_BUSYBOX)
    return ARMHF_KERNELS[-1]


def test_the_device_tree_is_found_beside_the_kernel_or_named(tmp_path):
    board = load_board("orangepi-pc")
    boot = tmp_path / "linux-image-1-armmp" / "boot"
    boot.mkdir(parents=True)
    (boot / "vmlinuz-1-armmp").write_bytes(b"not a kernel")
    with pytest.raises(TickmarkError, match="device tree sun8i-h3-orangepi-pc.dtb: not found beside"):
        board_dtb(board, str(boot / "vmlinuz-1-armmp"))
    lib = tmp_path / "linux-image-1-armmp" / "usr" / "lib" / "linux-image-1-armmp"
    lib.mkdir(parents=True)
    (lib / "sun8i-h3-orangepi-pc.dtb").write_bytes(b"dtb")
    assert board_dtb(board, str(boot / "vmlinuz-1-armmp")) == str(lib / "sun8i-h3-orangepi-pc.dtb")
    # the cache's kernel is the armmp flavour of armhf (not a package named ...-armhf)
    assert cached_kernel(board) is None or "-armmp/boot/vmlinuz-" in cached_kernel(board)


def test_linux_on_the_cortex_a7_verifies_and_counts_the_same_twice(real, cli, monkeypatch):
    kernel = _need_linux(monkeypatch)
    target = f"qemu-system:orangepi-pc?os=linux&kernel={kernel}"
    patterns = ("cpu.numsort", "cpu.stringsort", "sys.getppid", "loop.control")
    run_board(cli, target, "one", patterns)
    run, res = stored(real, "one")
    fp, hello = run["fingerprint"], run["hello"]
    assert hello["port"] == "linux" and hello["target"].startswith("arm-linux-gnueabihf")
    assert fp["board"] == "orangepi-pc" and fp["kernel_dtb"] == "sun8i-h3-orangepi-pc.dtb"
    assert "maxcpus=1" in fp["kernel_cmdline"] and "nokaslr" in fp["kernel_cmdline"]
    assert "-M orangepi-pc" in fp["qemu_args"] and "-seed 1" in fp["qemu_args"]
    assert fp["cpus_online"] == 1 and fp["qemu_icount"] == "shift=0,sleep=off"
    for key in patterns:
        r = res[key]
        assert r["status"] == "ok", (key, r["reason"])  # the cpu.* kernels check their own output
        assert r["stats"][""]["cycles_method"] == "icount-insns" and r["stats"][""]["cycles_per_op"] > 0
    assert res["loop.control"]["stats"][""]["cycles_per_op"] == pytest.approx(2.0, abs=0.01)
    run_board(cli, target, "two", patterns)
    _, two = stored(real, "two")
    for key, r in res.items():
        assert counts(r) == counts(two[key]), key
