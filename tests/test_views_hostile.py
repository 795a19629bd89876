"""What the reading commands show (show, runs, info, compare, report, profile --diff, ingest's
echo), one table per kind: where a run ran, its problems, no Python None, no raw terminal
escapes from stored or read text, the rule that tells a run name from a file, the regression
gate, and one line `tickmark: error: ...` instead of a traceback."""

import json
import os
import re
import subprocess
import sys
import time

import pytest

from conftest import ROOT, copy_store, synthetic_store, tickmark_proc

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile

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


@pytest.fixture(scope="module")
def two_runs_store(tmp_path_factory):
    """Runs a1 and a2 of the synthetic core, made once for the module -> the store's path."""
    return synthetic_store(
        tmp_path_factory.mktemp("two_runs"), *[(*RUN, "sys.fast", "ipc.ping", "--name", n) for n in ("a1", "a2")]
    )


@pytest.fixture
def two_runs(env, two_runs_store):
    """env's store holding runs a1 and a2 (a copy of the module's)."""
    copy_store(two_runs_store, env)


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


# ---- tracebacks: each of these is one line `tickmark: error: ...` (or a quiet end) ----


def _campaign(tmp_path, baseline):
    p = tmp_path / "c.toml"
    p.write_text(f'name = "c"\nbaseline = {baseline}\n[targets]\nhere = "local"\n[workloads]\nw = ["sys.fast"]\n')
    return str(p)


@pytest.mark.parametrize("baseline", ['["here"]', "{a=1}", "1", "true", '"there"'])
def test_a_campaign_baseline_that_is_not_a_target_name(env, cli, tmp_path, baseline):
    rc, out, err = cli("campaign", _campaign(tmp_path, baseline))
    one_error_line(rc, err, "baseline", "is not one of the targets (here)")


@pytest.mark.parametrize("seconds", ["nan", "NaN", "-nan", "inf", "1e400", "0"])
def test_profile_seconds_must_be_a_number_in_range(env, cli, seconds):
    rc, out, err = cli("profile", "sys.fast", "--seconds", seconds)
    one_error_line(rc, err, "--seconds")


def _shell(cmd, tmp_path):
    """A command line through the shell (its redirections), with the synthetic core's store."""
    envv = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    argv = f"{sys.executable} -m tickmark.cli {cmd}"
    return subprocess.run(["bash", "-c", argv], capture_output=True, text=True, env=envv, cwd=tmp_path)


OUTPUTS = [
    # (arguments and redirection, exit status, first words of the one error line or None)
    ("show a1 > /dev/full", 2, "cannot write to standard output: No space left on device"),
    ("runs > /dev/full", 2, "cannot write to standard output: No space left on device"),
    ("compare a1 a2 > /dev/full", 2, "cannot write to standard output: No space left on device"),
    ("export a1 > /dev/full", 2, "cannot write to standard output: No space left on device"),
    ("run --rounds 1 --samples 2 sys.fast --name full > /dev/full", 2, "cannot write to standard output"),
    ("runs >&-", 2, "standard output is closed"),
    ("show a1 >&-", 2, "standard output is closed"),
    ("runs 2>&-", 0, None),
    ("show a1 | head -c 10 > /dev/null", 0, None),
]


@pytest.mark.parametrize("cmd,rc,says", OUTPUTS, ids=[c for c, _, _ in OUTPUTS])
def test_standard_output_full_or_closed(two_runs, tmp_path, cli, cmd, rc, says):
    before = (tmp_path / "results.db").read_bytes()
    r = _shell(cmd, tmp_path)
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    if says:
        one_error_line(r.returncode, r.stderr, says, status=rc)
    else:
        assert r.returncode == rc and not r.stderr, r.stderr
    assert (tmp_path / "results.db").read_bytes()[:16] == before[:16]  # the store was not written into
    rc_runs, runs, _ = cli("runs")  # the store is readable afterwards
    assert rc_runs == 0 and " a2 " in runs
    if cmd.startswith("run "):  # the run is kept whole: only its table could not be printed
        assert re.search(r"\| complete +\| +1 \| full +\|", runs), runs


def test_ctrl_c_while_the_command_line_loads(two_runs):
    """Ctrl-C at any moment of a short command: exit status 130 and one line, or no traceback
    of tickmark's own (what the Python interpreter prints while it starts, before any of
    tickmark is loaded, is its own)."""
    ours = []
    for ms in range(0, 400, 25):
        p = tickmark_proc(["runs"])
        time.sleep(ms / 1000)
        p.send_signal(2)
        out, err = p.communicate(timeout=60)
        if p.returncode == 0:
            continue
        if "Traceback" in err:
            if "tickmark" in err or "click" in err:
                ours.append((ms, err[-600:]))
            continue
        assert p.returncode in (130, -2), (ms, p.returncode, err)
        # click ends the ^C's line with a newline of its own when the signal lands inside a command
        assert err.lstrip("\n") in ("", "tickmark: interrupted\n"), (ms, err)
    assert not ours, ours


