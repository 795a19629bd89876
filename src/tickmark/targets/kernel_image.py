"""qemu-system:x86_64 (or :aarch64) with --kernel IMAGE: the core under any Linux kernel image.

tickmark builds a minimal initramfs (cpio newc, written here): busybox from Debian's
busybox-static, the core linked statically for the guest, and an /init that mounts /proc, /sys,
/dev and /tmp, runs the core with the round's arguments and powers the machine off. The
arguments of each round travel in a second, tiny cpio archive appended to the first (the kernel
unpacks both), so a round costs one boot and no rebuild. Records come back on the serial
console; kernel messages on the same console are noise the TM1 parser skips.

KVM is used only when a short boot probe with it really produces the core's hello record (an
open /dev/kvm proves nothing: on some hosts Linux guests abort or hang under KVM); otherwise TCG,
and every result is flagged `emulated`.
"""

import hashlib
import json
import os
import shutil
import stat
from pathlib import Path

from .. import fingerprint
from ..errors import TickmarkError
from ..waiting import Watchdog
from . import toolchain
from .base import Core, ProcessSession, Target, Variant
from .build import cache_root, sha256_file
from .qemu import SLACK, QemuSession, core_timeout, qemu_version

BUSYBOX = "/bin/busybox"
EXIT_MARK = "TICKMARK-EXIT "
GUEST_MARK = "TICKMARK-GUEST "
PROBE_TIMEOUT = 15
MACHINES = {
    "x86_64": {
        "qemu": ["qemu-system-x86_64", "-m", "1024M", "-smp", "2"],
        "console": "ttyS0",
        "packages": "qemu-system-x86 busybox-static",
    },
    "aarch64": {
        "qemu": ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a57", "-m", "1024M", "-smp", "2"],
        "console": "ttyAMA0",
        "packages": "qemu-system-arm gcc-aarch64-linux-gnu busybox-static:arm64",
    },
}

INIT = """#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin TMPDIR=/tmp HOME=/
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
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


class KernelSession(QemuSession):
    """The serial console of the guest: records, the guest's description, the core's exit status
    (the machine itself always powers off with 0)."""

    def __init__(self, argv, silence_s, core):
        self.core, self.exit_code = core, None
        super().__init__(argv, silence_s)

    def lines(self):
        for line in super().lines():
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
            return (rc or 1), (self.last_text or "the guest stopped without the core's exit status")
        return self.exit_code, err if self.exit_code else ""


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

    def qemu_argv(self, initrd, accel=None):
        t = self.target
        m = MACHINES[t.machine]
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
        if accel == "kvm":
            argv += ["-accel", "kvm", "-cpu", "host"]
        else:
            argv += ["-accel", "tcg"]
        return argv

    def start(self, args, accel=None, silence_s=None):
        if args and args[0] == "list" and self.target.machine == os.uname().machine:
            # what the core offers is in the binary itself: no boot needed to list it
            return ProcessSession([self.build["binary"], *args])
        initrd = self.target.scratch("initrd.cpio")
        with open(initrd, "wb") as f:
            with open(self.initramfs, "rb") as base:
                shutil.copyfileobj(base, f)
            f.write(args_archive(list(args)))
        return KernelSession(self.qemu_argv(initrd, accel), silence_s or core_timeout(args) + SLACK + 60, self)


class KernelTarget(Target):
    scheme = "qemu-system"
    emulated = True

    def __init__(self, uri, machine=None, kernel=None, append=None, icount=False, accel=None, prebuilt=None):
        super().__init__(uri, prebuilt)
        if not kernel:
            raise TickmarkError(f"{uri} boots a Linux kernel image: give it with --kernel IMAGE")
        if not os.path.isfile(kernel):
            raise TickmarkError(f"kernel image {kernel} not found")
        if icount:
            raise TickmarkError(f"{uri}: icount is for the bare-metal boards; a kernel image runs under KVM or TCG")
        if accel not in (None, "kvm", "tcg"):
            raise TickmarkError(f"{uri}: accel is kvm or tcg")
        self.machine, self.kernel, self.append, self.accel = machine, os.path.abspath(kernel), append or "", accel
        self.emulated = accel != "kvm"
        self.probe_note = None
        self._tmp = None

    def cmdline(self):
        return " ".join(
            filter(
                None, [f"console={MACHINES[self.machine]['console']}", "panic=-1", "quiet", "loglevel=1", self.append]
            )
        )

    def scratch(self, name):
        import tempfile

        if self._tmp is None:
            self._tmp = tempfile.mkdtemp(prefix="tickmark-kernel-")
        return os.path.join(self._tmp, name)

    def prepare(self, variant=None):
        variant = variant or Variant()
        m = MACHINES[self.machine]
        if not shutil.which(m["qemu"][0]):
            raise TickmarkError(f"{m['qemu'][0]} not found: apt-get install {m['packages']}")
        b = toolchain.build(variant, machine=self.machine, static=True, where=self.uri)  # busybox, no libc
        initramfs = base_initramfs(b.binary)
        build = dict(b.as_dict(), kernel_image=self.kernel, kernel_sha256=sha256_file(self.kernel))
        accel = self.accel or self._probe(initramfs, build)
        self.emulated = accel != "kvm"
        return KernelCore(self, initramfs, build, accel)

    def _probe(self, initramfs, build):
        """KVM only if a boot with it gets as far as the core's hello record in a short time. The
        verdict is kept (per kernel image, QEMU and host kernel) so that later runs skip the probe."""
        if not (self.machine == "x86_64" == os.uname().machine and os.access("/dev/kvm", os.R_OK | os.W_OK)):
            self.probe_note = "tcg: no usable /dev/kvm for this machine"
            return "tcg"
        m = MACHINES[self.machine]
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
            rc, err = s.finish()
        if ok:
            self.probe_note = "kvm: the probe boot reached the core"
            return "kvm"
        why = err or s.last_text or f"no hello in {PROBE_TIMEOUT} s"
        self.probe_note = f"tcg: the KVM probe boot failed ({why[:120]})"
        return "tcg"

    def fingerprint(self, core, hello=None):
        fp = fingerprint.from_texts({}, core.build, hello)  # the guest: nothing of this machine
        g = core.guest
        m = MACHINES[self.machine]
        fp.update(
            {
                "arch": self.machine,
                "cpu_model": f"QEMU {self.machine} ({core.accel}): {g.get('cpu') or '?'}",
                "cpus_online": int(g["cpus"]) if g.get("cpus", "").isdigit() else None,
                "caches": [],
                "os": "Linux (tickmark initramfs, busybox)",
                "libc": fingerprint.local_libc(),  # the toolchain's, linked into the static core
                "kernel": g.get("kernel"),
                "kernel_image": os.path.basename(self.kernel),
                "kernel_cmdline": self.cmdline(),
                "qemu": qemu_version(m["qemu"][0]),
                "qemu_accel": core.accel,
                "accel_probe": self.probe_note,
                "virtualization": f"qemu-{core.accel}",
            }
        )
        fp["flags"] = fingerprint.env_flags(fp)
        return self.base_fingerprint(fp, core)

    def close(self):
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None
