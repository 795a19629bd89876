"""What the reading commands show (show, runs, info, compare, report, profile --diff, ingest's
echo), one table per kind: where a run ran, its problems, no Python None, no raw terminal
escapes from stored or read text, the rule that tells a run name from a file, the regression
gate, and one line `tickmark: error: ...` instead of a traceback."""

import json

import pytest

RUN = ("run", "-q", "--rounds", "1", "--samples", "3")
ESC = "\x1b]0;PWN\x07"


def one_error_line(rc, err, *words, status=2):
    assert rc == status, err
    lines = err.strip().splitlines()
    assert lines and lines[-1].startswith("tickmark: error: "), err
    assert "Traceback" not in err
    for w in words:
        assert w in lines[-1], (w, lines[-1])


def no_escape(text):
    """No control character but newline reaches the terminal (the \\x1b of a colour is never
    used: the output here is a pipe)."""
    bad = sorted({c for c in text if (ord(c) < 32 and c not in "\n") or 0x7F <= ord(c) <= 0x9F})
    assert not bad, (bad, text[:2000])


def store_readable(cli, *refs):
    rc, out, err = cli("runs")
    assert rc == 0, err
    for r in refs:
        rc, out, err = cli("show", str(r))
        assert rc == 0, err


def _log(tmp_path, lines, name="board.log"):
    p = tmp_path / name
    p.write_text("".join(line + "\n" for line in lines))
    return p


def _tm1(**rec):
    return "TM1 " + json.dumps(rec)


# a log of a board: a minimal hello (no OS, kernel, clock), one benchmark, a cut line
CUT_LOG = [
    _tm1(t="hello", v=1, core="1", arch="x86_64", order=["sys.fast"]),
    _tm1(t="meta", key="sys.fast", bench="sys.fast", unit="call", stat="median"),
    *[_tm1(t="sample", key="sys.fast", i=i, iters=10, ops=10, ns=1000 + i) for i in range(9)],
    _tm1(t="end", key="sys.fast", status="ok"),
    'TM1 {"t":"sample","key":"sys.fast","i":99,"ite',
    _tm1(t="bye", instances=1),
]


@pytest.fixture
def two_runs(env, cli):
    for name in ("a1", "a2"):
        rc, out, err = cli(*RUN, "sys.fast", "ipc.ping", "--name", name)
        assert rc == 0, err


@pytest.fixture
def exported(two_runs, cli):
    rc, doc, err = cli("export", "a1")
    assert rc == 0, err
    return json.loads(doc)


def _imported(cli, tmp_path, doc, name):
    doc = json.loads(json.dumps(doc))
    doc["run"]["name"] = name
    p = tmp_path / f"{name}.json"
    p.write_text(json.dumps(doc))
    rc, out, err = cli("import", str(p))
    assert rc == 0, err
    return p


# ---- where a run ran: show's header and runs' target column ----

TARGETS = ["ssh://root@board", "serial:/dev/ttyUSB0?baud=115200", "qemu-system:aarch64?os=linux"]


@pytest.mark.parametrize("uri", TARGETS)
def test_show_and_runs_say_where_a_run_ran(exported, cli, tmp_path, uri):
    doc = json.loads(json.dumps(exported))
    doc["run"]["fingerprint"]["target_uri"] = uri
    doc["run"]["fingerprint"]["host"] = "laptop"
    _imported(cli, tmp_path, doc, "remote")
    rc, out, err = cli("show", "remote")
    assert rc == 0, err
    assert f"target {uri} (driven from laptop)" in out.splitlines()[1]
    rc, out, err = cli("show", "a1")
    assert "target local" in out.splitlines()[1]
    rc, out, err = cli("runs")
    line = next(x for x in out.splitlines() if " remote " in x)
    assert uri in line
    assert "target" in out.splitlines()[0]
    assert " local " in next(x for x in out.splitlines() if " a1 " in x)


