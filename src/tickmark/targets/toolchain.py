"""The compiler of a core for the machine it runs on, chosen in one place: the cross toolchain for
the target's architecture (Debian's cross compilers), and the link (a static core for a cross
build and wherever the target asks for one: a board whose C library is unknown, a kernel image
with nothing but busybox). The variant's own --cc, CROSS_COMPILE and LDFLAGS win."""

import os
import platform
import shutil

from ..base.errors import TickmarkError
from .build import build_core

# a machine's name (uname -m, or a qemu-user:ARCH) -> Debian's cross prefix for it
CROSS = {
    "x86_64": "x86_64-linux-gnu-",
    "aarch64": "aarch64-linux-gnu-",
    "arm64": "aarch64-linux-gnu-",
    "armv7l": "arm-linux-gnueabihf-",
    "armv6l": "arm-linux-gnueabihf-",
    "armv8l": "arm-linux-gnueabihf-",
    "armhf": "arm-linux-gnueabihf-",
    "riscv64": "riscv64-linux-gnu-",
}
# cross prefix -> the Debian package with its gcc
PACKAGES = {
    "aarch64-linux-gnu-": "gcc-aarch64-linux-gnu",
    "arm-linux-gnueabihf-": "gcc-arm-linux-gnueabihf",
    "riscv64-linux-gnu-": "gcc-riscv64-linux-gnu",
    "x86_64-linux-gnu-": "gcc-x86-64-linux-gnu",
}


def cross_prefix(machine, where=None):
    """The cross prefix that builds for `machine` ("" when it is this machine's architecture)."""
    if machine is None or machine == platform.machine():
        return ""
    if machine not in CROSS:
        raise TickmarkError(f"{where or 'the target'}: no known cross compiler for '{machine}' (give --cc)")
    return CROSS[machine]


def build(variant, machine=None, cross=None, static=False, where=None):
    """Build (or reuse) the core of `variant` for `machine` (None: this machine) -> BuildInfo.
    cross: the cross prefix a board's description names, instead of the machine's; static: link
    statically even where no cross toolchain is needed."""
    if variant.cross_compile is not None:
        cross = variant.cross_compile
    elif cross is None:
        cross = cross_prefix(machine, where)
    cc = variant.cc or (cross + "gcc" if cross else None)
    if variant.cc is None and cross and not shutil.which(cross + "gcc"):
        on = f"{where} is {machine}: " if where and machine else ""
        raise TickmarkError(
            f"{on}{cross}gcc not found (install {PACKAGES.get(cross, 'a cross compiler')}, or give --cc)"
        )
    if cc is None and not os.environ.get("CC") and not shutil.which("cc") and not shutil.which("gcc"):
        raise TickmarkError("no C compiler found; install gcc: apt-get install build-essential")
    ldflags = variant.ldflags if variant.ldflags is not None else ("-static" if static or cross else None)
    return build_core(cc=cc, cflags=variant.cflags, memfn=variant.memfn, cross_compile=cross or None, ldflags=ldflags)
