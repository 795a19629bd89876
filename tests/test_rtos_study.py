"""The rtos-study view picks the study's seven figures out of stored results."""

import io

from rich.console import Console

from tickmark.analysis import rtos_study
from tickmark.report.model import rtos_study_rows
from tickmark.report.terminal.rtos_study import show


def result(key, status="ok", stats=None, reason=""):
    return {"key": key, "bench": key, "status": status, "reason": reason, "stats": stats or {}}


def stat(median, det=1.0, cycles=None, method=None):
    d = {"median": median, "determinism": det}
    if cycles is not None:
        d.update(cycles_per_op=cycles, cycles_method=method)
    return d


RESULTS = [
    result(
        "heap.malloc_free_4",
        stats={"": stat(20.0, 2.0, 60.0, "calibrated-freq"), "malloc": stat(8.0, 3.0), "free": stat(12.0, 4.0)},
    ),
    result("sync.mutex", stats={"": stat(10.0, 0.5, 30.0, "perf"), "lock": stat(5.0, 0.7), "unlock": stat(5.0, 0.9)}),
    result("thread.create_join", status="skip", reason="no threads"),
    result("sched.yield_switch", stats={"": stat(500.0, 6.0, 1500.0, "calibrated-freq")}),
]


def test_rows_pick_sub_metrics_and_scale_cycles():
    rows = {r["figure"]: r for r in rtos_study.rows(RESULTS)}
    assert [r["figure"] for r in rtos_study.rows(RESULTS)] == [f for f, _, _ in rtos_study.FIGURES]
    assert rows["heap alloc (4 B)"]["ns"] == 8.0 and rows["heap alloc (4 B)"]["cycles"] == 24.0
    assert rows["heap free (4 B)"]["det"] == 4.0
    assert rows["mutex unlock"]["cycles"] == 15.0 and rows["mutex unlock"]["cycles_method"] == "perf"
    assert rows["context switch (yield)"]["ns"] == 500.0 and rows["context switch (yield)"]["cycles"] == 1500.0
    assert rows["pthread_create"]["ns"] is None and rows["pthread_create"]["status"] == "skip"
    assert rows["pthread_join"]["reason"] == "no threads"


def test_missing_and_no_data():
    rows = {r["figure"]: r for r in rtos_study.rows([result("sync.mutex", stats={"": stat(10.0)})])}
    assert rows["mutex lock"]["status"] == "no data"
    assert rows["heap alloc (4 B)"]["status"] == "missing"


def test_table_renders_all_figures():
    buf = io.StringIO()
    show({"rows": rtos_study_rows(RESULTS), "beside": None}, Console(file=buf, width=200, no_color=True))
    text = buf.getvalue()
    for figure, _, _ in rtos_study.FIGURES:
        assert figure in text
    assert "skip: no threads" in text and "1,001 / 11,499" in text and "6.0%" in text


BAREMETAL = [
    result(
        "heap.malloc_free_4",
        stats={"": stat(150.0, 0.0, 150.0, "icount-insns"), "malloc": stat(100.0, 0.0), "free": stat(50.0, 0.0)},
    ),
    result("sync.mutex", status="skip", reason="the baremetal port lacks threads"),
    result("loop.control", stats={"": stat(6.0, 0.0, 6.0, "icount-insns")}),
]


def test_a_bare_metal_run_beside_linux():
    buf = io.StringIO()
    study = {"rows": rtos_study_rows(RESULTS), "beside": {"label": "mps2-an500", "rows": rtos_study_rows(BAREMETAL)}}
    show(study, Console(file=buf, width=250, no_color=True))
    text = buf.getvalue()
    assert "mps2-an500: cycles" in text and "(icount-insns)" in text
    heap = next(line for line in text.splitlines() if line.startswith("heap alloc"))
    assert "100 (icount-insns)" in heap and "24 (calibrated-freq)" in heap
    mutex = next(line for line in text.splitlines() if line.startswith("mutex lock"))
    assert "skip: the baremetal port lacks threads" in mutex
    loop = next(line for line in text.splitlines() if line.startswith("control loop"))
    assert "6 (icount-insns)" in loop and "missing: not run" in loop
