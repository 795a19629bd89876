"""The machine tickmark runs on (the default target): build the core here and run it here.

A cross build for another architecture (a matrix cell with CROSS_COMPILE) runs under qemu-user
and is flagged emulated."""

import os
import platform
import shlex
import shutil
import tempfile

from ..base.errors import TickmarkError
from ..facts import probe
from . import toolchain
from .base import Core, ProcessSession, Target, Variant, register, shown
from .build import sha256_file

QEMU_ARCH = {
    "armv7": "arm",
    "armhf": "arm",
    "arm": "arm",
    "aarch64": "aarch64",
    "riscv64": "riscv64",
    "x86_64": "x86_64",
    "i686": "i386",
    "mips": "mips",
    "powerpc64le": "ppc64le",
}


class LocalCore(Core):
    def __init__(self, target, argv, build=None, label=None, emulated=None):
        super().__init__(target, build, label, emulated)
        # absolute paths: the core may start in the folder of the files a program needs
        self.argv = [os.path.abspath(a) if os.sep in a and os.path.exists(a) else a for a in argv]

    def start(self, args):
        env = None
        if built_with_pg(self.build):  # its gmon.out into the target's own folder, not the user's
            env = dict(os.environ, GMON_OUT_PREFIX=os.path.join(self.target.private_dir(), "gmon"))
        return ProcessSession(self.argv + list(args), cwd=self.target.workdir, env=env)

    def profile_runner(self):
        from .profiling import LocalRunner

        return LocalRunner(self)


def built_with_pg(build):
    """Whether a core was built for gprof (-pg): when it exits, glibc writes gmon.out into the
    folder it runs in, unless GMON_OUT_PREFIX names another place (PREFIX.<pid>)."""
    return "-pg" in ((build or {}).get("cflags") or "").split()


def qemu_user_argv(cross_compile, binary):
    """How to start a cross-built core on this machine: directly, or under qemu-user."""
    arch = QEMU_ARCH.get(cross_compile.split("-")[0], cross_compile.split("-")[0])
    if arch == platform.machine():
        return [binary], False
    qemu = shutil.which(f"qemu-{arch}-static") or shutil.which(f"qemu-{arch}")
    if not qemu:
        raise TickmarkError(f"cannot run the {arch} build here: qemu-{arch} not found (install qemu-user)")
    return [qemu, binary], True


def _remove_abandoned(prefix):
    """Folders PREFIX<PID> and PREFIX<PID>-* in the temporary folder whose process (that PID: a
    tickmark, or a core for its scratch folder) has ended."""
    root = tempfile.gettempdir()
    try:
        names = os.listdir(root)
    except OSError:
        return
    for n in names:
        pid = n[len(prefix) :].split("-", 1)[0]
        if not n.startswith(prefix) or not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(os.path.join(root, n), ignore_errors=True)
        except (PermissionError, OverflowError):
            pass


@register("local")
class LocalTarget(Target):
    scheme = "local"
    usage = "local (default)"
    profile_usage = "local"
    program_usage = "local (default)"
    takes_prebuilt = True
    profiles = "here"
    runs_here = True
    workdir = None  # where the core runs: the current folder, or the folder of put_file's files
    _private = None  # what the core leaves behind that is no one's (a -pg core's gmon files)

    def private_dir(self):
        """A folder of this target's own, removed when it closes."""
        if self._private is None:
            self._private = tempfile.mkdtemp(prefix="tickmark-local-")
        return self._private

    def put_file(self, path):
        """A copy (the program may change it) into a private folder, removed when the target
        closes, where the core then runs. Folders left by a tickmark that was killed are removed
        first (their PID is in their name)."""
        if self.workdir is None:
            _remove_abandoned("tickmark-files-")
            self.workdir = tempfile.mkdtemp(prefix=f"tickmark-files-{os.getpid()}-")
        name = os.path.basename(path)
        dest = os.path.join(self.workdir, name)
        try:
            shutil.copy2(path, dest)
        except OSError as e:
            try:
                os.unlink(dest)
            except OSError:
                pass
            raise TickmarkError(f"cannot copy --file {shown(name)} for the program: {e.strerror or e}")
        return name

    def close(self):
        for folder in (self.workdir, self._private):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        self.workdir = self._private = None

    @classmethod
    def from_uri(cls, uri, **options):
        if uri != "local":
            raise TickmarkError(f"bad target '{shown(uri)}' (this machine is just 'local')")
        return cls(uri, **options)

    def prepare(self, variant=None):
        _remove_abandoned("tickmark-")  # scratch folders of cores killed before they could remove them
        variant = variant or Variant()
        if self.prebuilt:
            return self._prebuilt(self.prebuilt)
        b = toolchain.build(variant)
        argv, emulated = qemu_user_argv(b.cross_compile, b.binary) if b.cross_compile else ([b.binary], False)
        return LocalCore(self, argv, b.as_dict(), emulated=emulated)

    def _prebuilt(self, given):
        argv = shlex.split(given)
        if not argv or not (os.path.isfile(argv[0]) or shutil.which(argv[0])):
            raise TickmarkError(f"core binary '{given}' not found")
        exe = argv[-1] if len(argv) > 1 and os.path.isfile(argv[-1]) else (shutil.which(argv[0]) or argv[0])
        return LocalCore(self, argv, {"binary": exe, "binary_sha256": sha256_file(exe), "prebuilt": True})

    def process_limits(self):
        return probe.process_limits(probe.local_limit_texts())

    def fingerprint(self, core, hello=None):
        fp = probe.collect(core.build, hello)
        if core.emulated:
            fp["arch"] = (hello or {}).get("target", "").split("-")[0] or fp["arch"]
            fp["cpu_model"] = f"qemu-user on {fp['cpu_model']}"
        return self.base_fingerprint(fp, core)
