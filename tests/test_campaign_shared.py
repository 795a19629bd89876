"""A campaign shared by several processes through one PostgreSQL store: the cells are claimed
in the database, one process is killed with SIGKILL in the middle of its cells, and its cells are
taken over once their leases run out. Every cell ends stored complete exactly once."""

import os
import signal
import socket
import sys
import time

import pytest

from conftest import FAKECORE, tickmark_proc
from tickmark.store import Store, claims

LEASE = 3
CAMPAIGN = f"""
name = "shared"
rounds = 1
max_rounds = 1
samples = 3
lease = {LEASE}

[targets]
t1 = "local"
t2 = "local"
t3 = "local"

[variants]
O2 = {{ cflags = "-O2" }}
Os = {{ cflags = "-Os" }}

[workloads]
w1 = ["sys.fast", "ipc.*"]
w2 = ["sys.fast", "sync.*"]
"""
CELLS = [f"{t}:{v}:{w}" for t in ("t1", "t2", "t3") for v in ("O2", "Os") for w in ("w1", "w2")]


def campaign(url, f, mode="", *extra):
    env = {"TICKMARK_STORE": url, "TICKMARK_CORE": f"{sys.executable} {FAKECORE}", "FAKECORE_MODE": mode}
    return tickmark_proc(["campaign", str(f), *extra], env=env, start_new_session=True)


def claim_rows(url, name="shared"):
    st = Store(url)
    try:
        return claims.status(st, name)
    finally:
        st.close()


@pytest.mark.alone  # the take-over within a bound after the lease; live holders must renew in time
def test_three_hosts_share_twelve_cells_and_take_over_a_killed_ones(pg_server, tmp_path):
    url = pg_server.new_database()
    f = tmp_path / "lab.toml"
    f.write_text(CAMPAIGN)
    # the victim's core hangs in ipc.ping: every w1 cell it claims stays running until it is killed
    victim = campaign(url, f, "slowkey=ipc.ping")
    me = socket.gethostname()
    held = []
    others = []
    try:
        deadline = time.time() + 60
        while time.time() < deadline and not held:
            try:
                held = [c for c, r in claim_rows(url).items() if r["holder"] == f"{me}:{victim.pid}"]
            except Exception:  # the tables are being made
                pass
            time.sleep(0.1)
        assert held, "the first process claimed no cell"
        others = [campaign(url, f), campaign(url, f)]
        # who holds what, seen from a fourth process while the campaign runs
        st = tickmark_proc(["campaign", str(f), "--status"], env={"TICKMARK_STORE": url})
        out, err = st.communicate(timeout=60)
        assert st.returncode == 0, err
        lines = [ln for ln in out.splitlines() if f"on {me}:{victim.pid}, lease renewed" in ln]
        assert lines and all(" running " in ln for ln in lines), out
        time.sleep(1)

        def running_of_victim():
            mine = f"{me}:{victim.pid}"
            return {c for c, r in claim_rows(url).items() if r["holder"] == mine and r["state"] == "running"}

        # the cells it holds as it dies (its w1 cell hangs until the kill); read before the kill too:
        # on this host a survivor may take a dead holder's cell before this test reads it again
        before = running_of_victim()
        killed_at = time.time()
        os.killpg(victim.pid, signal.SIGKILL)  # mid-cell: the harness and its core
        victim.communicate()
        held = sorted(before | running_of_victim())
        results = [p.communicate(timeout=180) + (p.returncode,) for p in others]
    finally:
        for p in [victim, *others]:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    for _out, err, rc in results:
        assert rc == 0, err
    rows = claim_rows(url)
    assert sorted(rows) == sorted(CELLS)
    assert {r["state"] for r in rows.values()} == {"done"}
    survivors = {f"{me}:{p.pid}" for p in others}
    taken = {c: r for c, r in rows.items() if r["takeovers"]}
    assert set(taken) == set(held), (held, taken)
    for r in taken.values():
        assert r["previous"] == f"{me}:{victim.pid}" and r["holder"] in survivors
        # after it died: on this host a holder's death is known, its lease not waited out
        assert r["claimed"] >= killed_at, r["claimed"] - killed_at
    takeover = max(r["claimed"] for r in taken.values()) - killed_at
    print(f"\ntake-over after SIGKILL: {takeover:.1f} s (lease {LEASE} s, renewed every {LEASE / 4:.2f} s)")
    assert takeover < LEASE + 10
    # every cell stored complete exactly once; the killed process's partial runs kept aside
    st = Store(url)
    try:
        runs = st.runs()
    finally:
        st.close()
    complete = {}
    for r in runs:
        if r["status"] == "complete":
            cid = r["notes"]["cell"]["id"]
            complete.setdefault(cid, []).append(r["name"])
    assert {c: len(v) for c, v in complete.items()} == {c: 1 for c in CELLS}
    assert all(complete[c] == [f"shared:{c}"] for c in CELLS)
    aside = [r for r in runs if r["status"] != "complete"]
    assert sorted(r["notes"]["cell"]["id"] for r in aside) == sorted(held)
    assert all(r["name"].startswith(f"shared:{r['notes']['cell']['id']}~") for r in aside)
    # only the survivors ran cells to the end, never two cells of one target at once
    by_holder = {}
    for r in rows.values():
        by_holder.setdefault(r["holder"], 0)
        by_holder[r["holder"]] += 1
    assert set(by_holder) <= survivors, by_holder
    for t in ("t1", "t2", "t3"):
        spans = sorted(
            (r["started"], r["finished"])
            for r in runs
            if r["status"] == "complete" and r["notes"]["cell"]["target"] == t
        )
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans


