"""A campaign never takes an imported run (exported on another host, or forged: its notes say
anything) for its cell's result: the cell is not skipped as measured; the campaign refuses, as
for any run it did not make."""

from test_campaign import write


def test_an_imported_run_is_not_a_cells_result(env, cli, tmp_path):
    f = write(tmp_path, targets='a = "local"')
    rc, out, err = cli("campaign", f)
    assert rc == 0, err
    doc = tmp_path / "cell.json"
    rc, out, err = cli("export", "c1:a:O2:sys", "-o", str(doc))
    assert rc == 0, err
    other = tmp_path / "other.db"
    rc, out, err = cli("--store", str(other), "import", str(doc))
    assert rc == 0 and "'c1:a:O2:sys'" in out, err
    rc, out, err = cli("--store", str(other), "campaign", f)
    assert rc == 2 and "a run named 'c1:a:O2:sys' exists that campaign c1 did not make" in err, out + err
