"""Hostile surroundings of a command, one table per kind: a pipe whose reader goes away, a
standard output that cannot hold every character, signals at any moment (while loading, while
waiting on a store), an ignored SIGHUP (nohup), and empty option values. Exit statuses as the
README gives them: 0 done, 1 done but not all of it, 2 error (one line), 130 interrupted."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT, copy_store, one_error_line, synthetic_store, tickmark_proc

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile

RUN = ("run", "-q", "--rounds", "1", "--samples", "3")


@pytest.fixture(scope="module")
def runs_store(tmp_path_factory):
    """Runs a1, a2 and one named with characters outside ASCII, made once for the module."""
    return synthetic_store(
        tmp_path_factory.mktemp("runs"),
        *[(*RUN, "sys.fast", "ipc.ping", "--name", n, "--label", "build=1") for n in ("a1", "a2", "µ-日本")],
    )


@pytest.fixture
def runs(env, runs_store):
    copy_store(runs_store, env)
    return env


def _argv(args):
    return [sys.executable, "-m", "tickmark.cli", *args]


def _env(**kw):
    return dict(os.environ, PYTHONPATH=str(ROOT / "src"), **kw)


# ---- a pipe whose reader has gone (| head): not an error; the command still does its work ----

PIPED = [
    ["runs"],
    ["show", "a1"],
    ["compare", "a1", "a2"],
    ["export", "a1"],
    ["history", "sys.fast"],
    ["report", "a1", "--format", "md"],
    ["info"],
    ["list"],
    [*RUN, "sys.fast", "ipc.ping", "--name", "piped"],
]


@pytest.mark.parametrize("args", PIPED, ids=[a[0] for a in PIPED])
def test_a_pipe_whose_reader_has_gone(runs, cli, args):
    r, w = os.pipe()
    os.close(r)  # the reader is gone before the first line: every write meets EPIPE
    try:
        p = subprocess.run(_argv(args), stdout=w, stderr=subprocess.PIPE, text=True, env=_env(), timeout=300)
    finally:
        os.close(w)
    assert p.returncode == 0 and p.stderr == "", (p.returncode, p.stderr)
    if args[0] == "run":  # the run went on to its end and is stored whole
        rc, out, err = cli("runs")
        assert " complete " in next(line for line in out.splitlines() if " piped " in line), out


def test_standard_output_and_error_into_a_pipe_whose_reader_has_gone(runs, cli):
    """tickmark run ... 2>&1 | head: progress, warnings and the table all meet EPIPE."""
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run(
            _argv(["run", "--rounds", "1", "--samples", "3", "sys.fast", "--name", "both"]),
            stdout=w,
            stderr=w,
            env=_env(),
        )
    finally:
        os.close(w)
    assert p.returncode == 0
    rc, out, err = cli("show", "both")
    assert rc == 0 and "status complete" in out


def test_a_pipe_closed_early_keeps_the_exit_status_of_the_command(runs, cli):
    """An incomplete run (its core died) is still exit status 1 when nobody reads its table."""
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run(
            _argv([*RUN, "sys.fast", "ipc.ping", "--name", "dies"]),
            stdout=w,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(FAKECORE_MODE="die=1"),
        )
    finally:
        os.close(w)
    assert p.returncode == 1 and "Traceback" not in p.stderr, (p.returncode, p.stderr)
    rc, out, err = cli("show", "dies")
    assert rc == 0 and "incomplete" in out


# ---- standard output of another encoding than UTF-8: escapes, never a traceback ----

ENCODED = [
    ["show", "µ-日本"],
    ["runs"],
    ["compare", "a1", "µ-日本"],
    ["report", "µ-日本", "--format", "md"],
    ["export", "µ-日本", "--format", "csv"],
    ["history", "sys.fast"],
    ["list"],
    [*RUN, "sys.fast", "--name", "ü-run"],
]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("args", ENCODED, ids=[a[0] for a in ENCODED])
def test_an_output_of_another_encoding(runs, cli, args, encoding):
    p = subprocess.run(_argv(args), capture_output=True, env=_env(PYTHONIOENCODING=encoding), timeout=300)
    err = p.stderr.decode(encoding)
    assert p.returncode == 0 and "Traceback" not in err, err
    # every byte is of that encoding; Click takes an ASCII standard output for a misconfigured
    # one and writes its lines as UTF-8 there
    out = p.stdout.decode("utf-8" if encoding == "ascii" else encoding)
    if args[0] in ("show", "runs", "compare", "report"):
        assert "\\u65e5\\u672c" in out or "日本" in out and encoding == "ascii", out
    if args[0] == "run":
        rc, out, err = cli("show", "ü-run")
        assert rc == 0 and "status complete" in out


# ---- signals: 130 in every command, also while it loads or waits on a store ----


@pytest.fixture
def silent_server():
    """A TCP server that accepts connections and never answers (a store that hangs) -> its port."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(50)
    conns = []

    def accept():
        while True:
            try:
                conns.append(srv.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield srv.getsockname()[1], conns
    srv.close()
    for c in conns:
        c.close()


WAITING = [["runs"], ["history", "sys.fast"], ["report"], ["import", "DOC"], ["show"], [*RUN, "sys.fast"]]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
@pytest.mark.parametrize("args", WAITING, ids=[a[0] for a in WAITING])
def test_a_signal_while_a_command_waits_on_its_store(runs, cli, tmp_path, silent_server, args, sig):
    pytest.importorskip("psycopg")
    port, conns = silent_server
    (tmp_path / "d.json").write_text(cli("export", "a1")[1])
    argv = [a.replace("DOC", str(tmp_path / "d.json")) for a in args]
    p = tickmark_proc(["--store", f"postgresql://u@127.0.0.1:{port}/db", *argv])
    t = time.time()
    while not conns and time.time() - t < 60:  # loaded, and waiting for the server's answer
        time.sleep(0.05)
    assert conns, "the command never reached its store"
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, (p.returncode, err)
    assert err.strip().splitlines()[-1] == f"tickmark: interrupted{' by ' + sig.name if sig != signal.SIGINT else ''}"
    assert "Traceback" not in err


def _loading_program(tmp_path):
    """A program named `tickmark` that loads the package, says so, and takes its time before the
    command line starts: a signal then lands while it loads."""
    prog = tmp_path / "tickmark"
    prog.write_text(
        "import sys, time\nimport tickmark\nprint('loaded', flush=True)\ntime.sleep(30)\n"
        "from tickmark.cli import main\nsys.exit(main())\n"
    )
    return prog


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
def test_a_signal_while_the_command_line_loads(tmp_path, sig):
    p = subprocess.Popen(
        [sys.executable, str(_loading_program(tmp_path)), "runs"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    assert p.stdout.readline().strip() == "loaded"
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    assert (p.returncode, err) == (130, "tickmark: interrupted\n")


def test_sighup_ignored_under_nohup_stays_ignored(env, cli):
    """nohup tickmark run ...: closing the terminal (SIGHUP) neither stops the run nor the command."""
    p = tickmark_proc(
        [*RUN, "sys.fast", "ipc.ping", "--name", "nohup"],
        env={"FAKECORE_MODE": "slowkey=ipc.ping,slow=3"},
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
    )
    time.sleep(1.5)
    p.send_signal(signal.SIGHUP)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    rc, out, err = cli("show", "nohup")
    assert rc == 0 and "status complete" in out


# ---- empty values: never "not given" ----

EMPTY = [
    ("history", "sys.fast", "--since", ""),
    ("history", "sys.fast", "--target", ""),
    ("history", "sys.fast", "--name", ""),
    ("history", "sys.fast", "--label", ""),
    ("history", "sys.fast", "--by", ""),
    (*RUN, "sys.fast", "--target", ""),
    (*RUN, "--suite", ""),
    (*RUN, "sys.fast", "--name", ""),
    (*RUN, "sys.fast", "--cc", ""),
    (*RUN, "sys.fast", "--memfn", ""),
    (*RUN, ""),
    ("show", "a1", "--beside", ""),
    ("show", ""),
    ("export", "", "--format", "csv"),
    ("export", "a1", "-o", ""),
    ("report", "a1", "-o", ""),
    ("compare", "a1", ""),
    ("compare", "--baseline", "", "a1"),
    ("--store", "", "runs"),
    ("runs", "--store", ""),
    ("matrix", "--cflags", "-O2", "--name", "", "sys.fast"),
    ("ingest", "", "--name", "x"),
    ("import", ""),
    ("profile", "sys.fast", "--run", ""),
    ("campaign", ""),
]


@pytest.mark.parametrize("args", EMPTY, ids=[" ".join(a).replace(" -q --rounds 1 --samples 3", "") for a in EMPTY])
def test_an_empty_value_is_not_a_missing_one(runs, cli, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    before = cli("runs")[1]
    rc, out, err = cli(*args)
    one_error_line(rc, err)
    assert "empty" in err or "bad" in err, err
    assert cli("runs")[1] == before  # nothing ran, nothing was stored
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(("results.db", "cache"))] == []


@pytest.mark.parametrize("args", [(*RUN, "sys.fast", "--cflags", ""), ("history", "sys.fast", "--metric", "")])
def test_an_empty_value_that_means_something(runs, cli, args):
    rc, out, err = cli(*args)
    assert rc == 0, err
