"""Hostile text, one table per way in and out: one rule for every text that enters a store
(names.text_problem / names.plain) whether a board prints it (over SSH, on a serial console, in a
captured log), a person types it (names, labels) or a document carries it (import), and every
way out valid (terminal, Markdown, HTML, CSV, JUnit XML, OpenMetrics, JSON that imports again).

Sections: a hostile board (log, serial console, SSH), a store written by an older tickmark,
import documents, labels, Markdown, parameters, and a fuzz over all of them.
"""

import html
import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
import unicodedata
from xml.etree import ElementTree as ET

import pytest

from conftest import ROOT, copy_store, one_error_line, synthetic_store

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile

RUN = ("run", "-q", "--rounds", "1", "--samples", "3")
TM = f"{sys.executable} -m tickmark.cli"
ESC = "\x1b]0;PWN\x07\x1b[2J\r"
RTL = "\u202eexe.txt"
HIDDEN = ("Cf", "Cs", "Co", "Zl", "Zp")


def assert_plain(text, where=""):
    """No control character but newline, and nothing invisible (right-to-left overrides,
    zero-width, lone surrogates), anywhere in what a command wrote."""
    bad = sorted(
        {
            f"U+{ord(c):04X}"
            for c in text
            if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) <= 0x9F or unicodedata.category(c) in HIDDEN
        }
    )
    assert not bad, (where, bad, text[:1500])


def _tm1(**rec):
    return "TM1 " + json.dumps(rec)


def _hostile_records(mark=ESC):
    """A board's records whose texts hold terminal escapes, an RTL override and a lone surrogate."""
    hello = dict(t="hello", v=1, core="1" + mark, arch="x86_64", order=["sys.fast", "sys.skipme"], seed=5)
    hello.update(kernel="6.1" + mark, os="Linux" + RTL, cc="\ud800cc", cflags="-O2" + mark, cycles="none")
    return [
        _tm1(**hello),
        _tm1(t="meta", key="sys.fast", bench="sys.fast", unit="call" + mark, stat="median"),
        *[_tm1(t="sample", key="sys.fast", i=i, iters=10, ops=10, ns=1000 + i) for i in range(9)],
        _tm1(t="end", key="sys.fast", status="ok"),
        _tm1(t="meta", key="sys.skipme", bench="sys.skipme", unit="call"),
        _tm1(t="end", key="sys.skipme", status="skip", reason=mark + "needs a \ud800 unicorn" + RTL),
        _tm1(t="bye", instances=2),
    ]


def _every_way_out(cli, tmp_path, ref, other=None):
    """Every reading command and format on run `ref`: each answers (exit 0) with plain text; the
    JUnit document is well-formed XML; the JSON document imports again, and so does its export."""
    outs, other = {}, other or ref
    for args in (
        ["runs"],
        ["show", ref],
        ["compare", other, ref],
        ["history", "sys.*"],
        ["report", ref, "--format", "md"],
        ["report", ref, "--format", "json"],
        ["report", ref, other, "--format", "html"],
        ["export", ref, "--format", "csv"],
        ["export", ref, "--format", "gbench"],
        ["export", ref, "--format", "junit"],
        ["export", ref, "--format", "openmetrics"],
        ["export", ref],
    ):
        rc, out, err = cli(*args)
        assert rc == 0, (args, err)
        assert_plain(out + err, args)
        outs[" ".join(a for a in args if a != ref)] = out
    ET.fromstring(outs["export --format junit"])
    for line in outs["export --format openmetrics"].splitlines():
        assert line.startswith(("#", "tickmark_")), line
    doc = json.loads(outs["export"])
    doc["run"]["name"] = f"{ref}-again"
    f = tmp_path / f"{ref}-again.json"
    f.write_text(json.dumps(doc))
    rc, out, err = cli("import", str(f))
    assert rc == 0, err
    rc, again, err = cli("export", f"{ref}-again")
    assert rc == 0 and json.loads(again)["results"] == doc["results"], err
    return outs


@pytest.fixture(scope="module")
def one_run_store(tmp_path_factory):
    return synthetic_store(tmp_path_factory.mktemp("one"), (*RUN, "sys.fast", "sys.skipme", "--name", "a1"))


