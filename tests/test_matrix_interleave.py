"""matrix without a compiler: two variants played by the synthetic core; every round of every
variant runs before the next round starts, in a random order per round, and each variant is
stored as its own run with its label."""

import sys
from pathlib import Path

from tickmark.run import matrix as mx
from tickmark.run.plan import Plan
from tickmark.store import Store
from tickmark.targets import open_target
from tickmark.targets.build import BuildInfo
from tickmark.targets.local import LocalCore

FAKE = Path(__file__).resolve().parent / "fakecore.py"

WRAPPER = """import runpy, sys
with open({log!r}, "a") as f:
    f.write({tag!r} + " " + " ".join(sys.argv[1:2]) + "\\n")
sys.argv = [{fake!r}] + sys.argv[1:]
runpy.run_path({fake!r}, run_name="__main__")
"""


def cell(tmp_path, tag, log):
    script = tmp_path / f"core_{tag}.py"
    script.write_text(WRAPPER.format(log=str(log), tag=tag, fake=str(FAKE)))
    b = BuildInfo(binary=str(script), cc="cc", cc_version="cc 1", cflags=f"-O{tag}", hash=tag, binary_sha256=tag)
    core = LocalCore(open_target("local"), [sys.executable, str(script)], b.as_dict())
    return mx.Cell(cflags=f"-O{tag}", label=f"cc -O{tag}", core=core)


def test_rounds_are_interleaved_across_variants(tmp_path):
    log = tmp_path / "order.log"
    st = Store(tmp_path / "r.db")
    cells = [cell(tmp_path, "1", log), cell(tmp_path, "2", log), cell(tmp_path, "3", log)]
    plan = Plan(["sys.fast"], rounds=4, max_rounds=4, samples=3, seed=5)
    ids = mx.Matrix(st, cells, plan, name="t").execute()
    runs = [ln.split()[0] for ln in log.read_text().splitlines() if ln.split()[1] == "run"]
    assert len(runs) == 12
    blocks = [runs[i : i + 3] for i in range(0, 12, 3)]
    for b in blocks:  # each round: every variant once
        assert sorted(b) == ["1", "2", "3"]
    assert len({tuple(b) for b in blocks}) > 1, "the order should change between rounds"
    got = [st.run(i) for i in ids]
    assert [r["fingerprint"]["variant"] for r in got] == ["cc -O1", "cc -O2", "cc -O3"]
    assert [r["name"] for r in got] == ["t-cc_-O1", "t-cc_-O2", "t-cc_-O3"]
    for r in got:
        assert r["status"] == "complete" and r["notes"]["rounds"] == 4
        res = st.results(r["id"])[0]
        assert len(st.samples(res["id"])) == 12


def test_cells_axes_and_labels():
    cs = mx.cells(["gcc", "/usr/bin/clang"], ["-O2", "-Os"], ["fast.c"])
    labels = [c.label for c in cs]
    assert len(cs) == 8
    assert labels[:2] == ["gcc -O2 memfn=libc", "gcc -O2 memfn=fast.c"]
    assert "clang -Os memfn=fast.c" in labels
    cross = mx.cells(["aarch64-linux-gnu-"], ["-O2", "-O3"], [])
    assert [c.label for c in cross] == ["aarch64-linux-gnu-gcc -O2", "aarch64-linux-gnu-gcc -O3"]
