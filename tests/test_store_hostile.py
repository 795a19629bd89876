"""Hostile stores, one table per kind: a store file replaced or deleted while a run writes to it
(its write-ahead log is never applied to another file), store URLs of other schemes, reading
commands that never create anything (an empty SQLite file, an empty PostgreSQL database, a role
that may only read), a full disk, and stores edited by hand (a table or column gone, a value of
the wrong type, a time out of range): each case gives the correct behaviour or exactly one line
`tickmark: error: ...` with exit status 2."""

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import (
    ROOT,
    copy_store,
    need_tool,
    one_error_line,
    synthetic_store,
)
from writerfix import RUN, make_backup, writing_run

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


def runs_and_integrity(path):
    """(number of runs, PRAGMA integrity_check) of an SQLite store, read without tickmark."""
    db = sqlite3.connect(str(path))
    try:
        return db.execute("SELECT count(*) FROM runs").fetchone()[0], db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()


# ---- the store file replaced or deleted while a run writes: its log is never applied to another file ----


@pytest.fixture(scope="module")
def backup_store(tmp_path_factory):
    """A store of 33 runs (the backup that is restored), its log folded in -> its path."""
    return make_backup(tmp_path_factory.mktemp("backup"), 33)


def _restore(backup, store):
    """A backup put in place of the store as a restore or a sync tool does it: a new file renamed over it."""
    shutil.copy(backup, f"{store}.restoring")
    os.rename(f"{store}.restoring", store)


def _writer(store):
    """Another process that wrote a run into the store and holds it open (its log not written
    back) -> the process, once the run is stored."""
    code = (
        "import sys, time\n"
        "from tickmark.store import Store\n"
        "s = Store(sys.argv[1])\n"
        "s.create_run(name='held', patterns=['x'], status='complete')\n"
        "print('held', flush=True)\n"
        "time.sleep(120)\n"
    )
    envv = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    p = subprocess.Popen([sys.executable, "-c", code, str(store)], stdout=subprocess.PIPE, text=True, env=envv)
    assert p.stdout.readline().strip() == "held"
    return p


def _kill(p):
    p.kill()
    p.wait()


def test_a_store_replaced_under_a_run_keeps_the_replacement_whole(env, cli, backup_store):
    rc, out, err = cli(*RUN, "sys.fast", "--name", "before")
    assert rc == 0, err
    p = writing_run(env)
    _restore(backup_store, env)
    out, err = p.communicate(timeout=120)
    one_error_line(p.returncode, err, "deleted, replaced or emptied")
    assert not Path(f"{env}-wal").exists()  # the writer removed the log it wrote
    rc, out, err = cli("runs")
    assert rc == 0 and out.count(" complete ") == 33 and "victim" not in out, out
    assert runs_and_integrity(env) == (33, "ok")


def test_a_reader_meanwhile_is_told_who_writes_the_old_file(env, cli, backup_store):
    p = writing_run(env, slow=20)
    try:
        _restore(backup_store, env)
        rc, out, err = cli("runs")  # the writer is in its slow instance: it has not noticed yet
        one_error_line(rc, err, f"process {p.pid} was writing to it", "belongs to the old file")
    finally:
        _kill(p)
    rc, out, err = cli("runs")  # the writer was killed: its log, bound to the old file, is removed
    assert rc == 0 and out.count(" complete ") == 33, err + out
    assert runs_and_integrity(env) == (33, "ok")


def test_a_writer_killed_after_its_store_was_replaced(env, cli, backup_store):
    copy_store(backup_store, env)
    cli("runs")
    w = _writer(env)
    _restore(backup_store, env)
    _kill(w)
    assert Path(f"{env}-wal").exists()  # left by the killed writer, bound to the old file
    rc, out, err = cli("runs")
    assert rc == 0 and out.count(" complete ") == 33 and "held" not in out, err + out
    assert runs_and_integrity(env) == (33, "ok")


@pytest.mark.parametrize("killed", [False, True], ids=["writer-ends", "writer-killed"])
def test_a_new_store_where_one_was_deleted_gets_no_ghost_run(env, cli, killed):
    if killed:
        rc, out, err = cli(*RUN, "sys.fast", "--name", "old")
        assert rc == 0, err
        w = _writer(env)
        env.unlink()
        _kill(w)
    else:
        p = writing_run(env)
        env.unlink()
        out, err = p.communicate(timeout=120)
        one_error_line(p.returncode, err, "deleted, replaced or emptied")
        assert not Path(f"{env}-wal").exists()
    rc, out, err = cli(*RUN, "sys.fast", "--name", "fresh")
    assert rc == 0, err
    rc, out, err = cli("runs")
    assert rc == 0 and "fresh" in out and "held" not in out and "victim" not in out and "old" not in out, out
    assert runs_and_integrity(env) == (1, "ok")


