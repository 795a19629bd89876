"""Every command writes its documents through the formats table (report/formats.py): `matrix` and
`exec` print the comparison `compare` prints, in any of its formats, with its warning, code
size, nbench and family sections."""

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