@pytest.fixture
def one_run(env, one_run_store):
    copy_store(one_run_store, env)
    return env


# ---- a hostile board: a captured log, a serial console, SSH ----


def test_a_hostile_log(one_run, cli, tmp_path):
    log = tmp_path / "board.log"
    log.write_text("\n".join(_hostile_records()) + "\n")
    rc, out, err = cli("ingest", str(log), "--name", "board")
    assert rc == 0, err
    assert_plain(out + err)
    outs = _every_way_out(cli, tmp_path, "board", "a1")
    assert "6.1\\x1b]0;PWN\\x07" in outs["show"]  # shown, as an escape
    doc = json.loads(outs["export"])
    assert doc["run"]["hello"]["cc"] == "\\ud800cc" and doc["run"]["fingerprint"]["kernel"].startswith("6.1\\x1b")
    assert doc["run"]["fingerprint"]["os"] == "Linux\\u202eexe.txt"
    skip = next(r for r in doc["results"] if r["key"] == "sys.skipme")
    assert skip["reason"] == "\\x1b]0;PWN\\x07\\x1b[2J\\x0dneeds a \\ud800 unicorn\\u202eexe.txt"


def test_a_hostile_serial_console(one_run, cli, tmp_path, monkeypatch):
    pytest.importorskip("serial")
    monkeypatch.delenv("TICKMARK_CORE")
    master, slave = os.openpty()
    dev = os.ttyname(slave)
    data = ("\r\n".join(_hostile_records()) + "\r\n").encode("utf-8", "surrogatepass")

    def board():  # a board without a shell: it prints its records once the run waits for them
        import time

        for _ in range(600):
            db = sqlite3.connect(f"file:{one_run}?mode=ro", uri=True)
            try:
                if db.execute("SELECT count(*) FROM runs").fetchone()[0] > 1:
                    break
            finally:
                db.close()
            time.sleep(0.05)
        time.sleep(0.5)
        for i in range(0, len(data), 64):
            os.write(master, data[i : i + 64])

    t = threading.Thread(target=board, daemon=True)
    t.start()
    try:
        rc, out, err = cli("run", "--target", f"serial:{dev}?silence=10", "-q", "--name", "uart")
    finally:
        t.join(30)
        os.close(slave)
        os.close(master)
    assert rc == 0, err
    outs = _every_way_out(cli, tmp_path, "uart")
    assert "\\ud800cc" in outs["export"]


def _fake_board_commands(folder):
    """uname, getconf and systemd-detect-virt that answer with terminal escapes and invisible
    characters (the real ones for what the build needs: uname -m)."""
    folder.mkdir()
    real = subprocess.run(["uname", "-m"], capture_output=True, text=True).stdout.strip()
    evil = "\\033]0;PWN\\007\\342\\200\\256"  # OSC title, BEL, U+202E (printf octal escapes)
    scripts = {
        "uname": f'case "$1" in -m) echo {real};; -s) echo Linux;; *) printf "6.1{evil}\\n";; esac',
        "getconf": f'case "$1" in PAGESIZE) echo 4096;; *) printf "glibc 2.36{evil}\\n";; esac',
        "systemd-detect-virt": f'printf "kvm{evil}\\n"',
    }
    for name, body in scripts.items():
        p = folder / name
        p.write_text(f"#!/bin/sh\n{body}\n")
        p.chmod(0o755)


@pytest.mark.integration
def test_a_hostile_ssh_board(one_run, cli, tmp_path, monkeypatch, build_cache):
    from conftest import need_cc, need_tool
    from sshfix import HAVE_SSH, MISSING, Sshd

    if not HAVE_SSH:
        need_tool(MISSING)
    need_cc()
    s = Sshd(tmp_path / "sshd")
    fake = tmp_path / "fakebin"
    _fake_board_commands(fake)
    config = (s.root / "sshd_config").read_text().replace("SetEnv ", f"SetEnv PATH={fake}:/usr/bin:/bin ", 1)
    (s.root / "sshd_config").write_text(config)
    s.start()
    try:
        if "PWN" not in s.ssh("uname -r").stdout:
            pytest.skip("sshd here does not pass SetEnv PATH to the session")
        monkeypatch.setenv("TICKMARK_SSH_CONFIG", str(s.config))
        monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
        monkeypatch.delenv("TICKMARK_CORE", raising=False)
        rc, out, err = cli("info", "--target", s.uri)
        assert rc == 0, err
        assert_plain(out + err)
        rc, out, err = cli(*RUN, "--target", s.uri, "sys.getppid", "--name", "ssh-board")
        assert rc == 0, err
        assert_plain(out + err)
    finally:
        s.stop()
    outs = _every_way_out(cli, tmp_path, "ssh-board")
    fp = json.loads(outs["export"])["run"]["fingerprint"]
    assert fp["kernel"] == "6.1\\x1b]0;PWN\\x07\\u202e" and fp["libc"].startswith("glibc 2.36\\x1b")