def test_a_copy_of_a_store_with_its_log_keeps_what_the_log_holds(env, cli, tmp_path):
    """The log is bound to its file, but a copy of both (cp -a, which copies the binding too) is
    the same store: its log is applied."""
    rc, out, err = cli(*RUN, "sys.fast", "--name", "first")
    assert rc == 0, err
    w = _writer(env)
    try:
        (tmp_path / "copy").mkdir()
        for suffix in ("", "-wal"):
            shutil.copy2(f"{env}{suffix}", tmp_path / "copy" / f"results.db{suffix}")  # xattrs too
    finally:
        _kill(w)
    rc, out, err = cli("--store", str(tmp_path / "copy" / "results.db"), "runs")
    assert rc == 0 and "first" in out and "held" in out, err + out


# ---- store URLs: another scheme is never a file name; sqlite: URLs are files ----

STORE_URLS = [
    # (--store, what happens: a path the store is made at, or the words of the error)
    ("mysql://u:S3cret@db.lab/tm", "scheme 'mysql' are not supported"),
    ("http://example.com/x.db", "scheme 'http' are not supported"),
    ("redis://:S3cret@h:6379/0", "scheme 'redis' are not supported"),
    ("sqlite:rel.db", "bad store URL (sqlite:...)"),
    ("sqlite://", "bad store URL (sqlite:...)"),
    ("SQLite:///x.db", "bad store URL (SQLite:...)"),
    ("postgresql:tm", "bad store URL (postgresql:...)"),
    ("sqlite:///rel.db", "rel.db"),
    ("sqlite:///sub/rel.db", "sub/rel.db"),
    ("sqlite:////ABS/abs.db", "abs.db"),
]


@pytest.mark.parametrize("url,what", STORE_URLS, ids=[u for u, _ in STORE_URLS])
def test_store_urls(env, cli, tmp_path, monkeypatch, url, what):
    monkeypatch.chdir(tmp_path)
    url = url.replace("/ABS", str(tmp_path))
    for args in ((*RUN, "sys.fast", "--name", "u"), ("runs",), ("show", "u")):
        rc, out, err = cli("--store", url, *args)
        if what.endswith(".db"):
            assert rc == 0, err
        else:
            one_error_line(rc, err, what)
            assert "S3cret" not in err
    made = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.name != "results.db")
    if what.endswith(".db"):
        assert (tmp_path / what).is_file() and not (tmp_path / "sqlite:").exists(), made
        rc, out, err = cli("--store", str(tmp_path / what), "show", "u")
        assert rc == 0 and "'u'" in out
        rc, out, err = cli("--store", url, "export", "u", "-o", str(tmp_path / what))
        one_error_line(rc, err, "is a file of the result store")
    else:
        assert made == [], made  # nothing made of the URL's parts


def test_tickmark_store_of_another_scheme(env, cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TICKMARK_STORE", "mysql://u:S3cret@db.lab/tm")
    rc, out, err = cli("runs")
    one_error_line(rc, err, "scheme 'mysql'")
    assert "S3cret" not in err and not list(tmp_path.iterdir())


# ---- reading commands never create anything ----

READERS = [["runs"], ["show"], ["export", "latest"], ["report"], ["history", "sys.fast"], ["compare", "a", "b"]]


@pytest.mark.parametrize("args", READERS, ids=[a[0] for a in READERS])
def test_reading_an_empty_sqlite_file_creates_nothing(env, cli, tmp_path, args):
    empty = tmp_path / "empty.db"
    empty.touch()
    empty.chmod(0o444)
    rc, out, err = cli("--store", str(empty), *args)
    one_error_line(rc, err, "holds no tickmark tables")
    assert empty.stat().st_size == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


def _role(srv, url, name, grant_select):
    """A login role of the PostgreSQL server that may only read (SELECT on what exists, no CREATE) -> URL as it."""
    import psycopg

    with psycopg.connect(srv.url(), autocommit=True) as c:
        c.execute(f'CREATE ROLE "{name}" LOGIN')
    with psycopg.connect(url, autocommit=True) as c:
        c.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        if grant_select:
            c.execute(f'GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{name}"')
    return url.replace("tickmark@", f"{name}@")


def _tables(url):
    import psycopg

    with psycopg.connect(url, autocommit=True) as c:
        return c.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'").fetchall()


@pytest.mark.parametrize("args", READERS, ids=[a[0] for a in READERS])
def test_reading_an_empty_postgresql_database_creates_nothing(env, cli, pg_server, args):
    url = pg_server.new_database()
    rc, out, err = cli("--store", url, *args)
    one_error_line(rc, err, "holds no tickmark tables")
    assert _tables(url) == []


def test_a_postgresql_role_that_may_only_read(env, cli, pg_server):
    empty, filled = pg_server.new_database(), pg_server.new_database()
    rc, out, err = cli("--store", filled, *RUN, "sys.fast", "--name", "pg")
    assert rc == 0, err
    ro_empty = _role(pg_server, empty, f"ro_{os.getpid()}_a", grant_select=False)
    ro_filled = _role(pg_server, filled, f"ro_{os.getpid()}_b", grant_select=True)
    for args in (
        ["runs"],
        ["show", "pg"],
        ["history", "sys.fast"],
        ["export", "pg"],
        ["report", "pg", "--format", "md"],
    ):
        rc, out, err = cli("--store", ro_filled, *args)
        assert rc == 0 and "Traceback" not in err, err
        rc, out, err = cli("--store", ro_empty, *args)
        one_error_line(rc, err, "holds no tickmark tables")
    for url, says in ((ro_empty, "permission denied for schema public"), (ro_filled, "permission denied for table")):
        rc, out, err = cli("--store", url, *RUN, "sys.fast")
        one_error_line(rc, err, "the database role is not allowed to do this", says, "INSERT and UPDATE")
        assert "file and folder" not in err and "LINE 1" not in err
    assert _tables(empty) == []


# ---- a full disk: an intact store is read, never called corrupt ----


def _on_a_full_disk(store, argvs, tmp_path):
    """Each argv run against a copy of `store` on a tmpfs (a private mount) with no room left ->
    [CompletedProcess]."""
    if not shutil.which("unshare"):
        need_tool("unshare (util-linux) not found")
    db = sqlite3.connect(str(store))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    mnt = tmp_path / "full"
    mnt.mkdir(parents=True)
    py = f"{sys.executable} -m tickmark.cli --store {mnt}/s.db"
    script = (
        f"mount -t tmpfs -o size=1m tmpfs {mnt} || exit 99; cp {store} {mnt}/s.db; "
        f"head -c 2M /dev/zero > {mnt}/filler 2>/dev/null; "
        + "; ".join(f"{py} {a} > {mnt}.out{i} 2> {mnt}.err{i}; echo $? > {mnt}.rc{i}" for i, a in enumerate(argvs))
    )
    envv = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    r = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, env=envv, timeout=300)
    if r.returncode == 99:
        pytest.skip(f"cannot mount a tmpfs in a private namespace: {r.stderr.strip()}")
    return [
        (int(Path(f"{mnt}.rc{i}").read_text()), Path(f"{mnt}.out{i}").read_text(), Path(f"{mnt}.err{i}").read_text())
        for i in range(len(argvs))
    ]


