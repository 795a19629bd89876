"""Build the C core (tickmark-core) from the sources installed with the package, into a cache.

The cache directory is ${XDG_CACHE_HOME:-~/.cache}/tickmark/build/<hash>; the hash covers the
compiler (its --version output), CC, CFLAGS, LDFLAGS, CROSS_COMPILE, an optional MEMFN file
(path and content) and the content of every core source file, so a change to any of them
gives a fresh build and an unchanged set reuses the binary. One variant is built by one builder
at a time: another process or thread that asks for it meanwhile waits and reuses the binary. A
variant with a routine file (MEMFN) takes the objects of the same variant without it, when that
one is built: only the routine file is compiled, and the core is linked again. Likewise a variant
whose objects another finished build compiled already (the same compiler, flags and sources, only
other LDFLAGS, such as the static core of a board beside the host's own) is only linked; the
folder objects/ beside build/ names such a build for each set of objects.
"""

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from ..base.errors import Interrupted, TickmarkError, interrupted_by_signals
from . import sizes
from .elf import elf_linkage

DEFAULT_CFLAGS = "-O2"
BINARY = "tickmark-core"
_SOURCE_SUFFIXES = {".c", ".h", ".S", ".mk", ".sh"}
_FIX = "apt-get install build-essential"


@dataclass
class BuildInfo:
    binary: str
    cc: str
    cc_version: str
    cflags: str
    hash: str
    binary_sha256: str
    ldflags: str = ""
    cross_compile: str = ""
    memfn: str = ""
    libc: str = ""  # the C library it was compiled against ('glibc 2.36', 'picolibc 1.8', 'musl')
    linkage: str = ""  # 'static' or 'dynamic' (read from the binary)
    code_size: dict = None  # sizes.measure(): the core's text, data, bss and each benchmark's code

    def as_dict(self):
        return asdict(self)


# The C library a compiler's headers belong to, asked through its preprocessor with the build's own
# flags (a port's --specs=picolibc.specs included). musl defines no version macro; its headers are
# known by their alltypes.h guards.
_LIBC_PROBE = """#include <stdio.h>
#if defined(__GLIBC__)
tm_libc glibc __GLIBC__ __GLIBC_MINOR__
#elif defined(__UCLIBC__)
tm_libc uClibc __UCLIBC_MAJOR__ __UCLIBC_MINOR__ __UCLIBC_SUBLEVEL__
#elif defined(__BIONIC__)
tm_libc bionic
#elif defined(__PICOLIBC_VERSION__)
tm_libc picolibc __PICOLIBC_VERSION__
#elif defined(_NEWLIB_VERSION)
tm_libc newlib _NEWLIB_VERSION
#elif defined(__linux__) && defined(__DEFINED_size_t)
tm_libc musl
#endif
"""
LIBC_FILE = "libc.txt"  # in a build's folder: what c_library() said when it was built


def c_library(cc_argv, cflags_argv):
    """The C library a build links against, as its compiler's headers say -> 'glibc 2.36',
    'picolibc 1.8', 'musl', ... or '' when the headers do not say."""
    try:
        r = _run_tool(
            cc_argv + cflags_argv + ["-E", "-P", "-x", "c", "-"],
            ASK_TIMEOUT,
            f"compiler '{cc_argv[0]}' asked for its C library",
            stdin_text=_LIBC_PROBE,
        )
    except OSError:
        return ""
    for line in r.stdout.splitlines():
        words = line.replace('"', "").split()
        if words[:1] == ["tm_libc"] and len(words) >= 2:
            return f"{words[1]} {'.'.join(words[2:])}".strip()
    return ""


def core_dir():
    """The core's source folder inside the installed package."""
    d = Path(__file__).resolve().parent.parent / "core"
    if not (d / "Makefile").is_file():
        raise TickmarkError(f"the C core sources are missing from this installation ({d}/Makefile); reinstall tickmark")
    return d


