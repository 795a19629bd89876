"""The Zephyr image a board's core is built as (qemu-system:BOARD?os=zephyr).

Zephyr's sources are the user's: ZEPHYR_BASE=DIR names a Zephyr tree (2.7, the release tickmark
is tested with) and ZEPHYR_MODULES its modules (a ;-separated list; by default the CMSIS module
west puts beside it, ../modules/hal/cmsis). Without ZEPHYR_BASE, the trees `./bootstrap study`
(or `./bootstrap test`) unpacked into the cache from the vendored snapshot are used
(ZEPHYR_COMMIT, CMSIS_COMMIT). Nothing of Zephyr is kept in tickmark.

The core is a Zephyr application (core/port/zephyr/app): Zephyr's CMake compiles the core's
files for PORT=zephyr with the kernel into one image, for the Zephyr board the tickmark board
names (ZEPHYR_BOARD in boards/BOARD.mk: Zephyr's own, or tickmark's own definition in
core/port/zephyr/boards). The configuration is the board's defaults with app/prj.conf over
them, then the board's ZEPHYR_CONFIG; every setting is checked after Kconfig resolved it. The
image is built once per tree, board, configuration, compiler and core sources, and kept in
~/.cache/tickmark/zephyr/images/KEY with its resolved .config. The run's fingerprint names
Zephyr, its version and commit, the board, the settings that move the figures and a digest of
the resolved configuration.
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..base.errors import TickmarkError
from . import nuttx
from .build import BuildInfo, _one_builder, cache_root, compiler_version, core_dir, sha256_file, source_files

ENV_BASE = "ZEPHYR_BASE"
ENV_MODULES = "ZEPHYR_MODULES"
# The release tickmark is tested with: zephyrproject-rtos/zephyr at zephyr-v2.7.0, and the
# zephyrproject-rtos/cmsis revision its west.yml pins.
ZEPHYR_COMMIT = "3f826560aaf81a444018293bd6acce3c339fe150"
CMSIS_COMMIT = "b0612c97c1401feeb4160add6462c3627fe90fc7"
BUILD_TIMEOUT = 3600  # one configure and build on a slow, busy machine
PROGRESS_S = 10  # a line on stderr at least this often while building
WEST_HINT = (
    "get Zephyr 2.7 with west (pip install west; west init -m https://github.com/zephyrproject-rtos/zephyr "
    "--mr zephyr-v2.7.0 zephyrproject; cd zephyrproject; west update cmsis) and name it: ZEPHYR_BASE=DIR"
)


def cache_dir():
    return cache_root().parent / "zephyr"  # beside the core's builds: ~/.cache/tickmark/zephyr


def default_trees():
    """Where `./bootstrap` puts the two trees -> (zephyr, cmsis)."""
    return cache_dir() / f"zephyr-{ZEPHYR_COMMIT[:12]}", cache_dir() / f"cmsis-{CMSIS_COMMIT[:12]}"


@dataclass
class Tree:
    path: str
    modules: list
    origin: str  # where the trees came from, in words
    commit: str
    version: str  # "2.7.0", from the tree's VERSION file
    digest: str  # of the files of the tree and its modules

    def identity(self):
        return {
            "zephyr": {
                "what": "the Zephyr tree and its modules",
                "path": self.path,
                "modules": self.modules,
                "commit": self.commit,
                "sha256": self.digest,
            }
        }


def _version(path):
    """The release of a Zephyr tree, from its VERSION file -> '2.7.0', or ''."""
    try:
        text = (Path(path) / "VERSION").read_text()
    except OSError:
        return ""
    v = dict(re.findall(r"^(VERSION_MAJOR|VERSION_MINOR|PATCHLEVEL)\s*=\s*(\d+)", text, re.M))
    return ".".join(v[k] for k in ("VERSION_MAJOR", "VERSION_MINOR", "PATCHLEVEL")) if len(v) == 3 else ""


def locate():
    """The Zephyr tree and modules to build with -> Tree; TickmarkError saying what to do when
    there are none."""
    given = os.environ.get(ENV_BASE)
    if given:
        path = Path(given).expanduser()
        listed = [m for m in os.environ.get(ENV_MODULES, "").split(";") if m]
        west_cmsis = path.parent / "modules" / "hal" / "cmsis"
        modules = [Path(m).expanduser() for m in listed] or ([west_cmsis] if west_cmsis.is_dir() else [])
    else:
        path, cmsis = default_trees()
        modules = [cmsis]
        if not (path / "VERSION").is_file():
            raise TickmarkError(
                f"no Zephyr tree in {path}: `./bootstrap study` unpacks the snapshot there "
                f"(from ../shared/vendor/zephyr or TICKMARK_ZEPHYR_VENDOR), or {WEST_HINT}"
            )
    if not (path / "VERSION").is_file() or not (path / "share" / "zephyr-package").is_dir():
        raise TickmarkError(f"{ENV_BASE}={given} is not a Zephyr tree (no VERSION, share/zephyr-package)")
    for m in modules:
        if not Path(m).is_dir():
            raise TickmarkError(f"the Zephyr module {m} is not a folder (ZEPHYR_MODULES: ;-separated folders)")
    version = _version(path)
    if not version.startswith("2.7."):
        raise TickmarkError(f"the Zephyr tree {path} is release {version or 'unknown'}: tickmark's port is for 2.7")
    path, modules = path.resolve(), [str(Path(m).resolve()) for m in modules]
    if given:
        commit, _ = nuttx._git_facts(path)
        origin = f"{ENV_BASE}={given}" + (f" {ENV_MODULES}={';'.join(modules)}" if modules else "")
    else:
        note = nuttx._origin_note(path)
        commit, origin = note.get("commit", "unknown"), note.get("origin", "the tickmark cache")
    return Tree(str(path), modules, origin, commit, version, nuttx.tree_digest(path, *modules))


# ---- the configuration
def app_dir():
    return core_dir() / "port" / "zephyr" / "app"


def board_settings(board):
    """The board's own Zephyr settings (ZEPHYR_CONFIG = SYM=value ...) -> {symbol: value}."""
    return nuttx.board_settings(board, "ZEPHYR_CONFIG")


