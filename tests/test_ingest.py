"""tickmark ingest: console logs of the real core with noise, CRLF, bytes that are not UTF-8,
terminal escapes, bad and out-of-order records, a cut-off end and two runs in one log."""

import io
import json
import os
import subprocess

import pytest

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def recorded(build_cache):
    from tickmark.targets.build import build_core

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(build_cache))
        core = build_core().binary
    out = subprocess.run(
        [core, "run", "sys.getppid", "sys.clock_gettime", "--samples", "4"], capture_output=True, check=True
    ).stdout
    return out.splitlines()


@pytest.fixture
def store(tmp_path, monkeypatch, build_cache):
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "s.db"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.delenv("TICKMARK_CORE", raising=False)
    return tmp_path / "s.db"


def export(cli, name):
    rc, doc, err = cli("export", name)
    assert rc == 0, err
    return json.loads(doc)


def n_samples(doc):
    return sum(len(r["samples"]) for r in doc["results"])


def test_noisy_log_keeps_every_valid_record(recorded, store, cli, tmp_path):
    lines = list(recorded)
    first_sample = next(i for i, ln in enumerate(lines) if b'"t":"sample"' in ln)
    key = json.loads(lines[first_sample][4:])["key"]
    bad_ns = lines[first_sample].replace(b'"ns":', b'"ns":"abc","was":')
    out = [b"\x1b]0;minicom\x07U-Boot 2023.04 \xff\xfe\x80", b"Starting kernel ...", b""]
    for i, ln in enumerate(lines):
        prefix = b"[ 3.14] \x1b[32m" if i % 2 else b""
        out.append(prefix + ln)
        if i == first_sample:
            out.append(ln)  # a duplicate sample
            out.append(bad_ns)  # a sample with a string where a number belongs
            out.append(ln[: len(ln) // 2])  # a record cut in the middle
            out.append(b'TM1 {"t":"sample","key":"nope","i":0,"iters":1,"ops":1,"ns":5}')
            out.append(b"kernel: \xc3\x28 invalid utf-8 between records")
    log = tmp_path / "board.log"
    log.write_bytes(b"\r\n".join(out) + b"\r\n")
    base = 3 + first_sample + 1  # line number of the first sample
    rc, text, err = cli("ingest", str(log), "--name", "board")
    assert rc == 0, err
    said = {int(ln.split(":")[0][5:]): ln for ln in text.splitlines() if ln.startswith("line ") and ":" in ln}
    assert "duplicate" in said[base + 1] and key in said[base + 1]
    assert "'ns'" in said[base + 2]
    assert "left out" in said[base + 3]  # the record cut in the middle
    assert "nope" in said[base + 4]
    assert all(ln.endswith("left out") for n, ln in said.items() if n in range(base + 1, base + 5))
    assert "stored as run" in text and "'board'" in text
    doc = export(cli, "board")
    assert doc["run"]["status"] == "complete"
    valid = [json.loads(ln[4:]) for ln in recorded]
    assert n_samples(doc) == sum(1 for r in valid if r["t"] == "sample")  # every valid record kept
    assert sorted(r["key"] for r in doc["results"]) == ["sys.clock_gettime", "sys.getppid"]
    fp = doc["run"]["fingerprint"]
    assert fp["target_uri"] == "log:board.log" and fp["arch"] == os.uname().machine
    assert fp["cpu_model"] == "unknown" and fp["host"] is None  # the board is known by its hello only
    rc, shown, err = cli("show", "board")
    assert rc == 0 and "sys.getppid" in shown and "ns/op" in shown


def test_two_runs_and_a_cut_off_end(recorded, store, cli, tmp_path):
    lines = list(recorded)
    second_end = [i for i, ln in enumerate(lines) if b'"t":"end"' in ln][0]
    log = b"\n".join(lines) + b"\nlogin: root\n" + b"\n".join(lines[: second_end + 3])  # cut in instance 2
    p = tmp_path / "two.log"
    p.write_bytes(log)
    rc, text, err = cli("ingest", str(p), "--name", "b")
    assert rc == 1, err  # stored, one run incomplete: exit status 1, as for any incomplete run
    a, b = export(cli, "b"), export(cli, "b-2")
    assert a["run"]["status"] == "complete" and len(a["results"]) == 2
    assert b["run"]["status"] == "incomplete" and len(b["results"]) == 1
    assert "was cut off before its 'end'" in text and "the log ends before the run's final record" in text
    rc, shown, _ = cli("show", "b-2")
    assert "INCOMPLETE" in shown


def test_stdin_and_compare_with_a_local_run(recorded, store, cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\r\n".join(recorded) + b"\r\n")))
    rc, text, err = cli("ingest", "-", "--name", "piped")
    assert rc == 0, err
    rc, out, err = cli(
        "run",
        "sys.getppid",
        "sys.clock_gettime",
        "--rounds",
        "1",
        "--max-rounds",
        "1",
        "--samples",
        "3",
        "-q",
        "--name",
        "here",
    )
    assert rc == 0, err
    rc, out, err = cli("compare", "piped", "here")
    assert rc == 0, err
    assert "sys.getppid" in out and "sys.clock_gettime" in out
    assert "differs: target_uri: log:stdin | local" in out


def test_bad_input_is_one_line(store, cli, tmp_path):
    (tmp_path / "empty.log").write_bytes(b"just a console\r\nnothing here\xff\n")
    rc, out, err = cli("ingest", str(tmp_path / "empty.log"))
    assert rc == 2 and err.startswith("tickmark: error: no tickmark run in empty.log")
    rc, out, err = cli("ingest", str(tmp_path / "missing.log"))
    assert rc == 2 and err.startswith("tickmark: error: cannot read")
    rc, out, err = cli("ingest", str(tmp_path))
    assert rc == 2 and "directory" in err
    rc, out, err = cli("ingest", str(tmp_path / "empty.log"), "--name", "7")
    assert rc == 2 and "bad --name" in err
