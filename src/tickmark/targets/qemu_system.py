"""qemu-system:BOARD: the core on a whole emulated machine.

Two kinds of machine:
  * a board described in core/boards/BOARD.mk (mps2-an500, mps2-an385, virt-aarch64,
    virt-riscv64, ...), running one of three systems, named by `?os=` the same way on every
    board:
      - os=baremetal (the default): the core built with the board's compiler and picolibc and
        booted as the machine's only program;
      - os=freertos: the same with the FreeRTOS kernel (targets/freertos.py), the core running
        in a task;
      - os=nuttx: the core as a NuttX application linked with the NuttX kernel (targets/nuttx.py),
        started as NuttX's first task; its records come out of NuttX's console (the UART);
      - os=zephyr: the core as a Zephyr application built with the kernel into one image
        (targets/zephyr.py), run from Zephyr's main thread; its records on Zephyr's console;
      - os=sylixos: the core linked with the SylixOS kernel library and the board's BSP
        (targets/sylixos.py) as the BSP's first thread; its records come out of SylixOS's
        console (the UART);
      - os=linux (implied by --kernel IMAGE): the Linux kernel IMAGE booted on the same machine
        and CPU with a minimal initramfs (kernel_image.py), where the board describes how.
    On bare metal and FreeRTOS the arguments, records and exit status go through semihosting;
    on NuttX, Zephyr and SylixOS the arguments and exit status do, and the records come on the UART.
    By default QEMU counts instructions (-icount shift=0,sleep=off), for every system: the
    figures are guest instructions, the same on every run, labelled icount-insns.
    `qemu-system:BOARD?icount=0` runs free (TCG timing: host-dependent, flagged emulated too).
  * a Linux kernel image on QEMU's generic machines (qemu-system:x86_64 or qemu-system:aarch64
    with --kernel IMAGE), under KVM where it works: see kernel_image.py.

Every result is flagged `emulated`: these are never timings of real hardware.
"""

from ..base.errors import TickmarkError
from ..facts import fingerprint, probe
from . import baremetal, freertos, nuttx, sylixos, zephyr
from . import uri as uri_options
from .base import Core, Target, Variant, register, shown, with_options
from .kernel_image import KernelTarget, cached_kernel
from .qemu import SLACK, QemuSession, Scratch, core_timeout, qemu_version
from .uri import Option

