"""The NuttX kernel a board's core is built with (qemu-system:BOARD?os=nuttx).

NuttX's sources are the user's: NUTTX_DIR=DIR names an apache/nuttx tree and NUTTX_APPS_DIR=DIR
its apache/nuttx-apps tree (by default `apps` beside it). Without them, the trees that
`./bootstrap study` (or `./bootstrap test`) put into the cache are used: the snapshots the
project names by commit (NUTTX_COMMIT, APPS_COMMIT), unpacked from a vendored copy or cloned.
Nothing of NuttX is kept in tickmark.

The kernel is built once per tree, board and configuration into an *export* (NuttX's
`make export`: its headers, its libraries and its link script), cached under
~/.cache/tickmark/nuttx/exports/KEY; the core is then compiled as a NuttX application against
it and linked with it into the image QEMU boots (core/port/nuttx/port.mk). The configuration is
the board's NuttX configuration (NUTTX_BOARD in boards/BOARD.mk, e.g. qemu-armv8a:nsh) with
core/port/nuttx/benchmark.config applied over it, then the board's own settings (NUTTX_CONFIG):
what the debug configuration has on (assertions, scheduler debug output, stack colouring,
profiling, the shell) is turned off, and what the benchmarks use (pipes, local sockets, spin
locks) is turned on; every setting is checked after Kconfig has resolved its dependencies. The
key covers the trees' contents, the configuration files, the board's settings and the
compiler. The run's fingerprint names the tree, its commit, the board, the tick, the scheduler,
the heap and what was turned off and on.
"""

import contextlib
import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..base.errors import TickmarkError
from .build import _one_builder, _run_tool, cache_root, compiler_version, core_dir

ENV_DIR = "NUTTX_DIR"
ENV_APPS = "NUTTX_APPS_DIR"
# The trees the project is tested with (apache/nuttx and apache/nuttx-apps, 2026-08-22).
NUTTX_COMMIT = "4ebc8a7291df955dece09073b8798db2dfd6490b"
APPS_COMMIT = "a71c329cfb0d40c853ddff6c943aed22e34b71a6"
BUILD_TIMEOUT = 3600  # one kernel build on a slow, busy machine
ENTRY = "tickmark_main"
_UNSAFE = re.compile(r"[\s\"'$\\`#;&|<>()*?\[\]{}]")
_SETTING = re.compile(r"^(?:CONFIG_(\w+)=(.*)|# CONFIG_(\w+) is not set)$")


def cache_dir():
    return cache_root().parent / "nuttx"  # beside the core's builds: ~/.cache/tickmark/nuttx


def default_trees():
    """Where `./bootstrap` puts the two trees -> (nuttx, apps)."""
    return cache_dir() / f"nuttx-{NUTTX_COMMIT[:12]}", cache_dir() / f"apps-{APPS_COMMIT[:12]}"


@dataclass
class Tree:
    path: str  # apache/nuttx
    apps: str  # apache/nuttx-apps
    origin: str  # where the trees came from, in words
    commit: str  # of the nuttx tree ("unknown" when it does not say)
    apps_commit: str
    version: str  # the release it is (git describe), or "" for a snapshot between releases
    digest: str  # of the files of both trees

    def identity(self):
        """The trees as a build would find them (Target.source_identity)."""
        return {
            "nuttx": {
                "what": "the NuttX trees",
                "path": self.path,
                "apps": self.apps,
                "commit": self.commit,
                "apps_commit": self.apps_commit,
                "sha256": self.digest,
            }
        }

    @property
    def kernel(self):
        return f"NuttX {self.version}" if self.version else f"NuttX (commit {self.commit[:12]})"