def test_a_store_on_a_full_disk_is_read(two_runs, tmp_path):
    got = _on_a_full_disk(two_runs, ["runs", "show a1", "export a2", "compare a1 a2", "history sys.fast"], tmp_path)
    for rc, _out, err in got:
        assert rc == 0 and not err.strip(), err
    assert " a1 " in got[0][1] and " a2 " in got[0][1]
    got = _on_a_full_disk(two_runs, ["run -q --rounds 1 --samples 2 sys.fast"], tmp_path / "w")
    one_error_line(got[0][0], got[0][2])
    assert "corrupt" not in got[0][2]


@pytest.fixture(scope="module")
def two_runs_store(tmp_path_factory):
    return synthetic_store(
        tmp_path_factory.mktemp("two"), *[(*RUN, "sys.fast", "ipc.ping", "--name", n) for n in ("a1", "a2")]
    )


@pytest.fixture
def two_runs(env, two_runs_store):
    copy_store(two_runs_store, env)
    return env


# ---- stores edited by hand: corrupt, never read half-way ----

EDITS = [
    # (the edit, the commands that must call the store corrupt, the words they say)
    ("DROP TABLE samples", "runs show history export", "its table samples is missing"),
    ("DROP TABLE hists", "runs show history export", "its table hists is missing"),
    ("ALTER TABLE samples DROP COLUMN cyc", "runs show history export", "table samples has no column cyc"),
    ("ALTER TABLE runs DROP COLUMN notes", "runs show history export", "table runs has no column notes"),
    ("UPDATE samples SET ns = 'abc'", "show export compare report", "column ns holds text"),
    ("UPDATE samples SET iters = 1.5", "show export compare report", "column iters holds real"),
    ("UPDATE samples SET cyc = 'x'", "show export compare report", "column cyc holds text"),
    ("UPDATE runs SET started = 1e300", "runs show history export junit", "started holds 1e+300, not a time"),
    ("UPDATE runs SET started = -1", "runs show history export junit", "started holds -1.0, not a time"),
    ("UPDATE runs SET finished = 1e20", "runs show history export junit", "finished holds 1e+20, not a time"),
]
COMMANDS = {
    "runs": ["runs"],
    "show": ["show", "a1"],
    "history": ["history", "sys.fast"],
    "export": ["export", "a1"],
    "junit": ["export", "a1", "--format", "junit"],
    "compare": ["compare", "a1", "a2"],
    "report": ["report", "a1", "--format", "md"],
}


@pytest.mark.parametrize("sql,commands,says", EDITS, ids=[e[0] for e in EDITS])
def test_a_store_edited_by_hand_is_corrupt(two_runs, cli, sql, commands, says):
    db = sqlite3.connect(str(two_runs))
    db.execute(sql)
    db.commit()
    db.close()
    for name in commands.split():
        rc, out, err = cli(*COMMANDS[name])
        one_error_line(rc, err, "is corrupt", says)