# ---- a store written by an older tickmark (or edited): its texts are read plain ----

LEGACY = [
    # (SQL run on the store, what a command then shows)
    ("UPDATE results SET reason = ? WHERE key = 'sys.skipme'", "\x1b]0;PWN\x07 \u202e"),
    ("UPDATE runs SET fingerprint = json_set(fingerprint, '$.kernel', ?)", "6.1\x1b]0;PWN\x07"),
    ("UPDATE runs SET hello = json_set(hello, '$.cc', json(?))", '"\\ud800"'),
    ("UPDATE runs SET notes = json_set(notes, '$.problems', json_array(?))", "line 1: \x1b[2J"),
]


@pytest.mark.parametrize("sql,value", LEGACY, ids=[s.split(" SET ")[1][:24] for s, _ in LEGACY])
def test_a_store_with_raw_texts_is_read_plain(one_run, cli, tmp_path, sql, value):
    rc, out, err = cli(*RUN, "sys.fast", "sys.skipme", "--name", "old")
    assert rc == 0, err
    db = sqlite3.connect(str(one_run))
    db.execute(sql.replace("WHERE", "WHERE run_id = 2 AND") if "results" in sql else sql + " WHERE id = 2", (value,))
    db.commit()
    db.close()
    _every_way_out(cli, tmp_path, "old", "a1")


# ---- import: the document follows the same rule ----

IMPORTS = [
    ("kernel ESC", lambda d: d["run"]["fingerprint"].update(kernel="6.1" + ESC), "run.fingerprint.kernel"),
    ("kernel RTL", lambda d: d["run"]["fingerprint"].update(kernel="6.1" + RTL), "invisible character U+202E"),
    ("reason ESC", lambda d: d["results"][0].update(reason=ESC), "results[0].reason: control characters"),
    ("reason ZWJ", lambda d: d["results"][0].update(reason="a\u200db"), "invisible character U+200D"),
    ("problem LS", lambda d: d["run"]["notes"].update(problems=["a\u2028b"]), "run.notes.problems[0]"),
    ("label RTL", lambda d: d["run"]["notes"].update(labels={"build": "1" + RTL}), "run.notes.labels.build"),
    ("label key BOM", lambda d: d["run"]["notes"].update(labels={"\ufeffbuild": "1"}), "in a key: invisible"),
    ("option tab", lambda d: d["run"]["options"].update(cflags="-O2\t-g"), "run.options.cflags: control"),
    ("hello surrogate", lambda d: d["run"]["hello"].update(cc="\udc80"), "run.hello.cc: a NUL character or"),
    ("name RTL", lambda d: d["run"].update(name="x" + RTL), "run.name: invisible character U+202E"),
]


@pytest.mark.parametrize("label,mutate,says", IMPORTS, ids=[c[0] for c in IMPORTS])
def test_an_import_follows_the_one_rule(one_run, cli, tmp_path, label, mutate, says):
    rc, doc, err = cli("export", "a1")
    d = json.loads(doc)
    d["run"]["name"] = "imported"
    mutate(d)
    f = tmp_path / "doc.json"
    f.write_text(json.dumps(d))
    rc, out, err = cli("import", str(f))
    one_error_line(rc, err, says)
    assert_plain(err)
    rc, out, err = cli("runs")
    assert "imported" not in out


# ---- labels: the same rule as names (no right-to-left or invisible characters) ----

