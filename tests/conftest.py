import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
FAKECORE = str(Path(__file__).resolve().parent / "fakecore.py")
CORE = ROOT / "src" / "tickmark" / "core"


def fake_core():
    """The synthetic core as a prepared Core of the local target."""
    from tickmark.targets import open_target

    return open_target("local", prebuilt=f"{sys.executable} {FAKECORE}").prepare()


@pytest.fixture(scope="session")
def build_cache(tmp_path_factory):
    """The one core build cache of the session (XDG_CACHE_HOME of every test that builds the real
    core): each variant (compiler, flags, routines, board) is built once, by whichever test needs
    it first, and reused by the others."""
    return tmp_path_factory.mktemp("build-cache")


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
    per session for each set of make arguments -> make_core(*args) = path of tickmark-core.
    A build that only adds sources (MEMFN=, EXTRA_SRCS=) starts from a copy of the plain build's
    folder, so make compiles what it adds and links (as make would in the plain build's folder)."""
    need_cc()
    base = tmp_path_factory.mktemp("make-core")
    built = {}

    def build(*args):
        if args not in built:
            adds_sources = args and all(a.startswith(("MEMFN=", "EXTRA_SRCS=")) for a in args)
            plain = build().parent if adds_sources else None  # first: it takes the next folder name
            out = base / f"v{len(built)}"
            if adds_sources:
                shutil.copytree(plain, out, symlinks=True)  # copy2: the objects keep their times
            cmd = ["make", "-s", "-C", str(CORE), f"O={out}", "WERROR=1", *args]
            res = subprocess.run(cmd, capture_output=True, text=True)
            assert res.returncode == 0, res.stdout + res.stderr
            assert "warning" not in (res.stdout + res.stderr).lower(), res.stdout + res.stderr
            built[args] = out / "tickmark-core"
        return built[args]

    return build


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A private store and the synthetic core for CLI calls."""
    store = tmp_path / "results.db"
    monkeypatch.setenv("TICKMARK_STORE", str(store))
    monkeypatch.setenv("TICKMARK_CORE", f"{sys.executable} {FAKECORE}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("FAKECORE_MODE", raising=False)
    return store


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
