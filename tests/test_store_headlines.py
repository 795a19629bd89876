"""The store's bulk readers for histories: headlines (the headline statistics read by the
database from the stored JSON, with LIKE filters) agree with the full result rows, on SQLite and
on PostgreSQL; statistics of another version come whole and recomputed."""

import math

from tickmark.analysis.stats import Stats
from tickmark.store import Store


def test_headlines_agree_with_the_full_results(env, cli, new_store):
    store = new_store()
    for name in ("h1", "h2"):
        rc, out, err = cli("--store", store, "run", "sys.*", "bw.*", "lat.*", "--rounds", "2", "--name", name, "-q")
        assert rc == 0, err
    st = Store(store)
    try:
        ids = [r["id"] for r in st.runs()]
        full = st.results_of(ids)
        heads = st.headlines(ids)
        for rid in ids:
            want = {r["key"]: Stats.of(r).main for r in full[rid] if r["status"] == "ok"}
            got = {r["key"]: Stats.of(r).main for r in heads[rid] if r["status"] == "ok"}
            assert set(got) == set(want) and want
            for k, d in want.items():
                assert math.isclose(got[k].value, d.value) and got[k].unit == d.unit
                assert math.isclose(got[k].ci95_lo, d.ci95_lo) and math.isclose(got[k].ci95_hi, d.ci95_hi)
        sub = st.headlines(ids, like=["lat.%", "bw\\_%"])
        assert {r["bench"] for rows in sub.values() for r in rows} == {"lat.sweep"}
        # statistics from another version: recomputed from the samples, not trusted
        r0 = next(r for r in full[ids[0]] if r["status"] == "ok")
        st.update_result(r0["id"], stats={"": dict(r0["stats"][""], value=-1.0, v=1)})
        again = {r["key"]: r for r in st.headlines(ids)[ids[0]]}
        assert math.isclose(Stats.of(again[r0["key"]]).main.value, Stats.of(r0).main.value)
    finally:
        st.close()