def core_limit(name):
    """A limit the core's runner declares (`#define NAME N` in src/runner.h), read from the core's own
    header so the harness never keeps a copy of it."""
    m = re.search(rf"^#define {name} (\d+)\b", (core_dir() / "src" / "runner.h").read_text(), re.M)
    if not m:
        raise TickmarkError(f"the core's runner.h does not define {name}")
    return int(m.group(1))


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tickmark" / "build"


def source_files(src):
    out = []
    for p in sorted(src.rglob("*")):
        if not p.is_file() or p.relative_to(src).parts[0].startswith("out"):  # make's O= folders
            continue
        if p.suffix in _SOURCE_SUFFIXES or p.name == "Makefile" or p.name.startswith("README"):
            out.append(p)
    return out


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


# seconds a build tool may take: a compiler's answer to --version or -dumpmachine, the Makefile's
# list of sources, and the compilation of one file (or the link)
ASK_TIMEOUT = 30
COMPILE_TIMEOUT = 600
PROGRESS_EVERY = 10  # seconds between two lines of a long build's progress


def _run_tool(argv, timeout, what, progress=None, **kw):
    """A build tool (compiler, make, sh) run in a session of its own, with a time limit ->
    CompletedProcess (text). Past the limit, or on an interrupt, the tool and everything it
    started are killed (no child is left behind); past the limit, a one-line TickmarkError.
    PROGRESS, where given, is called with the seconds spent every PROGRESS_EVERY seconds while
    the tool runs (a long build's line of progress)."""
    kw.setdefault("stdout", subprocess.PIPE)
    stdin_text = kw.pop("stdin_text", None)
    if stdin_text is not None:
        kw["stdin"] = subprocess.PIPE
    start = time.monotonic()
    p = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, errors="replace", start_new_session=True, **kw)
    try:
        while True:
            left = timeout - (time.monotonic() - start)
            try:
                out, err = p.communicate(stdin_text, timeout=max(0.0, min(left, PROGRESS_EVERY) if progress else left))
                break
            except subprocess.TimeoutExpired:
                if progress is None or time.monotonic() - start >= timeout:
                    raise
                stdin_text = None  # sent already: a second communicate() takes none
                progress(time.monotonic() - start)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        if isinstance(e, subprocess.TimeoutExpired):
            raise TickmarkError(f"{what} did not finish within {timeout} s and was stopped: {shlex.join(argv)[:120]}")
        raise
    return subprocess.CompletedProcess(argv, p.returncode, out or "", err or "")


def compiler_version(cc_argv):
    try:
        r = _run_tool(cc_argv + ["--version"], ASK_TIMEOUT, f"compiler '{cc_argv[0]}' asked for its --version")
    except OSError:
        raise TickmarkError(f"C compiler '{cc_argv[0]}' not found; install gcc: {_FIX}")
    text = (r.stdout or r.stderr).strip()
    return text


def split_words(what, text):
    """A flag or command string -> argument list, split like a POSIX shell would but never run by one."""
    try:
        return shlex.split(text or "")
    except ValueError as e:
        raise TickmarkError(f"bad {what} '{text}': {e}")


