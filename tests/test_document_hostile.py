"""Hostile import documents and exports: the whole document is checked before anything is
written, what it says is kept or refused, a fuzz of documents, CSV cells no spreadsheet reads as
a formula."""

import json

import pytest

from conftest import row_counts
from hostilefix import HOSTILE_VALUES, _profile, _set, _store, base_store, exported, one_error_line, store_readable  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


def _first_sample(field, value):
    def mutate(d):
        r = next(r for r in d["results"] if r["samples"])
        r["samples"][0][field] = value

    return mutate


def _hist(d):
    next(r for r in d["results"] if r["hist"])["hist"][0]["buckets"][0][0] = "4096"


IMPORTS = [
    ("started 1e300", _set(["run", "started"], 1e300), "run.started"),
    ("NaN", _first_sample("ns", float("nan")), "NaN is not a number"),
    ("Infinity", _first_sample("ns", float("inf")), "Infinity is not a number"),
    ("negative ns", _first_sample("ns", -5), "samples[0].ns"),
    ("2^70 ns", _first_sample("ns", 2**70), "samples[0].ns"),
    ("string ns", _first_sample("ns", "abc"), "samples[0].ns"),
    ("round -1", _first_sample("round", -1), "samples[0].round"),
    ("string buckets", _hist, "buckets[0][0]"),
    ("name 1", _set(["run", "name"], "1"), "bad run name '1'"),
    ("name latest", _set(["run", "name"], "latest"), "bad run name 'latest'"),
    ("name empty", _set(["run", "name"], ""), "bad run name: empty"),
    ("name ESC", _set(["run", "name"], "a\x1b[2Jb"), "control characters"),
    ("name newline", _set(["run", "name"], "a\nb"), "control characters"),
    ("key ESC", lambda d: d["results"][0].update(key="k\x1b[31m"), "results[0].key"),
    ("status", _set(["run", "status"], "great"), "run.status"),
    ("caches text", _set(["run", "fingerprint", "caches"], "x"), "run.fingerprint.caches"),
    ("caches of numbers", _set(["run", "fingerprint", "caches"], [1, 2]), "run.fingerprint.caches[0]"),
    ("kernel number", _set(["run", "fingerprint", "kernel"], 5), "run.fingerprint.kernel"),
    ("symbols of objects", lambda d: d.update(profiles=[_profile([{}])]), "profiles[0].routines[0].symbols[0]"),
    ("lone surrogate", lambda d: d["results"][0].update(reason="a\ud800b"), "results[0].reason: a NUL character or"),
    ("surrogate name", _set(["run", "name"], "a\udfffb"), "run.name: a NUL character or a lone surrogate"),
    ("NUL", lambda d: d["results"][0].update(reason="a\x00b"), "results[0].reason: a NUL character"),
    ("NUL in a key", _set(["run", "options", "a\x00"], 1), "run.options: a NUL character or a lone surrogate in a key"),
]


@pytest.mark.parametrize("label,mutate,says", IMPORTS, ids=[c[0] for c in IMPORTS])
def test_bad_import_is_refused_whole(exported, env, cli, tmp_path, label, mutate, says):
    mutate(exported)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(exported))  # NaN and Infinity are written as such by json.dumps
    before = row_counts(env)
    rc, out, err = cli("import", str(f))
    one_error_line(rc, err, says)
    assert err.count("\n") == 1 and "\x1b" not in err
    assert row_counts(env) == before
    rc, out, err = cli("compare", "base", str(f))  # a file on the command line is checked the same way
    one_error_line(rc, err, says)
    store_readable(cli, "base")


@pytest.mark.parametrize("text,says", [("[" * 200000, "not a results document"), ('{"a":' * 200000, "not a")])
def test_deeply_nested_document(env, cli, tmp_path, text, says):
    f = tmp_path / "deep.json"
    f.write_text(text)
    rc, out, err = cli("import", str(f))
    one_error_line(rc, err, says)


def test_imported_statistics_are_recomputed(exported, env, cli, tmp_path):
    r = next(r for r in exported["results"] if r["key"] == "sys.fast")
    r["stats"][""]["value"] = "fast"
    r["stats"][""]["median"] = 1e300
    exported["run"]["name"] = "copy"
    f = tmp_path / "doc.json"
    f.write_text(json.dumps(exported))
    rc, out, err = cli("import", str(f))
    assert rc == 0, err
    st = _store()
    copy, base = st.run("copy"), st.run("base")
    a = {x["key"]: x["stats"] for x in st.results(base["id"])}
    b = {x["key"]: x["stats"] for x in st.results(copy["id"])}
    assert b["sys.fast"][""]["median"] == a["sys.fast"][""]["median"] < 1e6
    store_readable(cli, "base", "copy")


