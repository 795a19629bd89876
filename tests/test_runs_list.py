"""`tickmark runs` with its filters (--label, --name, --target, --since, as history's), and the
labels of a run in every view: runs, show, report (Markdown, HTML, JSON) and compare's list of
what differs."""

import json
import sqlite3
import time

import pytest

from conftest import copy_store, synthetic_store

RUN = ("run", "-q", "--rounds", "1", "--samples", "2", "sys.fast", "ipc.ping")
BOARD = "ssh://root@board-seven.lab.example"


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """Four runs: a (board=rev-a build=1), b (build=2), nightly-1 (no label, started 30 days
    ago), and "board", imported with an SSH board's target URI."""
    folder = tmp_path_factory.mktemp("runs_list")
    doc = folder / "a.json"
    store = synthetic_store(
        folder,
        (*RUN, "--name", "a", "--label", "build=1", "--label", "board=rev-a"),
        (*RUN, "--name", "b", "--label", "build=2"),
        (*RUN, "--name", "nightly-1"),
        ("export", "b", "-o", str(doc)),
    )
    d = json.loads(doc.read_text())
    d["run"]["name"] = "board"
    d["run"]["fingerprint"]["target_uri"] = BOARD
    doc.write_text(json.dumps(d))
    db = sqlite3.connect(store)
    with db:
        db.execute("UPDATE runs SET started = ? WHERE name = 'nightly-1'", (time.time() - 30 * 86400,))
    db.close()
    synthetic_store(folder, ("import", str(doc)))
    return store


@pytest.fixture
def runs_of(stored, env, cli):
    """The run names `tickmark runs ARGS` lists."""
    copy_store(stored, env)

    def names(*args):
        rc, out, err = cli("runs", *args)
        assert rc == 0, err
        return [n for n in ("a", "b", "nightly-1", "board") if any(f"| {n} " in line for line in out.splitlines())]

    return names


def test_runs_filters_select_runs(runs_of, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert runs_of() == ["a", "b", "nightly-1", "board"]
    assert runs_of("--label", "build=1") == ["a"]
    assert runs_of("--label", "build=2") == ["b", "board"]
    assert runs_of("--label", "build=2", "--label", "board=rev-a") == []
    assert runs_of("--name", "nightly*") == ["nightly-1"]
    assert runs_of("--name", "a", "--name", "b") == ["a", "b"]
    assert runs_of("--target", "ssh://*") == ["board"]
    assert runs_of("--target", "local") == ["a", "b", "nightly-1"]
    assert runs_of("--since", "7d") == ["a", "b", "board"]
    assert runs_of("--since", "2000-01-01", "--target", "loc*") == ["a", "b", "nightly-1"]


def test_runs_filters_say_when_nothing_matches_and_refuse_bad_input(stored, env, cli):
    copy_store(stored, env)
    rc, out, err = cli("runs", "--name", "nosuch")
    assert rc == 0 and out.strip() == "no run matches the filters"
    for args, word in ((("--label", "build"), "bad --label"), (("--since", "yesterday"), "bad --since")):
        rc, out, err = cli("runs", *args)
        assert rc == 2 and err.startswith(f"tickmark: error: {word}"), err


def test_runs_and_show_display_labels(stored, env, cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    copy_store(stored, env)
    rc, out, err = cli("runs")
    assert rc == 0, err
    header = out.splitlines()[0].split("|")
    assert [h.strip() for h in header][-2:] == ["labels", "benchmarks"]
    row_a = next(line for line in out.splitlines() if "| a " in line)
    assert "| board=rev-a build=1 |" in row_a
    rc, out, err = cli("show", "a")
    assert rc == 0, err
    assert "labels board=rev-a build=1" in out.splitlines()[1]
    rc, out, err = cli("show", "nightly-1")
    assert "labels" not in out.splitlines()[1]


def test_labels_in_the_report_and_in_what_compare_says_differs(stored, env, cli, tmp_path):
    copy_store(stored, env)
    rc, out, err = cli("compare", "a", "b")
    assert rc == 0, err
    assert "differs: label:build: 1 | 2" in out
    assert "differs: label:board: rev-a | not set" in out
    rc, md, err = cli("report", "a", "b", "--format", "md")
    assert rc == 0, err
    assert "- labels: board=rev-a build=1" in md and "- labels: build=2" in md
    assert "| label:build | 1 | 2 |" in md
    rc, out, err = cli("report", "a", "--format", "json")
    model = json.loads(out)
    assert ["labels", "board=rev-a build=1"] in model["runs"][0]["machine"]
    html = tmp_path / "r.html"
    rc, _, err = cli("report", "a", "b", "-o", str(html))
    assert rc == 0, err
    text = html.read_text()
    assert "<dt>labels</dt><dd>board=rev-a build=1</dd>" in text
    assert "<td>label:build</td><td>1</td><td>2</td>" in text
