"""The FreeRTOS kernel a bare-metal board's core is built with (qemu-system:BOARD?os=freertos).

The kernel's sources are the user's: FREERTOS_KERNEL=DIR names a FreeRTOS-Kernel tree (V10.4 or
later: tasks.c, include/, portable/GCC/<port>/, portable/MemMang/heap_4.c). Without it, the tree
that `./bootstrap test` fetched into the cache is used (V11.2.0, from the crates registry package
freertos-next 0.12.0, whose FreeRTOS-Kernel/ folder is the unmodified kernel). Nothing of the
kernel is kept in tickmark. The board description names the kernel's port (FREERTOS_PORT) and
the size of its heap (RTOS_HEAP_SIZE); port/freertos/FreeRTOSConfig.h is the configuration.

The build's cache key covers the kernel files that can be compiled for the board (its port's
folder, the kernel's C files and headers, heap_4), so another tree or an edited file is a new
build. The run's fingerprint says where the kernel came from, its version, port, configuration
and heap, and the two settings a study chooses (the target's ?stack_check=N&assert=1): the stack
overflow check (method 2 has the kernel fill every new task's stack, which thread creation then
pays for) and configASSERT.
"""

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..base.errors import TickmarkError

ENV = "FREERTOS_KERNEL"
DEFAULT_NAME = "FreeRTOS-Kernel-V11.2.0"
OLDEST = (10, 4)
HEAP = "heap_4"
_VERSION = re.compile(r'#define\s+tskKERNEL_VERSION_NUMBER\s+"V?(\d+)\.(\d+)\.(\d+)[^"]*"')
_UNSAFE = re.compile(r"[\s\"'$\\`#;&|<>()*?\[\]{}]")


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tickmark" / "freertos"


STACK_CHECK = 1  # the stack overflow check method unless the target says (FreeRTOSConfig.h)


@dataclass
class Kernel:
    path: str
    version: str  # "V11.2.0"
    origin: str  # where the tree came from, in words
    port: str  # the folder of portable/GCC/
    digest: str  # of the files a build of this port can read
    stack_check: int = STACK_CHECK  # configCHECK_FOR_STACK_OVERFLOW
    assertions: bool = False  # configASSERT

    def identity(self):
        """The tree as a build would find it (Target.source_identity)."""
        return {
            "freertos_kernel": {
                "what": "the FreeRTOS kernel tree",
                "path": self.path,
                "version": self.version,
                "sha256": self.digest,
            }
        }

    def make_vars(self):
        """The build's choices, as the port's make variables (port/freertos/port.mk)."""
        return {"RTOS_STACK_CHECK": str(self.stack_check), "RTOS_ASSERT": "1" if self.assertions else "0"}

    def options(self, board):
        """The settings that move the figures, in words: stack fill, the overflow check,
        assertions, and what a new task's floating-point context costs."""
        return {
            "stack_fill": "on (stack overflow check 2 fills every new stack)" if self.stack_check > 1 else "off",
            "stack_check": self.stack_check,
            "assertions": "on (configASSERT)" if self.assertions else "off",
            "fpu_context": fpu_context(board),
        }

    def fingerprint(self, board):
        """The fields the run's fingerprint gets for a FreeRTOS build on BOARD."""
        heap = int(board.vars.get("RTOS_HEAP_SIZE", "0x100000"), 0)
        return {
            "os": f"FreeRTOS {self.version}",
            "kernel": f"FreeRTOS {self.version}",
            "rtos": {
                "name": "FreeRTOS",
                "version": self.version,
                "source": self.path,
                "origin": self.origin,
                "sources_sha256": self.digest,
                "port": f"GCC/{self.port}",
                "heap": f"{HEAP}, {heap // 1024} KiB",
                "config": config_summary(self.stack_check, self.assertions),
                "config_sha256": config_digest(board),
                "options": self.options(board),
            },
        }


def config_files(board):
    """The port's configuration headers for BOARD: FreeRTOSConfig.h and its CPU's part."""
    from .build import core_dir

    base = core_dir() / "port" / "freertos"
    return [base / "FreeRTOSConfig.h", base / "arch" / board.vars["BM_ARCH"] / "freertos_arch.h"]