BAD_LABELS = ["1\u202e2", "a\u200bb", "\u2066x\u2069", "v\u00ad1", "x\ufeff", "x\u2028y", "x\U000e0041", "x\x1b[2J"]


@pytest.mark.parametrize("value", BAD_LABELS, ids=[ascii(v) for v in BAD_LABELS])
def test_labels_refuse_what_names_refuse(env, cli, tmp_path, value):
    rc, out, err = cli(*RUN, "sys.fast", "--label", f"build={value}")
    one_error_line(rc, err, "bad --label build=")
    assert_plain(err)
    rc, out, err = cli(*RUN, "sys.fast", "--name", f"n{value}")
    one_error_line(rc, err, "bad --name")
    camp = tmp_path / "c.toml"
    toml = '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 32 or c in '"\\' else c for c in value) + '"'
    camp.write_text(f'name = "c"\n[targets]\nhere = "local"\n[workloads]\nw = ["sys.fast"]\n[labels]\nbuild = {toml}\n')
    rc, out, err = cli("campaign", str(camp))
    one_error_line(rc, err, "build=")
    rc, out, err = cli("history", "sys.fast", "--label", f"build={value}")
    one_error_line(rc, err, "bad --label build=")
    rc, out, err = cli("runs")
    assert "no runs stored yet" in out


# ---- Markdown: a name, a label or a board's words are text, never markup ----

MARKDOWN_NAMES = [
    "[click](http://evil.example/x)",
    "![img](http://evil.example/x.png)",
    "<b>bold</b> <img src=x onerror=alert(1)>",
    "*em* __strong__ ~~gone~~",
    "`code` | col | \\",
    "<http://evil.example/auto>",
    "[ref][1]",
]


def test_markdown_shows_names_as_written(env, cli, tmp_path):
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    for i, name in enumerate(MARKDOWN_NAMES):
        rc, out, err = cli(*RUN, "sys.fast", "--name", name, "--label", f"build=[x{i}](http://evil.example/{i})")
        assert rc == 0, err
    log = tmp_path / "b.log"
    log.write_text("\n".join(_hostile_records("*[w](http://evil.example/w)*")) + "\n")
    rc, out, err = cli("ingest", str(log), "--name", "board")
    assert rc == 0, err
    pages = []
    for args in (["report", *MARKDOWN_NAMES, "board", "--format", "md"], ["history", "sys.*", "--format", "md"]):
        rc, out, err = cli(*args)
        assert rc == 0, err
        assert_plain(out)
        pages.append(md.render(out))
    page = "".join(pages)
    for tag in ("<a ", "<img", "<b>", "<em>em</em>", "<strong>strong</strong>", "<s>gone", "<del>gone", "<code>code"):
        assert tag not in page, (tag, page[:3000])
    for name in MARKDOWN_NAMES:
        assert html.escape(name, quote=False) in pages[0], name  # shown as written


# ---- parameters: what the TM1 reader takes, import takes (integers), and no view crashes ----

PARAMS = [
    ("4096", "'params' is not an object of integers in range"),
    ("abc", "'params' is not an object of integers in range"),
    (1.5, "'params' is not an object of integers in range"),
    (True, "'params' is not an object of integers in range"),
    (2**70, "'params' is not an object of integers in range"),
    (None, "'params' is not an object of integers in range"),
    (-5, None),
    (0, None),
    (2**62, None),
]