def test_two_processes_on_one_sqlite_store_split_the_cells(tmp_path):
    db = str(tmp_path / "one.db")
    f = tmp_path / "lab.toml"
    f.write_text(CAMPAIGN.replace('name = "shared"', 'name = "solo"'))
    procs = [campaign(db, f), campaign(db, f)]
    try:
        results = [p.communicate(timeout=180) + (p.returncode,) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    for _out, err, rc in results:
        assert rc == 0, err
    st = Store(db)
    try:
        runs = st.runs()
        rows = claims.status(st, "solo")
    finally:
        st.close()
    assert sorted(r["name"] for r in runs) == sorted(f"solo:{c}" for c in CELLS)
    assert all(r["status"] == "complete" for r in runs)
    assert {r["state"] for r in rows.values()} == {"done"} and len(rows) == len(CELLS)
    me = socket.gethostname()
    assert {r["holder"] for r in rows.values()} <= {f"{me}:{p.pid}" for p in procs}


def test_a_stalled_holder_loses_its_cell_and_the_cell_still_ends_once(pg_server, tmp_path):
    """A process stopped (SIGSTOP) past its lease: another takes its cell over; when the first
    wakes up it finds its claim gone, stops that cell and keeps its run aside."""
    url = pg_server.new_database()
    f = tmp_path / "lab.toml"
    f.write_text(CAMPAIGN.replace('name = "shared"', 'name = "stall"').replace('t2 = "local"\nt3 = "local"\n', ""))
    cells = [c for c in CELLS if c.startswith("t1:")]
    sleeper = campaign(url, f, "slowkey=ipc.ping")  # hangs 30 s in its first w1 cell
    other = None
    try:
        deadline = time.time() + 60
        held = []
        while time.time() < deadline and not held:
            try:
                held = [
                    c
                    for c, r in claim_rows(url, "stall").items()
                    if r["holder"] == f"{socket.gethostname()}:{sleeper.pid}"
                ]
            except Exception:
                pass
            time.sleep(0.1)
        assert held

        def started(name):  # the sleeper's run of its cell is stored (it is inside the slow benchmark)
            st = Store(url)
            try:
                return st.name_taken(name)
            finally:
                st.close()

        while time.time() < deadline and not started(f"stall:{held[0]}"):
            time.sleep(0.1)
        assert started(f"stall:{held[0]}")
        os.killpg(sleeper.pid, signal.SIGSTOP)
        other = campaign(url, f)
        deadline = time.time() + 60
        while time.time() < deadline and not claim_rows(url, "stall")[held[0]]["takeovers"]:
            time.sleep(0.2)
        assert claim_rows(url, "stall")[held[0]]["takeovers"] == 1
        os.killpg(sleeper.pid, signal.SIGCONT)
        out2, err2 = other.communicate(timeout=180)
        out1, err1 = sleeper.communicate(timeout=180)
    finally:
        for p in (sleeper, other):
            if p is not None and p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    assert other.returncode == 0, err2
    assert "the claim was taken over" in err1 and sleeper.returncode == 0, err1
    st = Store(url)
    try:
        runs = st.runs()
    finally:
        st.close()
    complete = sorted(r["notes"]["cell"]["id"] for r in runs if r["status"] == "complete")
    assert complete == sorted(cells)  # each cell once
    aside = [r for r in runs if r["status"] != "complete"]
    assert [r["notes"]["cell"]["id"] for r in aside] == held and aside[0]["name"].startswith(f"stall:{held[0]}~")