def locate():
    """The NuttX and apps trees to build with -> Tree. TickmarkError saying what to do when
    there are none."""
    given, given_apps = os.environ.get(ENV_DIR), os.environ.get(ENV_APPS)
    if given:
        path = Path(given).expanduser()
        apps = Path(given_apps).expanduser() if given_apps else path.parent / "apps"
    else:
        path, apps = default_trees()
        if given_apps:
            raise TickmarkError(f"{ENV_APPS} is given without {ENV_DIR}: name both trees (or neither)")
    if not (path / "sched" / "Kconfig").is_file() or not (path / "tools" / "configure.sh").is_file():
        if given:
            raise TickmarkError(f"{ENV_DIR}={given} is not an apache/nuttx tree (no sched/Kconfig, tools/configure.sh)")
        raise TickmarkError(
            f"no NuttX tree in {path}: `./bootstrap study` puts the snapshot there "
            f"(or name your own trees with {ENV_DIR}=DIR {ENV_APPS}=DIR)"
        )
    if not (apps / "Make.defs").is_file() and not (apps / "Makefile").is_file():
        raise TickmarkError(
            f"no apache/nuttx-apps tree at {apps} (name it with {ENV_APPS}=DIR; by default `apps` beside {ENV_DIR})"
        )
    path, apps = path.resolve(), apps.resolve()
    for p in (path, apps):
        if _UNSAFE.search(str(p)):
            raise TickmarkError(f"the NuttX tree's path {p} has a space or shell character: move or link it")
    commit, version = _git_facts(path)
    apps_commit = _git_facts(apps)[0]
    if given:
        origin = f"{ENV_DIR}={given} {ENV_APPS}={given_apps or apps}"
    else:
        note = _origin_note(path)
        origin = note.get("origin", "the tickmark cache")
        commit, apps_commit = note.get("commit", commit), _origin_note(apps).get("commit", apps_commit)
    return Tree(str(path), str(apps), origin, commit, apps_commit, version, tree_digest(path, apps))


def _origin_note(path):
    """The key=value lines bootstrap writes beside a tree it unpacked or cloned (PATH.origin)."""
    note = Path(str(path) + ".origin")
    try:
        return dict(line.split("=", 1) for line in note.read_text().splitlines() if "=" in line)
    except OSError:
        return {}


def _git_facts(path):
    """(commit, release) of a git tree: the commit with '-dirty' when files differ from it, and
    `git describe` of the last nuttx-X.Y.Z tag; ("unknown", "") elsewhere."""
    if not (Path(path) / ".git").exists() or not shutil.which("git"):
        return "unknown", ""

    def git(*args):
        try:
            r = subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return ""
        return r.stdout.strip() if r.returncode == 0 else ""

    commit = git("rev-parse", "HEAD") or "unknown"
    if git("status", "--porcelain", "--untracked-files=no"):
        commit += "-dirty"
    release = git("describe", "--tags", "--match", "nuttx-*")
    return commit, release[len("nuttx-") :] if release.startswith("nuttx-") else release