KERNEL_MACHINES = ("x86_64", "aarch64")
OSES = ("baremetal", "freertos", "nuttx", "zephyr", "sylixos", "linux")
UART_CONSOLE = ("nuttx", "zephyr", "sylixos")  # the OSes whose records come on the board's UART
OPTIONS = (
    Option("os", "choice", choices=OSES),
    Option("icount", "flag", None),
    Option("kernel", "text"),
    Option("append", "text"),
    Option("accel", "choice", choices=("kvm", "tcg")),
    Option("stack_check", "choice", choices=(0, 1, 2)),  # os=freertos: its stack overflow check
    Option("assert", "flag", None),  # os=freertos: configASSERT in every kernel call
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
            args = with_options(args, "--fcore-khz", str(baremetal.INSN_FCORE_KHZ))
        argv = baremetal.qemu_argv(
            self.target.board,
            self.image,
            args,
            icount=self.target.icount,
            args_file=self.target.scratch("args"),
            console="uart" if self.target.os_name in UART_CONSOLE else "semihosting",
            machine=self.target.machine(),
        )
        return QemuSession(argv, core_timeout(args) + SLACK)


@register("qemu-system")
class QemuSystemTarget(Scratch, Target):
    scheme = "qemu-system"
    usage = "qemu-system:BOARD"
    kernel_usage = "qemu-system:x86_64 (or :aarch64)"
    program_usage = "qemu-system:x86_64|aarch64 (with --kernel)"
    emulated = True
    options = OPTIONS

    def __init__(
        self,
        uri,
        prebuilt=None,
        board=None,
        icount=True,
        kernel=None,
        append=None,
        os_name="baremetal",
        rtos_options=None,
    ):
        super().__init__(uri, prebuilt)
        self.board, self.icount, self.kernel, self.append = board, icount, kernel, append
        self.os_name = os_name
        self.rtos_options = rtos_options or {}  # os=freertos: stack_check, assertions
        self.rtos = None  # the FreeRTOS kernel of an os=freertos build
        self.nuttx = None  # the NuttX kernel's export of an os=nuttx build
        self.zephyr = None  # the Zephyr image of an os=zephyr build
        self.sylixos = None  # the SylixOS kernel and BSP of an os=sylixos build

    def machine(self):
        """QEMU's machine options for this system: the board's, or what Zephyr's board wants."""
        if self.os_name == "zephyr" and self.board.vars.get("ZEPHYR_QEMU"):
            return self.board.vars["ZEPHYR_QEMU"].split()
        return self.board.qemu

    @classmethod
    def from_uri(cls, uri, kernel=None, append=None, **options):
        name, q = uri_options.parse(uri, OPTIONS, "qemu-system:BOARD[?os=freertos|nuttx|zephyr|sylixos&icount=0]")
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
                f"bad target '{shown(uri)}' (qemu-system:BOARD, BOARD one of: "
                f"{', '.join(baremetal.board_names() + list(KERNEL_MACHINES))})"
            )
        board = baremetal.load_board(name)
        os_name = q["os"] or ("linux" if kernel else "baremetal")
        icount = q["icount"] is not False  # counted instructions unless ?icount=0
        if os_name == "linux":
            if not board.vars.get("LINUX_CONSOLE"):
                linux = [b for b in baremetal.board_names() if baremetal.load_board(b).vars.get("LINUX_CONSOLE")]
                raise TickmarkError(
                    f"--kernel (os=linux) boots Linux, and board {name} does not describe a Linux boot "
                    f"(boards that do: {', '.join(linux)})"
                )
            if q["accel"] not in (None, "tcg"):
                raise TickmarkError(f"bad target '{shown(uri)}': a board runs under TCG (accel=tcg)")
            if not kernel:
                kernel = cached_kernel(board)
                if not kernel:
                    raise TickmarkError(
                        f"qemu-system:{name}?os=linux boots a Linux kernel image: give it with --kernel IMAGE "
                        f"or in the target, qemu-system:{name}?os=linux&kernel=IMAGE (so a campaign file names it); "
                        f"./bootstrap study unpacks Debian's {board.vars.get('LINUX_DEB_ARCH')} kernel into the cache, "
                        "where it is found without either"
                    )
            return KernelTarget(
                f"qemu-system:{name}?os=linux" + ("" if icount else "&icount=0"),
                machine=name,
                kernel=kernel,
                append=append,
                icount=icount,
                accel="tcg",
                board=board,
                **options,
            )
        if kernel:
            raise TickmarkError(
                f"--kernel boots a Linux kernel: use it with qemu-system:{' or qemu-system:'.join(KERNEL_MACHINES)} "
                f"or a board with os=linux, not with os={shown(os_name, 40)}"
            )
        if os_name == "freertos" and not board.vars.get("FREERTOS_PORT"):
            able = [b for b in baremetal.board_names() if baremetal.load_board(b).vars.get("FREERTOS_PORT")]
            raise TickmarkError(f"board {name} names no FreeRTOS port (boards that do: {', '.join(able)})")
        if os_name == "nuttx" and not board.vars.get("NUTTX_BOARD"):
            able = [b for b in baremetal.board_names() if baremetal.load_board(b).vars.get("NUTTX_BOARD")]
            raise TickmarkError(f"board {name} names no NuttX board (boards that do: {', '.join(able)})")
        if os_name == "zephyr" and not board.vars.get("ZEPHYR_BOARD"):
            able = [b for b in baremetal.board_names() if baremetal.load_board(b).vars.get("ZEPHYR_BOARD")]
            raise TickmarkError(f"board {name} names no Zephyr board (boards that do: {', '.join(able)})")
        if os_name == "sylixos" and not board.vars.get("SYLIXOS_BSP"):
            able = [b for b in baremetal.board_names() if baremetal.load_board(b).vars.get("SYLIXOS_BSP")]
            raise TickmarkError(f"board {name} names no SylixOS BSP (boards that do: {', '.join(able)})")
        given = {k: q[k] for k in ("stack_check", "assert") if q[k] is not None}
        if given and os_name != "freertos":
            raise TickmarkError(f"bad target '{shown(uri)}': {' and '.join(given)} is for os=freertos")
        opts = ([f"os={os_name}"] if os_name != "baremetal" else []) + ([] if icount else ["icount=0"])
        opts += [f"{k}={int(v)}" for k, v in given.items()]
        rtos_options = {"stack_check": given["stack_check"]} if "stack_check" in given else {}
        if "assert" in given:
            rtos_options["assertions"] = given["assert"]
        return cls(
            f"qemu-system:{name}" + ("?" + "&".join(opts) if opts else ""),
            board=board,
            icount=icount,
            os_name=os_name,
            rtos_options=rtos_options,
            **options,
        )

    def source_identity(self):
        """The FreeRTOS kernel tree, the NuttX trees or the SylixOS sources the core is built
        with (nothing more on bare metal)."""
        if self.os_name == "freertos":
            return freertos.locate(self.board.vars["FREERTOS_PORT"], **self.rtos_options).identity()
        if self.os_name == "nuttx":
            return nuttx.locate().identity()
        if self.os_name == "zephyr":
            return zephyr.locate().identity()
        if self.os_name == "sylixos":
            return sylixos.locate().identity()
        return {}

    def prepare(self, variant=None):
        variant = variant or Variant()
        if variant.cross_compile or variant.ldflags:
            raise TickmarkError(f"{self.uri} builds with the board's own compiler and link flags")
        if self.os_name == "freertos":
            self.rtos = freertos.locate(self.board.vars["FREERTOS_PORT"], **self.rtos_options)
        if self.os_name == "nuttx":
            self.board.check_tools()
            self.nuttx = nuttx.export_for(self.board, nuttx.locate())
        if self.os_name == "zephyr":
            if variant.cc or variant.cflags or variant.memfn:
                raise TickmarkError(f"{self.uri} is built by Zephyr's build with the board's compiler and flags")
            self.board.check_tools()
            self.zephyr = zephyr.image_for(self.board, zephyr.locate())
            build = dict(self.zephyr.build.as_dict(), board=self.board.name, os=self.os_name)
            return BoardCore(self, self.zephyr.path, build)
        if self.os_name == "sylixos":
            self.board.check_tools()
            self.sylixos = sylixos.export_for(sylixos.locate(), self.board.cross_compile)
        b = baremetal.build_for_board(
            self.board,
            cc=variant.cc,
            cflags=variant.cflags,
            memfn=variant.memfn,
            rtos=self.rtos,
            nuttx=self.nuttx,
            sylixos=self.sylixos,
        )
        build = dict(b.as_dict(), board=self.board.name, os=self.os_name)
        return BoardCore(self, b.binary, build)

    def fingerprint(self, core, hello=None):
        fp = probe.from_texts({}, core.build, hello)  # an emulated board: nothing of this machine
        qemu = self.machine()
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
        if self.rtos:
            fp.update(self.rtos.fingerprint(self.board))
            fp["os"] += " (picolibc)"
        if self.nuttx:
            fp.update(nuttx.fingerprint(self.nuttx))
        if self.zephyr:
            fp.update(zephyr.fingerprint(self.zephyr))
        if self.sylixos:
            fp.update(sylixos.fingerprint(self.sylixos))
        fp["flags"] = fingerprint.env_flags(fp)
        return self.base_fingerprint(fp, core)