def build_core(
    cc=None, cflags=None, memfn=None, cross_compile=None, ldflags=None, extra_srcs=(), make_vars=None, sources_key=""
):
    """Build (or reuse) tickmark-core for this compiler and flags -> BuildInfo.

    memfn: a C/asm file with tm_user_* memory routines; extra_srcs: more source files to link
    in. Both are part of the cache key, path and content. Every string reaches the compiler as
    an argument list: nothing here goes through a shell or a make variable. make_vars: the
    port, board and console, e.g. {"PORT": "baremetal", "BOARD": "mps2-an500"} (plain names only),
    and an RTOS's source tree or kernel export (FREERTOS_KERNEL, NUTTX_EXPORT: absolute paths).
    sources_key: a digest of the sources outside the core that the build reads (such a tree),
    part of the cache key."""
    make_vars = dict(make_vars or {})
    for k, v in make_vars.items():
        ok = _SAFE_PATH.fullmatch(str(v)) if k in _PATH_VARS else k in _NAME_VARS and _SAFE.fullmatch(str(v))
        if not ok:
            raise TickmarkError(f"bad build setting {k}={v}")
    src = core_dir()
    cross_compile = cross_compile if cross_compile is not None else os.environ.get("CROSS_COMPILE", "")
    cc = cc or os.environ.get("CC") or (cross_compile + "gcc" if cross_compile else "cc")
    cflags = cflags if cflags is not None else os.environ.get("CFLAGS", DEFAULT_CFLAGS)
    ldflags = ldflags if ldflags is not None else os.environ.get("LDFLAGS", "")
    cc_argv = split_words("compiler", cc)
    if cc_argv and os.sep in cc_argv[0] and not os.path.isabs(cc_argv[0]):  # ./x: from here, not the core's folder
        cc_argv[0] = os.path.abspath(cc_argv[0])
        cc = shlex.join(cc_argv)
    split_words("CFLAGS", cflags)
    split_words("LDFLAGS", ldflags)
    if not cc_argv or not shutil.which(cc_argv[0]):
        raise TickmarkError(f"C compiler '{cc}' not found; install gcc: {_FIX}")
    if not shutil.which("make"):
        raise TickmarkError(f"'make' not found; install it: {_FIX}")
    version = compiler_version(cc_argv)

    h = hashlib.sha256()  # the variant
    base = hashlib.sha256()  # the same variant without the routine file: its key, were it built
    objs = hashlib.sha256()  # what its objects are compiled from: without the routine file and LDFLAGS
    make = [f"{k}={v}" for k, v in sorted(make_vars.items())]
    for part in (version, cc, cflags, ldflags, cross_compile, *make, sources_key):
        for x in (h, base):
            x.update(part.encode() + b"\0")
    for part in (version, cc, cflags, cross_compile, *make, sources_key):
        objs.update(part.encode() + b"\0")
    memfn_path = _hash_file(memfn, "memfn", h) if memfn else ""
    extra = [_hash_file(f, "extra source", h, base, objs) for f in extra_srcs]
    for p in source_files(src):
        entry = str(p.relative_to(src)).encode() + b"\0" + p.read_bytes() + b"\0"  # read once
        for x in (h, base, objs):
            x.update(entry)
    digest = h.hexdigest()[:20]

    out = cache_root() / digest
    binary = out / BINARY
    # a routine file's variant takes the objects of the variant without it, where that is built;
    # else those of any finished build of the same objects (see the module's comment)
    index = cache_root().parent / "objects" / objs.hexdigest()[:20]
    plain = cache_root() / base.hexdigest()[:20] / "obj"
    if not _usable(binary):
        with _one_builder(out):  # a second builder of the same variant waits, then reuses the binary
            if not _usable(binary):
                reuse = plain if memfn_path and plain.is_dir() else _objects_named(index)
                _build(src, out, cc, cflags, ldflags, memfn_path, extra, version, make_vars, reuse)
    if _objects_named(index) is None:
        _name_objects(index, out)
    return BuildInfo(
        libc=_built_against(out, src, cc_argv, cflags, make_vars),
        linkage=elf_linkage(binary),
        binary=str(binary),
        cc=cc,
        cc_version=version.splitlines()[0] if version else "",
        cflags=cflags,
        hash=digest,
        binary_sha256=sha256_file(binary),
        ldflags=ldflags,
        cross_compile=cross_compile,
        memfn=memfn_path,
        code_size=_code_size(out, src, cc, make_vars),
    )


def _built_against(out, src, cc_argv, cflags, make_vars):
    """The C library of the build in out (written there when it was built; asked again, and
    written, for a build of an older tickmark)."""
    path = out / LIBC_FILE
    try:
        return path.read_text().strip()
    except OSError:
        pass
    port_cflags = _plan(src, cc_argv, make_vars)[5]
    libc = c_library(cc_argv, port_cflags + split_words("CFLAGS", cflags))
    with contextlib.suppress(OSError):
        tmp = out / f"{LIBC_FILE}.tmp{os.getpid()}-{threading.get_ident()}"
        tmp.write_text(libc + "\n")
        os.replace(tmp, path)
    return libc


