"""Cache sizes are numbers in the fingerprint: as the probe reads them (sysfs, the device tree),
in the stores (a run stored as text before is migrated once when a writing command opens its
store, SQLite and PostgreSQL; read as numbers before that), and in an imported document of the
older form."""

import json

from tickmark.facts import fingerprint, probe
from tickmark.store import Store, exports

OLD_CACHES = [
    {"level": "1", "type": "Data", "size": "32K", "coherency_line_size": "64"},
    {"level": "1", "type": "Instruction", "size": "32K", "coherency_line_size": "64"},
    {"level": "2", "type": "Unified", "size": "1024K", "coherency_line_size": "64"},
    {"level": "3", "type": "Unified", "size": "36864K", "coherency_line_size": None},
]
NEW_CACHES = [
    {"level": 1, "type": "Data", "size": 32 << 10, "coherency_line_size": 64},
    {"level": 1, "type": "Instruction", "size": 32 << 10, "coherency_line_size": 64},
    {"level": 2, "type": "Unified", "size": 1 << 20, "coherency_line_size": 64},
    {"level": 3, "type": "Unified", "size": 36 << 20, "coherency_line_size": None},
]


def test_the_probe_reads_sysfs_caches_as_numbers():
    texts = {}
    for i, c in enumerate(OLD_CACHES):
        for k, v in c.items():
            if v is not None:
                texts[f"cache/index{i}/{k}"] = v
    fp = probe.from_texts(texts)
    assert fp["caches"] == [dict(c, coherency_line_size=c["coherency_line_size"]) for c in NEW_CACHES]
    assert fp["caches_source"] == "sysfs"


def test_the_probe_reads_device_tree_caches_as_numbers():
    cell = lambda n: n.to_bytes(4, "big").hex(" ")  # noqa: E731 (as `od -An -tx1` prints a cell)
    texts = {
        "dt/cpus/cpu@0/d-cache-size": cell(32 << 10),
        "dt/cpus/cpu@0/d-cache-line-size": cell(64),
        "dt/cpus/l2-cache0/cache-level": cell(2),
        "dt/cpus/l2-cache0/cache-size": cell(1536 << 10),
    }
    assert probe.dt_caches(texts) == [
        {"level": 1, "type": "Data", "size": 32 << 10, "coherency_line_size": 64},
        {"level": 2, "type": "Unified", "size": 1536 << 10, "coherency_line_size": None},
    ]
    assert fingerprint.in_words("caches", probe.dt_caches(texts)) == "L1d 32K, L2u 1.5M"


def test_older_and_newer_caches_read_the_same():
    assert fingerprint.cache_numbers(OLD_CACHES) == NEW_CACHES
    assert fingerprint.cache_numbers(NEW_CACHES) == NEW_CACHES
    assert fingerprint.in_words("caches", OLD_CACHES) == fingerprint.in_words("caches", NEW_CACHES)
    assert fingerprint.in_words("caches", NEW_CACHES) == "L1d 32K, L1i 32K, L2u 1M, L3u 36M"
    assert fingerprint.cache_numbers([{"level": "x", "size": "big"}]) == [{"level": None, "size": None}]
    assert fingerprint.cache_numbers("not a list") == "not a list"


def _raw_fingerprint(st, rid):
    (text,) = st._x("SELECT fingerprint FROM runs WHERE id = ?", (rid,)).fetchone()
    return json.loads(text)


def _older_store(where):
    """A store as an older tickmark left it: a run whose caches are texts, no migrations table."""
    st = Store(where)
    rid = st.create_run(name="old", fingerprint={"cpu_model": "X", "caches": NEW_CACHES}, status="complete")
    st._x("UPDATE runs SET fingerprint = ? WHERE id = ?", (json.dumps({"cpu_model": "X", "caches": OLD_CACHES}), rid))
    st._x("DROP TABLE migrations")
    assert _raw_fingerprint(st, rid)["caches"] == OLD_CACHES
    st.close()
    return rid


def test_a_stored_run_is_migrated_once(new_store):
    where = new_store()
    rid = _older_store(where)

    ro = Store(where, readonly=True)  # read only: unchanged, yet read as numbers
    assert ro.run(rid)["fingerprint"]["caches"] == NEW_CACHES
    assert _raw_fingerprint(ro, rid)["caches"] == OLD_CACHES
    ro.close()

    st = Store(where)  # a writing command's open: migrated
    assert _raw_fingerprint(st, rid) == {"cpu_model": "X", "caches": NEW_CACHES}
    assert [r[0] for r in st._x("SELECT name FROM migrations").fetchall()] == ["cache-sizes-as-numbers"]
    # an older tickmark writes a text fingerprint into the migrated store: still read as numbers
    st._x("UPDATE runs SET fingerprint = ? WHERE id = ?", (json.dumps({"caches": OLD_CACHES}), rid))
    st.close()

    st = Store(where)  # made once: not again
    assert _raw_fingerprint(st, rid) == {"caches": OLD_CACHES}
    assert st.run(rid)["fingerprint"]["caches"] == NEW_CACHES
    assert len(st._x("SELECT name FROM migrations").fetchall()) == 1
    st.close()


def test_a_damaged_fingerprint_is_left_for_the_reader(tmp_path):
    where = str(tmp_path / "s.db")
    rid = _older_store(where)
    st = Store(where)
    st._x("UPDATE runs SET fingerprint = ? WHERE id = ?", ('{"caches": "32K"', rid))
    st._x("DELETE FROM migrations")
    st.close()
    st = Store(where)  # the migration skips what is not JSON; the reader refuses it as ever
    (text,) = st._x("SELECT fingerprint FROM runs WHERE id = ?", (rid,)).fetchone()
    assert text == '{"caches": "32K"'
    st.close()


def test_an_older_document_imports_with_numbers(tmp_path):
    from tickmark.run.importing import import_document
    from tickmark.store.document import parse_document, run_model, to_document

    st = Store(str(tmp_path / "a.db"))
    rid = st.create_run(name="a", fingerprint={"cpu_model": "X", "caches": NEW_CACHES}, status="complete")
    doc = to_document(run_model(st, st.run(rid)))
    assert doc["run"]["fingerprint"]["caches"] == NEW_CACHES
    doc["run"]["fingerprint"]["caches"] = OLD_CACHES  # as a tickmark before wrote it
    new = import_document(st, parse_document(json.dumps(doc)))
    assert _raw_fingerprint(st, new)["caches"] == NEW_CACHES
    ctx = json.loads(exports.to_gbench(run_model(st, st.run(new))))["context"]
    assert [(c["level"], c["type"], c["size"]) for c in ctx["caches"]] == [
        (1, "Data", 32 << 10),
        (1, "Instruction", 32 << 10),
        (2, "Unified", 1 << 20),
        (3, "Unified", 36 << 20),
    ]
    st.close()