def test_an_ingested_run_says_which_log_it_was_read_from(env, cli, tmp_path):
    rc, out, err = cli("ingest", str(_log(tmp_path, CUT_LOG)), "--name", "board")
    assert rc == 0, err
    rc, out, err = cli("show", "board")
    assert "target log:" in out.splitlines()[1] and "board.log" in out.splitlines()[1]


# ---- show lists the problems found while reading an ingested log ----


def test_show_lists_the_problems_of_an_ingested_log(env, cli, tmp_path):
    rc, out, err = cli("ingest", str(_log(tmp_path, CUT_LOG)), "--name", "board")
    assert rc == 0, err
    rc, out, err = cli("show", "board")
    assert rc == 0, err
    assert "problem: line 13: bad JSON" in out
    rc, out, err = cli("report", "board", "-o", str(tmp_path / "r.md"))
    assert rc == 0, err
    assert "problem: line 13: bad JSON" in (tmp_path / "r.md").read_text()


def test_show_lists_the_first_problems_and_counts_the_rest(env, cli, tmp_path):
    junk = ['TM1 {"t":"sample","key":"sys.fast","i":99,"ite'] * 25
    rc, out, err = cli("ingest", str(_log(tmp_path, CUT_LOG[:-1] + junk + CUT_LOG[-1:])), "--name", "board")
    assert rc == 0, err
    rc, out, err = cli("show", "board")
    assert out.count("problem: line") == 10
    assert "... and 16 more problem(s)" in out


# ---- Python's None never reaches the reader ----

NONE_VIEWS = [
    ("show", "board"),
    ("runs",),
    ("show", "--counters", "board"),
    ("compare", "board", "board"),
    ("report", "board", "-o", "{tmp}/r.md"),
    ("report", "board", "-o", "{tmp}/r.html"),
    ("info",),
]


@pytest.mark.parametrize("args", NONE_VIEWS, ids=[" ".join(a) for a in NONE_VIEWS])
def test_python_none_never_reaches_the_reader(env, cli, tmp_path, args):
    rc, out, err = cli("ingest", str(_log(tmp_path, CUT_LOG)), "--name", "board")
    assert rc == 0, err
    args = [a.format(tmp=tmp_path) for a in args]
    rc, out, err = cli(*args)
    assert rc == 0, err
    text = out + err + "".join(p.read_text() for p in tmp_path.glob("r.*"))
    assert "None" not in text, text[:3000]


# ---- the regression gate fails when the new run did not measure what the baseline did ----


def _crashed(doc):
    r = next(r for r in doc["results"] if r["key"] == "sys.fast")
    r.update(status="crashed", reason="SIGSEGV", samples=[], stats={})


def _no_samples(doc):
    r = next(r for r in doc["results"] if r["key"] == "sys.fast")
    r.update(samples=[], stats={})


def _left_out(doc):
    doc["results"] = [r for r in doc["results"] if r["key"] != "sys.fast"]


def _incomplete(doc):
    doc["run"]["status"] = "incomplete"
    doc["run"]["notes"]["incomplete"] = "round 1: tickmark-core exited with status 3 without finishing"


GATE = [
    # (what B did, rc, words in the gate's line)
    (None, 0, "no regression above 5%"),
    (_crashed, 1, "sys.fast (crashed)"),
    (_no_samples, 1, "sys.fast (no samples)"),
    (_left_out, 1, "sys.fast (not in B)"),
    (_incomplete, 1, "the gate cannot pass an unfinished run"),
]


@pytest.mark.parametrize("fmt", ["table", "json"])
@pytest.mark.parametrize("mutate,rc,says", GATE, ids=[getattr(g[0], "__name__", "same") for g in GATE])
def test_the_gate_fails_when_the_new_run_did_not_measure(exported, cli, tmp_path, mutate, rc, says, fmt):
    doc = json.loads(json.dumps(exported))
    if mutate:
        mutate(doc)
    _imported(cli, tmp_path, doc, "new")
    got, out, err = cli("compare", "--baseline", "a1", "new", "--fail-above", "5%", "--format", fmt)
    assert got == rc, err
    assert says in err, err
    assert "Traceback" not in err
