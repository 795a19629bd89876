"""qemu-user:ARCH: the cross build of the core run under qemu-user on this machine.

For CI and for checking a port, never for timing claims: every result is flagged `emulated`."""

from ..errors import TickmarkError
from .base import Variant, register
from .build import build_core
from .local import LocalCore, LocalTarget, qemu_user_argv

CROSS = {"armhf": "arm-linux-gnueabihf-", "aarch64": "aarch64-linux-gnu-", "riscv64": "riscv64-linux-gnu-"}
ALIASES = {"arm": "armhf", "armv7": "armhf", "arm64": "aarch64", "riscv": "riscv64"}


@register("qemu-user")
class QemuUserTarget(LocalTarget):
    scheme = "qemu-user"
    emulated = True
    takes_prebuilt = False

    @classmethod
    def from_uri(cls, uri, **options):
        arch = uri.partition(":")[2]
        arch = ALIASES.get(arch, arch)
        if arch not in CROSS:
            raise TickmarkError(f"bad target '{uri}' (qemu-user:ARCH with ARCH one of {', '.join(CROSS)})")
        t = cls(f"qemu-user:{arch}", **options)
        t.arch = arch
        return t

    def prepare(self, variant=None):
        variant = variant or Variant()
        cross = CROSS[self.arch]
        b = build_core(
            cc=variant.cc or cross + "gcc",
            cflags=variant.cflags,
            memfn=variant.memfn,
            cross_compile=cross,
            ldflags=variant.ldflags if variant.ldflags is not None else "-static",
        )
        argv, _ = qemu_user_argv(cross, b.binary)
        return LocalCore(self, argv, b.as_dict(), emulated=True)
