"""qemu-system:x86_64 (or :aarch64) with --kernel IMAGE: the core under any Linux kernel image.

tickmark builds a minimal initramfs (cpio newc, written here): busybox from Debian's
busybox-static (for the guest's architecture: the host's /bin/busybox on x86_64, the arm64 one
that `./bootstrap test` unpacks into the cache, or TICKMARK_BUSYBOX=PATH), the core linked
statically for the guest, and an /init that mounts /proc, /sys, /dev and /tmp, brings the loopback
interface up (127.0.0.1: the TCP and UDP benchmarks, a program's own loopback server), runs the core
with the round's arguments and powers the machine off. The arguments of each round travel in a
second, tiny cpio archive appended to the first (the kernel unpacks both), so a round costs one
boot and no rebuild. Records come back on the serial console; kernel messages on the same
console are noise the TM1 parser skips.

KVM is used only when a short boot probe with it really produces the core's hello record (an
open /dev/kvm proves nothing: on some hosts Linux guests abort or hang under KVM); otherwise TCG,
and every result is flagged `emulated`.

A board that describes a Linux boot (LINUX_* in core/boards/BOARD.mk: virt-aarch64) boots the
kernel on its own machine and CPU, one CPU, under the same -icount settings as bare metal and
FreeRTOS on that board (`qemu-system:virt-aarch64 --kernel IMAGE`): the guest's clock then
counts guest instructions, kernel and user alike, so Linux, FreeRTOS and bare metal are measured
in one unit on one CPU model. What would make two boots differ is held fixed there: QEMU's random
generator seeded with a fixed number (-seed 1: the device tree's RNG and KASLR seeds are the same
on every boot, and the kernel's random generator is ready as on a real board; without a seed at
all every system call paid ~9,300 instructions for its random kernel-stack offset), KASLR off
(nokaslr), the real-time clock at a fixed date on the virtual clock (-rtc), and an initramfs
whose entries have no times; two runs with the same --seed count the same
instructions (tests/test_freertos.py checks it).
"""

import hashlib
import json
import os
import shutil
import stat
from pathlib import Path

from ..base.errors import TickmarkError
from ..base.names import decimal
from ..base.waiting import Watchdog
from ..facts import fingerprint, probe
from . import toolchain
from .baremetal import ICOUNT, INSN_FCORE_KHZ
from .base import Core, ProcessSession, Target, Variant, shown, with_options
from .build import cache_root, sha256_file
from .qemu import SLACK, QemuSession, Scratch, core_timeout, qemu_version

BUSYBOX = "/bin/busybox"
BUSYBOX_ENV = "TICKMARK_BUSYBOX"
EXIT_MARK = "TICKMARK-EXIT "
GUEST_MARK = "TICKMARK-GUEST "
PROBE_TIMEOUT = 15
# the quiet kernel says nothing while it boots: seconds of that silence allowed on top of the
# core's own limit (an emulated boot on a loaded machine takes minutes; KVM seconds)
BOOT_SILENCE = {"kvm": 60, "tcg": 240}
MACHINES = {
    "x86_64": {
        "qemu": ["qemu-system-x86_64", "-m", "1024M", "-smp", "2"],
        "console": "ttyS0",
        "packages": "qemu-system-x86 busybox-static",
    },
    "aarch64": {
        "qemu": ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a57", "-m", "1024M", "-smp", "2"],
        "console": "ttyAMA0",
        "busybox_arch": "arm64",
        "packages": "qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross",
    },
}


# A boot the same on every run (under -icount): the real-time clock at a fixed date, run by the
# virtual clock, and QEMU's random generator (the device tree's seeds) from a fixed seed.
FIXED_BOOT = ["-rtc", "base=2024-01-01T00:00:00,clock=vm", "-seed", "1"]