def test_a_run_name_never_hides_a_run_id(exported, env, cli):
    st = _store()
    legacy = st.create_run(name="1", patterns=["x"], status="complete")  # an older store could hold one
    assert legacy != 1
    rc, out, err = cli("show", "1")
    assert rc == 0 and "run 1 'base'" in out, out


def _mutate_doc(rng, doc):
    """A random leaf or container of the document replaced by a hostile value."""
    import copy

    path, node = [], doc
    while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
        k = rng.choice(sorted(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(k)
        node = node[k]
    if not path:
        return
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    choice = rng.randrange(4)
    if choice == 0 and isinstance(parent, dict):
        del parent[path[-1]]
    elif choice == 1:
        parent[path[-1]] = json.loads("[" * 50 + "]" * 50)
    else:
        parent[path[-1]] = copy.deepcopy(rng.choice(HOSTILE_VALUES))


def test_fuzz_export_documents(exported, env, cli, tmp_path):
    import copy
    import io
    import random

    from tickmark.base.errors import TickmarkError
    from tickmark.report import terminal as report
    from tickmark.run.importing import import_document
    from tickmark.store import document as export

    rng = random.Random(7)
    st = _store()
    accepted = 0
    for n in range(1000):
        doc = copy.deepcopy(exported)
        for _ in range(rng.randrange(1, 4)):
            _mutate_doc(rng, doc)
        text = json.dumps(doc) if rng.random() < 0.9 else json.dumps(doc)[: rng.randrange(10, 2000)]
        try:
            good = export.parse_document(text)
        except TickmarkError as e:
            assert "\n" not in str(e) and len(str(e)) < 400
            continue
        accepted += 1
        if accepted <= 40:  # what is accepted imports, and the store stays readable
            if good["run"]["name"] is not None:
                good["run"]["name"] = f"fuzz-{n}"
            rid = import_document(st, good)
            report.show(st, st.run(rid), file=io.StringIO())
    assert accepted > 20  # mutations that keep a document valid (a reason, a note) are imported
    store_readable(cli, "base", "latest")


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t"])
def test_csv_export_neutralises_formula_cells(exported, env, cli, tmp_path, lead):
    r = next(r for r in exported["results"] if r["key"] == "sys.fast")
    r["reason"] = lead + 'HYPERLINK("http://x","y")'
    r["key"] = r["meta"]["key"] = lead.strip() + "cmd|' /C calc'!A0" if lead != "\t" else "k"
    exported["run"]["name"] = "evil"
    f = tmp_path / "evil.json"
    f.write_text(json.dumps(exported))
    rc, out, err = cli("import", str(f))
    if lead == "\t":  # a tab is a control character: no text in a store holds one (names.text_problem)
        one_error_line(rc, err, "].reason: control characters")
        return
    assert rc == 0, err
    rc, out, err = cli("export", "evil", "--format", "csv")
    assert rc == 0, err
    import csv
    import io

    rows = list(csv.reader(io.StringIO(out)))
    cells = [c for row in rows[1:] for c in row]
    assert any(c == "'" + r["reason"] for c in cells), rows
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t") or (c[:1] == "-" and not _number(c))], rows
    store_readable(cli, "evil", "base")


def _number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def test_duplicate_json_keys_are_refused(exported, env, cli, tmp_path):
    f = tmp_path / "dup.json"
    f.write_text(json.dumps(exported).replace('"format":', '"format": "other", "format":', 1))
    before = row_counts(env)
    rc, out, err = cli("import", str(f))
    one_error_line(rc, err, "key 'format' is given twice")
    assert row_counts(env) == before


def test_imported_running_run_is_incomplete_and_started_0_is_kept(exported, env, cli, tmp_path):
    exported["run"].update(name="copy", status="running", started=0, finished=None)
    f = tmp_path / "copy.json"
    f.write_text(json.dumps(exported))
    rc, out, err = cli("import", str(f))
    assert rc == 0, err
    run = _store().run("copy")
    assert run["status"] == "incomplete" and run["started"] == 0
    assert "exported while it was still running" in run["notes"]["incomplete"]
    rc, out, err = cli("show", "copy")
    assert rc == 0 and "1970-01-01" in out and "abandoned" not in out, out
    rc, out, err = cli("export", "copy")
    assert json.loads(out)["run"]["started"] == 0
    store_readable(cli, "copy", "base")


def test_a_good_profile_imports_and_shows(exported, env, cli, tmp_path):
    exported["run"]["name"] = "prof"
    exported["profiles"] = [_profile(["__memmove_avx_unaligned"])]
    f = tmp_path / "prof.json"
    f.write_text(json.dumps(exported))
    rc, out, err = cli("import", str(f))
    assert rc == 0, err
    store_readable(cli, "prof", "base")
