"""Stores in trouble: read-only stores, names that keep nothing, damaged stores, trouble in the
middle of a run, PostgreSQL URLs, reading commands that never create a store."""

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import need_tool, row_counts, tickmark_proc, wait_results
from hostilefix import (  # noqa: F401
    RUN,
    _children,
    _store,
    _tmpfs_script,
    _wait_for,
    base_store,
    exported,
    needs_cc,
    one_error_line,
    real,
    store_readable,
)

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


def _read_only_argv(folder, argv):
    """argv that runs with `folder` read-only: a read-only bind mount in a private namespace for
    root (who may write anywhere), file modes for anyone else."""
    if os.geteuid() != 0:
        for p in folder.iterdir():
            p.chmod(0o444)
        folder.chmod(0o555)
        return argv
    if not shutil.which("unshare"):
        need_tool("unshare (util-linux) not found")
    script = 'mount --bind -o ro "$0" "$0" && exec "$@"'
    return ["unshare", "-rm", "sh", "-c", script, str(folder), *argv]


def test_read_only_store_is_readable_and_says_why_it_cannot_be_written(env, cli, tmp_path):
    rc, out, err = cli(*RUN, "sys.fast", "ipc.ping", "--name", "x")
    assert rc == 0, err
    ro = tmp_path / "ro"
    ro.mkdir()
    import sqlite3

    db = sqlite3.connect(str(env))  # as a store is when its last user closed it: WAL folded in
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    shutil.copy(env, ro / "results.db")
    db = str(ro / "results.db")
    py = [sys.executable, "-m", "tickmark.cli", "--store", db]
    envv = dict(os.environ, PYTHONPATH=str(Path(__file__).parent.parent / "src"))
    try:
        for args in (["runs"], ["show", "x"], ["export", "x"], ["compare", "x", "x"]):
            r = subprocess.run(_read_only_argv(ro, py + args), capture_output=True, text=True, env=envv)
            assert r.returncode == 0, (args, r.stderr)
        r = subprocess.run(_read_only_argv(ro, py + list(RUN) + ["sys.fast"]), capture_output=True, text=True, env=envv)
        one_error_line(r.returncode, r.stderr, "is read-only", "cannot write here")
        (tmp_path / "bad.db").write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)
        rc, out, err = cli("--store", str(tmp_path / "bad.db"), "runs")
        one_error_line(rc, err, "unreadable or corrupt")
    finally:
        if os.geteuid() != 0:
            ro.chmod(0o755)


def test_names_with_control_characters(env, cli):
    for name in ("a\x1b[2Jb", "two\nlines", "bell\x07"):
        rc, out, err = cli(*RUN, "sys.fast", "--name", name)
        one_error_line(rc, err, "control characters")
        assert "\x1b" not in err and "\x07" not in err and err.count("\n") == 1
    st = _store()
    st.create_run(name="old\x1b[31mred", patterns=["p\x1b[2J"], status="complete")  # an older store
    for args in (["runs"], ["show", "old\x1b[31mred"]):
        rc, out, err = cli(*args)
        assert rc == 0, err
        assert "\x1b" not in out and "old\\x1b[31mred" in out


STORE_PATHS = [
    (":memory:", "would keep nothing"),
    ("/dev/null", "not a regular file"),
    ("/dev/full", "not a regular file"),
    ("/dev/zero", "not a regular file"),
    ("x" * 300 + ".db", "File name too long"),
]


@pytest.mark.parametrize("path,says", STORE_PATHS, ids=[p[:12] for p, _ in STORE_PATHS])
def test_store_names_that_keep_nothing_are_refused(env, cli, tmp_path, monkeypatch, path, says):
    monkeypatch.chdir(tmp_path)
    journal = [os.path.exists(f"{d}-journal") for d in ("/dev/null", "/dev/full", "/dev/zero")]
    for args in (RUN + ("sys.fast",), ("runs",), ("show",)):
        rc, out, err = cli("--store", path, *args)
        one_error_line(rc, err, says)
        assert "results" not in out
    assert not list(tmp_path.iterdir())
    assert [os.path.exists(f"{d}-journal") for d in ("/dev/null", "/dev/full", "/dev/zero")] == journal