def config_digest(board):
    h = hashlib.sha256()
    for p in config_files(board):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def fpu_context(board):
    """A new task's floating-point context in words, from the CPU's part of the configuration
    (configUSE_TASK_FPU_SUPPORT 2: every task has one, its register area zeroed by the C
    library's memset when the task is created: on the Cortex-A53 that is most of a create)."""
    text = config_files(board)[1].read_text()
    m = re.search(r"^#define\s+configUSE_TASK_FPU_SUPPORT\s+(\d+)", text, re.M)
    if m and m.group(1) == "2":
        return "every task (configUSE_TASK_FPU_SUPPORT=2: its register area zeroed by memset at create)"
    return (
        "as the kernel's port does (configUSE_TASK_FPU_SUPPORT unset)"
        if not m
        else f"configUSE_TASK_FPU_SUPPORT={m.group(1)}"
    )


def config_summary(stack_check=STACK_CHECK, assertions=False):
    """The settings of FreeRTOSConfig.h that decide what is measured, in one line (with the
    build's choice of stack check and assertions)."""
    from .build import core_dir

    text = (core_dir() / "port" / "freertos" / "FreeRTOSConfig.h").read_text()
    want = (
        "configTICK_RATE_HZ",
        "configUSE_PREEMPTION",
        "configUSE_TIME_SLICING",
        "configUSE_PORT_OPTIMISED_TASK_SELECTION",
        "configCHECK_FOR_STACK_OVERFLOW",
        "configUSE_MUTEXES",
        "configUSE_TIMERS",
        "configGENERATE_RUN_TIME_STATS",
        "configUSE_TRACE_FACILITY",
    )
    found = dict(re.findall(r"^#define\s+(config\w+)\s+(\S+)", text, re.M))
    found["configCHECK_FOR_STACK_OVERFLOW"] = str(stack_check)
    parts = [f"{k[len('config') :]}={found[k]}" for k in want if k in found]
    return ", ".join(parts + [f"configASSERT {'on' if assertions else 'off'}"])


def kernel_version(path):
    """The kernel's version from include/task.h -> (major, minor, patch)."""
    task_h = Path(path) / "include" / "task.h"
    try:
        m = _VERSION.search(task_h.read_text(errors="replace"))
    except OSError:
        m = None
    if not m:
        raise TickmarkError(f"{task_h} names no kernel version (tskKERNEL_VERSION_NUMBER): not a FreeRTOS-Kernel tree")
    return tuple(int(x) for x in m.groups())


def locate(port, stack_check=STACK_CHECK, assertions=False):
    """The kernel tree to build with, for the kernel's port PORT (a folder of portable/GCC/), and
    the build's choices (stack_check 0..2, assertions) -> Kernel. TickmarkError saying what to do
    when there is none or it does not fit."""
    given = os.environ.get(ENV)
    path = Path(given).expanduser() if given else cache_dir() / DEFAULT_NAME
    if not (path / "tasks.c").is_file():
        if given:
            raise TickmarkError(f"{ENV}={given} is not a FreeRTOS-Kernel tree (no tasks.c there)")
        raise TickmarkError(
            f"no FreeRTOS kernel in {path}: ./bootstrap test fetches V11.2.0 there, "
            f"or name your own tree with {ENV}=DIR"
        )
    path = path.resolve()
    if _UNSAFE.search(str(path)):
        raise TickmarkError(f"the FreeRTOS kernel's path {path} has a space or shell character: move or link it")
    version = kernel_version(path)
    if version[:2] < OLDEST:
        raise TickmarkError(
            f"FreeRTOS V{'.'.join(map(str, version))} in {path} is too old: V{OLDEST[0]}.{OLDEST[1]} or later is needed"
        )
    port_dir = path / "portable" / "GCC" / port
    if not (port_dir / "port.c").is_file():
        raise TickmarkError(f"the FreeRTOS kernel in {path} has no port {port} (portable/GCC/{port}/port.c)")
    if not (path / "portable" / "MemMang" / f"{HEAP}.c").is_file():
        raise TickmarkError(f"the FreeRTOS kernel in {path} has no portable/MemMang/{HEAP}.c")
    if given:
        origin = f"{ENV}={given}"
    else:
        note = path.parent / (path.name + ".origin")
        origin = note.read_text().strip() if note.is_file() else "the tickmark cache"
    return Kernel(
        str(path), "V" + ".".join(map(str, version)), origin, port, sources_digest(path, port), stack_check, assertions
    )


def sources_digest(path, port):
    """sha256 over the kernel files a build of PORT can read (names and contents)."""
    root = Path(path)
    files = sorted(root.glob("*.c")) + sorted((root / "include").rglob("*"))
    files += sorted((root / "portable" / "GCC" / port).rglob("*")) + [root / "portable" / "MemMang" / f"{HEAP}.c"]
    h = hashlib.sha256()
    for p in files:
        if p.is_file():
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()
