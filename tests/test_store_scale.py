"""The store at a lab's scale: every per-result table read by index, the copies of the few fields
that commands reading many runs need (run_brief, result_heads) kept with their documents and
made in stores older than them, `runs` read a page at a time, history's JSON written in pieces,
and the scale benchmark (tools/history_scale.py) on a small store. Nothing here is timed: what
is measured is in docs/history.md."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import synthetic_store
from tickmark import store as store_mod
from tickmark.store import Store, copies

ROOT = Path(__file__).resolve().parents[1]
RUN = ("run", "-q", "--rounds", "2", "--samples", "3")
BENCHES = ("sys.fast", "ipc.ping", "lat.sweep", "bw.copy", "sync.lockpair")


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A store of three runs of the synthetic core (a latency sweep writes histograms)."""
    folder = tmp_path_factory.mktemp("scale")
    return synthetic_store(
        folder,
        *[(*RUN, *BENCHES, "--name", f"t{i}", "--label", f"build={i}") for i in (1, 2, 3)],
    )


def _plan(db, sql, *args):
    return " ".join(str(r[-1]) for r in db.execute(f"EXPLAIN QUERY PLAN {sql}", args).fetchall())


def test_every_per_result_table_is_read_by_index(template):
    """What export, report and every result written read per result (its samples, histograms,
    headline figures) is found by an index, never by scanning the table (which made filling a
    store grow as the square of its results)."""
    import sqlite3

    db = sqlite3.connect(str(template))
    try:
        assert "USING INDEX hists_result" in _plan(db, "SELECT round, data FROM hists WHERE result_id = ?", 1)
        assert "USING INDEX samples_result" in _plan(db, "SELECT ns FROM samples WHERE result_id = ?", 1)
        heads = _plan(db, "SELECT value FROM result_heads WHERE run_id IN (?, ?)", 1, 2)
        assert "USING INDEX result_heads_run" in heads, heads
        brief = _plan(db, "SELECT fields FROM run_brief WHERE run_id = ?", 1)
        assert "USING INTEGER PRIMARY KEY" in brief, brief
    finally:
        db.close()


def _copies(st):
    x = st.backend.execute
    brief = {r[0]: (r[1], r[2]) for r in x("SELECT run_id, fields, labels FROM run_brief").fetchall()}
    cols = ", ".join(copies.HEAD_COLS)
    heads = {r[0]: tuple(r[1:]) for r in x(f"SELECT result_id, run_id, {cols} FROM result_heads").fetchall()}
    return brief, heads


def _as_written(st):
    """run_brief and result_heads as the writers make them from the documents."""
    brief = {r["id"]: (copies.brief_of(r["fingerprint"]), copies.labels_of(r["notes"])) for r in st.runs()}
    heads = {}
    for rid in brief:
        for r in st.results(rid):
            heads[r["id"]] = (rid, *copies.head_of(r["stats"]))
    return brief, heads


def _make_old(path):
    """The store as a tickmark before run_brief, result_heads and the histograms' index made it."""
    st = Store(path)
    try:
        for stmt in ("DROP TABLE run_brief", "DROP TABLE result_heads", "DROP INDEX hists_result"):
            st.backend.execute(stmt)
    finally:
        st.close()


def test_an_older_store_gains_the_indexes_and_copies_when_written(env, cli, new_store):
    path = new_store()
    for i in (1, 2):
        rc, out, err = cli("--store", path, *RUN, *BENCHES, "--name", f"r{i}", "--label", f"b={i}")
        assert rc == 0, err
    st = Store(path, readonly=True)
    try:
        before = st.headlines([1, 2])
        rows = list(st.run_rows(["target_uri", "variant", "kernel"]))
    finally:
        st.close()
    _make_old(path)
    # a store only read keeps its tables, and reads the same from the documents
    st = Store(path, readonly=True)
    try:
        assert "run_brief" not in st.backend.tables() and "hists_result" not in st.backend.indexes()
        assert st.headlines([1, 2]) == before and list(st.run_rows(["target_uri", "variant", "kernel"])) == rows
    finally:
        st.close()
    rc, out, err = cli("--store", path, "history", "--format", "json")
    assert rc == 0 and json.loads(out)["runs"] == 2, err
    rc, out, err = cli("--store", path, "runs")
    assert rc == 0 and "r1" in out and "r2" in out, err
    # the first command that may write makes them, filled from the documents
    st = Store(path)
    try:
        assert {"run_brief", "result_heads"} <= st.backend.tables() and "hists_result" in st.backend.indexes()
        brief, heads = _copies(st)
        assert (brief, heads) == _as_written(st) and len(brief) == 2 and len(heads) == st.count("results")
        assert st.headlines([1, 2]) == before and list(st.run_rows(["target_uri", "variant", "kernel"])) == rows
    finally:
        st.close()


