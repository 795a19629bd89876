"""Bare-metal boards: their descriptions, building the core for one, and booting it under QEMU.

A board is one file, core/boards/<name>.mk: make variables (compiler, CPU flags, memory map,
clock, counter) that the core's Makefile includes, plus QEMU (the machine's command line) and
PACKAGES (the Debian packages it needs). The core runs with picolibc's semihosting start-up:
its command line, stdout and exit status go through the debugger interface, which QEMU
connects to its own stdout (`-chardev stdio`) and exit status.

Under `-icount shift=0,sleep=off` QEMU's virtual clock advances exactly 1 ns per guest
instruction, so every time the core measures is a count of guest instructions, the same on
every run. The harness then gives the core its "core clock" as 1 GHz (`--fcore-khz 1000000`),
so cycles per operation are instructions per operation, and labels them so (icount-insns).
"""

import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import TickmarkError
from .build import build_core, core_dir

# The longest semihosting command line picolibc's start-up code takes whole (its buffer is
# about 1 KiB); longer argument lists go through an arguments file (`tickmark-core @FILE`).
MAX_CMDLINE = 900
ICOUNT = "shift=0,sleep=off"
INSN_FCORE_KHZ = 1000000  # 1 instruction per virtual ns, as a clock
_REQUIRED = ("BM_ARCH", "CROSS_COMPILE", "QEMU")


@dataclass
class Board:
    name: str
    vars: dict
    summary: str = ""
    packages: list = field(default_factory=list)

    @property
    def cross_compile(self):
        return self.vars["CROSS_COMPILE"]

    @property
    def qemu(self):
        return shlex.split(self.vars["QEMU"])

    def check_tools(self):
        """TickmarkError naming the Debian packages when the compiler or QEMU is missing."""
        need = [self.cross_compile + "gcc"] + ([self.qemu[0]] if self.qemu != ["none"] else [])
        missing = [t for t in need if not shutil.which(t)]
        spec = self.vars.get("BM_SPECS")
        if spec and not Path(spec).is_file():
            missing.append(spec)
        if missing:
            raise TickmarkError(
                f"board {self.name} needs {', '.join(missing)}: apt-get install {' '.join(self.packages)}"
            )


def boards_dir():
    return core_dir() / "boards"


def board_names():
    return sorted(p.stem for p in boards_dir().glob("*.mk"))


def parse_board(text, name):
    """The NAME = VALUE lines of a board file (comments dropped) -> Board."""
    values, comment = {}, []
    for line in text.splitlines():
        if line.startswith("#"):
            if not values:
                comment.append(line.lstrip("# ").rstrip())
            continue
        line = line.split("#", 1)[0].strip()
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s*[:?]?=\s*(.*)", line)
        if m:
            values[m.group(1)] = m.group(2).strip()
    missing = [k for k in _REQUIRED if not values.get(k)]
    if missing:
        raise TickmarkError(f"board description {name}.mk lacks {', '.join(missing)}")
    summary = " ".join(comment).split(". ")[0] if comment else name
    return Board(name, values, summary, values.get("PACKAGES", "").split())


def load_board(name):
    if not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", name or "") or not (boards_dir() / f"{name}.mk").is_file():
        shown = name if len(name or "") <= 64 else name[:61] + "..."
        raise TickmarkError(f"unknown board '{shown}' (known: {', '.join(board_names())})")
    return parse_board((boards_dir() / f"{name}.mk").read_text(), name)


def build_for_board(board, cc=None, cflags=None, memfn=None, rtos=None, nuttx=None, sylixos=None):
    """Build (or reuse) the core for the board -> BuildInfo (the ELF image is .binary). rtos: the
    FreeRTOS kernel to build it with (targets/freertos.py); nuttx: the NuttX kernel's export to
    link it with (targets/nuttx.py); sylixos: the SylixOS kernel and BSP (targets/sylixos.py);
    none for bare metal."""
    board.check_tools()
    make_vars = {"PORT": "baremetal", "BOARD": board.name}
    if rtos:
        make_vars.update(PORT="freertos", FREERTOS_KERNEL=rtos.path, **rtos.make_vars())
    if nuttx:
        make_vars.update(PORT="nuttx", NUTTX_EXPORT=nuttx.path)
    if sylixos:
        make_vars.update(PORT="sylixos", SYLIXOS_EXPORT=sylixos.path)
    return build_core(
        cc=cc or board.cross_compile + "gcc",
        cflags=cflags,
        memfn=memfn,
        cross_compile=board.cross_compile,
        ldflags="",
        make_vars=make_vars,
        sources_key=rtos.digest if rtos else (nuttx or sylixos).key if nuttx or sylixos else "",
    )


def _qemu_arg(value):
    """One value inside a QEMU -option a=b,c=d list: commas are doubled."""
    return value.replace(",", ",,")


def semihost_args(args, args_file=None):
    """The `arg=` entries of -semihosting-config for the core's arguments. A long list is
    written to args_file (one per line) and passed as @FILE; returns the entries."""
    joined = " ".join(args)
    if any(not a or any(c.isspace() for c in a) for a in args):
        if args_file is None:
            raise TickmarkError("an argument with a space cannot go through the semihosting command line")
        joined = "x" * (MAX_CMDLINE + 1)
    if len(joined) > MAX_CMDLINE:
        if args_file is None:
            raise TickmarkError(f"the core's arguments are longer than {MAX_CMDLINE} characters")
        Path(args_file).write_text("".join(a + "\n" for a in args))
        args = ["@" + str(args_file)]
    return ["arg=" + _qemu_arg(a) for a in args]


def qemu_argv(board, image, args, icount=True, args_file=None, console="semihosting", machine=None):
    """The QEMU command line that boots IMAGE on BOARD with the core's ARGS (through
    semihosting); no display, no monitor. console: where the records come out on QEMU's stdout,
    "semihosting" (no UART) or "uart" (the board's first UART: an OS's console driver).
    machine: QEMU's machine and CPU options where an OS needs other ones than the board's QEMU
    (a list; Zephyr's board for virt-aarch64 wants the GICv3)."""
    if board.qemu == ["none"]:
        raise TickmarkError(f"board {board.name} has no QEMU model (QEMU = none): flash it and use --target serial:")
    semi = ["enable=on", "target=native", *semihost_args(args, args_file)]
    if console == "uart":
        out = ["-serial", "stdio"]
    else:
        out = ["-serial", "none", "-chardev", "stdio,id=tm0"]
        semi.insert(2, "chardev=tm0")
    argv = machine or board.qemu
    argv = argv + ["-display", "none", "-monitor", "none", *out, "-semihosting-config", ",".join(semi)]
    if icount:
        argv += ["-icount", ICOUNT]
    return argv + ["-kernel", str(image)]
