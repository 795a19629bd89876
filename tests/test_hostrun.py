import json

from conftest import fake_core
from tickmark.run import engine
from tickmark.run.engine import Run, RunConfig, extra_budget
from tickmark.run.results import split_key
from tickmark.store import Store


def run(tmp_path, monkeypatch, patterns, mode="", **kw):
    log = tmp_path / "argv.log"
    monkeypatch.setenv("FAKECORE_LOG", str(log))
    monkeypatch.setenv("FAKECORE_MODE", mode)
    st = Store(tmp_path / "s.db")
    cfg = RunConfig(patterns=patterns, **kw)
    rid = Run(st, fake_core(), cfg).execute()
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    return st, st.run(rid), calls


def opt(argv, name):
    return [argv[i + 1] for i, a in enumerate(argv) if a == name]


def patterns_of(argv):
    """The patterns of a core command line: after '--' (so they are never read as options)."""
    return argv[argv.index("--") + 1 :]


def test_split_key():
    assert split_key("sys.getppid") == ("sys.getppid", {})
    assert split_key("sched.ring[procs=4,size=16]") == ("sched.ring", {"procs": 4, "size": 16})


def test_rounds_freeze_iterations_and_change_seed(tmp_path, monkeypatch):
    st, r, calls = run(tmp_path, monkeypatch, ["sys.*", "lat.*"], rounds=3, seed=11)
    assert len(calls) == 3 and r["status"] == "complete" and r["notes"]["rounds"] == 3
    assert opt(calls[0], "--iters") == []
    assert patterns_of(calls[1]) == ["lat.sweep", "sys.fast"]  # only benchmarks that ran ok
    assert sorted(opt(calls[1], "--iters")) == [
        "lat.sweep[size=1024]=1000",
        "lat.sweep[size=65536]=1000",
        "sys.fast=1000",
    ]
    seeds = [opt(c, "--seed")[0] for c in calls]
    assert len(set(seeds)) == 3
    res = {x["key"]: x for x in st.results(r["id"])}
    assert res["sys.skipme"]["status"] == "skip" and res["sys.skipme"]["reason"] == "needs a unicorn"
    assert res["sys.crashy"]["status"] == "crashed" and res["sys.crashy"]["reason"] == "SIGSEGV"
    fast = st.samples(res["sys.fast"]["id"])
    assert [s["round"] for s in fast] == [1] * 5 + [2] * 5 + [3] * 5
    assert res["sys.fast"]["stats"][""]["n"] == 15
    assert res["lat.sweep[size=1024]"]["params"] == {"size": 1024}
    assert res["lat.sweep[size=1024]"]["stat"] == "min"


def test_adaptive_extension_only_for_noisy_instances(tmp_path, monkeypatch):
    st, r, calls = run(
        tmp_path, monkeypatch, ["sys.fast", "sync.*"], mode="noisy=sys.fast", rounds=3, max_rounds=5, budget_s=60
    )
    assert len(calls) == 5
    assert patterns_of(calls[3]) == ["sys.fast"] and "sync.lockpair" not in calls[3]
    assert r["notes"]["extended"] == {"sys.fast": 2}
    res = {x["key"]: x for x in st.results(r["id"])}
    assert res["sys.fast"]["stats"][""]["rounds"] == 5
    assert "noisy" in res["sys.fast"]["stats"][""]["flags"]
    assert res["sync.lockpair"]["stats"][""]["rounds"] == 3
    assert "noisy" not in res["sync.lockpair"]["stats"][""]["flags"]


def test_extra_round_budget_is_the_base_time_up_to_50_instances_then_their_share():
    assert extra_budget(60.0, 10) == 60.0
    assert extra_budget(60.0, 50) == 60.0
    assert extra_budget(60.0, 100) == 30.0
    assert extra_budget(100.0, 400) == 12.5  # a full run: an eighth of its base time
    assert extra_budget(2.0, 10) == 5.0 and extra_budget(12.0, 1000) == 5.0  # never below 5 s
    assert extra_budget(8.0, 0) == 8.0


def test_default_budget_counts_the_instances_that_ran(tmp_path, monkeypatch):
    seen = []

    def spy(base_s, instances):
        seen.append((base_s, instances))
        return extra_budget(base_s, instances)

    monkeypatch.setattr(engine, "extra_budget", spy)
    sizes = ",".join(str(1024 + i) for i in range(150))
    st, r, calls = run(tmp_path, monkeypatch, ["sys.*", "lat.*"], rounds=2, params=[f"size={sizes}"])
    assert r["status"] == "complete"
    (base_s, instances), *_ = seen
    assert instances == 151 and base_s > 0  # sys.fast and 150 sizes ran ok; the skip and the crash do not count


def test_noise_in_stream_is_ignored_and_counted(tmp_path, monkeypatch):
    st, r, _ = run(tmp_path, monkeypatch, ["sys.fast"], mode="noise", rounds=2)
    assert r["notes"]["malformed"] > 0 and r["notes"]["junk"] > 0
    (res,) = st.results(r["id"])
    assert res["stats"][""]["n"] == 10


def test_core_that_dies_keeps_finished_instances(tmp_path, monkeypatch):
    st, r, calls = run(tmp_path, monkeypatch, ["sys.*", "lat.*", "sync.*"], mode="die=2", rounds=2, seed=3)
    assert r["status"] == "incomplete"
    assert r["notes"]["incomplete"].startswith("round 1: tickmark-core exited with status 3")
    assert any(
        "exited with status 3" in p and "no 'bye'" in p and "simulated crash" in p for p in r["notes"]["problems"]
    )
    assert len(st.results(r["id"])) == 2


def test_core_refusing_its_command_line_leaves_no_run(tmp_path, monkeypatch):
    import pytest

    from tickmark.base.errors import TickmarkError

    monkeypatch.setenv("FAKECORE_MODE", "usage")
    st = Store(tmp_path / "s.db")
    hr = Run(st, fake_core(), RunConfig(patterns=["sys.fast"]))
    with pytest.raises(TickmarkError, match="refused the run: tickmark-core: --samples wants"):
        hr.execute()
    assert st.runs() == []
