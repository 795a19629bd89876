"""The run engine's steps (open, round, extend, close) with the synthetic core, and the defects that
one engine fixed: a matrix whose cell's core died stores that run incomplete and the others
complete (the command's exit status 1: test_store_paths_hostile.py), a transport lost in a matrix leaves no
run 'running', and an icount run keeps its instruction unit through export and import."""

import json
import sys
from pathlib import Path

from conftest import FAKECORE, fake_core
from tickmark.run import matrix as mx
from tickmark.run.engine import Run, RunConfig
from tickmark.run.importing import import_document
from tickmark.run.plan import Plan, check_patterns
from tickmark.store import Store
from tickmark.store import document as export
from tickmark.targets import ProcessSession, open_target
from tickmark.targets.local import LocalCore

WRAPPER = """import os, runpy, sys
os.environ["FAKECORE_MODE"] = {mode!r}
sys.argv = [{fake!r}] + sys.argv[1:]
runpy.run_path({fake!r}, run_name="__main__")
"""


def _cell(tmp_path, tag, mode=""):
    """A matrix cell whose core is the synthetic one in FAKECORE_MODE mode."""
    script = tmp_path / f"core_{tag}.py"
    script.write_text(WRAPPER.format(mode=mode, fake=FAKECORE))
    build = {"binary": str(script), "cc": "cc", "cflags": f"-O{tag}", "hash": tag, "binary_sha256": tag}
    core = LocalCore(open_target("local"), [sys.executable, str(script)], build)
    return mx.Cell(cflags=f"-O{tag}", label=f"cc -O{tag}", core=core)


def test_the_steps_by_hand(tmp_path):
    st = Store(tmp_path / "s.db")
    run = Run(st, fake_core(), RunConfig(patterns=["sys.fast", "lat.*"], rounds=2, max_rounds=2, samples=3, seed=4))
    rid = run.open()
    assert st.run(rid)["status"] == "running" and st.results(rid) == []
    assert run.round() and run.round()  # round 1 calibrates, round 2 reruns
    assert not run.round()  # the base rounds are done
    assert run.extend(60) == []  # max_rounds is 2: no extra round
    assert run.close() == "complete"
    r = st.run(rid)
    assert r["notes"]["rounds"] == 2 and "round_in_progress" not in r["notes"]
    fast = next(x for x in st.results(rid) if x["key"] == "sys.fast")
    assert [s["round"] for s in st.samples(fast["id"])] == [1] * 3 + [2] * 3
    assert r["fingerprint"]["cycles_method"] == "calibrated-freq" == fast["stats"][""]["cycles_method"]


def test_an_error_closes_the_run_and_an_error_before_any_result_leaves_none(tmp_path):
    from tickmark.base.errors import TickmarkError

    st = Store(tmp_path / "s.db")
    run = Run(st, fake_core(), RunConfig(patterns=["sys.fast"], rounds=1))
    run.open()
    run.round()
    assert run.close(TickmarkError("the store is full")) == "incomplete"
    r = st.run(run.run_id)
    assert r["status"] == "incomplete" and r["notes"]["incomplete"] == "the store is full"
    empty = Run(st, fake_core(), RunConfig(patterns=["sys.fast"]))
    empty.open()
    assert empty.close(TickmarkError("no")) is None
    assert [x["id"] for x in st.runs()] == [run.run_id]


def test_matrix_cell_whose_core_dies_is_incomplete_and_the_others_run(tmp_path):
    st = Store(tmp_path / "r.db")
    cells = [_cell(tmp_path, "1"), _cell(tmp_path, "2", "die=1")]
    plan = Plan(["sys.fast", "lat.*"], rounds=2, max_rounds=2, samples=3, seed=5)
    ids = mx.Matrix(st, cells, plan, name="m").execute()
    good, bad = (st.run(i) for i in ids)
    assert good["status"] == "complete" and len(st.results(good["id"])) == 3
    assert bad["status"] == "incomplete" and "exited with status 3" in bad["notes"]["incomplete"]
    assert len(st.results(bad["id"])) >= 1  # what it finished is kept


class _LossySession(ProcessSession):
    """The synthetic core whose connection drops after a few lines."""

    def __init__(self, argv, after):
        super().__init__(argv)
        self.after = after

    def lines(self):
        for n, line in enumerate(super().lines()):
            if n == self.after:
                self.transport_lost = "the cable was pulled"
                self.stop()
                return
            yield line