def test_the_copies_follow_their_documents(env, cli, new_store):
    """Every writer keeps run_brief and result_heads equal to what the documents say; a run or
    result without its copy (written by an older tickmark) is read from its documents."""
    path = new_store()
    rc, out, err = cli("--store", path, *RUN, *BENCHES, "--name", "a", "--label", "b=1")
    assert rc == 0, err
    st = Store(path)
    try:
        assert _copies(st) == _as_written(st)
        run = st.run("a")
        st.update_run(run["id"], fingerprint=dict(run["fingerprint"], target_uri="ssh://board"))
        st.update_run(run["id"], notes=dict(run["notes"], labels={"b": "2"}))
        res = st.results(run["id"])[0]
        st.update_result(res["id"], stats={"": dict(res["stats"][""], value=123.0)})
        assert _copies(st) == _as_written(st)
        (r,) = st.run_rows(["target_uri"])
        assert r["fingerprint"] == {"target_uri": "ssh://board"} and r["notes"] == {"labels": {"b": "2"}}
        assert (
            next(x for x in st.headlines([run["id"]])[run["id"]] if x["key"] == res["key"])["stats"][""]["value"]
            == 123.0
        )
        # rows an older tickmark wrote: no copies; read from the documents
        st.backend.execute("DELETE FROM run_brief")
        st.backend.execute("DELETE FROM result_heads")
        (again,) = st.run_rows(["target_uri"])
        assert again == r
        assert st.headlines([run["id"]])[run["id"]][0]["stats"][""]["value"] == 123.0
    finally:
        st.close()


def listed(out):
    """The names of the runs that `runs` lists (its tables' name column)."""
    rows = [line.split("|") for line in out.splitlines()]
    return [r[4].strip() for r in rows if r[0].strip().isdigit()]


def test_runs_reads_a_page_at_a_time(env, cli, monkeypatch):
    for i in range(1, 8):
        rc, out, err = cli(*RUN, "sys.fast", "--name", f"n{i}")
        assert rc == 0, err
    monkeypatch.setattr(store_mod, "RUN_PAGE", 3)
    monkeypatch.setattr(Store.run_rows, "__defaults__", ((), None, None, 3))
    read = []
    real_x = Store._x

    def spy(self, sql, args=()):
        rows = real_x(self, sql, args)
        if "FROM runs r" in sql:
            read.append(len(rows))
        return rows

    monkeypatch.setattr(Store, "_x", spy)
    st = Store(env, readonly=True)
    try:
        rows = st.run_rows()
        assert next(rows)["name"] == "n1" and read == [3]  # the first run, and no more than its page read
        assert [r["name"] for r in rows] == [f"n{i}" for i in range(2, 8)] and read == [3, 3, 1]
        assert [r["name"] for r in st.run_rows(newest=2)] == ["n6", "n7"]
    finally:
        st.close()
    read.clear()
    rc, out, err = cli("runs")  # a table per page
    assert rc == 0 and listed(out) == [f"n{i}" for i in range(1, 8)], out
    assert read == [3, 3, 1] and out.count("benchmarks") == 3
    rc, out, err = cli("runs", "--name", "n[2-6]", "--limit", "4")
    assert rc == 0 and listed(out) == ["n3", "n4", "n5", "n6"], out
    rc, out, err = cli("runs", "--limit", "3")
    assert rc == 0 and listed(out) == ["n5", "n6", "n7"], out
    rc, out, err = cli("runs", "--limit", "0")
    assert rc == 2 and "--limit" in err