SIZES = "sizes.json"


def _code_size(out, src, cc, make_vars):
    """The code size measured when the build was made; a build made before tickmark measured
    sizes (or counted the shared helpers in) is measured now (its objects are kept beside it)
    and the figures kept with it."""
    try:
        kept = json.loads((out / SIZES).read_text())
        if "helpers" in kept or "error" in kept:  # else measured before helpers counted: again
            return kept
    except (OSError, ValueError):
        pass
    try:
        _, srcs, bench_srcs, *_ = _plan(src, split_words("compiler", cc), make_vars)
    except TickmarkError:
        return None
    objs = [str(out / "obj" / f"{Path(s).name}.{i}.o") for i, s in enumerate(srcs)]
    measured = _measure(src, out / BINARY, srcs, bench_srcs, objs, cc)
    try:
        (out / SIZES).write_text(json.dumps(measured))
    except OSError:
        pass  # a cache that cannot be written to: measured again next time
    return measured


def _measure(src, binary, srcs, bench_srcs, objs, cc):
    """sizes.measure() of a build: its binary, and each bench file with its object."""
    benches = set(bench_srcs)
    return sizes.measure(str(binary), [(str(src / s), objs[i]) for i, s in enumerate(srcs) if s in benches], cc)


def _usable(binary):
    return binary.is_file() and os.access(binary, os.X_OK)


def _objects_named(index):
    """The object folder of the finished build that the file index names -> Path, or None."""
    try:
        name = index.read_text().strip()
    except OSError:
        return None
    obj = cache_root() / name / "obj"
    return obj if _SAFE.fullmatch(name) and _usable(obj.parent / BINARY) else None


def _name_objects(index, out):
    """Name the finished build out in the file index (written whole: a reader sees the old name or
    the new one); a cache that cannot be written to only goes without."""
    tmp = index.with_name(f"{index.name}.tmp{os.getpid()}-{threading.get_ident()}")
    try:
        index.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(out.name + "\n")
        os.replace(tmp, index)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