class _LossyCore(LocalCore):
    def start(self, args):
        return _LossySession(self.argv + list(args), after=4 if args[0] == "run" else 10**9)


def test_transport_lost_in_a_matrix_leaves_no_run_running(tmp_path):
    st = Store(tmp_path / "r.db")
    cells = [_cell(tmp_path, "1"), _cell(tmp_path, "2")]
    for c in cells:
        c.core = _LossyCore(c.core.target, c.core.argv, c.core.build)
    plan = Plan(["sys.fast", "lat.*"], rounds=2, samples=3, seed=1)
    ids = mx.Matrix(st, cells, plan, name="lost").execute()
    runs = st.runs()
    assert [r["id"] for r in runs] == ids
    assert len(runs) == 2 and {r["status"] for r in runs} == {"incomplete"}  # none left 'running'
    for r in runs:
        assert r["notes"]["incomplete"].startswith("connection to local lost in round 1: the cable was pulled")


class _IcountCore(LocalCore):
    """The synthetic core as a target that counts instructions (as QEMU -icount does)."""

    cycles_method = "icount-insns"


def test_an_icount_run_keeps_its_unit_through_export_and_import(tmp_path):
    st = Store(tmp_path / "a.db")
    core = fake_core()
    core = _IcountCore(core.target, core.argv, core.build)
    rid = Run(st, core, RunConfig(patterns=["sys.fast", "bw.copy"], rounds=2, samples=3)).execute()
    run = st.run(rid)
    assert run["hello"]["cycles"] == "calibrated-freq"  # what the core says; the target knows better
    assert run["fingerprint"]["cycles_method"] == "icount-insns"

    def methods(store, run_id):
        return {r["key"]: r["stats"][""]["cycles_method"] for r in store.results(run_id)}

    assert methods(st, rid) == {"sys.fast": "icount-insns", "bw.copy": "icount-insns"}
    path = tmp_path / "run.json"
    path.write_text(export.to_json(export.run_model(st, run)))
    doc = export.read_document(str(path))  # statistics computed again from the raw samples
    assert {r["key"]: r["stats"][""]["cycles_method"] for r in doc["results"]} == methods(st, rid)
    st2 = Store(tmp_path / "b.db")
    new = import_document(st2, doc)
    assert methods(st2, new) == methods(st, rid)
    for r in st2.results(new):  # statistics of another version are computed again on reading
        st2.update_result(r["id"], stats={"": {"v": -1}})
    assert methods(st2, new) == methods(st, rid)
    assert json.loads(Path(path).read_text())["run"]["fingerprint"]["cycles_method"] == "icount-insns"


def _hello_order(core_binary, *args):
    """The instances the real core plans for these arguments: its hello's order (the core is
    stopped as soon as it has said hello)."""
    import subprocess

    p = subprocess.Popen(
        [core_binary, "run", "--samples", "1", "--sample-ms", "1", *args], stdout=subprocess.PIPE, text=True
    )
    try:
        for line in p.stdout:
            if line.startswith("TM1 ") and json.loads(line[4:]).get("t") == "hello":
                return json.loads(line[4:])["order"]
    finally:
        p.kill()
        p.wait()
    raise AssertionError("no hello")


def test_a_large_run_takes_shorter_samples(core_binary):
    """The sample length follows the instances the core will run: '*' (about 480) gets 5 ms
    samples, the default suite and a --param that shrinks the sweeps the core's default (None);
    a length given is kept."""
    from tickmark.base.suites import patterns_for
    from tickmark.run.plan import LARGE_RUN_INSTANCES, default_sample_ms, planned_instances

    core = LocalCore(open_target("local"), [core_binary], {"binary": core_binary})
    everything = check_patterns(core, ["*"])
    assert planned_instances(everything) == len(_hello_order(core_binary, "--", "*")) > LARGE_RUN_INSTANCES
    shrunk = ["size=4K", "pages=8", "span=4K,8K"]
    args = [a for p in shrunk for a in ("--param", p)]
    assert planned_instances(everything, shrunk) == len(_hello_order(core_binary, *args, "--", "*"))
    assert default_sample_ms(everything) == 5 and default_sample_ms(everything, (), 10) == 10
    suite = check_patterns(core, patterns_for("default"))
    assert planned_instances(suite) <= LARGE_RUN_INSTANCES and default_sample_ms(suite) is None
