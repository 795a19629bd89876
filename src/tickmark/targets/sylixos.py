"""The SylixOS kernel a board's core is built with (qemu-system:orangepi-pc?os=sylixos).

SylixOS's kernel library, libsylixos, is GPL-3.0; its own toolchain (arm-sylixos-eabi-gcc) is
not, and Debian's arm-none-eabi-gcc stands in for it behind `arm-sylixos-eabi-*` wrappers that
this module writes (SylixOS brings its own C library headers, GCC keeps its own; a small math.h
fills the one header SylixOS leaves to its toolchain). Nothing of SylixOS is kept in tickmark.

The sources: SYLIXOS_BASE=DIR names a SylixOS base project (libsylixos/ and config.mk, e.g. the
Allwinner H3 minimum system's Allwinner-H3-Base) and SYLIXOS_BSP=DIR its board support package
(by default Allwinner-H3-Bsp beside it). Without them, the snapshot vendored beside the project
(../shared/vendor/sylixos, or TICKMARK_SYLIXOS_VENDOR=DIR) is unpacked, checked against its
SHA256SUMS. The BSP gets the QEMU patch kept with the snapshot (the 16550 line status register
for the UART, a bounded wait for the timer's reload bit).

The kernel library and the BSP are built once per tree, patch, wrappers and compiler into
~/.cache/tickmark/sylixos/KEY (about 2.5 minutes on two idle CPUs, far longer on a busy machine:
a line of progress every 10 s; a second builder waits for the first; an interrupted build goes
on where it stopped). The BSP is built with a placeholder first thread, so the kernel and BSP
link alone is checked; the core is then linked with the BSP's objects (not the placeholder's)
and the kernel library into the image QEMU boots, the core as the
BSP's first thread, t_main (core/port/sylixos/port.mk).
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..base.errors import TickmarkError
from .build import _one_builder, cache_root, compiler_version, core_dir, sha256_file
from .nuttx import tree_digest

ENV_BASE = "SYLIXOS_BASE"
ENV_BSP = "SYLIXOS_BSP"
ENV_VENDOR = "TICKMARK_SYLIXOS_VENDOR"
TARBALL = "sylixos-h3-b4a6168c1e92.tar.xz"
PATCH = "qemu-orangepi-pc.patch"
# the public minimum system the snapshot is an export of
VENDOR_REPO = "lixuan998/sylixos_minimum_system"
VENDOR_COMMIT = "b4a6168c1e9213bad18ada6834bd86a858fca306"
BASE, BSP = "Allwinner-H3-Base", "Allwinner-H3-Bsp"
BUILD_TIMEOUT = 4 * 3600  # the kernel library on a slow, busy machine
PROGRESS_EVERY = 10  # seconds between two lines of progress
RECIPE = "3"  # the build steps below: a change here is a new build
PICOLIBC = "/usr/lib/picolibc/arm-none-eabi/lib/thumb/v7-a/nofp/libc.a"  # soft-float, as the kernel
_UNSAFE = re.compile(r"[\s\"'$\\`#;&|<>()*?\[\]{}]")
_TOOLS = ("ar", "objcopy", "size", "strip", "nm", "objdump", "ld", "as", "ranlib", "readelf")
_DRIVERS = ("gcc", "g++", "cpp")

# SylixOS ships no math.h (its commercial toolchain does): the C99 classification macros through
# GCC's builtins and the double functions the kernel and the core call.
MATH_H = """\
/* math.h for SylixOS built with a bare GCC (written by tickmark) */
#ifndef TICKMARK_SYLIXOS_MATH_H
#define TICKMARK_SYLIXOS_MATH_H
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define fpclassify(x) __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf_sign(x)
#define isfinite(x) __builtin_isfinite(x)
#define isnormal(x) __builtin_isnormal(x)
#define signbit(x) __builtin_signbit(x)
double fabs(double);
double floor(double);
double ceil(double);
double sqrt(double);
double pow(double, double);
double exp(double);
double log(double);
double log10(double);
double sin(double);
double cos(double);
double tan(double);
double atan(double);
double atan2(double, double);
double fmod(double, double);
double modf(double, double *);
double ldexp(double, int);
double frexp(double, int *);
#endif
"""

# The first thread of the BSP's own link (the core's t_main replaces it in the image).
PLACEHOLDER_MAIN = """\
/* written by tickmark: the BSP's own link is checked with this first thread; the core's
 * t_main takes its place in the image tickmark boots */
