"""The run's --seed reaches the benchmarks through the contract (tm_seed): the memory chases build
their pointer chains from it, so one seed reproduces the same layout and another seed does not."""

import os
import shutil

import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not (shutil.which("make") and shutil.which("gcc")) and not os.environ.get("CI"), reason="no C compiler/make"
    ),
]

KEY = "mem.lat_rand[size=8192,thp=0]"


@pytest.fixture
def real(tmp_path, monkeypatch, build_cache):
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    monkeypatch.delenv("TICKMARK_CORE", raising=False)
    monkeypatch.delenv("TICKMARK_TARGET", raising=False)
    return tmp_path / "results.db"


def _chain(cli, store, name, seed):
    from tickmark.store import Store

    rc, out, err = cli(
        "run", KEY, "--rounds", "1", "--samples", "2", "--sample-ms", "2", "--seed", seed, "--name", name, "-q"
    )
    assert rc == 0, err + out
    st = Store(str(store))
    (res,) = st.results(st.run(name)["id"])
    return res["meta"]["info"]["chain"]


def test_one_seed_gives_one_chain_and_another_seed_another(real, cli):
    a = _chain(cli, real, "a", "7")
    assert a == _chain(cli, real, "b", "7")
    assert a != _chain(cli, real, "c", "8")