CORRUPTIONS = [
    ("fingerprint not JSON", "UPDATE runs SET fingerprint = '{bad'"),
    ("fingerprint a list", "UPDATE runs SET fingerprint = '[1]'"),
    ("notes a number", "UPDATE runs SET notes = '7'"),
    ("params a string", "UPDATE results SET params = '\"x\"'"),
    ("name a blob", "UPDATE runs SET name = x'41ff00'"),
    ("started a word", "UPDATE runs SET started = 'yesterday'"),
    ("hello not UTF-8", "UPDATE runs SET hello = CAST(x'7b22ff227d' AS TEXT)"),
    ("key a blob", "UPDATE results SET key = x'00ff' WHERE key = 'sys.fast'"),
    ("sample extra a list", "UPDATE samples SET extra = '[]'"),
    ("sample ns a word", "UPDATE samples SET ns = 'abc'"),
    ("histogram not JSON", "UPDATE hists SET data = 'nope'"),
]


@pytest.mark.parametrize("label,sql", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_hand_edited_store_is_corrupt_not_a_traceback(env, cli, label, sql):
    import sqlite3

    rc, out, err = cli(*RUN, "sys.fast", "ipc.ping", "--name", "base")
    assert rc == 0, err
    db = sqlite3.connect(str(env))
    db.execute(sql)
    db.commit()
    db.close()
    said = []
    for args in (["runs"], ["show", "1"], ["export", "1"], ["compare", "1", "1"], ["report", "1", "--format", "md"]):
        rc, out, err = cli(*args)
        if rc != 0:
            one_error_line(rc, err, "is corrupt")
            said.append(err)
    assert said, "the damage went unnoticed"


def test_fuzz_damaged_store_files(env, cli, tmp_path):
    """Random bytes of the first pages overwritten: every command answers, or says the store is
    unreadable or corrupt in one line."""
    import random
    import sqlite3

    rc, out, err = cli(*RUN, "sys.fast", "ipc.ping", "lat.sweep", "--name", "base")
    assert rc == 0, err
    db = sqlite3.connect(str(env))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    good = env.read_bytes()
    rng = random.Random(19)
    damaged = tmp_path / "damaged.db"
    answered = 0
    for _ in range(150):
        data = bytearray(good)
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(min(len(data), 3 * 4096))] = rng.randrange(256)
        for f in (damaged, Path(f"{damaged}-wal"), Path(f"{damaged}-shm")):
            f.unlink(missing_ok=True)
        damaged.write_bytes(bytes(data))
        for args in (["runs"], ["show", "latest"], ["export", "latest"]):
            rc, out, err = cli("--store", str(damaged), *args)
            if rc:
                one_error_line(rc, err)
                assert "corrupt" in err or "no run" in err or "not a tickmark store" in err, err
            answered += rc == 0
    assert answered > 100  # most damage misses what these commands read