@contextlib.contextmanager
def _one_builder(out):
    """An exclusive lock on the build of one variant (processes and threads alike: a campaign's
    targets prepare the same variant at the same time)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    lock = out.parent / f"{out.name}.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        # nothing is left in the cache but builds; a builder that opened the lock file just
        # before it went builds once more, as it would without the lock
        with contextlib.suppress(OSError):
            lock.unlink()
        os.close(fd)  # closing releases the lock


def _hash_file(path, what, *hashes):
    p = Path(path).resolve()
    if not p.is_file():
        raise TickmarkError(f"{what} file {path} does not exist")
    for h in hashes:
        h.update(str(p).encode() + b"\0" + p.read_bytes() + b"\0")
    return str(p)


# Variables a user's environment could hand to make; the file lists are asked for without them.
_MAKE_ENV = (
    "CC",
    "CFLAGS",
    "LDFLAGS",
    "CROSS_COMPILE",
    "MEMFN",
    "EXTRA_SRCS",
    "O",
    "ARCH",
    "PORT",
    "WERROR",
    "MACHINE",
    "MAKEFLAGS",
    "MFLAGS",
    "MAKEFILES",
    "GNUMAKEFLAGS",
    "FREERTOS_KERNEL",
    "NUTTX_EXPORT",
    "RTOS_STACK_CHECK",
    "RTOS_ASSERT",
)
_SAFE = re.compile(r"[A-Za-z0-9_.+-]+")
_SAFE_PATH = re.compile(r"/[A-Za-z0-9_.+/-]+")
_NAME_VARS = ("PORT", "BOARD", "BM_CONSOLE", "RTOS_STACK_CHECK", "RTOS_ASSERT")
_PATH_VARS = ("FREERTOS_KERNEL", "NUTTX_EXPORT", "SYLIXOS_EXPORT")


def _plan(src, cc_argv, make_vars=None):
    """Ask the Makefile what to compile for this compiler's target
    -> (machine, srcs, bench_srcs, tm_cflags, libs, port_cflags, port_ldflags)."""
    r = _run_tool(cc_argv + ["-dumpmachine"], ASK_TIMEOUT, f"compiler '{cc_argv[0]}' asked for -dumpmachine")
    machine = r.stdout.strip()
    if r.returncode != 0 or not _SAFE.fullmatch(machine):
        raise TickmarkError(
            f"compiler '{shlex.join(cc_argv)}' does not work (-dumpmachine failed)", (r.stderr or "").strip()
        )
    env = {k: v for k, v in os.environ.items() if k not in _MAKE_ENV}
    r = _run_tool(
        [
            "make",
            "-s",
            "--no-print-directory",
            "-C",
            str(src),
            f"MACHINE={machine}",
            *[f"{k}={v}" for k, v in sorted((make_vars or {}).items())],
            "print-build",
        ],
        COMPILE_TIMEOUT,
        "the core's Makefile, asked for its sources,",
        env=env,
    )
    if r.returncode != 0:
        raise TickmarkError("the core's Makefile did not list its sources", (r.stdout + r.stderr).strip())
    v = dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)
    return (
        machine,
        v["SRCS"].split(),
        v["BENCH_SRCS"].split(),
        v["TM_CFLAGS"].split(),
        v["LIBS"].split(),
        v.get("PORT_CFLAGS", "").split(),
        v.get("PORT_LDFLAGS", "").split(),
    )


def _bench_list(src, bench_srcs, gen):
    """Write the benchmark list header (tools/genlist.sh, as the Makefile does) into gen/."""
    gen.mkdir(parents=True, exist_ok=True)
    with open(gen / "tm_bench_list.h", "w") as f:
        r = _run_tool(
            ["sh", "tools/genlist.sh", *bench_srcs], COMPILE_TIMEOUT, "tools/genlist.sh", cwd=str(src), stdout=f
        )
    if r.returncode != 0:
        raise TickmarkError("tools/genlist.sh could not list the benchmarks", r.stderr.strip())


def _c_string(text):
    """A C string literal's content: quotes, backslashes and control bytes escaped."""
    out = []
    for b in text.encode():
        ch = chr(b)
        out.append("\\" + ch if ch in '"\\?' else ch if 32 <= b < 127 else f"\\{b:03o}")
    return "".join(out)


