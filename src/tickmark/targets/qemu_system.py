"""qemu-system:BOARD: the core on a whole emulated machine.

Two kinds of machine:
  * a bare-metal board described in core/boards/BOARD.mk (mps2-an500, mps2-an385,
    virt-aarch64, virt-riscv64, ...): the core is built with the board's compiler and picolibc
    and booted as the machine's only program; its arguments, records and exit status go
    through semihosting. By default QEMU counts instructions (-icount shift=0,sleep=off): the
    figures are guest instructions, the same on every run, labelled icount-insns.
    `qemu-system:BOARD?icount=0` runs free (TCG timing: host-dependent, flagged emulated too).
  * a Linux kernel image (qemu-system:x86_64 or qemu-system:aarch64 with --kernel IMAGE): see
    kernel_image.py.

Every result is flagged `emulated`: these are never timings of real hardware.
"""

import os
import shutil
import tempfile

from .. import fingerprint
from ..errors import TickmarkError
from . import baremetal
from . import uri as uri_options
from .base import Core, Target, Variant, register
from .kernel_image import KernelTarget
from .qemu import SLACK, QemuSession, core_timeout, qemu_version
from .uri import Option

KERNEL_MACHINES = ("x86_64", "aarch64")
OPTIONS = (
    Option("icount", "flag", None),
    Option("kernel", "text"),
    Option("append", "text"),
    Option("accel", "choice", choices=("kvm", "tcg")),
)


class BoardCore(Core):
    in_process = True  # every benchmark runs in the one program: a fault ends the round

    def __init__(self, target, image, build):
        super().__init__(target, build, emulated=True)
        self.image = image
        # under icount the "time" is guest instructions: cycles per op are instructions per op
        self.cycles_method = "icount-insns" if target.icount else None

    def start(self, args):
        args = list(args)
        if self.target.icount and args and args[0] == "run":
            args += ["--fcore-khz", str(baremetal.INSN_FCORE_KHZ)]
        argv = baremetal.qemu_argv(
            self.target.board, self.image, args, icount=self.target.icount, args_file=self.target.scratch("args")
        )
        return QemuSession(argv, core_timeout(args) + SLACK)


@register("qemu-system")
class QemuSystemTarget(Target):
    scheme = "qemu-system"
    emulated = True
    options = OPTIONS

    def __init__(self, uri, prebuilt=None, board=None, icount=True, kernel=None, append=None):
        super().__init__(uri, prebuilt)
        self.board, self.icount, self.kernel, self.append = board, icount, kernel, append
        self._tmp = None

    @classmethod
    def from_uri(cls, uri, kernel=None, append=None, **options):
        name, q = uri_options.parse(uri, OPTIONS, "qemu-system:BOARD[?icount=0] or qemu-system:MACHINE?kernel=PATH")
        kernel = kernel or q["kernel"]
        append = append if append is not None else q["append"]
        if name in KERNEL_MACHINES:
            accel = q["accel"]
            return KernelTarget(
                f"qemu-system:{name}" + (f"?accel={accel}" if accel else ""),
                machine=name,
                kernel=kernel,
                append=append,
                icount=q["icount"] is True,
                accel=accel,
                **options,
            )
        if not name:
            raise TickmarkError(
                f"bad target '{uri}' (qemu-system:BOARD, BOARD one of: "
                f"{', '.join(baremetal.board_names() + list(KERNEL_MACHINES))})"
            )
        if kernel:
            raise TickmarkError(
                f"--kernel boots a Linux kernel: use it with qemu-system:{' or qemu-system:'.join(KERNEL_MACHINES)}, "
                f"not with the bare-metal board {name}"
            )
        board = baremetal.load_board(name)
        icount = q["icount"] is not False  # counted instructions unless ?icount=0
        return cls(f"qemu-system:{name}" + ("" if icount else "?icount=0"), board=board, icount=icount, **options)

    def scratch(self, name):
        if self._tmp is None:
            self._tmp = tempfile.mkdtemp(prefix="tickmark-qemu-")
        return os.path.join(self._tmp, name)

    def prepare(self, variant=None):
        variant = variant or Variant()
        if variant.cross_compile or variant.ldflags:
            raise TickmarkError(f"{self.uri} builds with the board's own compiler and link flags")
        b = baremetal.build_for_board(self.board, cc=variant.cc, cflags=variant.cflags, memfn=variant.memfn)
        build = dict(b.as_dict(), board=self.board.name)
        return BoardCore(self, b.binary, build)

    def fingerprint(self, core, hello=None):
        fp = fingerprint.from_texts({}, core.build, hello)  # an emulated board: nothing of this machine
        qemu = self.board.qemu
        fp.update(
            {
                "arch": self.board.vars.get("BM_ARCH"),
                "cpu_model": f"QEMU {self.board.name}: {self.board.summary}",
                "cpus_online": 1,
                "caches": [],
                "os": "bare metal (picolibc)",
                "kernel": "none (bare metal)",
                "libc": "picolibc",
                "board": self.board.name,
                "qemu": qemu_version(qemu[0]),
                "qemu_args": " ".join(qemu),
                "qemu_icount": baremetal.ICOUNT if self.icount else None,
                "virtualization": "qemu-tcg",
            }
        )
        fp["flags"] = fingerprint.env_flags(fp)
        return self.base_fingerprint(fp, core)

    def close(self):
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None
