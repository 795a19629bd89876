"""Hostile options of the gates and limits (compare, run): one error line or the right verdict."""

import json

import pytest

from conftest import copy_store, synthetic_store
from hostilefix import RUN, _store, one_error_line, store_readable  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


@pytest.fixture(scope="module")
def two_runs_store(tmp_path_factory):
    """Runs a and b of sys.fast and a run of lat.sweep, made once for the module -> its store."""
    ab = [("run", "-q", "--rounds", "3", "--samples", "3", "sys.fast", "--name", n) for n in ("a", "b")]
    return synthetic_store(tmp_path_factory.mktemp("two_runs"), *ab, (*RUN, "lat.sweep", "--name", "other"))


@pytest.fixture
def two_runs(env, two_runs_store):
    """env's store holding them (a copy of the module's)."""
    copy_store(two_runs_store, env)
    return env


GATES = [
    (["compare", "a", "b", "--fail-above", "5"], 0, "no regression above 5%"),
    (["compare", "a", "b", "--fail-above", "5%"], 0, "no regression above 5%"),
    (["compare", "a", "b", "--fail-above", "1e3"], 0, "no regression above 1000%"),
    (["compare", "a", "b", "--fail-above", "nan"], 2, "bad --fail-above 'nan'"),
    (["compare", "a", "b", "--fail-above", "inf%"], 2, "bad --fail-above 'inf%'"),
    (["compare", "a", "b", "--fail-above", "-5%"], 2, "bad --fail-above '-5%'"),
    (["compare", "a", "other"], 2, "no benchmark in common"),
    (["compare", "a", "b", "--fail-above", "5", "--baseline", "other"], 2, "no benchmark in common"),
    (["run", "lat.sweep", "--param", "size=99999999999G"], 2, "too large"),
    (["run", "lat.sweep", "--param", "size=" + ",".join(map(str, range(65)))], 2, "at most 64 per parameter"),
    (["run", "lat.sweep", "--param", "size=" + ",".join(map(str, range(10000)))], 2, "at most 64 per parameter"),
    (["run", "lat.sweep", "--param", "size=" + "9" * 10000], 2, "too large"),
    (["run", "lat.sweep", "--param", "size=1", "--param", "size=2"], 2, "given twice"),
    (["run", "sys.fast", "--samples", "1001"], 2, "1<=x<=1000"),
    (["run", "sys.fast", "--sample-ms", "10001"], 2, "1<=x<=10000"),
]


@pytest.mark.parametrize("args,rc,says", GATES, ids=[" ".join(a)[:60] for a, _, _ in GATES])
def test_gates_and_limits(two_runs, cli, args, rc, says):
    got, out, err = cli(*args)
    assert got == rc, err
    if rc == 2:
        one_error_line(got, err, says)
        assert len(err) < 300, "error line too long"
    else:
        assert says in err
    store_readable(cli, "a", "b")


def test_samples_help_states_the_cores_limit(env, cli):
    rc, out, err = cli("run", "--help")
    assert "Samples per round (1-1000)" in out


def test_compare_warns_about_running_and_incomplete_runs(two_runs, cli):
    st = _store()
    st.update_run(st.run("b")["id"], status="running")
    rc, out, err = cli("compare", "a", "b")
    assert rc == 0 and "tickmark: warning: b (fakecc -O2) is running (still being written)" in err
    st.update_run(st.run("b")["id"], status="incomplete")
    rc, out, err = cli("compare", "a", "b")
    assert rc == 0 and "tickmark: warning: b (fakecc -O2) is incomplete" in err


def test_instance_key_pattern_selects_one_point(env, cli):
    rc, out, err = cli(*RUN, "lat.sweep[size=1024]")
    assert rc == 0, err
    assert [r["key"] for r in _store().results(_store().run("latest")["id"])] == ["lat.sweep[size=1024]"]


def test_a_pattern_means_the_same_to_run_compare_and_history(env, cli):
    """A bracketed pattern is literal everywhere and takes `list`'s suffixes: run took
    'lat.sweep[size=1K]' for nothing and compare and history read '[...]' as a character class
    (so the key that run had just stored was 'no benchmark' to them)."""
    for name in ("a", "b"):
        rc, out, err = cli(*RUN, "--name", name, "lat.sweep[size=1K]", "lat.sweep[size=65536]")
        assert rc == 0, err
    keys = sorted(r["key"] for r in _store().results(_store().run("latest")["id"]))
    assert keys == ["lat.sweep[size=1024]", "lat.sweep[size=65536]"]
    for pattern in ("lat.sweep[size=1K]", "lat.sweep[size=1024]"):
        rc, out, err = cli("compare", "a", "b", pattern)
        assert rc == 0 and "lat.sweep[size=1024]" in out and "size=65536" not in out, err
        rc, out, err = cli("history", pattern, "--format", "json")
        assert rc == 0, err
        assert [s["key"] for s in json.loads(out)["series"]] == ["lat.sweep[size=1024]"]
    rc, out, err = cli("compare", "a", "b", "lat.sweep[size=2K]")
    assert rc == 2 and "no benchmark of the compared runs matches 'lat.sweep[size=2K]'" in err, err
