"""Imports into one store at once: each gets a name of its own (the exported name, then name-2,
name-3, ...), none fails telling the user to choose a name (import takes no --name); and
PostgreSQL roles that lack a privilege are told which, before anything is written."""

import os

import pytest

from conftest import one_error_line, row_counts, tickmark_proc

RUN = ("run", "-q", "--rounds", "1", "--samples", "2")


@pytest.fixture
def exported(env, cli, tmp_path):
    rc, out, err = cli(*RUN, "sys.fast", "--name", "board")
    assert rc == 0, err
    path = tmp_path / "board.json"
    rc, out, err = cli("export", "board", "-o", str(path))
    assert rc == 0, err
    return path


def test_imports_of_one_name_at_once_all_succeed(exported, new_store):
    store = new_store("dest")
    procs = [tickmark_proc(("--store", store, "import", str(exported))) for _ in range(6)]
    outs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, [e for _, e in outs]
    names = sorted(o.split("'")[1] for o, _ in outs)
    assert names == sorted(["board", *(f"board-{n}" for n in range(2, 7))]), names
    assert row_counts(store)["runs"] == 6


def _role(srv, url, name, grants):
    """A login role of the server with only `grants` (SQL privileges) on the tables -> URL as it."""
    import psycopg

    with psycopg.connect(srv.url(), autocommit=True) as c:
        c.execute(f'CREATE ROLE "{name}" LOGIN')
    with psycopg.connect(url, autocommit=True) as c:
        c.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        if grants:
            c.execute(f'GRANT {grants} ON ALL TABLES IN SCHEMA public TO "{name}"')
            c.execute(f'GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO "{name}"')
    return url.replace("tickmark@", f"{name}@")


def test_postgresql_roles_that_lack_a_privilege(env, cli, pg_server, exported):
    url = pg_server.new_database()
    rc, out, err = cli("--store", url, "import", str(exported))
    assert rc == 0, err
    none = _role(pg_server, url, f"none_{os.getpid()}", "")
    rc, out, err = cli("--store", none, "runs")
    one_error_line(rc, err, "may not read", "SELECT")
    assert "holds no tickmark tables" not in err
    rc, out, err = cli("--store", none, "import", str(exported))
    one_error_line(rc, err, "may not read", "SELECT")
    no_update = _role(pg_server, url, f"noupd_{os.getpid()}", "SELECT, INSERT")
    for args in ((*RUN, "sys.fast", "--name", "taken"), ("import", str(exported))):
        rc, out, err = cli("--store", no_update, *args)
        one_error_line(rc, err, "not allowed", "UPDATE")
    assert row_counts(url)["runs"] == 1  # nothing written: no empty run holds the name
    rc, out, err = cli("--store", url, *RUN, "sys.fast", "--name", "taken")
    assert rc == 0, err
