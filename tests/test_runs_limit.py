"""`runs --limit N` with an N larger than any machine integer lists every run (no overflow)."""

import pytest


@pytest.mark.parametrize("filtered", [False, True], ids=["all", "filtered"])
def test_a_huge_limit_lists_every_run(env, cli, filtered):
    for name in ("one", "two"):
        rc, out, err = cli("run", "-q", "--rounds", "1", "--samples", "2", "sys.fast", "--name", name)
        assert rc == 0, err
    more = ("--target", "local") if filtered else ()
    rc, out, err = cli("runs", "--limit", "99999999999999999999999", *more)
    assert rc == 0 and "Traceback" not in err, err
    assert " one " in out and " two " in out, out