def wanted_settings(board):
    """What tickmark sets over the board's defaults: app/prj.conf, then ZEPHYR_CONFIG."""
    out = nuttx.parse_settings((app_dir() / "prj.conf").read_text())
    out.update(board_settings(board))
    return out


# ---- the image
@dataclass
class Image:
    path: str  # zephyr.elf
    key: str
    facts: dict  # what the fingerprint says about the kernel (image_facts)
    build: BuildInfo


def _toolchain(board, work):
    """The environment that selects the board's compiler for Zephyr's CMake. Debian's aarch64 GCC
    (a Linux cross compiler used bare-metal) has no include-fixed/limits.h, which Zephyr's probe
    of the compiler asks for: a wrapper answers that one question and runs the compiler."""
    cross = board.cross_compile
    gcc = shutil.which(cross + "gcc")
    if not gcc:
        raise TickmarkError(f"board {board.name} needs {cross}gcc: apt-get install {' '.join(board.packages)}")
    if cross == "arm-none-eabi-":
        return {"ZEPHYR_TOOLCHAIN_VARIANT": "gnuarmemb", "GNUARMEMB_TOOLCHAIN_PATH": str(Path(gcc).parent.parent)}
    tools = work / "toolchain"
    tools.mkdir()
    for tool in Path(gcc).parent.glob(cross + "*"):
        if tool.name != cross + "gcc":
            (tools / tool.name).symlink_to(tool)
    limits = subprocess.run([gcc, "-print-file-name=include/limits.h"], capture_output=True, text=True).stdout.strip()
    wrapper = tools / (cross + "gcc")
    wrapper.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "--print-file-name=include-fixed/limits.h" ]; then echo {limits}; exit 0; fi\n'
        f'exec {gcc} "$@"\n'
    )
    wrapper.chmod(0o755)
    return {"ZEPHYR_TOOLCHAIN_VARIANT": "cross-compile", "CROSS_COMPILE": str(tools / cross)}


