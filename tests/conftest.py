import contextlib
import fcntl
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
FAKECORE = str(Path(__file__).resolve().parent / "fakecore.py")
CORE = ROOT / "src" / "tickmark" / "core"


TERMINAL_SIZE = ("COLUMNS", "LINES")
# Test modules whose tests share an expensive module fixture: under pytest-xdist one worker runs
# each of them whole (the 60 stored runs of test_history, the lab of test_labgrid, the lone
# runner of test_store_shared); every other test goes to whichever worker is free.
ONE_WORKER = ("tests/test_history.py", "tests/test_labgrid.py", "tests/test_store_shared.py")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's load distribution, with each module of ONE_WORKER as one unit of work (the
    xdist_group mark cannot do it: its loadgroup mode does not group under this pytest)."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    # units in the collection's order (pytest_collection_modifyitems: heavy first, `alone` last),
    # not largest first: that put the `alone` history module at the start, where each of its
    # tests stopped the other workers in turn while the heavy tests waited to start
    config.option.loadscopereorder = False

    class ModulesWhole(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            module = nodeid.split("::", 1)[0]
            return module if module in ONE_WORKER else nodeid

    return ModulesWhole(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist, on the controller: the workers get this environment's terminal size, and the
    folder of the locks that let an `alone` test run with no other test running."""
    node.workerinput["terminal_size"] = {name: os.environ.get(name) for name in TERMINAL_SIZE}
    config = node.config
    if not hasattr(config, "alone_locks"):
        config.alone_locks = tempfile.mkdtemp(prefix="pytest-alone-")
    node.workerinput["alone_locks"] = config.alone_locks


def pytest_unconfigure(config):
    if hasattr(config, "alone_locks"):
        shutil.rmtree(config.alone_locks, ignore_errors=True)


# Fixtures of the tests that build, boot or serve something: under pytest-xdist they start first.
HEAVY = {"build_cache", "make_core", "core_binary", "real", "pg_server"}


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (a stable sort): the tests that build or run the real core first, so that
    the run does not end waiting on one of them while the other workers idle; the `alone` tests
    last, since each of them stops the other workers while it runs, and at the end there is little
    left for those workers to do anyway."""
    if hasattr(config, "workerinput"):

        def light(item):
            return not (item.get_closest_marker("integration") or HEAVY & set(item.fixturenames))

        items.sort(key=lambda item: (item.get_closest_marker("alone") is not None, light(item)))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Under pytest-xdist, a test marked `alone` (it compares timings or bounds one) runs while no
    other test runs, on any worker: a readers-writer lock of two files. Every test passes the
    turnstile (shared, briefly) and holds the gate shared while it runs (setup, call, teardown);
    an `alone` test takes the turnstile exclusively, so that no other test starts, then the gate
    exclusively, once the tests running elsewhere have ended. In one process there is no lock."""
    folder = getattr(item.config, "workerinput", {}).get("alone_locks")
    if folder is None:
        yield
        return
    how = fcntl.LOCK_EX if item.get_closest_marker("alone") else fcntl.LOCK_SH
    turnstile = os.open(os.path.join(folder, "turnstile"), os.O_RDWR | os.O_CREAT, 0o644)
    gate = os.open(os.path.join(folder, "gate"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(turnstile, how)
        fcntl.flock(gate, how)
        if how == fcntl.LOCK_SH:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        yield
    finally:
        os.close(gate)  # closing releases the locks
        os.close(turnstile)


def pytest_configure(config):
    """A pytest-xdist worker's process starts with COLUMNS=80 LINES=24 of its own; the commands'
    width in a pipe depends on COLUMNS, so the worker takes the controller's values back."""
    for name, value in getattr(config, "workerinput", {}).get("terminal_size", {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def fake_core():
    """The synthetic core as a prepared Core of the local target."""
    from tickmark.targets import open_target

    return open_target("local", prebuilt=f"{sys.executable} {FAKECORE}").prepare()


def run_tmp(tmp_path_factory):
    """The temporary folder of the whole pytest run: under pytest-xdist each worker's own folder
    lies inside it, so what is kept here is shared by the workers of one run."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextlib.contextmanager
def exclusive(path):
    """An exclusive lock on the file path (held by one process of the run at a time)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@pytest.fixture(scope="session")
def build_cache(tmp_path_factory):
    """The one core build cache of the run (XDG_CACHE_HOME of every test that builds the real
    core), shared by the pytest-xdist workers: each variant (compiler, flags, routines, board) is
    built once, by whichever test needs it first, and reused by the others (the build's own lock
    makes a second builder of a variant wait for the first and reuse its binary)."""
    path = run_tmp(tmp_path_factory) / "build-cache"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session")
def nuttx_cache(build_cache):
    """The NuttX trees and kernel exports of the user's cache (~/.cache/tickmark/nuttx, which
    ./bootstrap test fills from the vendored snapshot), linked into the run's build cache: each
    board's kernel export (minutes to build) is built once, keyed by its trees, configuration
    and compiler, and kept for later runs; the core is linked with it in the run's cache."""
    return _linked_cache(build_cache, "nuttx")


@pytest.fixture(scope="session")
def sylixos_cache(build_cache):
    """The SylixOS builds of the user's cache (~/.cache/tickmark/sylixos) linked into the run's
    build cache: the kernel library and the BSP (minutes to build, from the vendored snapshot,
    no network) are built once, keyed by the sources, the patch and the compiler, and kept for
    later runs; the core is linked with them in the run's cache."""
    return _linked_cache(build_cache, "sylixos")


def _linked_cache(build_cache, name):
    """~/.cache/tickmark/NAME (the user's) linked into the run's build cache -> the link."""
    real = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tickmark" / name
    link = build_cache / "tickmark" / name
    with exclusive(build_cache / f"{name}-link.lock"):
        if not link.is_symlink():
            real.mkdir(parents=True, exist_ok=True)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(real)
    return link


@pytest.fixture(scope="session")
def zephyr_cache(build_cache):
    """The Zephyr trees and images of the user's cache (~/.cache/tickmark/zephyr), linked into
    the run's build cache: each board's image (minutes to build) is built once per tree,
    configuration, compiler and core sources, and kept for later runs."""
    real = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tickmark" / "zephyr"
    link = build_cache / "tickmark" / "zephyr"
    with exclusive(build_cache / "zephyr-link.lock"):
        if not link.is_symlink():
            real.mkdir(parents=True, exist_ok=True)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(real)
    return link


def need_cc():
    """make and gcc, or skip (fail under CI=true, where bootstrap installs them)."""
    if not (shutil.which("make") and shutil.which("gcc")):
        need_tool("no C compiler/make (bootstrap installs gcc and make)")


@pytest.fixture
def real(tmp_path, monkeypatch, build_cache):
    """The real core for CLI calls: the session's build cache, a private store, the default
    variant (no prebuilt core, no target, no CFLAGS from the environment) -> the store's path."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    for name in ("TICKMARK_CORE", "TICKMARK_TARGET", "TICKMARK_PERF", "CC", "CFLAGS"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "results.db"


@pytest.fixture(scope="session")
def core_binary(build_cache):
    """The real tickmark-core of the default variant (what `tickmark run` builds), built once per
    session -> path."""
    need_cc()
    from tickmark.targets.build import build_core

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(build_cache))
        mp.delenv("CC", raising=False)
        mp.delenv("CFLAGS", raising=False)
        return build_core().binary


@pytest.fixture(scope="session")
def make_core(tmp_path_factory):
    """The core built by its own Makefile with warnings as errors (`make WERROR=1 ARGS...`), once
    per run for each set of make arguments (pytest-xdist workers share the builds: the first
    builds under a lock, the others wait and reuse it) -> make_core(*args) = path of tickmark-core.
    A build that only adds sources (MEMFN=, EXTRA_SRCS=) starts from a copy of the plain build's
    folder, so make compiles what it adds and links (as make would in the plain build's folder)."""
    need_cc()
    base = run_tmp(tmp_path_factory) / "make-core"
    base.mkdir(exist_ok=True)

    def build(*args):
        name = "v-" + hashlib.sha256("\0".join(args).encode()).hexdigest()[:16]
        out, done = base / name, base / f"{name}.done"
        plain = build() if args and all(a.startswith(("MEMFN=", "EXTRA_SRCS=")) for a in args) else None
        with exclusive(base / f"{name}.lock"):
            if not done.exists():
                shutil.rmtree(out, ignore_errors=True)  # what a builder that failed left
                if plain:
                    shutil.copytree(plain.parent, out, symlinks=True)  # copy2: the objects keep their times
                cmd = ["make", "-s", "-C", str(CORE), f"O={out}", "WERROR=1", *args]
                res = subprocess.run(cmd, capture_output=True, text=True)
                assert res.returncode == 0, res.stdout + res.stderr
                assert "warning" not in (res.stdout + res.stderr).lower(), res.stdout + res.stderr
                done.touch()
        return out / "tickmark-core"

    return build


def use_synthetic_core(mp, folder):
    """Through the monkeypatch mp: the synthetic core, and a store and cache in folder -> the
    store's path."""
    store = folder / "results.db"
    mp.setenv("TICKMARK_STORE", str(store))
    mp.setenv("TICKMARK_CORE", f"{sys.executable} {FAKECORE}")
    mp.setenv("XDG_CACHE_HOME", str(folder / "cache"))
    mp.delenv("FAKECORE_MODE", raising=False)
    return store


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A private store and the synthetic core for CLI calls."""
    return use_synthetic_core(monkeypatch, tmp_path)


def synthetic_store(folder, *commands):
    """A store made once for many tests (a module's fixture): each command (the arguments of
    `tickmark`) run in-process with the synthetic core, into folder -> the store's path."""
    from tickmark.cli import main

    with pytest.MonkeyPatch.context() as mp:
        store = use_synthetic_core(mp, folder)
        for argv in commands:
            assert main(list(argv)) == 0, argv
    return store


def copy_store(src, dst):
    """An SQLite store copied whole (SQLite's backup: what its write-ahead log holds too)."""
    a, b = sqlite3.connect(src), sqlite3.connect(dst)
    try:
        a.backup(b)
    finally:
        a.close()
        b.close()


@pytest.fixture
def cli(capsys):
    """Call the command line in-process -> (exit status, stdout, stderr)."""
    from tickmark.cli import main

    def call(*args):
        rc = main(list(args))
        out, err = capsys.readouterr()
        return rc, out, err

    return call


def tickmark_proc(args, **kw):
    """The command line as a child process (for signals)."""
    envv = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    envv.update(kw.pop("env", {}))
    return subprocess.Popen(
        [sys.executable, "-m", "tickmark.cli", *args],
        env=envv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


def row_counts(path):
    """Rows per table of a store (an SQLite path or a postgresql:// URL), read without tickmark."""
    tables = ("runs", "results", "samples", "hists")
    if str(path).startswith("postgresql://"):
        import psycopg

        with psycopg.connect(str(path), autocommit=True) as db:
            return {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    db = sqlite3.connect(str(path))
    try:
        return {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    finally:
        db.close()


def wait_results(store, n=1, timeout=60):
    """Poll a store that another process is writing until it holds n results."""
    import time

    t = time.time()
    pg = str(store).startswith("postgresql://")
    while time.time() - t < timeout:
        try:
            if (pg or Path(store).exists()) and row_counts(store)["results"] >= n:
                return
        except Exception:  # not created yet, or locked
            pass
        time.sleep(0.05)
    raise AssertionError(f"no results arrived in {store}")


def need_tool(why):
    """Skip, or fail under CI=true (where bootstrap installs the tool)."""
    if os.environ.get("CI"):
        pytest.fail(f"{why} (CI=true: bootstrap installs it)")
    pytest.skip(why)


def need_nuttx():
    """The NuttX trees that ./bootstrap test unpacks into the cache, or skip: where bootstrap had
    neither the snapshot nor a network to clone them it says so in the cache (no missing install,
    so a skip even under CI=true); otherwise their absence is (need_tool)."""
    from tickmark.targets import nuttx

    tree, apps = nuttx.default_trees()
    if (tree / "sched" / "Kconfig").is_file() and (apps / "Makefile").is_file():
        return
    unavailable = tree.parent / "unavailable"
    if unavailable.is_file():
        pytest.skip(unavailable.read_text().strip())
    need_tool(f"no NuttX trees in {tree.parent} (./bootstrap test unpacks the snapshot there)")


def need_zephyr():
    """The Zephyr trees that ./bootstrap test unpacks into the cache from the vendored snapshot,
    or a skip naming what to do (a failure under CI=true: need_tool)."""
    from tickmark.targets import zephyr

    tree, cmsis = zephyr.default_trees()
    if not (tree / "VERSION").is_file() or not (cmsis / "CMSIS").is_dir():
        need_tool(f"no Zephyr trees in {tree.parent} (./bootstrap test unpacks the snapshot there)")


def wait_run_started(path, timeout=60):
    """Until a harness in another thread or process has created its run in the SQLite store at
    path (it is then about to read the console: the board may start)."""
    import time

    t = time.time()
    while time.time() - t < timeout:
        if Path(path).exists():
            try:
                db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
                try:
                    if db.execute("SELECT count(*) FROM runs").fetchone()[0]:
                        break
                finally:
                    db.close()
            except sqlite3.Error:
                pass
        time.sleep(0.05)
    time.sleep(0.5)


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server of Debian's packages in a temporary directory, for the whole session."""
    from pgserver import PgServer, pg_bindir

    try:
        import psycopg  # noqa: F401
    except ImportError:
        need_tool("psycopg is not installed")
    bindir = pg_bindir()
    if not bindir:
        need_tool("PostgreSQL server binaries (initdb, pg_ctl) not found; install postgresql")
    srv = PgServer(bindir)
    try:
        srv.start()
    except RuntimeError as e:
        srv.stop()
        pytest.fail(f"cannot start PostgreSQL: {e}")
    yield srv
    srv.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_store(request, tmp_path):
    """A factory of empty stores of each kind: new_store("a") -> an SQLite path or a postgresql:// URL."""
    if request.param == "postgresql":
        srv = request.getfixturevalue("pg_server")
        return lambda name="s": srv.new_database()
    return lambda name="s": str(tmp_path / f"{name}.db")


def one_error_line(rc, err, *words):
    """Exit status 2 and exactly one line `tickmark: error: ...` on stderr, naming the given words."""
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tickmark: error: "), err
    for w in words:
        assert w in lines[0], (w, lines[0])