int t_main(void);
int t_main(void) { return 0; }
"""


def cache_dir():
    return cache_root().parent / "sylixos"  # beside the core's builds: ~/.cache/tickmark/sylixos


def vendor_dir():
    """Where the vendored snapshot is: TICKMARK_SYLIXOS_VENDOR, or ../shared/vendor/sylixos
    beside the project this package is installed from (a git checkout; for a git worktree,
    beside the worktree or beside its main checkout)."""
    given = os.environ.get(ENV_VENDOR)
    if given:
        return Path(given).expanduser()
    project = core_dir().parents[2]
    places = [project.parent]
    dot_git = project / ".git"
    if dot_git.is_file():  # a worktree: "gitdir: MAIN/.git/worktrees/NAME"
        text = dot_git.read_text(errors="replace").strip()
        if text.startswith("gitdir:"):
            places.append(Path(text[len("gitdir:") :].strip()).parents[2].parent)
    found = [p / "shared" / "vendor" / "sylixos" for p in places]
    return next((p for p in found if (p / TARBALL).is_file()), found[0])


@dataclass
class Tree:
    origin: str  # where the sources came from, in words
    base: str  # a SylixOS base project folder, or "" for the vendored tarball
    bsp: str
    tarball: str  # the vendored snapshot, or ""
    patch: str  # the BSP's QEMU patch
    commit: str  # of the minimum system the snapshot is an export of, or "unknown"
    digest: str  # of the sources (the tarball, or the two folders' files)

    def identity(self):
        """The sources as a build would find them (Target.source_identity)."""
        return {
            "sylixos": {
                "what": "the SylixOS base project and BSP",
                "path": self.tarball or self.base,
                "bsp": self.bsp,
                "commit": self.commit,
                "sha256": self.digest,
                "patch_sha256": sha256_file(self.patch),
            }
        }


def locate():
    """The SylixOS sources to build with -> Tree. TickmarkError saying what to do when there are
    none or they are not whole."""
    vendor = vendor_dir()
    patch = vendor / PATCH
    given = os.environ.get(ENV_BASE)
    if given:
        base = Path(given).expanduser()
        bsp = Path(os.environ[ENV_BSP]).expanduser() if os.environ.get(ENV_BSP) else base.parent / BSP
        if not (base / "libsylixos" / "SylixOS" / "kernel").is_dir() or not (base / "config.mk").is_file():
            raise TickmarkError(f"{ENV_BASE}={given} is not a SylixOS base project (no libsylixos/SylixOS, config.mk)")
        if not (bsp / "SylixOS" / "bsp" / "bspInit.c").is_file():
            raise TickmarkError(
                f"no SylixOS BSP at {bsp} (name it with {ENV_BSP}=DIR; by default {BSP} beside the base)"
            )
        if not patch.is_file():
            raise TickmarkError(f"the BSP's QEMU patch is not at {patch} (name its folder with {ENV_VENDOR}=DIR)")
        base, bsp = base.resolve(), bsp.resolve()
        for p in (base, bsp):
            if _UNSAFE.search(str(p)):
                raise TickmarkError(f"the SylixOS tree's path {p} has a space or shell character: move or link it")
        origin = f"{ENV_BASE}={given} {ENV_BSP}={bsp}"
        return Tree(origin, str(base), str(bsp), "", str(patch), "unknown", tree_digest(base, bsp))
    if not (vendor / TARBALL).is_file() or not patch.is_file():
        raise TickmarkError(
            f"no SylixOS snapshot in {vendor} ({TARBALL} and {PATCH}): name its folder with {ENV_VENDOR}=DIR, "
            f"or your own trees with {ENV_BASE}=DIR {ENV_BSP}=DIR"
        )
    digest = _check_sums(vendor)
    return Tree(f"the snapshot in {vendor}", "", "", str(vendor / TARBALL), str(patch), VENDOR_COMMIT, digest)


def _check_sums(vendor):
    """The tarball's sha256, after checking it and the patch against the folder's SHA256SUMS."""
    sums = {}
    try:
        for line in (vendor / "SHA256SUMS").read_text().splitlines():
            digest, _, name = line.partition("  ")
            sums[name.strip()] = digest.strip()
    except OSError:
        raise TickmarkError(f"the SylixOS snapshot in {vendor} has no SHA256SUMS")
    for name in (TARBALL, PATCH):
        if sums.get(name) != sha256_file(vendor / name):
            raise TickmarkError(f"{vendor / name} does not match its SHA256SUMS: fetch the snapshot again")
    return sums[TARBALL]


# ---- the build
@dataclass
class Export:
    path: str  # the folder with tickmark.mk (core/port/sylixos/port.mk reads it)
    key: str
    facts: dict  # what the fingerprint says about the kernel (export_facts)


def export_key(tree, cc_version):
    h = hashlib.sha256()
    for part in (tree.digest, sha256_file(tree.patch), MATH_H, PLACEHOLDER_MAIN, RECIPE, cc_version):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:20]


def export_for(tree, cross_compile="arm-none-eabi-"):
    """The kernel library and BSP built from TREE, once, kept in the cache -> Export."""
    for tool, package in (("make", "make"), ("patch", "patch"), (cross_compile + "gcc", "gcc-arm-none-eabi")):
        if not shutil.which(tool):
            raise TickmarkError(f"building SylixOS needs {tool}: apt-get install {package}")
    if not Path(PICOLIBC).is_file():
        raise TickmarkError(
            f"building SylixOS needs picolibc's soft-float libm ({PICOLIBC}): apt-get install picolibc-arm-none-eabi"
        )
    key = export_key(tree, compiler_version([cross_compile + "gcc"]))
    dest = cache_dir() / key
    if not (dest / "export" / "tickmark.mk").is_file():
        with _one_builder(dest):  # a second builder waits, then takes the build
            if not (dest / "export" / "tickmark.mk").is_file():
                _build(tree, dest, cross_compile)
    return Export(str(dest / "export"), key, export_facts(tree, dest))


def _build(tree, dest, cross_compile):
    """Unpack (or copy) the sources into DEST.work, write the wrappers, patch the BSP, build the
    kernel library, its symbol table and the BSP, and write the export; then rename DEST.work
    to DEST. A DEST.work left by an interrupted build is built on (make goes on where it stopped)."""
    work = Path(str(dest) + ".work")
    log = work / "build.log"
    if not (work / "unpacked").is_file():
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        _unpack(tree, work)
        _patch(tree, work / BSP, log)
        (work / BSP / "SylixOS" / "user" / "main.c").write_text(PLACEHOLDER_MAIN)
        (work / "unpacked").write_text(tree.origin + "\n")
    tools = _write_toolchain(work / "toolchain", cross_compile)
    env = dict(os.environ, PATH=str(tools) + os.pathsep + os.environ.get("PATH", ""), LC_ALL="C")
    for var in ("CFLAGS", "LDFLAGS", "CC", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(var, None)
    lib = work / BASE / "libsylixos"
    jobs = f"-j{os.cpu_count() or 1}"
    _make(
        ["make", jobs, "Release/libsylixos.a"],
        lib,
        env,
        log,
        "the kernel library (libsylixos)",
        objects=lib / "Release" / "obj",
    )
    release = lib / "Release"
    script = (lib / "SylixOS" / "hosttools" / "makesymbol" / "makesymbol.sh").read_bytes().replace(b"\r", b"")
    (release / "makesymbol-lf.sh").write_bytes(script)
    _make(["bash", "makesymbol-lf.sh"], release, env, log, "the kernel's symbol table (makesymbol.sh)")
    libm = work / "libm"
    _libm(libm, cross_compile, log)
    bsp_make = ["make", jobs, "all", f"SYLIXOS_BASE_PATH={work / BASE}", f"LOCAL_DEPEND_LIB_PATH=-L{libm}"]
    _make(bsp_make, work / BSP, env, log, "the BSP (with a placeholder first thread)")
    _write_export(work, dest, dest / "libm")
    if dest.exists():
        shutil.rmtree(dest)
    os.replace(work, dest)


def _unpack(tree, work):
    if tree.tarball:
        with tarfile.open(tree.tarball) as tar:
            tar.extractall(work, filter="tar")
    else:
        for src, name in ((tree.base, BASE), (tree.bsp, BSP)):
            shutil.copytree(src, work / name, symlinks=True, ignore=shutil.ignore_patterns(".git", "Release", "Debug"))
    for name in (BASE, BSP):
        if not (work / name).is_dir():
            raise TickmarkError(f"the SylixOS sources from {tree.origin} have no {name} folder")


def _patch(tree, bsp, log):
    """The QEMU patch on the BSP; a BSP that has it already is left as it is."""
    argv = ["patch", "-p1", "--forward", "--batch", "--reject-file=-", "-i", tree.patch]
    r = subprocess.run(argv, cwd=bsp, capture_output=True, text=True)
    with open(log, "a") as out:
        out.write(f"$ {' '.join(argv)}\n{r.stdout}{r.stderr}")
    if r.returncode != 0:
        back = subprocess.run(argv[:2] + ["-R", "--dry-run", "--batch", "-i", tree.patch], cwd=bsp, capture_output=True)
        if back.returncode != 0:
            raise TickmarkError(
                f"the QEMU patch does not apply to the BSP from {tree.origin}: {r.stdout.strip()[-200:]}"
            )


def _write_toolchain(folder, cross_compile):
    """arm-sylixos-eabi-* in FOLDER/bin: the compiler drivers with SylixOS's headers in place of
    the bare-metal C library's (GCC's own stay, math.h from FOLDER/shim), the rest links."""
    bin_dir, shim = folder / "bin", folder / "shim"
    bin_dir.mkdir(parents=True, exist_ok=True)
    shim.mkdir(parents=True, exist_ok=True)
    (shim / "math.h").write_text(MATH_H)
    gcc = cross_compile + "gcc"
    inc = [_ask(gcc, "-print-file-name=include"), _ask(gcc, "-print-file-name=include-fixed")]
    for tool in _DRIVERS:
        real = shutil.which(cross_compile + tool)
        if not real:
            continue  # g++ is not needed for the kernel library (C only)
        w = bin_dir / f"arm-sylixos-eabi-{tool}"
        w.write_text(
            f'#!/bin/sh\nexec "{real}" -nostdinc -isystem "{inc[0]}" -isystem "{inc[1]}" -idirafter "{shim}" "$@"\n'
        )
        w.chmod(0o755)
    for tool in _TOOLS:
        real = shutil.which(cross_compile + tool)
        if not real:
            raise TickmarkError(f"building SylixOS needs {cross_compile}{tool} (binutils-arm-none-eabi)")
        link = bin_dir / f"arm-sylixos-eabi-{tool}"
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(real)
    return bin_dir


def _ask(cc, flag):
    r = subprocess.run([cc, flag], capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        raise TickmarkError(f"{cc} {flag} failed: {r.stderr.strip()[:200]}")
    return r.stdout.strip()


def _libm(folder, cross_compile, log):
    """libm.a for the BSP's link (-lm): picolibc's soft-float math objects (libm_*), which refer
    to nothing but each other and libgcc's soft-float routines."""
    folder.mkdir(exist_ok=True)
    names = subprocess.run([cross_compile + "ar", "t", PICOLIBC], capture_output=True, text=True).stdout.split()
    members = [n for n in names if n.startswith("libm_")]
    if not members:
        raise TickmarkError(f"picolibc's {PICOLIBC} has no libm_* objects")
    objs = folder / "o"
    shutil.rmtree(objs, ignore_errors=True)
    objs.mkdir()
    subprocess.run([cross_compile + "ar", "x", PICOLIBC, *members], cwd=objs, check=True)
    (folder / "libm.a").unlink(missing_ok=True)
    r = subprocess.run(
        [cross_compile + "ar", "rcs", str(folder / "libm.a"), *sorted(members)],
        cwd=objs,
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        raise TickmarkError(f"cannot make libm.a from picolibc: {r.stderr.strip()[:200]}")


def _make(argv, cwd, env, log, what, objects=None):
    """A build step with its output in LOG and a line of progress every PROGRESS_EVERY seconds
    (the objects made so far, where OBJECTS names their folder); its last lines when it fails."""
    start = time.monotonic()
    with open(log, "a") as out:
        out.write(f"$ (cd {cwd} && {' '.join(argv)})\n")
        out.flush()
        p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            while True:
                try:
                    rc = p.wait(timeout=PROGRESS_EVERY)
                    break
                except subprocess.TimeoutExpired:
                    spent = time.monotonic() - start
                    if spent > BUILD_TIMEOUT:
                        raise TickmarkError(f"building SylixOS: {what} did not finish within {BUILD_TIMEOUT} s")
                    made = f", {_count_objects(objects)} objects so far" if objects else ""
                    print(f"building SylixOS: {what}, {spent:.0f} s{made} (log: {log})", file=sys.stderr, flush=True)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, 9)
                p.wait()
    if rc != 0:
        tail = "\n".join("  " + line for line in log.read_text(errors="replace").splitlines()[-15:])
        raise TickmarkError(f"building SylixOS failed at {what} (exit {rc}):", tail)
    print(f"building SylixOS: {what} done in {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)


def _count_objects(folder):
    return sum(1 for _ in Path(folder).rglob("*.o")) if Path(folder).is_dir() else 0


def _write_export(work, dest, libm):
    """export/tickmark.mk in WORK, naming the files as they are under DEST: the kernel's CPU
    flags, its include folders, the BSP's objects (not its placeholder thread; the kernel's
    symbol table among them, which bspInit.c registers), the libraries and the BSP's link script."""
    base, bsp = dest / BASE, dest / BSP
    objs_dir = work / BSP / "Release" / "obj"
    objs = sorted(p for p in objs_dir.rglob("*.o") if p.name != "main.o")
    if not any(p.name == "startup.o" for p in objs):
        raise TickmarkError(f"the BSP's build left no startup.o under {objs_dir}")
    objs = [dest / p.relative_to(work) for p in objs]
    gcc_inc = [Path(p) for p in (work / "toolchain" / "bin" / "arm-sylixos-eabi-gcc").read_text().split('"')[3:6:2]]
    cpu = ["-mcpu=cortex-a7", "-mfloat-abi=soft", "-mno-unaligned-access", "-fno-strict-aliasing"]
    cpu += ["-fsigned-char", "-fno-short-enums", "-nostdinc"] + [f"-isystem {p}" for p in gcc_inc]
    sylixos = base / "libsylixos" / "SylixOS"
    includes = [f"-I{sylixos}", f"-I{sylixos / 'include'}", f"-I{sylixos / 'include' / 'network'}"]
    includes += [f"-I{bsp / 'SylixOS'}", f"-I{bsp / 'SylixOS' / 'bsp'}", f"-idirafter {dest / 'toolchain' / 'shim'}"]
    libs = [str(base / "libsylixos" / "Release" / "libsylixos.a"), str(libm / "libm.a"), "-lgcc"]
    export = work / "export"
    (export / "bsp").mkdir(parents=True, exist_ok=True)
    for name in ("SylixOSBSP.ld", "config.lds"):
        shutil.copy2(work / BSP / name, export / "bsp" / name)
    (export / "tickmark.mk").write_text(
        "# Written by tickmark (targets/sylixos.py) for core/port/sylixos/port.mk.\n"
        f"SYLIXOS_CPUFLAGS = {' '.join(cpu)}\n"
        f"SYLIXOS_INCLUDES = {' '.join(includes)}\n"
        f"SYLIXOS_OBJS = {' '.join(map(str, objs))}\n"
        f"SYLIXOS_LIBS = {' '.join(libs)}\n"
        f"SYLIXOS_LDSCRIPT = {dest / 'export' / 'bsp' / 'SylixOSBSP.ld'}\n"
    )


# ---- what the fingerprint says
_VER = re.compile(r"#define\s+__SYLIXOS_(MAJOR|MINOR|PATCH)_VER\s+(\d+)")
_START = re.compile(rb'API_KernelStartParam\("([^"]*)"\s*"?([^")]*)"?\)')


def export_facts(tree, dest):
    base, bsp = Path(dest) / BASE, Path(dest) / BSP
    k = (base / "libsylixos" / "SylixOS" / "kernel" / "include" / "k_kernel.h").read_text(errors="replace")
    ver = dict(_VER.findall(k))
    version = ".".join(ver.get(p, "?") for p in ("MAJOR", "MINOR", "PATCH"))
    init = (bsp / "SylixOS" / "bsp" / "bspInit.c").read_bytes()
    params = ""
    for m in _START.finditer(init):
        line_start = init.rfind(b"\n", 0, m.start()) + 1
        if not init[line_start : m.start()].lstrip().startswith(b"//"):
            params = (m.group(1) + m.group(2)).decode(errors="replace").strip()
    words = dict(w.split("=", 1) for w in params.split() if "=" in w)
    cfg = base / "libsylixos" / "SylixOS" / "config"
    h = hashlib.sha256()
    for p in sorted(cfg.rglob("*.h")) + [base / "config.mk", bsp / "config.mk", bsp / "SylixOS" / "bsp" / "config.h"]:
        h.update(str(p.relative_to(dest)).encode() + b"\0" + p.read_bytes())
    return {
        "name": "SylixOS",
        "version": version,
        "codename": "Enterprise" if version == "2.3.8" else None,
        "commit": tree.commit,
        "repository": VENDOR_REPO if tree.tarball else None,
        "origin": tree.origin,
        "sources_sha256": tree.digest,
        "patch_sha256": sha256_file(tree.patch),
        "bsp": f"{BSP} (Allwinner H3, Cortex-A7) with the QEMU patch (16550 line status, bounded timer reload wait)",
        "tick": f"{words['hz']} Hz" if "hz" in words else "the kernel's default",
        "start_parameters": params,
        "cpus": words.get("ncpus", "1"),
        "fpu": "off (soft-float kernel, kfpu=no)" if words.get("kfpu") == "no" else words.get("kfpu", "?"),
        "heap_check": words.get("heapchk", "?"),
        "compiler": "arm-none-eabi-gcc behind arm-sylixos-eabi- wrappers (-O2, -mcpu=cortex-a7, soft-float)",
        "config_sha256": h.hexdigest(),
    }


def fingerprint(export):
    """The fields the run's fingerprint gets for a SylixOS build."""
    facts = dict(export.facts)
    kernel = f"SylixOS {facts['version']}"
    return {"os": kernel, "kernel": kernel, "libc": "SylixOS libc", "rtos": facts}