def tree_digest(*trees):
    """sha256 over the names and contents of the files of the trees (not .git): any edit is a
    new kernel build. Remembered per signature of the files' names, sizes and times (a walk of
    30,000 files is a second; reading them, several)."""
    files, sig = [], hashlib.sha256()
    for root in trees:
        root = Path(root)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != ".git")
            for name in sorted(filenames):
                p = Path(dirpath) / name
                st = p.lstat()
                if stat.S_ISREG(st.st_mode):
                    files.append((root, p))
                    sig.update(f"{p}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    memo = cache_dir() / "digests.json"
    try:
        known = json.loads(memo.read_text())
    except (OSError, ValueError):
        known = {}
    if sig.hexdigest() in known:
        return known[sig.hexdigest()]
    h = hashlib.sha256()
    for root, p in files:
        h.update(f"{root.name}/{p.relative_to(root)}".encode() + b"\0")
        with open(p, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    known[sig.hexdigest()] = h.hexdigest()
    known = dict(list(known.items())[-8:])  # the latest few trees in use
    with contextlib.suppress(OSError):
        memo.parent.mkdir(parents=True, exist_ok=True)
        tmp = memo.with_name(f"{memo.name}.tmp{os.getpid()}")
        tmp.write_text(json.dumps(known))
        os.replace(tmp, memo)
    return h.hexdigest()


# ---- the configuration
def config_file():
    return core_dir() / "port" / "nuttx" / "benchmark.config"


def parse_settings(text):
    """Kconfig lines (CONFIG_X=v, '# CONFIG_X is not set') -> {symbol: value}, 'n' for not set."""
    out = {}
    for line in text.splitlines():
        m = _SETTING.match(line.strip())
        if m:
            out[m.group(1) or m.group(3)] = m.group(2) if m.group(1) else "n"
    return out


def board_settings(board, var="NUTTX_CONFIG"):
    """The board's own kernel settings (NUTTX_CONFIG = SYM=value ..., or another variable such
    as ZEPHYR_CONFIG) -> {symbol: value}."""
    out = {}
    for word in board.vars.get(var, "").split():
        sym, eq, value = word.partition("=")
        if not eq or not re.fullmatch(r"[A-Z0-9_]+", sym):
            raise TickmarkError(f"board {board.name}: {var} has '{word}' (want SYMBOL=value)")
        out[sym] = value
    return out


def wanted_settings(board):
    """What tickmark sets over the board's NuttX configuration: benchmark.config, then the
    board's NUTTX_CONFIG -> {symbol: value}."""
    out = parse_settings(config_file().read_text())
    out.update(board_settings(board))
    return out


def apply_settings(config_text, settings):
    """The .config text with each setting's line replaced (or added)."""
    keep = [
        line for line in config_text.splitlines() if (parse_settings(line) or {None: None}).popitem()[0] not in settings
    ]
    for sym, value in settings.items():
        keep.append(f"# CONFIG_{sym} is not set" if value == "n" else f"CONFIG_{sym}={value}")
    return "\n".join(keep) + "\n"


def unmet(settings, resolved):
    """The settings that Kconfig did not keep (a dependency refused them) -> [(sym, want, got)]."""
    return [(s, v, resolved.get(s, "n")) for s, v in settings.items() if resolved.get(s, "n") != v]


# ---- the export
@dataclass
class Export:
    path: str
    key: str
    facts: dict  # what the fingerprint says about the kernel (export_facts)


def export_key(board, tree, cc_version):
    h = hashlib.sha256()
    for part in (
        tree.digest,
        config_file().read_text(),
        board.vars.get("NUTTX_BOARD", ""),
        board.vars.get("NUTTX_CONFIG", ""),
        board.vars.get("NUTTX_EXTRAFLAGS", ""),
        board.cross_compile,
        cc_version,
    ):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:20]


def export_for(board, tree):
    """The kernel's export for BOARD from TREE, built once (about two minutes on two CPUs) and
    kept in the cache -> Export."""
    if not board.vars.get("NUTTX_BOARD"):
        raise TickmarkError(f"board {board.name} names no NuttX board (NUTTX_BOARD in boards/{board.name}.mk)")
    for tool, package in (("kconfig-tweak", "kconfig-frontends-nox"), ("make", "make")):
        if not shutil.which(tool):
            raise TickmarkError(f"building NuttX needs {tool}: apt-get install {package} (./bootstrap study does)")
    if not _kconfiglib():
        raise TickmarkError("building NuttX needs kconfiglib: pip install kconfiglib (./bootstrap study does)")
    cc = board.cross_compile + "gcc"
    key = export_key(board, tree, compiler_version([cc]))
    dest = cache_dir() / "exports" / key
    if not (dest / "tickmark.mk").is_file():
        with _one_builder(dest):  # a second builder waits, then takes the export
            if not (dest / "tickmark.mk").is_file():
                _build_export(board, tree, dest)
    facts = export_facts(board, tree, (dest / "config.base").read_text(), (dest / "config").read_text())
    return Export(str(dest), key, facts)


def _kconfiglib():
    """The folder with kconfiglib's tools (olddefconfig): this Python's, or the PATH's."""
    here = Path(sys.executable).parent
    if (here / "olddefconfig").is_file():
        return str(here)
    found = shutil.which("olddefconfig")
    return str(Path(found).parent) if found else None


def _build_export(board, tree, dest):
    """Configure and build the kernel in a private copy of the trees, then keep only the export
    (headers, libraries, the link script) in dest."""
    work = Path(tempfile.mkdtemp(prefix="build-", dir=dest.parent))
    log = work / "build.log"
    try:
        nuttx, apps = work / "nuttx", work / "apps"
        for src, dst in ((tree.path, nuttx), (tree.apps, apps)):
            _copy_tree(src, dst)
        env = dict(os.environ, PATH=_kconfiglib() + os.pathsep + os.environ.get("PATH", ""))
        for var in ("CFLAGS", "LDFLAGS", "CC", "MAKEFLAGS", "MFLAGS", "ARCH", "CROSS_COMPILE", "TOPDIR", "APPDIR"):
            env.pop(var, None)
        make = ["make", f"CROSSDEV={board.cross_compile}", f"EXTRAFLAGS={board.vars.get('NUTTX_EXTRAFLAGS', '')}"]

        def step(argv, what, cwd=nuttx):
            with open(log, "a") as out:
                out.write(f"$ {shlex.join(argv)}\n")
                out.flush()
                r = _run_tool(
                    argv, BUILD_TIMEOUT, f"NuttX's {what}", cwd=str(cwd), env=env, stdout=out,
                    progress=lambda spent: _progress(board, what, spent, log),
                )  # fmt: skip
                out.write(r.stderr)
            if r.returncode != 0:
                tail = "\n".join("  " + line for line in log.read_text(errors="replace").splitlines()[-15:])
                raise TickmarkError(f"building NuttX for {board.name} failed at {what} (exit {r.returncode}):", tail)

        if (nuttx / ".config").exists():  # a user's tree that was configured: start from clean
            step(make + ["distclean"], "make distclean")
        step(["./tools/configure.sh", "-l", "-a", "../apps", board.vars["NUTTX_BOARD"]], "configure.sh")  # apps beside
        base = (nuttx / ".config").read_text()
        want = wanted_settings(board)
        (nuttx / ".config").write_text(apply_settings(base, want))
        step(make + ["olddefconfig"], "make olddefconfig")
        final = (nuttx / ".config").read_text()
        resolved = parse_settings(final)
        bad = unmet(want, resolved)
        if bad:
            raise TickmarkError(
                f"NuttX's Kconfig for {board.name} did not keep "
                + ", ".join(f"{s}={w} (got {g})" for s, w, g in bad)
                + ": the tree's options differ from what core/port/nuttx/benchmark.config expects"
            )
        arch = resolved["ARCH"].strip('"')
        step(make + [f"-j{os.cpu_count() or 1}", "export"], "make export")
        step(make + ["-C", f"arch/{arch}/src", f"TOPDIR={nuttx}", "board/libboard.a"], "the board's library")
        staged = Path(str(dest) + ".tmp")
        shutil.rmtree(staged, ignore_errors=True)
        _unpack_export(nuttx, staged)
        shutil.copy2(nuttx / "arch" / arch / "src" / "board" / "libboard.a", staged / "libs" / "libboard.a")
        makedefs = _make_vars((staged / "scripts" / "Make.defs").read_text())
        ld = staged / "scripts" / makedefs.get("LDNAME", "")
        if not makedefs.get("LDNAME") or not ld.is_file():
            raise TickmarkError(f"NuttX's export for {board.name} has no link script (LDNAME in scripts/Make.defs)")
        cc = board.cross_compile + "gcc"
        pre = [
            cc,
            "-E",
            "-P",
            "-x",
            "c",
            "-isystem",
            str(staged / "include"),
            str(ld),
            "-o",
            str(staged / "tickmark.ld"),
        ]
        step(pre, "preprocessing the link script")
        (staged / "config").write_text(final)
        (staged / "config.base").write_text(base)
        libs = sorted(p.name for p in (staged / "libs").glob("*.a"))
        (staged / "tickmark.mk").write_text(tickmark_mk(dest, makedefs, board, libs))
        os.replace(staged, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _progress(board, what, spent, log):
    """The line a kernel build prints every PROGRESS_EVERY seconds: the step, the time it has
    taken, the objects compiled so far (from the log) and where the log is."""
    made = sum(1 for line in log.read_text(errors="replace").splitlines() if line.lstrip().startswith("CC:"))
    objects = f", {made} file{'s' if made > 1 else ''} compiled" if made else ""
    print(
        f"tickmark: building NuttX for {board.name}: {what}, {spent:.0f} s{objects} (log: {log})",
        file=sys.stderr,
        flush=True,
    )


def _copy_tree(src, dst):
    """A copy of the tree src (not .git) at dst, by tar (a second for 30,000 files, where a
    file-by-file copy takes minutes on a busy disk)."""
    dst.mkdir()
    pack = subprocess.Popen(["tar", "-C", str(src), "--exclude=.git", "-cf", "-", "."], stdout=subprocess.PIPE)
    unpack = subprocess.run(["tar", "-C", str(dst), "-xf", "-"], stdin=pack.stdout, capture_output=True, text=True)
    pack.stdout.close()
    if pack.wait() != 0 or unpack.returncode != 0:
        raise TickmarkError(f"cannot copy the NuttX tree {src}: {unpack.stderr.strip()[:200]}")


def _unpack_export(nuttx, staged):
    """nuttx-export-*.tar.gz of the build -> the folder staged (its contents, not the folder)."""
    found = sorted(nuttx.glob("nuttx-export*.tar.gz"))
    if not found:
        raise TickmarkError("NuttX's make export wrote no nuttx-export*.tar.gz")
    with tarfile.open(found[-1]) as tar:
        tar.extractall(staged.parent / (staged.name + ".x"), filter="tar")
    inner = next((staged.parent / (staged.name + ".x")).iterdir())
    os.replace(inner, staged)
    shutil.rmtree(staged.parent / (staged.name + ".x"), ignore_errors=True)


def _make_vars(text):
    """NAME = value lines of the export's scripts/Make.defs -> {NAME: value}."""
    out = {}
    for line in text.splitlines():
        name, eq, value = line.partition("=")
        if eq and re.fullmatch(r"\s*[A-Z_][A-Z0-9_]*\s*", name):
            out[name.strip()] = value.strip()
    return out


def tickmark_mk(dest, makedefs, board, libs):
    """What port/nuttx/port.mk reads from the export in dest: the kernel's CPU flags, its -D
    defines, its libraries (file names in libs/) and its link script, as make variables."""
    defines = [w for w in makedefs.get("ARCHCFLAGS", "").split() if w.startswith("-D")]
    cpu = makedefs.get("ARCHCPUFLAGS", "").split() + board.vars.get("NUTTX_EXTRAFLAGS", "").split()
    libs = [str(dest / "libs" / name) for name in libs]
    return (
        "# Written by tickmark (targets/nuttx.py) for core/port/nuttx/port.mk.\n"
        f"NUTTX_CPUFLAGS = {' '.join(cpu)}\n"
        f"NUTTX_DEFINES = {' '.join(defines)}\n"
        f"NUTTX_LIBS = {' '.join(libs)}\n"
        f"NUTTX_LDSCRIPT = {dest / 'tickmark.ld'}\n"
    )


# the settings the fingerprint names (the ones that move the study's figures)
def export_facts(board, tree, base, final):
    """What the run's fingerprint says about the kernel and its configuration (the board's
    configuration, base, and the export's, final)."""
    b, f, want = parse_settings(base), parse_settings(final), wanted_settings(board)

    def get(sym, default="n"):
        return f.get(sym, default).strip('"')

    tick_us = int(get("USEC_PER_TICK", "10000"))
    heap = "TLSF (mm_tlsf)" if get("MM_TLSF_MANAGER") == "y" else "NuttX's default heap (mm_heap)"
    robust = (
        "robust" if get("PTHREAD_MUTEX_ROBUST") == "y" or get("PTHREAD_MUTEX_DEFAULT_ROBUST") == "y" else "non-robust"
    )
    protocol = "priority inheritance" if get("PTHREAD_MUTEX_DEFAULT_PRIO_INHERIT") == "y" else "no priority protocol"
    return {
        "name": "NuttX",
        "version": tree.version or None,
        "commit": tree.commit,
        "apps_commit": tree.apps_commit,
        "source": tree.path,
        "apps_source": tree.apps,
        "origin": tree.origin,
        "sources_sha256": tree.digest,
        "board": board.vars["NUTTX_BOARD"].split(":")[0],
        "base_config": board.vars["NUTTX_BOARD"],
        "build": "flat" if get("BUILD_FLAT") == "y" else "protected or kernel",
        "tick": f"{1000000 // tick_us} Hz" + (" (tickless)" if get("SCHED_TICKLESS") == "y" else ""),
        "scheduler": f"priority-based, round robin every {get('RR_INTERVAL', '0')} ms among equals"
        + (", priority inheritance" if get("PRIORITY_INHERITANCE") == "y" else ", no priority inheritance"),
        "heap": f"{heap}, {int(get('RAM_SIZE', '0')) // 1024} KiB RAM",
        "mutex": f"pthread mutexes {robust}, {protocol}",
        "thread_stack": int(get("PTHREAD_STACK_DEFAULT", "0")),
        "optimization": get("DEBUG_OPTLEVEL", "") if get("DEBUG_CUSTOMOPT") == "y" else "the board's default",
        "assertions": "on" if get("DEBUG_ASSERTIONS") == "y" else "off",
        "stack_fill": "on (CONFIG_STACK_COLORATION)" if get("STACK_COLORATION") == "y" else "off",
        "turned_off": sorted(s for s, v in want.items() if v == "n" and b.get(s, "n") != "n"),
        "turned_on": sorted(s for s, v in want.items() if v == "y" and b.get(s, "n") != v),
        "set": {s: v.strip('"') for s, v in sorted(want.items()) if v not in ("y", "n") and b.get(s, "n") != v},
        "config_sha256": hashlib.sha256(final.encode()).hexdigest(),
    }


def fingerprint(export):
    """The fields the run's fingerprint gets for a NuttX build."""
    facts = dict(export.facts)
    kernel = f"NuttX {facts['version']}" if facts.get("version") else f"NuttX (commit {facts['commit'][:12]})"
    return {"os": kernel, "kernel": kernel, "libc": "NuttX libc", "rtos": facts}
