"""qemu-user:ARCH: the cross build of the core run under qemu-user on this machine.

For CI and for checking a port, never for timing claims: every result is flagged `emulated`."""

from dataclasses import replace

from ..base.errors import TickmarkError
from . import toolchain
from .base import Variant, register, shown
from .local import LocalCore, LocalTarget, qemu_user_argv

ARCHES = ("armhf", "aarch64", "riscv64")
ALIASES = {"arm": "armhf", "armv7": "armhf", "arm64": "aarch64", "riscv": "riscv64"}


@register("qemu-user")
class QemuUserTarget(LocalTarget):
    scheme = "qemu-user"
    usage = "qemu-user:ARCH"
    profile_usage = "qemu-user"
    program_usage = None
    emulated = True
    takes_prebuilt = False

    @classmethod
    def from_uri(cls, uri, **options):
        arch = uri.partition(":")[2]
        arch = ALIASES.get(arch, arch)
        if arch not in ARCHES:
            raise TickmarkError(f"bad target '{shown(uri)}' (qemu-user:ARCH with ARCH one of {', '.join(ARCHES)})")
        t = cls(f"qemu-user:{arch}", **options)
        t.arch = arch
        return t

    def prepare(self, variant=None):
        cross = toolchain.CROSS[self.arch]  # a cross build even where this machine has the same ARCH
        b = toolchain.build(replace(variant or Variant(), cross_compile=cross), static=True)
        argv, _ = qemu_user_argv(cross, b.binary)
        return LocalCore(self, argv, b.as_dict(), emulated=True)