# ---- a run name that looks like a file: the rule of docs/compare.md ("Which runs") ----

REFS = [
    # (the argument, what is compared: "run" the stored run of that name, "file" the file, or an error)
    ("feat/x", "run"),
    ("v2.json", "run"),  # a stored run and a file of that name: the run, and a warning
    ("./v2.json", "file"),
    ("file:v2.json", "file"),
    ("other.json", "file"),  # no run of that name: the file
    ("file:feat/x", "error: no exported run at feat/x"),
    ("./nope.json", "error: no exported run at ./nope.json"),
    ("nope", "error: no run 'nope'"),
]


@pytest.mark.parametrize("ref,what", REFS, ids=[r for r, _ in REFS])
@pytest.mark.parametrize("command", ["compare", "profile --diff"])
def test_a_run_name_that_looks_like_a_file(env, cli, tmp_path, monkeypatch, ref, what, command):
    monkeypatch.chdir(tmp_path)
    for name in ("a1", "feat/x", "v2.json"):
        rc, out, err = cli(*RUN, "sys.fast", "--name", name)
        assert rc == 0, err
    for name, source in (("v2.json", "a1"), ("other.json", "a1")):
        rc, doc, err = cli("export", source)
        (tmp_path / name).write_text(doc)
    rc, out, err = cli(*command.split(), *((ref, "a1") if command == "profile --diff" else ("a1", ref)))
    if what.startswith("error: "):
        one_error_line(rc, err, what[len("error: ") :])
        return
    if command == "profile --diff":  # the side was found (the file holds run a1): its profile is missing
        one_error_line(rc, err, "has no profile")
        assert err.splitlines()[-1].startswith(f"tickmark: error: {'a1' if what == 'file' else ref} ("), err
        return
    assert rc == 0, err
    second = out.splitlines()[1]
    if what == "run":
        assert ": run " in second, out
    else:
        assert ": file " in second, out
    assert ("is a stored run and a file here" in err) == (ref == "v2.json"), err


# ---- terminal escapes: text from a board, a log or an imported file never drives the terminal ----

E = "\x1b]0;PWN\x07\x1b[2J\r"


def _evil_log(tmp_path):
    hello = dict(t="hello", v=1, core="1", arch="x86_64", order=["sys.fast"], kernel="6.1" + E, os="L" + E)
    hello.update(cycles="c" + E, cpu_model="m" + E)
    return _log(
        tmp_path,
        [
            _tm1(**hello),
            _tm1(t="meta", key="sys.fast", bench="sys.fast", unit="call", stat="median"),
            *[_tm1(t="sample", key="sys.fast", i=i, iters=10, ops=10, ns=1000 + i) for i in range(9)],
            _tm1(t=E),
            _tm1(t="end", key="sys.fast", status="ok"),
            _tm1(t="bye", instances=1),
        ],
        "evil.log",
    )


def _evil_profile(exported, tmp_path, e=E):
    doc = json.loads(json.dumps(exported))
    routine = {"name": "f" + e, "symbols": ["f" + e], "group": "core", "dso": "x", "self": 0.5, "total": 0.5}
    doc["profiles"] = [
        {
            "key": "sys.fast",
            "tool": "perf" + e,
            "event": "cpu-clock" + e,
            "hits": 10,
            "seconds": 1.0,
            "ns_per_op": 100,
            "unit": "call" + e,
            "kernel": "sampled",
            "notes": ["n" + e],
            "routines": [routine],
        }
    ]
    return doc


ESCAPES = [
    ("ingest {log} --name evlog", "ingest"),
    ("show evlog", "show"),
    ("compare a1 evlog", "compare"),
    ("compare a1 evlog --fail-above 5%", "compare"),
    ("show evil", "show"),
    ("profile --diff {doc} evil", "profile"),
    ("profile --diff evil {doc}", "profile"),
]


def _evil_store(exported, cli, tmp_path, env):
    """Run 'evil' with a profile whose texts hold terminal escapes, as a store written by an older
    tickmark or edited by hand holds them (import refuses them: the one rule for texts), and its
    export evil.json, whose texts are plain."""
    import sqlite3

    _imported(cli, tmp_path, _evil_profile(exported, tmp_path, "PWNMARK"), "evil")
    db = sqlite3.connect(str(env))
    db.execute("UPDATE profiles SET data = replace(data, 'PWNMARK', ?)", (json.dumps(E)[1:-1],))
    db.commit()
    db.close()
    rc, out, err = cli("export", "evil", "-o", str(tmp_path / "evil.json"))
    assert rc == 0, err