def image_key(board, tree, cc_version):
    h = hashlib.sha256()
    for part in (
        tree.digest,
        board.vars.get("ZEPHYR_BOARD", ""),
        board.vars.get("ZEPHYR_CONFIG", ""),
        board.vars.get("ZEPHYR_EXTRAFLAGS", ""),
        board.cross_compile,
        cc_version,
    ):
        h.update(part.encode() + b"\0")
    src = core_dir()
    for p in source_files(src) + sorted(p for p in (src / "port" / "zephyr").rglob("*") if p.is_file()):
        h.update(str(p.relative_to(src)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def image_for(board, tree):
    """The core's Zephyr image for BOARD from TREE, built once (a few minutes of two CPUs) and
    kept in the cache -> Image."""
    if not board.vars.get("ZEPHYR_BOARD"):
        raise TickmarkError(f"board {board.name} names no Zephyr board (ZEPHYR_BOARD in boards/{board.name}.mk)")
    for tool, package in (("cmake", "cmake"), ("ninja", "ninja-build"), ("dtc", "device-tree-compiler")):
        if not shutil.which(tool):
            raise TickmarkError(f"building Zephyr needs {tool}: apt-get install {package} (./bootstrap study does)")
    missing = [m for m in ("elftools", "yaml", "pykwalify", "packaging") if not _importable(m)]
    if missing:
        raise TickmarkError(
            f"building Zephyr needs the Python modules {', '.join(missing)}: "
            "pip install pyelftools PyYAML pykwalify packaging (./bootstrap study does)"
        )
    cc = board.cross_compile + "gcc"
    version = compiler_version([cc])
    key = image_key(board, tree, version)
    dest = cache_dir() / "images" / key
    if not (dest / "zephyr.elf").is_file():
        with _one_builder(dest):  # a second builder waits, then takes the image
            if not (dest / "zephyr.elf").is_file():
                _build(board, tree, dest)
    final = (dest / "config").read_text()
    elf = dest / "zephyr.elf"
    build = BuildInfo(
        binary=str(elf),
        cc=cc,
        cc_version=version.splitlines()[0] if version else "",
        cflags=f"Zephyr's for {board.vars['ZEPHYR_BOARD']} (CONFIG_SPEED_OPTIMIZATIONS: -O2)",
        hash=key,
        binary_sha256=sha256_file(elf),
        cross_compile=board.cross_compile,
        libc="Zephyr's minimal libc (picolibc's mathematics)",
        linkage="static",
    )
    return Image(str(elf), key, image_facts(board, tree, final), build)


def _importable(name):
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def _build(board, tree, dest):
    """Configure and build the image in a private folder, check every setting survived, then
    keep the image and its resolved configuration in dest."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=dest.parent))
    log = work / "build.log"
    try:
        env = dict(os.environ, ZEPHYR_BASE=tree.path, **_toolchain(board, work))
        env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
        for var in ("CFLAGS", "LDFLAGS", "CC", "MAKEFLAGS", "ZEPHYR_MODULES"):
            env.pop(var, None)
        out = work / "build"
        extra = board.vars.get("ZEPHYR_EXTRAFLAGS", "")
        configure = [
            "cmake",
            "-S",
            str(app_dir()),
            "-B",
            str(out),
            "-GNinja",
            f"-DBOARD={board.vars['ZEPHYR_BOARD']}",
            f"-DTM_BOARD={board.name}",
            f"-DPython3_EXECUTABLE={sys.executable}",
            f"-DZEPHYR_MODULES={';'.join(tree.modules)}",
        ]
        if board_settings(board):
            overlay = work / "board.conf"
            overlay.write_text("".join(f"CONFIG_{s}={v}\n" for s, v in board_settings(board).items()))
            configure.append(f"-DOVERLAY_CONFIG={overlay}")
        if extra:
            configure.append(f"-DEXTRA_CFLAGS={extra}")
        _step(configure, "configuring", board, env, log)
        final = (out / "zephyr" / ".config").read_text()
        want = wanted_settings(board)
        bad = nuttx.unmet(want, nuttx.parse_settings(final))
        if bad:
            raise TickmarkError(
                f"Zephyr's Kconfig for {board.name} did not keep "
                + ", ".join(f"{s}={w} (got {g})" for s, w, g in bad)
                + ": the tree's options differ from what core/port/zephyr/app/prj.conf expects"
            )
        _step(["ninja", "-C", str(out)], "compiling", board, env, log)
        staged = Path(str(dest) + ".tmp")
        shutil.rmtree(staged, ignore_errors=True)
        staged.mkdir()
        shutil.copy2(out / "zephyr" / "zephyr.elf", staged / "zephyr.elf")
        (staged / "config").write_text(final)
        os.replace(staged, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _step(argv, what, board, env, log):
    """One build step, its output to the log, with a progress line on stderr every PROGRESS_S
    seconds (ninja's [n/m]); TickmarkError with the log's end when it fails or takes too long."""
    start = time.monotonic()
    with open(log, "a") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        try:
            last = start
            while p.poll() is None:
                time.sleep(0.5)
                now = time.monotonic()
                if now - start > BUILD_TIMEOUT:
                    p.kill()
                    raise TickmarkError(f"building Zephyr for {board.name} took over {BUILD_TIMEOUT} s ({what})")
                if now - last >= PROGRESS_S:
                    last = now
                    steps = re.findall(r"^\[(\d+/\d+)\]", log.read_text(errors="replace"), re.M)
                    done = f" [{steps[-1]}]" if steps else ""
                    print(
                        f"tickmark: building Zephyr for {board.name}: {what}{done}, {now - start:.0f} s",
                        file=sys.stderr,
                    )
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
    if p.returncode != 0:
        tail = "\n".join("  " + line for line in log.read_text(errors="replace").splitlines()[-15:])
        raise TickmarkError(f"building Zephyr for {board.name} failed at {what} (exit {p.returncode}):", tail)


def image_facts(board, tree, final):
    """What the run's fingerprint says about the kernel and its configuration (the resolved
    .config, final)."""
    f, want = nuttx.parse_settings(final), wanted_settings(board)

    def get(sym, default="n"):
        return f.get(sym, default).strip('"')

    slice_ms = int(get("TIMESLICE_SIZE", "0")) if get("TIMESLICING") == "y" else 0
    return {
        "name": "Zephyr",
        "version": tree.version,
        "commit": tree.commit,
        "source": tree.path,
        "modules": tree.modules,
        "origin": tree.origin,
        "sources_sha256": tree.digest,
        "board": get("BOARD"),
        "soc": get("SOC"),
        "tick": f"{get('SYS_CLOCK_TICKS_PER_SEC', '0')} Hz" + (" (tickless)" if get("TICKLESS_KERNEL") == "y" else ""),
        "scheduler": "priority-based, preemptive"
        + (f", time slice {slice_ms} ms among equals" if slice_ms else ", no time slicing"),
        "heap": f"minimal libc malloc, {int(get('MINIMAL_LIBC_MALLOC_ARENA_SIZE', '0')) // 1024} KiB arena; "
        f"kernel heap {int(get('HEAP_MEM_POOL_SIZE', '0')) // 1024} KiB",
        "mutex": "the POSIX layer's pthread mutexes (owner and count under a kernel spin lock, no priority protocol)",
        "thread_stack": int(get("TM_THREAD_STACK_SIZE", "0")),
        "main_stack": int(get("MAIN_STACK_SIZE", "0")),
        "max_threads": int(get("MAX_PTHREAD_COUNT", "0")),
        "fpu": ("on, shared" if get("FPU_SHARING") == "y" else "on") if get("FPU") == "y" else "off",
        "optimization": "-O2 (SPEED_OPTIMIZATIONS)" if get("SPEED_OPTIMIZATIONS") == "y" else "not -O2",
        "assertions": "on" if get("ASSERT") == "y" else "off",
        "stack_fill": "on (CONFIG_INIT_STACKS)" if get("INIT_STACKS") == "y" else "off",
        "stack_checks": ", ".join(
            name
            for sym, name in (
                ("STACK_SENTINEL", "sentinel"),
                ("STACK_CANARIES", "canaries"),
                ("HW_STACK_PROTECTION", "hardware guard"),
                ("INIT_STACKS", "stack fill"),
            )
            if get(sym) == "y"
        )
        or "off",
        "turned_off": sorted(s for s, v in want.items() if v == "n"),
        "set": {s: v.strip('"') for s, v in sorted(want.items()) if v not in ("y", "n")},
        "config_sha256": hashlib.sha256(final.encode()).hexdigest(),
    }


def fingerprint(image):
    """The fields the run's fingerprint gets for a Zephyr build."""
    facts = dict(image.facts)
    kernel = f"Zephyr {facts['version']}"
    return {"os": kernel, "kernel": kernel, "libc": image.build.libc, "rtos": facts}