def test_history_json_in_pieces_is_the_model(template, cli):
    """`history --format json` writes the model in pieces (each point a line): the same JSON as
    the model dumped whole."""
    from tickmark.report import history as hr

    rc, out, err = cli("--store", str(template), "history", "--format", "json")
    assert rc == 0, err
    st = Store(template, readonly=True)
    try:
        model = hr.to_json_ready(hr.build(st))
    finally:
        st.close()
    assert json.loads(out) == json.loads(json.dumps(model, default=list)) and len(model["series"]) > 3
    points = sum(len(s["points"]) for s in model["series"])
    assert sum(1 for line in out.splitlines() if line.startswith('    {"ci_hi"')) == points


def test_the_scale_benchmark_finds_the_planted_step(template, tmp_path, request):
    """tools/history_scale.py on 200 runs shaped like the template's, on SQLite and PostgreSQL:
    the bulk writer's rows are the store API's, and history finds the planted step at its run."""
    backends = ["sqlite"]
    argv = [sys.executable, str(ROOT / "tools" / "history_scale.py"), "--template", str(template)]
    argv += ["--runs", "200", "--check", "4", "--dir", str(tmp_path)]
    srv = request.getfixturevalue("pg_server")
    backends.append("postgresql")
    argv += ["--backends", ",".join(backends), "--pg", srv.url()]
    env = {k: v for k, v in os.environ.items() if k not in ("TICKMARK_STORE", "TICKMARK_CORE")}
    r = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    rows = [line for line in r.stdout.splitlines() if line.startswith("| 200 |")]
    assert len(rows) == 2, r.stdout
    for line, backend in zip(rows, backends):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[1] == backend and cells[6].startswith("nightly-121 (+"), line
    assert "rows checked" in r.stderr and list(tmp_path.iterdir()) == [], r.stderr


def test_postgresql_roles_that_may_not_change_the_schema_use_an_older_store(env, cli, pg_server):
    """A role granted SELECT only reads an older store as it is, without the tables added since,
    and a writing command says what it lacks; a role that may write rows but not change the
    schema writes runs into it as it is."""
    import psycopg

    url = pg_server.new_database()
    rc, out, err = cli("--store", url, *RUN, *BENCHES, "--name", "a")
    assert rc == 0, err
    _make_old(url)
    role = "reader_" + url.rsplit("/", 1)[1]
    with psycopg.connect(url, autocommit=True) as c:
        c.execute(f'CREATE ROLE "{role}" LOGIN')
        c.execute(f'GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{role}"')
    reader = url.replace("tickmark@", f"{role}@", 1)
    for args in (("history", "--format", "json"), ("runs",), ("show", "a")):
        rc, out, err = cli("--store", reader, *args)
        assert rc == 0 and "a" in out, (args, err)
    rc, out, err = cli("--store", reader, *RUN, "sys.fast")
    assert rc == 2 and err.startswith("tickmark: error: ") and "not allowed" in err, err
    with psycopg.connect(url, autocommit=True) as c:  # a role that writes rows, not the schema
        c.execute(f'GRANT INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO "{role}"')
        c.execute(f'GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO "{role}"')
    rc, out, err = cli("--store", reader, *RUN, "sys.fast", "--name", "b")
    assert rc == 0, err
    rc, out, err = cli("--store", reader, "history", "--format", "json")
    assert rc == 0 and json.loads(out)["runs"] == 2, err
    st = Store(url)
    try:
        assert "run_brief" in st.backend.tables()  # the owner's first command that may write makes them
    finally:
        st.close()


def test_task_clock_history_reads_the_copies(template, cli):
    """`history --metric task-clock` reads each result's task-clock per operation from
    result_heads: the value its statistics hold."""
    rc, out, err = cli("--store", str(template), "history", "--metric", "task-clock", "--format", "json")
    assert rc == 0, err
    st = Store(template, readonly=True)
    try:
        want = {
            (r["run_id"], r["key"]): r["stats"][""]["counters_per_op"]["task_clock"]
            for rid in (1, 2, 3)
            for r in st.results(rid)
            if r["status"] == "ok"
        }
    finally:
        st.close()
    got = {(p["run_id"], s["key"]): p["value"] for s in json.loads(out)["series"] for p in s["points"]}
    assert got == want and len(got) > 10
