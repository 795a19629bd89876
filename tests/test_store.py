import json

import pytest

from conftest import fake_core
from tickmark.base.errors import TickmarkError
from tickmark.run.engine import Run, RunConfig
from tickmark.run.importing import import_document
from tickmark.store import Store
from tickmark.store import document as export


def fake_run(store, patterns=("sys.*", "lat.*", "bw.*", "sync.*", "ipc.*"), name="r1", **kw):

    cfg = RunConfig(patterns=list(patterns), rounds=kw.pop("rounds", 2), name=name, seed=5, **kw)
    return Run(store, fake_core(), cfg).execute()


def test_round_trip_export_import(tmp_path, new_store):
    st = Store(new_store("a"))
    rid = fake_run(st)
    doc1 = export.to_document(export.run_model(st, st.run(rid)))
    assert doc1["format"] == "tickmark-results" and doc1["version"] == 1
    keys = {r["key"] for r in doc1["results"]}
    assert {"sys.fast", "sys.skipme", "sys.crashy", "lat.sweep[size=1024]", "ipc.ping"} <= keys
    ping = next(r for r in doc1["results"] if r["key"] == "ipc.ping")
    assert len(ping["samples"]) == 10 and len(ping["hist"]) == 2
    assert ping["samples"][0]["ctr"] == {"task_clock": ping["samples"][0]["ns"]}

    path = tmp_path / "run.json"
    path.write_text(export.to_json(export.run_model(st, st.run(rid))))
    st2 = Store(new_store("b"))
    fake_run(st2, patterns=["sys.fast"], name="other")  # so the import gets another id
    new = import_document(st2, export.read_document(path))
    doc2 = export.to_document(export.run_model(st2, st2.run(new)))
    assert new != rid
    r1, r2 = dict(doc1["run"]), dict(doc2["run"])
    assert r2.pop("notes")["imported_from"] == rid
    r1.pop("notes")
    assert r1.pop("id") != r2.pop("id")
    assert r1 == r2
    assert doc1["results"] == doc2["results"]

    # importing again: the name clashes and gets a suffix
    again = import_document(st2, export.read_document(path))
    assert st2.run(again)["name"] == "r1-2"


def test_import_rejects_bad_documents_without_writing(new_store):
    st = Store(new_store("a"))
    rid = fake_run(st)
    good = export.to_document(export.run_model(st, st.run(rid)))
    before = st.count("results")

    def bad(mutate, needle):
        doc = json.loads(json.dumps(good))
        mutate(doc)
        with pytest.raises(TickmarkError, match=needle):
            export.validate(doc)

    bad(lambda d: d.update(format="x"), "format")
    bad(lambda d: d.update(version=2), "version 2")
    bad(lambda d: d["run"].pop("started"), "run: missing 'started'")
    bad(lambda d: d["results"][0].update(status="great"), r"results\[0\].status")
    bad(
        lambda d: d["results"][1]["samples"].append({"round": 1, "iters": 1, "ops": "1", "ns": 3}),
        r"results\[1\].samples\[\d+\].ops: '1' is not of type 'integer'",
    )
    bad(lambda d: d["results"].append(d["results"][0]), "duplicate key")
    bad(lambda d: d["run"].update(patterns="sys.*"), "run.patterns")
    assert st.count("results") == before


def test_store_refuses_foreign_files(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("my precious notes\n")
    with pytest.raises(TickmarkError, match="not an SQLite database"):
        Store(p)
    assert p.read_text() == "my precious notes\n"

    import sqlite3

    q = tmp_path / "other.db"
    db = sqlite3.connect(q)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(TickmarkError, match="not a tickmark store"):
        Store(q)

    c = tmp_path / "corrupt.db"
    c.write_bytes(b"SQLite format 3\x00" + b"\xff" * 2000)
    with pytest.raises(TickmarkError, match="unreadable or corrupt"):
        Store(c)


def test_run_lookup(new_store):
    st = Store(new_store("a"))
    with pytest.raises(TickmarkError, match="no runs stored yet"):
        st.run("latest")
    a = fake_run(st, patterns=["sys.fast"], name="base", rounds=1)
    b = fake_run(st, patterns=["sys.fast"], name=None, rounds=1)
    assert st.run("latest")["id"] == b
    assert st.run("base")["id"] == a
    assert st.run(str(a))["name"] == "base"
    with pytest.raises(TickmarkError, match="no run 'nope'"):
        st.run("nope")


def test_stale_statistics_are_recomputed_on_read(new_store):
    from tickmark.analysis import stats

    st = Store(new_store("s"))
    rid = fake_run(st, patterns=["sys.fast", "sync.*"], name="v")
    fresh = {r["key"]: r["stats"] for r in st.results(rid)}
    assert all(stats.is_current(s) for s in fresh.values())
    # what an older version stored: no version stamp, different figures
    for r in st.results(rid):
        if r["stats"]:
            st.update_result(r["id"], stats={k: {"value": -1.0, "flags": []} for k in r["stats"]})
    raw = json.loads(st.backend.execute("SELECT stats FROM results WHERE key = 'sys.fast'").fetchone()[0])
    assert raw[""]["value"] == -1.0
    again = {r["key"]: r["stats"] for r in st.results(rid)}
    assert again == fresh
    raw = json.loads(st.backend.execute("SELECT stats FROM results WHERE key = 'sys.fast'").fetchone()[0])
    assert raw == fresh["sys.fast"]  # written back
    st.close()


def test_import_takes_the_next_free_name_when_another_import_took_it_first(new_store, monkeypatch):
    """Another import may take the free name between the look and the write: the import tries
    the next one, a hundred times at most, then says the name is taken."""
    from tickmark.run import importing
    from tickmark.store import NameTaken

    st = Store(new_store("a"))
    doc = export.to_document(export.run_model(st, st.run(fake_run(st))))
    real, calls = importing._free_name, []

    def raced(store, name, late=3):  # the first `late` looks miss the run that takes the name
        calls.append(name)
        return name if len(calls) <= late else real(store, name)

    monkeypatch.setattr(importing, "_free_name", raced)
    rid = import_document(st, doc)
    assert len(calls) == 4 and st.run(rid)["name"] == "r1-2"
    calls.clear()
    monkeypatch.setattr(importing, "_free_name", lambda store, name: calls.append(name) or name)
    with pytest.raises(NameTaken):
        import_document(st, doc)
    assert len(calls) == 100
    assert [r["name"] for r in st.runs()] == ["r1", "r1-2"]