def board_machine(board):
    """The machine description (as in MACHINES) of a board that describes a Linux boot: the
    board's QEMU line with LINUX_MEM of memory and one CPU, and nothing that differs between
    boots (FIXED_BOOT)."""
    qemu = list(board.qemu)
    if "-m" in qemu:
        del qemu[qemu.index("-m") : qemu.index("-m") + 2]
    smp = board.vars.get("LINUX_SMP", "1")  # a machine with a fixed number of CPUs: LINUX_APPEND keeps one on
    return {
        "qemu": qemu + ["-m", board.vars.get("LINUX_MEM", "512M"), "-smp", smp, *FIXED_BOOT],
        "console": board.vars["LINUX_CONSOLE"],
        "cc": board.vars.get("LINUX_CROSS_COMPILE") or "",  # the board's own cross prefix
        "busybox_arch": board.vars.get("LINUX_DEB_ARCH"),
        "packages": board.vars.get("LINUX_PACKAGES", ""),
    }


def cached_kernel(board):
    """The newest Debian kernel of the board's Linux architecture (its flavour: LINUX_DEB_FLAVOUR,
    else the architecture's name) that `./bootstrap test` unpacked into the cache -> its path, or None."""
    flavour = board.vars.get("LINUX_DEB_FLAVOUR") or board.vars.get("LINUX_DEB_ARCH")
    if not flavour:
        return None
    found = sorted((cache_root().parent / "kernels").glob(f"linux-image-*-{flavour}/boot/vmlinuz-*"))
    return str(found[-1]) if found else None


def board_dtb(board, kernel):
    """The device tree a board's Linux boot needs (LINUX_DTB: a file name) for KERNEL -> its path:
    beside the image, or where Debian's kernel package keeps it (usr/lib/linux-image-VERSION/ of
    the unpacked package the image is in); None when the board names none. TickmarkError when it
    is not found."""
    name = board.vars.get("LINUX_DTB")
    if not name:
        return None
    boot = Path(kernel).resolve().parent
    found = [boot / name] + sorted((boot.parent / "usr" / "lib").glob(f"linux-image-*/{name}"))
    for path in found:
        if path.is_file():
            return str(path)
    raise TickmarkError(
        f"board {board.name} boots Linux with the device tree {name}: not found beside "
        f"{shown(kernel, 100)} nor in the kernel package's usr/lib/linux-image-*/ (put it beside the image)"
    )


def guest_busybox(machine):
    """The static busybox for the guest (TICKMARK_BUSYBOX, else the host's or the cached one of
    the guest's architecture) -> its path. TickmarkError saying how to get it."""
    given = os.environ.get(BUSYBOX_ENV)
    arch = machine.get("busybox_arch")
    path = given or (
        str(cache_root().parent / "kernels" / f"busybox-static-{arch}" / "bin" / "busybox") if arch else BUSYBOX
    )
    if not os.path.isfile(path):
        how = (
            f"./bootstrap test unpacks Debian's busybox-static:{arch} there"
            if arch and not given
            else "apt-get install busybox-static"
        )
        raise TickmarkError(f"{path} not found: {how} (or give {BUSYBOX_ENV}=PATH, a static busybox for the guest)")
    return path


INIT = """#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin TMPDIR=/tmp HOME=/
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null
cpu=$(grep -m1 -E '^(model name|CPU part)' /proc/cpuinfo | cut -d: -f2-)
echo "TICKMARK-GUEST kernel=$(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo) cpu=$cpu"
/tickmark-core @/tickmark-args
echo "TICKMARK-EXIT $?"
sync
reboot -f
"""


# ---- cpio newc ----
def _cpio_entry(name, mode, data=b"", rdev=(0, 0), ino=1):
    name_b = name.encode() + b"\0"
    hdr = "070701" + "".join(
        f"{v:08X}"
        for v in (ino, mode, 0, 0, 2 if stat.S_ISDIR(mode) else 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name_b), 0)
    )
    out = hdr.encode() + name_b
    out += b"\0" * (-len(out) % 4)
    out += data + b"\0" * (-len(data) % 4)
    return out


def cpio_newc(entries):
    """entries: (name, mode, data[, rdev]) -> the bytes of a cpio newc archive with its trailer."""
    out = b"".join(
        _cpio_entry(e[0], e[1], e[2], e[3] if len(e) > 3 else (0, 0), ino=i + 1) for i, e in enumerate(entries)
    )
    return out + _cpio_entry("TRAILER!!!", 0, ino=0)


