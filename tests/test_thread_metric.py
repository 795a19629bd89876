"""The thread-metric suite: Thread-Metric's eight figures as threadmetric.* benchmarks, run by
the real core on this machine's Linux (the interrupt tests through a signal) and under FreeRTOS
and NuttX on the Cortex-A53 (guest instructions, identical for one seed), and their table: each
figure's cost and that cost over basic processing's."""

import os

import pytest

from boards import counts, need_board, run_board, stored
from conftest import need_nuttx, need_tool
from tickmark.analysis import thread_metric
from tickmark.base.suites import patterns_for

CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
FREERTOS_TREE = os.environ.get("FREERTOS_KERNEL") or os.path.join(
    CACHE, "tickmark", "freertos", "FreeRTOS-Kernel-V11.2.0"
)
KEYS = [key for _, key in thread_metric.FIGURES]
INTERRUPTS = ["threadmetric.interrupt", "threadmetric.interrupt_preempt"]


def result(key, value, status="ok", info=None):
    return {
        "key": key,
        "bench": key,
        "status": status,
        "reason": "" if status == "ok" else "the port lacks threads",
        "meta": {"info": info or {}},
        "stats": {"": {"value": value, "median": value, "unit": "ns/op"}} if status == "ok" else {},
    }


def test_the_suite_is_the_eight_figures():
    assert sorted(patterns_for("thread-metric")) == sorted(KEYS) and len(KEYS) == 8


def test_table_divides_by_basic_and_says_what_stood_in():
    linux = [result(k, 10.0 * (i + 1), info={"by_signal": 1} if k in INTERRUPTS else None) for i, k in enumerate(KEYS)]
    bare = [result(k, 0, status="skip") for k in KEYS[:-1]] + [result(thread_metric.BASIC, 5.0)]
    runs = [({"fingerprint": {"os": "Linux 6.1"}, "hello": {"port": "linux"}}, linux),
            ({"fingerprint": {"os": "bare metal", "cycles_method": "icount-insns"}}, bare)]  # fmt: skip
    t = thread_metric.build(runs)
    assert t.labels == ["Linux", "bare metal"] and t.unit == "mixed"
    rows = {figure: cells for figure, _, cells in t.rows}
    assert rows["message processing"][0].normalised == pytest.approx(50.0 / 80.0)
    assert rows["basic processing"][0].normalised == 1.0 and rows["basic processing"][1].value == 5.0
    assert rows["memory allocation"][1].value is None and "lacks threads" in rows["memory allocation"][1].note
    assert any(n.startswith("Linux: a signal") for n in t.notes)
    d = thread_metric.to_dict(t)
    assert d["rows"][4]["cells"][0]["norm_text"] == "0.625"


def _table_text(cli, *names):
    rc, out, err = cli("show", names[0], *(("--beside", names[1]) if len(names) > 1 else ()))
    assert rc == 0, err
    assert "Thread-Metric's figures" in out, out
    return out[out.index("Thread-Metric's figures") :]


def test_linux_user_space(real, cli, tmp_path):
    """This machine's Linux (a few seconds): every figure, the interrupt ones through a signal
    the thread sends itself, said in each result's info and under the table."""
    if os.geteuid() != 0:
        pytest.skip("the preemptive tests need SCHED_FIFO (root)")
    rc, out, err = cli("run", "--suite", "thread-metric", "--rounds", "1", "--samples", "2", "--sample-ms", "2",
                       "--name", "nat", "-q")  # fmt: skip
    assert rc == 0, err + out
    _, res = stored(real, "nat")
    assert sorted(res) == sorted(KEYS)
    for key, r in res.items():
        assert r["status"] == "ok", (key, r["reason"])
    for key in INTERRUPTS:
        assert res[key]["meta"]["info"] == {"by_signal": 1}
    text = _table_text(cli, "nat")
    for figure, _ in thread_metric.FIGURES:
        assert figure in text
    assert "basic processing" in text and "1.00" in text and "a signal the thread sends itself" in text
    rc, out, err = cli("report", "nat", "-o", str(tmp_path / "nat.md"))
    assert rc == 0, err
    doc = (tmp_path / "nat.md").read_text()
    assert "## Thread-Metric's figures: Linux" in doc and "| basic processing |" in doc, doc
    assert "| figure | Linux | × basic |" in doc


@pytest.mark.parametrize("system", ["freertos", "nuttx"])
def test_a53_every_figure_counted_and_the_same_for_one_seed(system, nuttx_cache, real, cli, monkeypatch):
    """The suite under FreeRTOS and NuttX on the Cortex-A53 under -icount, twice (about a minute
    a system on this loaded machine): each figure ok, a real interrupt (no signal), the same
    counts for one seed, and the two systems in one table."""
    need_board("virt-aarch64")
    if system == "nuttx":
        need_nuttx()
    if not os.path.isfile(os.path.join(FREERTOS_TREE, "tasks.c")):
        need_tool(f"no FreeRTOS-Kernel tree at {FREERTOS_TREE} (./bootstrap test fetches it)")
    monkeypatch.setenv("FREERTOS_KERNEL", FREERTOS_TREE)
    target = f"qemu-system:virt-aarch64?os={system}"
    run_board(cli, target, "one", ["--suite", "thread-metric"])
    _, res = stored(real, "one")
    for key in KEYS:
        r = res[key]
        assert r["status"] == "ok", (key, r["reason"])
        assert r["stats"][""]["cycles_method"] == "icount-insns"
        assert "by_signal" not in ((r.get("meta") or {}).get("info") or {}), key
    run_board(cli, target, "two", ["--suite", "thread-metric"])
    _, two = stored(real, "two")
    for key in KEYS:
        assert counts(res[key]) == counts(two[key]), key
    text = _table_text(cli, "one", "two")
    assert "insn" in text and " ns" not in text and "us " not in text
