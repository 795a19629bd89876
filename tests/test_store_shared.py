"""Several runners writing to one store at once (SQLite WAL and PostgreSQL), a runner killed with
SIGKILL in the middle, and what only the PostgreSQL store has to get right (its URL, a foreign
database, an unreachable server)."""

import os
import signal
import sys
import time

import pytest

from conftest import FAKECORE, row_counts, tickmark_proc, wait_results
from tickmark.base.errors import TickmarkError
from tickmark.store import Store

PATTERNS = ["sys.*", "lat.*", "bw.*", "sync.*", "ipc.*"]


def runner(store, name, *extra, mode=""):
    env = {"TICKMARK_STORE": str(store), "TICKMARK_CORE": f"{sys.executable} {FAKECORE}", "FAKECORE_MODE": mode}
    return tickmark_proc(
        ["run", *PATTERNS, "--rounds", "3", "--max-rounds", "3", "--name", name, "-q", *extra],
        env=env,
        start_new_session=True,
    )


def per_run_counts(store):
    """{run name: (status, results, samples, hists)} read through the store API."""
    st = Store(store)
    try:
        out = {}
        for r in st.runs():
            res = st.results(r["id"])
            out[r["name"]] = (
                r["status"],
                len(res),
                sum(len(st.samples(x["id"])) for x in res),
                sum(len(st.hists(x["id"])) for x in res),
            )
        return out
    finally:
        st.close()


def finish(procs, timeout=180):
    outs = []
    try:
        for p in procs:
            out, err = p.communicate(timeout=timeout)
            outs.append((p.returncode, out, err))
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    return outs


@pytest.fixture(scope="module")
def solo(tmp_path_factory):
    """What one runner alone stores (the reference the concurrent runs are counted against)."""
    db = tmp_path_factory.mktemp("solo") / "solo.db"
    ((rc, out, err),) = finish([runner(db, "solo")])
    assert rc == 0, err
    counts = per_run_counts(db)["solo"]
    assert counts[0] == "complete" and counts[1] == 8 and counts[2] > 0 and counts[3] > 0
    return counts


def test_concurrent_runners_lose_nothing(new_store, solo, n=4):
    store = new_store("shared")  # a new store: the runners race to make it, too
    procs = [runner(store, f"r{i}") for i in range(n)]
    for rc, _out, err in finish(procs):
        assert rc == 0, err
    counts = per_run_counts(store)
    assert sorted(counts) == [f"r{i}" for i in range(n)]
    for name, c in counts.items():
        assert c == solo, (name, c, solo)
    total = row_counts(store)
    assert total["runs"] == n and total["results"] == n * solo[1]
    assert total["samples"] == n * solo[2] and total["hists"] == n * solo[3]


def test_sigkill_of_one_runner_leaves_the_others_intact(new_store, solo):
    store = new_store("shared")
    Store(store).close()
    # 3 s inside ipc.ping in each round (not 30: when ipc.ping comes first in its random order, the
    # victim stores nothing before it ends): killed mid-run, whatever the order
    victim = runner(store, "victim", mode="slowkey=ipc.ping,slow=3")
    others = [runner(store, "other")]
    try:
        wait_results(store, 1)
        deadline = time.time() + 60
        while time.time() < deadline and per_run_counts(store).get("victim", ("", 0, 0))[2] < 1:
            time.sleep(0.1)
        time.sleep(0.3)
    finally:
        os.killpg(victim.pid, signal.SIGKILL)  # the harness and its core, mid-run
        victim.communicate()
    ((rc, out, err),) = finish(others)
    assert rc == 0, err
    counts = per_run_counts(store)
    assert counts["other"] == solo
    status, n_res, n_samples, _ = counts["victim"]
    # killed mid-run: what it finished is kept (the order is random, so its round 1 may be whole),
    # and the run reads as incomplete (abandoned: its process is gone), not as still running
    assert status == "incomplete" and 1 <= n_res <= solo[1] and 0 < n_samples < solo[2]
    assert Store(store).run("victim")["notes"]["abandoned"] is True
    # the store takes new runs afterwards
    ((rc, out, err),) = finish([runner(store, "after")])
    assert rc == 0, err
    assert per_run_counts(store)["after"] == solo