def _build(src, out, cc, cflags, ldflags, memfn_path, extra=(), version="", make_vars=None, reuse=None):
    """Compile every source into a private folder, link, then move the folder into place (safe
    against concurrent builds; an interrupted or failed build leaves nothing behind: Ctrl-C,
    SIGTERM and SIGHUP alike). reuse: the object folder of a finished build of the same sources
    and flags, whose objects are taken instead of compiling them again."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f"{out.name}.tmp{os.getpid()}-{threading.get_ident()}"  # one per builder (process, thread)
    with interrupted_by_signals():
        try:
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir()
            _build_in(tmp, src, out, cc, cflags, ldflags, memfn_path, extra, version, make_vars, reuse)
        except KeyboardInterrupt:
            shutil.rmtree(tmp, ignore_errors=True)
            raise Interrupted("interrupted while building tickmark-core; its unfinished build folder was removed")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _build_in(tmp, src, out, cc, cflags, ldflags, memfn_path, extra, version, make_vars, reuse):
    """_build's work in its private folder tmp."""
    cc_argv, cflags_argv, ld_argv = (
        split_words("compiler", cc),
        split_words("CFLAGS", cflags),
        split_words("LDFLAGS", ldflags),
    )
    machine, srcs, bench_srcs, tm_cflags, libs, port_cflags, port_ldflags = _plan(src, cc_argv, make_vars)
    _bench_list(src, bench_srcs, tmp / "gen")
    tm_cflags = [*tm_cflags, "-I", str(tmp / "gen")]
    cflags_argv = port_cflags + cflags_argv  # the port's CPU and C library flags go everywhere
    ld_argv = ld_argv + port_ldflags
    (tmp / "obj").mkdir()
    jobs, objs = [], []
    for i, s in enumerate(srcs + list(extra)):
        obj = tmp / "obj" / (Path(s).name + f".{i}.o")
        objs.append(str(obj))
        if reuse is not None and _copied(reuse / obj.name, obj):
            continue
        flags = cflags_argv if s.endswith((".S", ".s")) else tm_cflags + cflags_argv
        jobs.append(cc_argv + flags + ["-c", "-o", str(obj), s])
    if memfn_path:  # a user's routine file, compiled as it is (no project warnings imposed)
        obj = tmp / "obj" / "memfn-user.o"
        objs.append(str(obj))
        jobs.append(cc_argv + cflags_argv + ["-Iinclude", "-c", "-o", str(obj), memfn_path])
    info = tmp / "obj" / "buildinfo.c"
    first = version.splitlines()[0] if version else ""
    info.write_text(
        f'const char tm_build_cc[] = "{_c_string(first)}";\n'
        f'const char tm_build_cflags[] = "{_c_string(cflags)}";\n'
        f'const char tm_build_target[] = "{_c_string(machine)}";\n'
        f'const char tm_build_memfn[] = "{_c_string(Path(memfn_path).name if memfn_path else "")}";\n'
    )
    objs.append(str(tmp / "obj" / "buildinfo.o"))
    jobs.append(cc_argv + cflags_argv + ["-c", "-o", objs[-1], str(info)])
    bad = _compile_all(jobs, src)
    if not bad:
        bad = [
            r
            for r in [_compile(cc_argv + cflags_argv + ld_argv + ["-o", str(tmp / BINARY), *objs, *libs], src)]
            if r is not None
        ]
    if not bad:
        (tmp / LIBC_FILE).write_text(c_library(cc_argv, cflags_argv) + "\n")
    if bad or not (tmp / BINARY).is_file():
        rc, text = bad[0] if bad else (0, "no binary was written")
        lines = text.strip().splitlines()
        detail = "\n".join("  " + line for line in lines[-15:])
        raise TickmarkError(f"building tickmark-core failed (compiler exit {rc}, CC={cc} CFLAGS={cflags}):", detail)
    (tmp / SIZES).write_text(json.dumps(_measure(src, tmp / BINARY, srcs, bench_srcs, objs, cc)))
    try:
        os.replace(tmp, out)
    except OSError:  # another process finished the same build first
        pass


def _copied(old, new):
    """Copy a finished build's object -> False when there is none to copy."""
    try:
        shutil.copy2(old, new)
        return True
    except OSError:
        return False


def _compile_all(jobs, cwd):
    """Compile in parallel; stop at the first failure (a bad flag fails every file alike) or on an
    interrupt (the queued files are dropped) -> [first failure] or []."""
    failed, stop = [], []

    def one(argv):
        if failed or stop:
            return
        r = _compile(argv, cwd)
        if r is not None:
            failed.append(r)

    pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
    try:
        for f in [pool.submit(one, j) for j in jobs]:
            f.result()
    finally:
        stop.append(True)
        pool.shutdown(wait=True, cancel_futures=True)
    return failed[:1]


def _compile(argv, cwd):
    """Run one compiler command (an argument list, no shell) -> None, or (exit status, output)."""
    try:
        r = _run_tool(argv, COMPILE_TIMEOUT, f"compiler '{argv[0]}'", cwd=str(cwd))
    except OSError as e:
        return 127, f"cannot run {argv[0]}: {e.strerror}"
    except TickmarkError as e:  # it hung: stopped
        return 124, str(e)
    return None if r.returncode == 0 else (r.returncode, r.stdout + r.stderr)
