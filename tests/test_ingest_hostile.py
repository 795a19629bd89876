"""Hostile captured logs: a board's seed and benchmarks kept, no record left out without a word,
any line length, linear time."""

import json
import os
import subprocess
import time

import pytest

from hostilefix import _store, needs_cc, one_error_line, store_readable  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


@needs_cc
def test_an_ingested_run_keeps_what_the_board_ran(core_binary, env, cli, tmp_path):
    log = tmp_path / "board.log"
    r = subprocess.run(
        [core_binary, "run", "sys.getppid", "sys.fstat", "--samples", "3", "--seed", "4242"], capture_output=True
    )
    log.write_bytes(b"boot noise\n" + r.stdout)
    rc, out, err = cli("ingest", str(log), "--name", "board")
    assert rc == 0, err
    run = _store().run("board")
    assert run["notes"]["seeds"] == [4242] and run["options"]["seed"] == 4242
    assert run["patterns"] == ["sys.fstat", "sys.getppid"] and run["options"]["samples"] == 3


def _replace(old, new, count=1):
    return lambda text: text.replace(old, new, count)


def _two_per_line(text):
    lines = text.splitlines()
    return "\n".join(" ".join(lines[i : i + 2]) for i in range(0, len(lines), 2)) + "\n"


INGESTS = [
    # (label, log edit, exit status, results kept, words printed)
    ("bare hello", lambda t: 'TM1 {"t":"hello"}\n' + t.split("\n", 1)[1], 2, 0, ["hello: missing 'v'"]),
    ("order of numbers", _replace('"order":["ipc.ping","sys.fast"]', '"order":[1,2]'), 2, 0, ["'order' is not a list"]),
    ("hello field type", _replace('"samples":2,', '"samples":"2",'), 2, 0, ["'samples' is not a non-negative"]),
    (
        "end status",
        _replace('"t":"end","key":"sys.fast","status":"ok"', '"t":"end","key":"sys.fast","status":"great"'),
        0,
        1,
        ["end: 'status' is not one of", "sys.fast was cut off before its 'end'"],
    ),
    (
        "key too long",
        _replace('"key":"sys.fast","i":0', '"key":"' + "k" * 400 + '","i":0'),
        0,
        2,
        ["'key' is empty, too long"],
    ),
    (
        "key with ESC",
        _replace('"key":"sys.fast","i":0', '"key":"sys\\u001b[2J","i":0'),
        0,
        2,
        ["'key' is empty, too long"],
    ),
    ("two records per line", _two_per_line, 0, 2, ["(2 results; 0 problem(s) above)"]),
]


@pytest.mark.parametrize("label,edit,rc,kept,says", INGESTS, ids=[c[0] for c in INGESTS])
def test_ingest_names_every_record_it_leaves_out(env, cli, tmp_path, label, edit, rc, kept, says):
    core = os.environ["TICKMARK_CORE"].split()
    good = subprocess.run([*core, "run", "sys.fast", "ipc.ping", "--samples", "2"], capture_output=True, text=True)
    log = tmp_path / "board.log"
    log.write_text(edit(good.stdout))
    got, out, err = cli("ingest", str(log))
    assert got == rc, err
    for w in says:
        assert w in out, out
    if rc == 2:
        one_error_line(got, err, "no usable 'hello'")
        return
    st = _store()
    run = st.run("latest")
    assert len(st.results(run["id"])) == kept
    problems = run["notes"]["ingested"]["problems"]
    assert f"({kept} results" in out and f"; {len(problems)} problem(s) above)" in out, out
    assert run["notes"]["malformed"] == 0, run["notes"]["problems"]  # the replay refused nothing unsaid
    store_readable(cli, "latest")


def test_ingest_of_many_open_instances_is_linear(env, cli, tmp_path):
    hello = subprocess.run(
        [*os.environ["TICKMARK_CORE"].split(), "run", "sys.fast", "--samples", "1"], capture_output=True, text=True
    ).stdout.splitlines()[0]
    metas = (json.dumps({"t": "meta", "bench": "b.k", "key": f"b.k[size={k}]", "iters": 10}) for k in range(30000))
    log = tmp_path / "meta.log"
    log.write_text(hello + "\n" + "".join(f"TM1 {m}\n" for m in metas))
    t0 = time.monotonic()
    rc, out, err = cli("ingest", str(log))
    took = time.monotonic() - t0
    assert rc == 1, err  # stored, incomplete: the log ends before its bye
    assert "30001 problem(s) above" in out
    assert took < 60, f"{took:.0f} s for 30,000 instances"  # it took 75 s (9 min under load) when quadratic


@pytest.mark.parametrize("cmd,says", [("ingest", "longer than 16 MiB"), ("import", "not a results document")])
def test_an_endless_file_is_not_read_whole(env, cli, cmd, says):
    t0 = time.monotonic()
    rc, out, err = cli(cmd, "/dev/zero")
    one_error_line(rc, err, says)
    assert time.monotonic() - t0 < 30
    rc, out, err = cli("runs")
    assert rc == 0 and "no runs stored yet" in out
