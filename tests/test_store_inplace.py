"""The store file changed in place while a run writes to it: a backup copied over it (`cp
backup.db results.db`, which keeps the file's inode) or the file emptied. The writer notices
before its next write, stops with one line, and leaves the file as it was put there: the
backup's runs readable, an emptied file empty (never SQLite's log of the old contents written
into it)."""

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from conftest import one_error_line, tickmark_proc
from writerfix import RUN, make_backup, writing_run


@pytest.fixture(scope="module")
def backup(tmp_path_factory):
    """A store of 12 runs with its log folded in (a backup as a user keeps one) -> its path."""
    return make_backup(tmp_path_factory.mktemp("backup"), 12)


def _before():
    """A run stored by another process (this one holds no connection to the store meanwhile)."""
    p = tickmark_proc((*RUN, "sys.fast", "--name", "before"))
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err


def _check(path):
    db = sqlite3.connect(str(path))
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0], db.execute("SELECT name FROM runs").fetchall()
    finally:
        db.close()


def test_a_backup_copied_over_the_store_in_place(env, cli, backup):
    _before()
    p = writing_run(env)
    inode = os.stat(env).st_ino
    shutil.copyfile(backup, env)  # what cp does: the same file, its bytes replaced
    assert os.stat(env).st_ino == inode
    out, err = p.communicate(timeout=120)
    one_error_line(p.returncode, err, "copied over it", "while this command wrote to it")
    assert not Path(f"{env}-wal").exists()
    ok, names = _check(env)
    assert ok == "ok" and sorted(n for (n,) in names) == sorted(f"b{i}" for i in range(12))
    rc, out, err = cli("runs")
    assert rc == 0 and out.count(" complete ") == 12 and "victim" not in out, err + out
    rc, out, err = cli(*RUN, "sys.fast", "--name", "after")  # the restored store takes new runs
    assert rc == 0, err
    assert _check(env)[0] == "ok"


def test_a_store_emptied_under_a_run_stays_empty(env, cli):
    _before()
    p = writing_run(env)
    os.truncate(env, 0)
    out, err = p.communicate(timeout=120)
    one_error_line(p.returncode, err, "emptied")
    assert os.path.getsize(env) == 0  # nothing of the old store written back into it
    rc, out, err = cli(*RUN, "sys.fast", "--name", "fresh")
    assert rc == 0, err
    ok, names = _check(env)
    assert ok == "ok" and names == [("fresh",)]