@pytest.mark.parametrize("value,says", PARAMS, ids=[repr(v)[:12] for v, _ in PARAMS])
@pytest.mark.filterwarnings("error::UserWarning")  # a plot of such a parameter is drawn without complaint
def test_imported_parameters_are_the_protocols_integers(one_run, cli, tmp_path, value, says):
    rc, doc, err = cli("export", "a1")
    d = json.loads(doc)
    d["run"]["name"] = "p"
    base = next(r for r in d["results"] if r["key"] == "sys.fast")
    d["results"] = []
    for bench in ("mem.bw_read", "mem.bw_copy", "mem.lat_rand", "memfn.memcpy", "mem.lat_tlb"):
        r = json.loads(json.dumps(base))
        r["benchmark"] = bench
        r["key"] = f"{bench}[size={value}]"
        r["params"] = {"size": value, **({"impl": 0} if bench.startswith("memfn") else {"pages": value})}
        r["meta"] = {"bench": bench, "key": r["key"], "stat": "max" if "bw" in bench else "min", "bytes_per_op": 64}
        d["results"].append(r)
    f = tmp_path / "p.json"
    f.write_text(json.dumps(d))
    rc, out, err = cli("import", str(f))
    if says:
        one_error_line(rc, err, "results[0].params", says)
        return
    assert rc == 0, err
    for args in (
        ["bandwidth", "p"],
        ["memfn", "p"],
        ["topology", "--from", "p"],
        ["report", "p", "--format", "md"],
        ["report", "p", "--format", "html"],
        ["show", "p"],
    ):
        rc, out, err = cli(*args)
        assert rc in (0, 2) and "Traceback" not in err, (args, err)
        if rc == 2:
            one_error_line(rc, err)


def test_a_stored_parameter_that_is_not_an_integer_is_a_corrupt_store(one_run, cli):
    db = sqlite3.connect(str(one_run))
    db.execute("""UPDATE results SET params = '{"size": "4096"}' WHERE key = 'sys.fast'""")
    db.commit()
    db.close()
    for args in (["show", "a1"], ["export", "a1"], ["report", "a1", "--format", "md"]):
        rc, out, err = cli(*args)
        one_error_line(rc, err, "is corrupt", "'params' is not an object of integers")


# ---- fuzz: hostile text in every way in, every way out stays plain and valid ----

PIECES = [ESC, "\x00", "\x07", "\x9b", "\r", "\n", "\t", "\u202e", "\u2066", "\u200b", "\ufeff", "\u2028", "\ud800"]
PIECES += [
    "\udfff",
    "\U000e0001",
    "\ue000",
    "|",
    "[a](http://x)",
    "<i>",
    "&amp;",
    '"',
    "\\",
    "=cmd",
    "@x",
    "µs",
    "日本",
]


def _hostile(rng, n=3):
    return "".join(rng.choice(PIECES) + rng.choice(["", "x", "1"]) for _ in range(n))


def test_fuzz_hostile_texts_every_way_in_and_out(one_run, cli, tmp_path):
    rng = random.Random(30)
    made = 0
    for i in range(12):
        name, label, word = f"n{i}-{_hostile(rng)}", _hostile(rng), _hostile(rng)
        rc, out, err = cli(*RUN, "sys.fast", "--name", name, "--label", f"k={label}")
        assert rc in (0, 2) and "Traceback" not in err, err
        assert_plain(out + err)
        recs = _hostile_records(word)
        log = tmp_path / f"f{i}.log"
        log.write_text("\n".join(recs) + "\n", errors="surrogatepass")
        rc, out, err = cli("ingest", str(log), "--name", f"log{i}")
        assert rc == 0, err
        assert_plain(out + err)
        made += 1
        _every_way_out(cli, tmp_path, f"log{i}", "a1")
    assert made == 12


# ---- round trips: a name, a label, a document and an output path renamed, exported, re-imported, piped ----

ODD_NAME = 'µ 日本 "q" \\b [x](y) *z* | =1'


def _doc_without_identity(text):
    d = json.loads(text)
    d["run"].pop("id")
    d["run"].pop("name")
    d["run"]["notes"].pop("imported_from", None)
    return d


def test_export_import_export_through_a_pipe_keeps_everything(env, cli, tmp_path):
    rc, out, err = cli(*RUN, "sys.fast", "ipc.ping", "--name", ODD_NAME, "--label", "x.y=a b", "--label", "b=7")
    assert rc == 0, err
    rc, first, err = cli("export", ODD_NAME)
    assert rc == 0, err
    envv = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    ref = ODD_NAME
    for made in (f"{ODD_NAME}-2", f"{ODD_NAME}-2-2"):  # as a shell pipes it: tickmark export RUN | tickmark import -
        p = subprocess.run(
            ["bash", "-c", f'{TM} export "$0" | {TM} import -', ref], capture_output=True, text=True, env=envv
        )
        assert p.returncode == 0 and f"'{made}'" in p.stdout, p.stdout + p.stderr
        ref = made
    rc, third, err = cli("export", ref)
    assert _doc_without_identity(third) == _doc_without_identity(first)
    assert json.loads(third)["run"]["notes"]["labels"] == {"x.y": "a b", "b": "7"}


