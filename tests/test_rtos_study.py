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


def _side(label, results, os_name, method="icount-insns", board="virt-aarch64"):
    from tickmark.analysis.rtos_table import Side

    run = {"name": label, "fingerprint": {"os": os_name, "board": board, "cycles_method": method}, "hello": {}}
    return Side(label, run, results)


FREERTOS = [
    result(
        "heap.malloc_free_4",
        stats={"": stat(264.0, 0.0, 264.0, "icount-insns"), "malloc": stat(150.0, 0.0), "free": stat(114.0, 0.0)},
    ),
    result(
        "sync.mutex", stats={"": stat(200.0, 0.0, 200.0, "icount-insns"), "lock": stat(90.0), "unlock": stat(110.0)}
    ),
    result("sync.sem_pingpong[cross=0]", stats={"": stat(1900.0, 0.0, 1900.0, "icount-insns")}),
]
LINUX = [
    result(
        "heap.malloc_free_4",
        stats={"": stat(500.0, 1.0, 500.0, "icount-insns"), "malloc": stat(300.0, 1.0), "free": stat(200.0, 1.0)},
    ),
    result("sync.mutex", stats={"": stat(100.0, 0.5, 100.0, "icount-insns"), "lock": stat(50.0), "unlock": stat(50.0)}),
    result("sync.sem_pingpong[cross=0]", stats={"": stat(19000.0, 2.0, 19000.0, "icount-insns")}),
]


def test_the_table_across_systems():
    from tickmark.analysis import rtos_table

    t = rtos_table.build(
        [
            _side("FreeRTOS", FREERTOS, "FreeRTOS V11.2.0 (picolibc)"),
            _side("Linux", LINUX, "Linux (tickmark initramfs, busybox)"),
            _side("bare metal", BAREMETAL, "bare metal (picolibc)"),
        ]
    )
    assert t.unit == "insn" and t.labels == ["FreeRTOS", "Linux", "bare metal"] and not t.notes
    rows = {r.figure: r for r in t.rows}
    assert [r.figure for r in t.rows] == [f for f, _, _ in rtos_study.FIGURES]
    heap = rows["heap alloc (4 B)"]
    assert heap.cells[0].value == 150.0 and heap.cells[1].value == 300.0 and heap.ratio == 2.0
    assert heap.cells[2].value == 100.0  # bare metal beside them
    sem = rows["semaphore round trip"]
    assert sem.ratio == 10.0 and rtos_table.ratio_text(sem.ratio) == "10\u00d7" and sem.cells[1].det == 2.0
    assert rows["mutex lock"].ratio == 50.0 / 90.0
    assert rows["mutex lock"].cells[2].note == "skip: the baremetal port lacks threads"
    assert rows["queue round trip (8 B)"].ratio is None and rows["queue round trip (8 B)"].cells[0].note
    assert rtos_table.ratio_text(2.5) == "2.5\u00d7" and rtos_table.ratio_text(None) == "-"
    d = rtos_table.to_dict(t)
    assert d["labels"] == t.labels and d["rows"][0]["cells"][1]["value"] == 300.0 and d["unit"] == "insn"
    assert next(r for r in d["rows"] if r["figure"] == "semaphore round trip")["ratio_text"] == "10\u00d7"
    header, lines = rtos_table.grid(d)
    assert header == [
        "figure",
        "benchmark",
        "FreeRTOS insn/op",
        "Linux insn/op",
        "Linux / FreeRTOS",
        "bare metal insn/op",
    ]
    heap_line = next(x for x in lines if x[0] == "heap alloc (4 B)")
    assert heap_line[2:] == ["150 (det 0.0%)", "300 (det 1.0%)", "2\u00d7", "100 (det 0.0%)"]


def test_sides_in_different_units_get_no_ratio():
    from tickmark.analysis import rtos_table

    t = rtos_table.build(
        [_side("FreeRTOS", FREERTOS, "FreeRTOS V11.2.0"), _side("Linux", LINUX, "Linux", method="perf", board="rpi4")]
    )
    assert t.unit == "mixed" and all(r.ratio is None for r in t.rows)
    assert any("different units" in n for n in t.notes) and any("different boards" in n for n in t.notes)
    assert rtos_table.side_label({"fingerprint": {"os": "bare metal (picolibc)"}}) == "bare metal"
    assert rtos_table.side_label({"fingerprint": {"rtos": {"name": "FreeRTOS"}, "os": "x"}}) == "FreeRTOS"


def test_the_table_in_every_view(monkeypatch):
    from tickmark.analysis import rtos_table
    from tickmark.report import documents
    from tickmark.report.terminal import rtos_table as view

    t = rtos_table.build(
        [
            _side("FreeRTOS", FREERTOS, "FreeRTOS V11.2.0 (picolibc)"),
            _side("Linux", LINUX, "Linux (tickmark initramfs, busybox)"),
            _side("bare metal", BAREMETAL, "bare metal (picolibc)"),
        ]
    )
    model = {"format": "tickmark-report", "version": 1, "runs": [], "compare": [], "rtos_study": rtos_table.to_dict(t)}
    md = documents.markdown(model)
    assert "## The RTOS study on virt-aarch64: FreeRTOS, Linux, bare metal" in md
    heap = "| heap alloc (4 B) | heap.malloc\\_free\\_4 malloc |"
    assert heap + " 150 (det 0.0%) | 300 (det 1.0%) | 2\u00d7 | 100 (det 0.0%) |" in md
    html = documents.html(model)
    assert '<h2 id="rtos-study">' in html and "<td>skip: the baremetal port lacks threads</td>" in html
    assert '<td class="n">10\u00d7</td>' in html  # the semaphore round trip's ratio
    monkeypatch.setenv("COLUMNS", "200")  # the whole table on one line a row (narrower: in parts)
    buf = io.StringIO()
    view.show(model["rtos_study"], file=buf)
    out = buf.getvalue()
    assert "Linux / FreeRTOS" in out and "guest instructions" in out
    assert "10\u00d7" in next(line for line in out.splitlines() if line.startswith("semaphore round trip"))