def test_transaction_rolls_back_on_error(new_store):
    st = Store(new_store())
    rid = st.create_run(name="keep", patterns=["x"])
    with pytest.raises(RuntimeError):
        with st.transaction():
            r = st.add_result(rid, key="k1", bench="b")
            st.add_samples(r, 1, [{"iters": 1, "ops": 1, "ns": 5}])
            raise RuntimeError("boom")
    assert st.results(rid) == [] and st.count("samples") == 0
    with pytest.raises(TickmarkError, match="a run named 'keep' exists already"):
        st.create_run(name="keep", patterns=["x"])
    big = 3 * 2**40  # 64-bit sample totals survive the round trip, in insertion order
    r = st.add_result(rid, key="k2", bench="b")
    st.add_samples(r, 2, [{"iters": 7, "ops": 7, "ns": big + i, "cyc": big, "i": 0} for i in range(3)])
    assert [s["ns"] for s in st.samples(r)] == [big, big + 1, big + 2]
    assert st.samples(r)[0]["cyc"] == big


def test_postgresql_foreign_database_and_bad_urls(pg_server):
    import psycopg

    url = pg_server.new_database()
    with psycopg.connect(url, autocommit=True) as c:
        c.execute("CREATE TABLE payroll (who TEXT)")
        c.execute("INSERT INTO payroll VALUES ('me')")
    with pytest.raises(TickmarkError, match="not a tickmark store"):
        Store(url)
    with psycopg.connect(url, autocommit=True) as c:
        assert (
            c.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'").fetchone()[0] == 1
        )
    bad = f"postgresql://tickmark:sekrit@127.0.0.1:{pg_server.port}/no_such_db"
    with pytest.raises(TickmarkError) as e:
        Store(bad)
    assert "cannot connect to store postgresql://tickmark:***@127.0.0.1" in str(e.value)
    assert "sekrit" not in str(e.value) and "no_such_db" in str(e.value)


def test_cli_against_postgresql(pg_server, cli, monkeypatch, tmp_path):
    url = pg_server.new_database()
    monkeypatch.setenv("TICKMARK_CORE", f"{sys.executable} {FAKECORE}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("FAKECORE_MODE", raising=False)
    rc, out, err = cli("--store", url, "run", "sys.*", "--rounds", "1", "--name", "pg1", "-q")
    assert rc == 0, err
    monkeypatch.setenv("TICKMARK_STORE", url)
    rc, out, err = cli("runs")
    assert rc == 0 and "pg1" in out
    rc, out, err = cli("--store", "postgresql://nobody@127.0.0.1:1/x", "runs")
    assert rc == 2 and err.startswith("tickmark: error: cannot connect to store") and err.count("\n") == 1


def test_export_import_moves_runs_between_sqlite_and_postgresql(pg_server, cli, monkeypatch, tmp_path):
    import json

    monkeypatch.setenv("TICKMARK_CORE", f"{sys.executable} {FAKECORE}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("FAKECORE_MODE", raising=False)
    lite, url, back = str(tmp_path / "local.db"), pg_server.new_database(), str(tmp_path / "back.db")
    rc, out, err = cli("--store", lite, "run", *PATTERNS, "--rounds", "2", "--name", "laptop", "-q")
    assert rc == 0, err
    f1, f2, f3 = (str(tmp_path / n) for n in ("1.json", "2.json", "3.json"))
    assert cli("--store", lite, "export", "laptop", "-o", f1)[0] == 0
    rc, out, err = cli("--store", url, "import", f1)
    assert rc == 0 and "'laptop'" in out, err
    assert cli("--store", url, "export", "laptop", "-o", f2)[0] == 0
    rc, out, err = cli("--store", back, "import", f2)
    assert rc == 0, err
    assert cli("--store", back, "export", "laptop", "-o", f3)[0] == 0
    docs = [json.load(open(f)) for f in (f1, f2, f3)]
    for d in docs:
        d["run"].pop("id")
        d["run"]["notes"].pop("imported_from", None)
    assert docs[0] == docs[1] == docs[2]
    assert sum(len(r["samples"]) for r in docs[0]["results"]) > 0