def base_initramfs(core_binary, busybox=BUSYBOX):
    """The initramfs with busybox, the core and /init (cached by content) -> its path."""
    if not os.path.isfile(busybox):
        raise TickmarkError(f"{busybox} not found: apt-get install busybox-static")
    h = hashlib.sha256()
    for part in (sha256_file(core_binary), sha256_file(busybox), INIT):
        h.update(part.encode() + b"\0")
    path = cache_root().parent / "initramfs" / f"{h.hexdigest()[:20]}.cpio"
    if path.is_file():
        return path
    d, x = stat.S_IFDIR | 0o755, stat.S_IFREG | 0o755
    entries = [(n, d, b"") for n in ("bin", "dev", "proc", "sys", "tmp", "root")]
    entries += [
        ("dev/console", stat.S_IFCHR | 0o600, b"", (5, 1)),
        ("dev/null", stat.S_IFCHR | 0o666, b"", (1, 3)),
        ("bin/busybox", x, Path(busybox).read_bytes()),
        ("init", x, INIT.encode()),
        ("tickmark-core", x, Path(core_binary).read_bytes()),
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_bytes(cpio_newc(entries))
    os.replace(tmp, path)
    return path


def args_archive(args):
    return cpio_newc([("tickmark-args", stat.S_IFREG | 0o644, "".join(a + "\n" for a in args).encode())])


RESERVED = {"init", "tickmark-core", "tickmark-args", "bin", "dev", "proc", "sys", "tmp", "root"}


def files_archive(paths):
    """The files a program needs (exec --file), in the guest's root folder, where the core runs."""
    return cpio_newc([(os.path.basename(p), stat.S_IFREG | 0o755, Path(p).read_bytes()) for p in paths])


class KernelSession(QemuSession):
    """The serial console of the guest: records, the guest's description, the core's exit status
    (the machine itself always powers off with 0)."""

    def __init__(self, argv, silence_s, core):
        self.core, self.exit_code, self.guest_spoke = core, None, False
        super().__init__(argv, silence_s)

    def lines(self):
        for line in super().lines():
            self.guest_spoke = True
            if line.startswith(EXIT_MARK):
                try:
                    self.exit_code = int(line[len(EXIT_MARK) :].strip())
                except ValueError:
                    pass
                continue
            if line.startswith(GUEST_MARK):
                self.core.guest = _guest_fields(line[len(GUEST_MARK) :])
                continue
            yield line

    def finish(self):
        rc, err = super().finish()
        if self.timed_out:
            return rc, err
        if self.exit_code is None:
            if rc and err and not self.guest_spoke:  # QEMU itself refused: a bad image, a bad option
                raise QemuRefused(self.core.target, err)
            return (rc or 1), (self.last_text or err or "the guest stopped without the core's exit status")
        return self.exit_code, err if self.exit_code else ""


class QemuRefused(TickmarkError):
    """QEMU exited before the guest wrote anything, saying why (`said`)."""

    def __init__(self, target, said):
        super().__init__(f"{target.uri} cannot boot {shown(target.kernel, 120)}: {said}")
        self.said = said


def _guest_fields(text):
    out, key = {}, None
    for word in text.split():
        k, eq, v = word.partition("=")
        if eq and k in ("kernel", "cpus", "cpu"):
            key = k
            out[key] = v
        elif key:
            out[key] += " " + word
    return {k: v.strip() for k, v in out.items()}


class KernelCore(Core):
    def __init__(self, target, initramfs, build, accel):
        super().__init__(target, build, emulated=(accel != "kvm"))
        self.initramfs, self.accel, self.guest = initramfs, accel, {}
        # under icount the guest's clock counts instructions: cycles per op are instructions per op
        self.cycles_method = "icount-insns" if target.icount else None

    def qemu_argv(self, initrd, accel=None):
        t = self.target
        m = t.spec
        accel = accel or self.accel
        argv = list(m["qemu"]) + [
            "-display",
            "none",
            "-monitor",
            "none",
            "-serial",
            "stdio",
            "-nic",
            "none",
            "-no-reboot",
            "-kernel",
            t.kernel,
            "-initrd",
            str(initrd),
            "-append",
            t.cmdline(),
        ]
        if t.dtb:
            argv += ["-dtb", t.dtb]
        if accel == "kvm":
            argv += ["-accel", "kvm", "-cpu", "host"]
        else:
            argv += ["-accel", "tcg"]
        if t.icount:
            argv += ["-icount", ICOUNT]
        return argv

    def start(self, args, accel=None, silence_s=None):
        if self.target.icount and args and args[0] == "run":
            args = with_options(args, "--fcore-khz", str(INSN_FCORE_KHZ))
        if args and args[0] == "list" and self.target.machine == os.uname().machine:
            # what the core offers is in the binary itself: no boot needed to list it
            return ProcessSession([self.build["binary"], *args])
        initrd = self.target.scratch("initrd.cpio")
        with open(initrd, "wb") as f:
            with open(self.initramfs, "rb") as base:
                shutil.copyfileobj(base, f)
            if self.target.files:
                f.write(files_archive(self.target.files))
            f.write(args_archive(list(args)))
        boot = BOOT_SILENCE["kvm" if (accel or self.accel) == "kvm" else "tcg"]
        return KernelSession(self.qemu_argv(initrd, accel), silence_s or core_timeout(args) + SLACK + boot, self)


class KernelTarget(Scratch, Target):
    scheme = "qemu-system"
    emulated = True

    def __init__(
        self, uri, machine=None, kernel=None, append=None, icount=False, accel=None, prebuilt=None, board=None
    ):
        super().__init__(uri, prebuilt)
        if not kernel:
            raise TickmarkError(f"{shown(uri)} boots a Linux kernel image: give it with --kernel IMAGE")
        if not os.path.isfile(kernel):
            raise TickmarkError(f"kernel image {shown(kernel, 120)} not found")
        if icount and not board:
            raise TickmarkError(
                f"{shown(uri)}: icount is for the boards (qemu-system:BOARD --kernel IMAGE); "
                "a kernel image on a generic machine runs under KVM or TCG"
            )
        if accel not in (None, "kvm", "tcg"):
            raise TickmarkError(f"{shown(uri)}: accel is kvm or tcg")
        self.machine, self.kernel, self.append, self.accel = machine, os.path.abspath(kernel), append or "", accel
        self.board, self.icount = board, icount
        self.spec = board_machine(board) if board else MACHINES[machine]
        self.dtb = board_dtb(board, self.kernel) if board else None
        self.emulated = accel != "kvm"
        self.probe_note = None
        self.files = []  # put into every boot's initramfs (exec --file)

    def source_identity(self):
        """The kernel image booted and the busybox of the guest's initramfs, by content."""
        busybox = guest_busybox(self.spec)
        return {
            "kernel_image": {"what": "the Linux kernel image", "path": self.kernel, "sha256": sha256_file(self.kernel)},
            "busybox": {"what": "the guest's busybox", "path": busybox, "sha256": sha256_file(busybox)},
        }

    def put_file(self, path):
        """Into the initramfs of every boot, in its root folder (where the core runs)."""
        name = os.path.basename(path)
        if name in RESERVED:
            raise TickmarkError(f"--file {shown(name, 60)}: the guest's initramfs has that name already")
        self.files.append(os.path.abspath(path))
        return name

    def cmdline(self):
        fixed = "nokaslr" if self.board else ""  # a board's boot is the same every time (see above)
        board = self.board.vars.get("LINUX_APPEND", "") if self.board else ""  # what the board's boot needs
        return " ".join(
            filter(
                None, [f"console={self.spec['console']}", "panic=-1", "quiet", "loglevel=1", fixed, board, self.append]
            )
        )

    def prepare(self, variant=None):
        variant = variant or Variant()
        m = self.spec
        if not shutil.which(m["qemu"][0]):
            raise TickmarkError(f"{m['qemu'][0]} not found: apt-get install {m['packages']}")
        # the guest has busybox and no C library: a static core, for the machine or the board
        b = toolchain.build(variant, machine=self.machine, cross=m.get("cc"), static=True, where=self.uri)
        initramfs = base_initramfs(b.binary, guest_busybox(m))
        build = dict(b.as_dict(), kernel_image=self.kernel, kernel_sha256=sha256_file(self.kernel))
        accel = self.accel or self._probe(initramfs, build)
        self.emulated = accel != "kvm"
        return KernelCore(self, initramfs, build, accel)

    def _probe(self, initramfs, build):
        """KVM only if a boot with it gets as far as the core's hello record in a short time. The
        verdict is kept (per kernel image, QEMU and host kernel) so that later runs skip the probe."""
        if self.board:
            self.probe_note = f"tcg: a board ({self.board.name}) runs under TCG" + (
                " with -icount" if self.icount else ""
            )
            return "tcg"
        if not (self.machine == "x86_64" == os.uname().machine and os.access("/dev/kvm", os.R_OK | os.W_OK)):
            self.probe_note = "tcg: no usable /dev/kvm for this machine"
            return "tcg"
        m = self.spec
        key = f"{build['kernel_sha256']} {qemu_version(m['qemu'][0])} {os.uname().release}"
        memo = cache_root().parent / "kvm-probe.json"
        try:
            known = json.loads(memo.read_text())
        except (OSError, ValueError):
            known = {}
        if key in known:
            accel, self.probe_note = known[key]
            self.probe_note += " (probed before)"
            return accel
        accel = self._probe_boot(initramfs, build)
        known[key] = [accel, self.probe_note]
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)
            memo.write_text(json.dumps(known))
        except OSError:
            pass
        return accel

    def _probe_boot(self, initramfs, build):
        core = KernelCore(self, initramfs, build, "kvm")
        s = core.start(["hello"], accel="kvm", silence_s=PROBE_TIMEOUT)
        timer = Watchdog(PROBE_TIMEOUT, s.stop)  # never fed: a deadline
        ok = False
        try:
            ok = any(line.startswith('TM1 {"t":"hello"') for line in s.lines())
        finally:
            timer.cancel()
            s.stop()
            try:
                err = s.finish()[1]
            except QemuRefused as e:  # QEMU refused KVM (or the image): the verdict is tcg
                err = e.said
        if ok:
            self.probe_note = "kvm: the probe boot reached the core"
            return "kvm"
        why = err or s.last_text or f"no hello in {PROBE_TIMEOUT} s"
        self.probe_note = f"tcg: the KVM probe boot failed ({why[:120]})"
        return "tcg"

    def fingerprint(self, core, hello=None):
        fp = probe.from_texts({}, core.build, hello)  # the guest: nothing of this machine
        g = core.guest
        m = self.spec
        b = self.board
        fp.update(
            {
                "arch": b.vars.get("BM_ARCH") if b else self.machine,
                "cpu_model": f"QEMU {b.name}: {b.summary}"
                if b
                else f"QEMU {self.machine} ({core.accel}): {g.get('cpu') or '?'}",
                "cpus_online": decimal(g.get("cpus", ""), 6),
                "caches": [],
                "os": "Linux (tickmark initramfs, busybox)",
                "libc": probe.local_libc(),  # the toolchain's, linked into the static core
                "kernel": g.get("kernel"),
                "kernel_image": os.path.basename(self.kernel),
                "kernel_image_size": os.path.getsize(self.kernel),
                "kernel_cmdline": self.cmdline(),
                "kernel_dtb": os.path.basename(self.dtb) if self.dtb else None,
                "qemu": qemu_version(m["qemu"][0]),
                "qemu_accel": core.accel,
                "accel_probe": self.probe_note,
                "virtualization": f"qemu-{core.accel}",
                "board": b.name if b else None,
                "qemu_args": " ".join(m["qemu"]) if b else None,
                "qemu_icount": ICOUNT if self.icount else None,
            }
        )
        fp["flags"] = fingerprint.env_flags(fp)
        return self.base_fingerprint(fp, core)
