"""A Linux kernel image under qemu-system: a minimal initramfs (busybox-static and the static core)
booted with the Debian kernel that `./bootstrap test` unpacks from its package."""

import os
import stat
import warnings

from kernelfix import boot_store, debian_kernel
from tickmark.targets.kernel_image import _guest_fields, args_archive, cpio_newc


def test_cpio_newc_layout():
    a = cpio_newc([("init", stat.S_IFREG | 0o755, b"#!/bin/sh\n"), ("dev/console", stat.S_IFCHR | 0o600, b"", (5, 1))])
    assert a.startswith(b"070701") and a.rstrip(b"\0").endswith(b"TRAILER!!!")
    assert len(a) % 4 == 0 and b"init\0" in a and b"#!/bin/sh\n" in a
    hdr = a[a.index(b"070701", 10) :][:110]  # the console entry: rdev major 5, minor 1
    assert hdr[78:86] == b"00000005" and hdr[86:94] == b"00000001"
    assert b"run\nsys.*\n" in args_archive(["run", "sys.*"])


def test_guest_line_parses():
    g = _guest_fields("kernel=6.1.0-56-amd64 cpus=2 cpu= QEMU Virtual CPU version 2.5+")
    assert g == {"kernel": "6.1.0-56-amd64", "cpus": "2", "cpu": "QEMU Virtual CPU version 2.5+"}


def test_kernel_option_errors(tmp_path, monkeypatch, cli):
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "r.db"))
    monkeypatch.delenv("TICKMARK_CORE", raising=False)
    rc, out, err = cli("run", "--target", "qemu-system:x86_64", "sys.getppid")
    assert rc == 2 and "give it with --kernel IMAGE" in err
    rc, out, err = cli("run", "--target", "qemu-system:x86_64", "--kernel", str(tmp_path / "none"), "sys.getppid")
    assert rc == 2 and "not found" in err
    rc, out, err = cli("run", "--kernel", str(tmp_path / "none"), "sys.getppid")
    assert rc == 2 and "--target qemu-system:x86_64" in err


def test_kernel_image_boots_and_runs(tmp_path, monkeypatch, cli, build_cache):
    kernel = debian_kernel()
    boot_store(tmp_path, monkeypatch, build_cache)
    rc, out, err = cli(
        "run", "--target", "qemu-system:x86_64", "--kernel", kernel, "--name", "k", "-q", "--rounds", "1",
        "--samples", "2", "--sample-ms", "2", "sys.getppid", "sched.pipe_pingpong", "--param", "cross=0",
    )  # fmt: skip
    assert rc == 0, err + out
    from tickmark.store import Store

    st = Store(str(tmp_path / "r.db"))
    run = st.run("k")
    fp = run["fingerprint"]
    assert fp["kernel"] and fp["kernel"] in os.path.basename(kernel)
    assert fp["qemu_accel"] in ("kvm", "tcg") and fp["accel_probe"].startswith(fp["qemu_accel"])
    assert fp["emulated"] is (fp["qemu_accel"] == "tcg")
    assert run["hello"]["port"] == "linux" and run["hello"]["target"].startswith("x86_64")
    res = {r["key"]: r for r in st.results(run["id"])}
    for key in ("sys.getppid", "sched.pipe_pingpong[cross=0]"):
        assert res[key]["status"] == "ok", (key, res[key]["reason"])
        assert res[key]["stats"][""]["median"] > 0
    warnings.warn(f"kernel-image boot used {fp['qemu_accel'].upper()}: {fp['accel_probe']}", stacklevel=1)


def test_a_file_that_is_no_kernel_gets_qemus_own_word(tmp_path, monkeypatch, cli, build_cache):
    boot_store(tmp_path, monkeypatch, build_cache)
    rc, out, err = cli("run", "--target", "qemu-system:x86_64?accel=tcg", "--kernel", "/etc/passwd", "sys.getppid")
    assert rc == 2 and err.count("\n") == 1, err
    assert err.startswith("tickmark: error: qemu-system:x86_64?accel=tcg cannot boot /etc/passwd: ")
    assert ": qemu: " in err and "kernel" in err  # what QEMU said (an invalid or too old kernel header)
    rc, out, err = cli("runs")
    assert "no runs stored yet" in out  # no empty run left behind