@pytest.mark.parametrize("cmd,_", ESCAPES, ids=[c for c, _ in ESCAPES])
def test_no_escape_reaches_the_terminal(exported, cli, tmp_path, env, cmd, _):
    log = _evil_log(tmp_path)
    _evil_store(exported, cli, tmp_path, env)
    if not cmd.startswith("ingest"):
        rc, out, err = cli("ingest", str(log), "--name", "evlog")
        assert rc == 0, err
    rc, out, err = cli(*[a.format(log=log, doc=tmp_path / "evil.json") for a in cmd.split()])
    assert rc in (0, 1), err
    no_escape(out + err)
    assert "\\x1b]0;PWN" in out + err  # shown, escaped
    assert "None" not in out + err


# ---- a pipe of 100 columns: event latencies on one line each, nothing wraps ----


@pytest.mark.parametrize("columns", [None, "100", "80"])
def test_event_latencies_do_not_wrap_in_a_pipe(env, cli, monkeypatch, columns):
    import re

    if columns:
        monkeypatch.setenv("COLUMNS", columns)
    else:
        monkeypatch.delenv("COLUMNS", raising=False)
    rc, out, err = cli(*RUN, "ipc.ping", "sys.fast", "sync.lockpair")
    assert rc == 0, err
    rc, out, err = cli("show")
    assert rc == 0, err
    lines = out.splitlines()
    start = lines.index(next(x for x in lines if x.startswith("event latency")))
    # min, avg, p50, p99, p99.9, max (events where the width allows)
    assert re.fullmatch(r"ipc\.ping +(\| +[\d.]+ [mun]?s *){6}(\| +\d+)?", lines[start + 2]), lines[start:]
    table = lines[lines.index(next(x for x in lines if x.startswith("benchmark"))) : start]
    assert all(len(x) <= int(columns or 100) for x in table), table
    assert not any(x.strip(" |-").startswith(("|", "us", "events")) for x in table), table


# ---- instruction counts (QEMU -icount): no BYTEmark index, no "slower" across ISAs ----


def _icount(doc, arch, factor=1):
    doc = json.loads(json.dumps(doc))
    cpu = json.loads(json.dumps(next(r for r in doc["results"] if r["key"] == "sys.fast")))
    cpu.update(key="cpu.numsort", benchmark="cpu.numsort")
    cpu["meta"].update(key="cpu.numsort", bench="cpu.numsort")
    doc["results"].append(cpu)  # an nbench kernel: the run gets nbench figures
    fp = doc["run"]["fingerprint"]
    fp.update(qemu_icount="shift=0", cycles_method="icount-insns", arch=arch, emulated=True)
    for r in doc["results"]:
        for s in r["samples"]:
            s["ns"] = int(s["ns"] * factor)
    return doc


@pytest.fixture
def icount_runs(env, cli, tmp_path):
    rc, out, err = cli("run", "-q", "--rounds", "2", "--samples", "9", "sys.fast", "--name", "x")
    assert rc == 0, err
    rc, doc, err = cli("export", "x")
    doc = json.loads(doc)
    _imported(cli, tmp_path, _icount(doc, "x86_64"), "ix86")
    _imported(cli, tmp_path, _icount(doc, "aarch64", 2), "iarm")
    _imported(cli, tmp_path, _icount(doc, "x86_64", 2), "ix86b")


ICOUNT = [
    # (command, words that must be there, words that must not)
    (("show", "ix86"), ["no BYTEmark index", "iterations per 10^9 guest instructions"], ["INDEX", "None"]),
    (("compare", "ix86", "iarm"), ["other ISA: no verdict", "of two instruction sets", "× more instructions"], []),
    (("compare", "ix86", "iarm", "--format", "json"), ["other ISA: no verdict"], ['"slower"']),
    (("compare", "ix86", "ix86b"), ["slower"], ["other ISA"]),  # one ISA: fewer instructions is faster
    (("report", "ix86", "-o", "{tmp}/r.html"), [], ["BYTEmark indices", "INDEX"]),
]


@pytest.mark.parametrize("args,has,hasnt", ICOUNT, ids=[" ".join(a[:3]) for a, _, _ in ICOUNT])
def test_instruction_counts_get_no_index_and_no_verdict_across_isas(icount_runs, cli, tmp_path, args, has, hasnt):
    rc, out, err = cli(*[a.format(tmp=tmp_path) for a in args])
    assert rc == 0, err
    text = out + "".join(p.read_text() for p in tmp_path.glob("r.*"))
    for w in has:
        assert w in text or w in " ".join(text.split()), (w, text[:3000])
    rows = [x for x in text.splitlines() if "sys.fast" in x or "cpu.numsort" in x]
    for w in hasnt:
        assert w not in (text if w != "slower" else "\n".join(rows)), w
    if args[0] == "compare" and "json" not in args and "ix86b" not in args:
        assert not any("slower" in x or "faster" in x for x in rows), rows
