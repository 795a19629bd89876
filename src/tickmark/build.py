"""Build the C core (tickmark-core) from the sources installed with the package, into a cache.

The cache directory is ${XDG_CACHE_HOME:-~/.cache}/tickmark/build/<hash>; the hash covers the
compiler (its --version output), CC, CFLAGS, LDFLAGS, CROSS_COMPILE, an optional MEMFN file
(path and content) and the content of every core source file, so a change to any of them
gives a fresh build and an unchanged set reuses the binary.
"""
import hashlib
import os
import shlex
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from .errors import TickmarkError

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

    def as_dict(self):
        return asdict(self)


def core_dir():
    """The core's source folder inside the installed package."""
    d = Path(__file__).resolve().parent / "core"
    if not (d / "Makefile").is_file():
        raise TickmarkError(f"the C core sources are missing from this installation ({d}/Makefile); reinstall tickmark")
    return d


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tickmark" / "build"


def source_files(src):
    out = []
    for p in sorted(src.rglob("*")):
        if not p.is_file() or "out" in p.relative_to(src).parts[:1]:
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


def compiler_version(cc_argv):
    try:
        r = subprocess.run(cc_argv + ["--version"], capture_output=True, text=True, timeout=30)
    except OSError:
        raise TickmarkError(f"C compiler '{cc_argv[0]}' not found; install gcc: {_FIX}")
    text = (r.stdout or r.stderr).strip()
    return text


def build_core(cc=None, cflags=None, memfn=None, cross_compile=None, ldflags=None, extra_srcs=(), make_vars=None):
    """Build (or reuse) tickmark-core for this compiler and flags -> BuildInfo.

    memfn: a C/asm file with tm_user_* memory routines (make MEMFN=); extra_srcs: more source
    files to link in (make EXTRA_SRCS=). Both are part of the cache key, path and content.
    make_vars: more make variables, such as {"PORT": "baremetal", "BOARD": "mps2-an500"}."""
    make_vars = dict(make_vars or {})
    src = core_dir()
    cross_compile = cross_compile if cross_compile is not None else os.environ.get("CROSS_COMPILE", "")
    cc = cc or os.environ.get("CC") or (cross_compile + "gcc" if cross_compile else "cc")
    cflags = cflags if cflags is not None else os.environ.get("CFLAGS", DEFAULT_CFLAGS)
    ldflags = ldflags if ldflags is not None else os.environ.get("LDFLAGS", "")
    cc_argv = shlex.split(cc)
    if not cc_argv or not shutil.which(cc_argv[0]):
        raise TickmarkError(f"C compiler '{cc}' not found; install gcc: {_FIX}")
    if not shutil.which("make"):
        raise TickmarkError(f"'make' not found; install it: {_FIX}")
    version = compiler_version(cc_argv)

    h = hashlib.sha256()
    for part in (version, cc, cflags, ldflags, cross_compile, *[f"{k}={v}" for k, v in sorted(make_vars.items())]):
        h.update(part.encode() + b"\0")
    memfn_path = _hash_file(h, memfn, "memfn") if memfn else ""
    extra = [_hash_file(h, f, "extra source") for f in extra_srcs]
    for p in source_files(src):
        h.update(str(p.relative_to(src)).encode() + b"\0" + p.read_bytes() + b"\0")
    digest = h.hexdigest()[:20]

    out = cache_root() / digest
    binary = out / BINARY
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        _make(src, out, cc, cflags, ldflags, cross_compile, memfn_path, extra, make_vars)
    return BuildInfo(binary=str(binary), cc=cc, cc_version=version.splitlines()[0] if version else "",
                     cflags=cflags, hash=digest, binary_sha256=sha256_file(binary),
                     ldflags=ldflags, cross_compile=cross_compile, memfn=memfn_path)


def _hash_file(h, path, what):
    p = Path(path).resolve()
    if not p.is_file():
        raise TickmarkError(f"{what} file {path} does not exist")
    h.update(str(p).encode() + b"\0" + p.read_bytes() + b"\0")
    return str(p)


def _make(src, out, cc, cflags, ldflags, cross_compile, memfn_path, extra=(), make_vars=None):
    """Build into a private folder, then move it into place (safe against concurrent builds)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f"{out.name}.tmp{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    cmd = ["make", f"-j{os.cpu_count() or 1}", "-C", str(src), f"O={tmp}", f"CC={cc}", f"CFLAGS={cflags}"]
    if ldflags:
        cmd.append(f"LDFLAGS={ldflags}")
    if cross_compile:
        cmd.append(f"CROSS_COMPILE={cross_compile}")
    if memfn_path:
        cmd.append(f"MEMFN={memfn_path}")
    if extra:
        cmd.append("EXTRA_SRCS=" + " ".join(extra))
    cmd += [f"{k}={v}" for k, v in sorted((make_vars or {}).items())]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not (tmp / BINARY).is_file():
        shutil.rmtree(tmp, ignore_errors=True)
        lines = (r.stdout + r.stderr).strip().splitlines()
        detail = "\n".join("  " + line for line in lines[-15:])
        raise TickmarkError(f"building tickmark-core failed (make exit {r.returncode}, CC={cc} CFLAGS={cflags}):", detail)
    try:
        os.replace(tmp, out)
    except OSError:  # another process finished the same build first
        shutil.rmtree(tmp, ignore_errors=True)