def test_a_long_name_made_unique_on_import_is_still_a_name(env, cli, tmp_path):
    name = "n" * 100
    rc, out, err = cli(*RUN, "sys.fast", "--name", name)
    assert rc == 0, err
    doc = tmp_path / "d.json"
    for i in range(2, 5):  # each import's own export imported again: every name keeps the rules
        rc, text, err = cli("export", "latest")
        doc.write_text(text)
        rc, out, err = cli("import", str(doc))
        assert rc == 0, err
        made = out.split("'")[1]
        assert len(made) <= 100 and made.endswith(f"-{i}"), made
    rc, out, err = cli("runs")
    assert out.count(" complete ") == 4


@pytest.mark.parametrize("value", [" a1", "a1 ", "\u00a0a1", "a1\u3000"], ids=ascii)
def test_names_and_labels_with_spaces_at_their_ends(one_run, cli, tmp_path, value):
    rc, out, err = cli(*RUN, "sys.fast", "--name", value)
    one_error_line(rc, err, "spaces at its start or end")
    rc, out, err = cli(*RUN, "sys.fast", "--label", f"build={value}")
    one_error_line(rc, err, "spaces at its start or end")
    rc, doc, err = cli("export", "a1")
    d = json.loads(doc)
    d["run"]["name"] = value
    f = tmp_path / "d.json"
    f.write_text(json.dumps(d))
    rc, out, err = cli("import", str(f))
    one_error_line(rc, err, "spaces at its start or end")


def test_openmetrics_keeps_labels_whose_names_meet(one_run, cli):
    rc, out, err = cli(*RUN, "sys.fast", "--name", "l", "--label", "a.b=1", "--label", "a_b=2", "--label", "a-b=3")
    assert rc == 0, err
    rc, out, err = cli("export", "l", "--format", "openmetrics")
    info = next(line for line in out.splitlines() if line.startswith("tickmark_run_info"))
    names = [part.split("=")[0] for part in info[info.index("{") + 1 : info.rindex("}")].split('",')]
    assert len(names) == len(set(names)), info  # OpenMetrics refuses a label name given twice
    assert sorted(
        v for n, v in (p.split("=") for p in info.split("{")[1].split("}")[0].split(",")) if "label_" in n
    ) == [
        '"1"',
        '"2"',
        '"3"',
    ]


@pytest.mark.parametrize("args", [["report", "a1", "--format", "md"], ["history", "sys.fast", "--format", "md"]])
def test_an_output_path_is_shown_plain(one_run, cli, tmp_path, args):
    path = tmp_path / "r\x1b]0;PWN\x07\u202e.md"
    rc, out, err = cli(*args, "-o", str(path))
    assert rc == 0 and path.is_file(), err
    assert_plain(out + err)
    assert "r\\x1b]0;PWN\\x07\\u202e.md" in err


@pytest.mark.parametrize("closed", [False, True])
@pytest.mark.parametrize("args", [["export", "a1"], ["report", "a1", "--format", "md"], ["history", "sys.fast"]])
def test_output_to_dev_stdout_in_a_pipe(one_run, tmp_path, args, closed):
    envv = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    argv = f"{TM} {' '.join(args)} -o /dev/stdout"
    r = subprocess.run(
        ["bash", "-c", f"{argv} | {'true' if closed else 'cat'}; exit ${{PIPESTATUS[0]}}"],
        capture_output=True,
        text=True,
        env=envv,
    )
    assert r.returncode == 0 and "error" not in r.stderr, r.stderr
    if not closed:
        assert len(r.stdout) > 100


@pytest.mark.parametrize(
    "uri", ["ssh://h\u202eost", "serial:/dev/tty\u200bS0", "local\ufeff", "qemu-user:aarch64\u2028"]
)
def test_a_target_uri_follows_the_one_rule(env, cli, uri):
    rc, out, err = cli(*RUN, "sys.fast", "--target", uri)
    one_error_line(rc, err, "bad --target", "invisible character")
    assert_plain(err)
