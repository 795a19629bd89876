"""Every command writes its documents through the formats table (report/formats.py): `matrix` and
`exec` print the comparison `compare` prints, in any of its formats, with its warning, code
size, nbench and family sections."""

import csv
import io
import json

from tickmark.analysis.compare import ROW_FIELDS
from tickmark.report import formats


def test_matrix_writes_the_comparison_in_every_format_compare_writes(env, cli):
    args = ("matrix", "--cflags", "-O1", "--cflags", "-O2", "--rounds", "1", "-q", "sys.fast")
    rc, out, err = cli(*args, "--name", "j", "--format", "json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["format"] == "tickmark-compare" and doc["failed_builds"] == []
    (c,) = doc["comparisons"]
    # the sections of compare's document, not the analysis document matrix printed before
    assert {"warning", "code_size", "families"} <= set(c) and "nbench" in doc
    assert all(set(ROW_FIELDS) <= set(r) and r["family"] for r in c["rows"])
    rc, md, err = cli(*args, "--name", "m", "--format", "md")
    assert rc == 0, err
    assert "| sys.fast |" in md and "B = m-cc\\_-O2" in md and "runs:" not in md
    rc, table, err = cli(*args, "--name", "t")
    assert rc == 0, err
    assert "sys.fast" in table and "runs: cc -O1 = " in table


def test_exec_writes_html_and_one_run_its_report(real, cli):
    rc, out, err = cli("exec", "-q", "--runs", "3", "--rounds", "1", "--format", "html", "-c", "true", "-c", "true 1")
    assert rc == 0, err
    assert out.startswith("<!DOCTYPE html>") and "exec.true" in out and "runs:" not in out
    rc, out, err = cli("exec", "-q", "--runs", "3", "--rounds", "1", "--format", "md", "--", "true")
    assert rc == 0, err
    assert "exec.true" in out and out.lstrip().startswith("#")


def test_commands_offer_the_formats_of_the_table():
    from tickmark.cli.exec import exec_cmd
    from tickmark.cli.matrix import matrix_cmd

    for cmd in (exec_cmd, matrix_cmd):
        (opt,) = [p for p in cmd.params if p.name == "fmt"]
        assert list(opt.type.choices) == formats.names("comparison", aliases=True), cmd.name


def test_export_picks_the_format_by_the_extension_and_compare_writes_csv(env, cli, tmp_path):
    for name in ("a", "b"):
        assert cli("run", "sys.fast", "sync.lockpair", "--rounds", "2", "-q", "--name", name)[0] == 0
    f = tmp_path / "x.csv"
    rc, out, err = cli("export", "a", "-o", str(f))
    assert rc == 0, err
    assert f.read_text().startswith("run,key,benchmark,")  # CSV, not the JSON document
    rc, out, err = cli("export", "a", "-o", str(tmp_path / "x.xml"), "--baseline", "b", "--fail-above", "50%")
    assert rc == 0 and (tmp_path / "x.xml").read_text().startswith("<?xml"), err
    rc, out, err = cli("export", "a", "-o", str(tmp_path / "x.data"))
    assert rc == 0 and json.loads((tmp_path / "x.data").read_text())["format"] == "tickmark-results", err
    rc, out, err = cli("compare", "a", "b", "--format", "csv")
    assert rc == 0, err
    assert out.splitlines()[0] == ",".join(formats.COMPARISON_CSV)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {(r["a"][:1], r["b"][:1], r["key"]) for r in rows if r["metric"] == ""} == {
        ("a", "b", "sys.fast"),
        ("a", "b", "sync.lockpair"),
    }
    for r in rows:  # every row with its ratio and the CI of its change; a headline with its verdict
        assert float(r["ratio"]) > 0 and float(r["change_lo"]) < float(r["change_hi"]) and (r["verdict"] or r["metric"])


ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
COLUMNS = {"export": "run", "report": "report", "compare": "comparison", "history": "history"}


def test_the_docs_list_the_formats_of_the_table():
    """docs/report.md's table has a row per format with a text where the format writes that
    column's document, and nothing where it does not; README's export line lists the formats of
    a run: a new format is one entry in the table, its function and its test (and its row here)."""
    text = (ROOT / "docs" / "report.md").read_text()
    head, rule, *rows = text[text.index("| format |") :].split("\n\n")[0].splitlines()
    whats = [COLUMNS[cell.strip(" `").split("`")[0]] for cell in head.strip("|").split("|")[1:]]
    table = {}
    for line in rows:
        name, *cells = (c.strip() for c in line.strip("|").split("|"))
        table[name] = {w for w, c in zip(whats, cells) if c}
    assert table == {
        r.name: {w for w in whats if w in r.writers} for r in formats.REPORTERS.values() if set(whats) & set(r.writers)
    }
    readme = (ROOT / "README.md").read_text()
    assert f"tickmark export RUN --format {'|'.join(formats.names('run'))} " in readme