def _hold_store(path, seconds):
    """Another process holding the store's write lock for `seconds`."""
    code = (
        "import sqlite3, sys, time\n"
        "db = sqlite3.connect(sys.argv[1], timeout=60, isolation_level=None)\n"
        "db.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(float(sys.argv[2]))\n"
        "db.execute('ROLLBACK')\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code, str(path), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "held"
    return p


def _run_then(env, action, mode="slowkey=ipc.ping,slow=2", **kw):
    """A run of sys.fast then ipc.ping (which takes 2 s); action() once sys.fast is stored."""
    p = tickmark_proc(RUN + ("sys.fast", "ipc.ping", "--seed", "1"), env={"FAKECORE_MODE": mode}, **kw)
    try:
        wait_results(env)
        held = action()
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    return p.returncode, out, err, held


def test_store_busy_in_the_middle_of_a_run(env, cli, monkeypatch):
    # busy after 4 s instead of 30: ipc.ping's end (< 2 s after the lock is taken) waits 4 s for
    # the lock and fails; the run is then closed as incomplete once the lock is let go (8 s)
    monkeypatch.setenv("TICKMARK_BUSY_TIMEOUT", "4")
    rc, out, err, holder = _run_then(env, lambda: _hold_store(env, 8))
    holder.wait()
    one_error_line(rc, err, "is busy")
    run = _store().run("latest")
    assert run["status"] == "incomplete" and "busy" in run["notes"]["incomplete"]
    store_readable(cli, "latest")


def test_a_bad_busy_timeout_is_one_error_line(env, cli, monkeypatch):
    monkeypatch.setenv("TICKMARK_BUSY_TIMEOUT", "soon")
    rc, out, err = cli(*RUN, "sys.fast")
    one_error_line(rc, err, "bad TICKMARK_BUSY_TIMEOUT 'soon'")


def _on_a_small_disk(store, argv, tmp_path, free_kib=300):
    """argv with a copy of `store` on a 2 MiB tmpfs (a private mount) that has free_kib left;
    the copy comes back (with its log) when the command ends -> (CompletedProcess, its path)."""
    if not shutil.which("unshare"):
        need_tool("unshare (util-linux) not found")
    import sqlite3

    mnt, back = tmp_path / "small", tmp_path / "back"
    mnt.mkdir()
    back.mkdir()
    db = sqlite3.connect(str(store))  # the log folded in: the copy is the whole store
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    script = (
        'm="$0"; b="$2"; mount -t tmpfs -o size=2m tmpfs "$m" || exit 99; cp "$1" "$m/s.db"; shift 2; '
        f'head -c {2048 - free_kib}K /dev/zero > "$m/filler"; cd "$m"; '
        '"$@" --store "$m/s.db"; rc=$?; cp "$m"/s.db "$m"/s.db-wal "$b"/; exit $rc'
    )
    return _tmpfs_script(script, [str(mnt), str(store), str(back)], argv), back / "s.db"


def test_disk_full_in_the_middle_of_a_run(env, cli, tmp_path):
    rc, out, err = cli(*RUN, "sys.fast", "--name", "before")
    assert rc == 0, err
    argv = ["run", "-q", "--rounds", "3", "--samples", "200", "*", "--name", "big"]
    r, after = _on_a_small_disk(env, argv, tmp_path)
    one_error_line(r.returncode, r.stderr, "full")
    os.environ["TICKMARK_STORE"] = str(after)
    run = _store().run("big")
    assert run["status"] == "incomplete"  # closed, or read as abandoned: never 'running'
    rc, out, err = cli("show", "big")
    assert rc == 0 and ("full" in out or "abandoned" in out), out
    store_readable(cli, "before")


def test_disk_full_during_an_import_says_so(exported, env, cli, tmp_path):
    exported["run"]["name"] = "copy"
    r0 = exported["results"][0]
    r0["samples"] = [dict(r0["samples"][0], i=i, round=1 + i // 1000) for i in range(20000)]
    doc = tmp_path / "big.json"
    doc.write_text(json.dumps(exported))
    before = row_counts(env)
    r, after = _on_a_small_disk(env, ["import", str(doc)], tmp_path)
    one_error_line(r.returncode, r.stderr, "full")
    assert "cannot rollback" not in r.stderr
    assert row_counts(after) == before
    os.environ["TICKMARK_STORE"] = str(after)
    store_readable(cli, "base")


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_store_deleted_in_the_middle_of_a_run(env, cli, how):
    def damage():
        if how == "deleted":
            for f in (env, Path(f"{env}-wal"), Path(f"{env}-shm")):
                f.unlink(missing_ok=True)
        else:
            os.truncate(env, 0)

    rc, out, err, _ = _run_then(env, damage)
    one_error_line(rc, err, "deleted, replaced or emptied")


def test_a_run_whose_harness_was_killed_is_abandoned(env, cli):
    p = tickmark_proc(RUN + ("sys.fast", "ipc.ping", "--seed", "1"), env={"FAKECORE_MODE": "slowkey=ipc.ping"})
    try:
        wait_results(env)
        core = _wait_for(lambda: _children(p.pid))[0]
        p.kill()
        p.wait()
    finally:
        if p.poll() is None:
            p.kill()
        os.kill(core, signal.SIGKILL)
    rc, out, err = cli("runs")
    assert rc == 0 and "incomplete" in out and "running" not in out, out
    rc, out, err = cli("show", "latest")
    assert rc == 0 and f"abandoned: the tickmark process writing it (PID {p.pid} on" in out, out
    rc, out, err = cli("compare", "latest", "latest")
    assert rc == 0 and "is incomplete" in err


PG_URLS = [
    ("postgresql://u:S3cret@127.0.0.1:99999/db", "the port must be a number, 1..65535"),
    ("postgresql://u:S3cret@127.0.0.1:0/db", "the port must be a number, 1..65535"),
    ("postgresql://u:S3cret@127.0.0.1:²/db", "the port must be a number, 1..65535"),
    ("postgresql://u:S3cret%ZZ@127.0.0.1:1/db", "cannot connect to store postgresql://u:***@127.0.0.1:1/db"),
    ("postgresql://u@127.0.0.1:1/db?sslmode=x&password=S3cret", "password=***"),
    ("postgresql://u@127.0.0.1:1/db?PASSWORD=S3cret&sslmode=disable", "PASSWORD=***"),
    ("postgresql://u:S3cret@127.0.0.1:1/db", "cannot connect to store postgresql://u:***@127.0.0.1:1/db"),
]


@pytest.mark.parametrize("url,says", PG_URLS, ids=[u[13:50] for u, _ in PG_URLS])
def test_postgresql_urls_never_show_the_password(env, cli, url, says):
    if importlib.util.find_spec("psycopg") is None:
        need_tool("psycopg is not installed (pip install -e .)")
    for args in (["runs"], [*RUN, "sys.fast"]):
        rc, out, err = cli("--store", url, *args)
        one_error_line(rc, err, says)
        assert "S3cret" not in out + err


@needs_cc
@pytest.mark.parametrize("pattern", ["--no-fork", "--text", "--samples", "--iters=5", "-x"])
def test_a_pattern_is_never_an_option_of_the_core(real, cli, pattern):
    rc, out, err = cli(*RUN, "--", pattern)
    one_error_line(rc, err)
    assert "bad pattern" in err or "no benchmark matches" in err or "needs a value" in err, err
    rc, out, err = cli("runs")
    assert "no runs stored yet" in out


def test_an_ingested_log_names_the_cores_error_first(env, cli, tmp_path):
    log = tmp_path / "old.log"
    log.write_text('TM1 {"t":"error","reason":"record too long"}\nTM1 {"t":"end","key":"a","status":"skip"}\n')
    rc, out, err = cli("ingest", str(log))
    one_error_line(rc, err, "no tickmark run", "line 1: tickmark-core reported an error: record too long")


def test_a_matrix_whose_core_died_stores_incomplete_runs(env, cli, monkeypatch, capsys):
    monkeypatch.setenv("FAKECORE_MODE", "die=1")
    args = [
        "matrix",
        "--cflags",
        "-O1",
        "--cflags",
        "-O2",
        "-q",
        "--rounds",
        "1",
        "--seed",
        "7",
        "sys.fast",
        "ipc.ping",
    ]
    with pytest.raises(SystemExit) as e:  # the matrix command ends with sys.exit(status)
        cli(*args)
    err = capsys.readouterr().err
    assert e.value.code == 1 and "is incomplete: round 1: tickmark-core exited with status 3" in err, err
    st = _store()
    assert [r["status"] for r in st.runs()] == ["incomplete", "incomplete"]
    assert all("exited with status 3" in r["notes"]["incomplete"] for r in st.runs())


READERS = [["runs"], ["show"], ["export", "latest"], ["compare", "a", "b"], ["report"], ["history", "sys.fast"]]


@pytest.mark.parametrize("args", READERS, ids=[a[0] for a in READERS])
def test_reading_commands_create_no_store_or_folder(env, cli, tmp_path, args):
    missing = tmp_path / "no" / "such" / "folder" / "s.db"
    rc, out, err = cli("--store", str(missing), *args)
    assert rc in (0, 2), err
    assert "Traceback" not in err
    if rc == 0:
        assert "no runs stored yet" in out
    else:
        one_error_line(rc, err)
    assert not (tmp_path / "no").exists(), "a reading command created the store's folder"


def test_tilde_in_store_is_the_home_folder(env, cli, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli("--store", "~/s.db", *RUN, "sys.fast", "--name", "t")
    assert rc == 0, err
    assert (tmp_path / "home" / "s.db").is_file() and not (tmp_path / "~").exists()
    rc, out, err = cli("--store=~/s.db", "show", "t")
    assert rc == 0 and "'t'" in out, err
