"""The rtos-study view picks the study's seven figures out of stored results."""

import io

from rich.console import Console

from tickmark.analysis import rtos_study
from tickmark.report.model import rtos_study_rows
from tickmark.report.terminal.rtos_study import show


def result(key, status="ok", stats=None, reason=""):
    return {"key": key, "bench": key, "status": status, "reason": reason, "stats": stats or {}}


def stat(median, det=1.0, cycles=None, method=None):
    """det in %; the statistics keep it as a fraction"""
    spread = median * det / 100
    d = {"median": median, "determinism": det / 100, "round_medians": [median - spread, median, median + spread]}
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
    assert rows["heap free (4 B)"]["det"] == 0.04
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
    assert t.reference == 1  # the ratios are against Linux
    rows = {r.figure: r for r in t.rows}
    assert [r.figure for r in t.rows] == [f for f, _, _ in rtos_study.FIGURES]
    heap = rows["heap alloc (4 B)"]
    assert heap.cells[0].value == 150.0 and heap.cells[1].value == 300.0 and heap.ratios == [2.0, None, 3.0]
    assert heap.cells[2].value == 100.0  # bare metal beside them
    sem = rows["semaphore round trip"]
    assert sem.ratios[0] == 10.0 and rtos_table.ratio_text(sem.ratios[0]) == "10.0\u00d7" and sem.cells[1].det == 0.02
    assert rows["mutex lock"].ratios[0] == 50.0 / 90.0
    assert rows["mutex lock"].cells[2].note == "skip: the baremetal port lacks threads"
    assert rows["queue round trip (8 B)"].ratios == [None, None, None] and rows["queue round trip (8 B)"].cells[0].note
    d = rtos_table.to_dict(t)
    assert d["labels"] == t.labels and d["rows"][0]["cells"][1]["value"] == 300.0 and d["reference"] == "Linux"
    assert next(r for r in d["rows"] if r["figure"] == "semaphore round trip")["ratio_texts"][0] == "10.0\u00d7"
    header, lines = rtos_table.grid(d)
    assert header == ["figure", "system", "insn/op", "each boot", "Linux is"]
    heap_lines = lines[:3]
    assert heap_lines[0] == ["heap alloc (4 B)", "FreeRTOS", "150", "150 \u00d73", "2.00\u00d7"]
    assert heap_lines[1] == ["heap.malloc_free_4 malloc", "Linux", "300", "297 300 303", "-"]
    assert heap_lines[2] == ["", "bare metal", "100", "100 \u00d73", "3.00\u00d7"]
    mutex = next(x for x in lines if x[0] == "mutex lock")
    assert lines[lines.index(mutex) + 2][1:4] == ["bare metal", "-", "skip: lacks threads"]
    assert [x[0] for x in rtos_table.grid(d, keys=False)[1][:3]] == ["heap alloc (4 B)", "", ""]


def test_ratios_print_alike():
    from tickmark.analysis.rtos_table import ratio_text

    assert [ratio_text(x) for x in (2.97, 1.0, 11.44, 351.2, 0.5123, 0.86, None)] == [
        "2.97\u00d7", "1.00\u00d7", "11.4\u00d7", "351\u00d7", "0.512\u00d7", "0.860\u00d7", "-",
    ]  # fmt: skip


def test_two_runs_of_one_system_get_their_own_headers():
    from tickmark.analysis import rtos_table

    a, b = _side("FreeRTOS", FREERTOS, "FreeRTOS V11.2.0"), _side("FreeRTOS", FREERTOS, "FreeRTOS V10.6.2")
    a.run["name"], b.run["name"] = "st:freertos:default:rtos-study", "st:freertos-old:default:rtos-study"
    t = rtos_table.build([a, b])
    assert t.labels == ["FreeRTOS (freertos)", "FreeRTOS (freertos-old)"]


def test_a_linux_run_beside_is_named_linux(tmp_path):
    """`show A --beside B`: the column of a Linux run is "Linux", not the board's name."""
    from tickmark.report.model import run_model

    class FakeStore:
        def results(self, run_id):
            return LINUX if run_id == 2 else FREERTOS

    fp = {"board": "virt-aarch64", "cycles_method": "icount-insns"}
    run = {"id": 1, "name": "fr", "suite": "rtos-study", "started": 0, "status": "complete",
           "fingerprint": dict(fp, os="FreeRTOS V11.2.0", rtos={"name": "FreeRTOS"})}  # fmt: skip
    beside = {"id": 2, "name": "lx", "fingerprint": dict(fp, os="Linux (tickmark initramfs, busybox)"), "hello": {}}
    model = run_model(FakeStore(), run, with_series=False, beside=beside)
    assert model["rtos_study"]["beside"]["label"] == "Linux"
    # this machine's calibrated cycles are not put beside guest instructions (compare refuses the
    # pair too): the table says why the other run is not beside it
    native = dict(beside, fingerprint={"os": "Linux", "cycles_method": "calibrated-freq"})
    study = run_model(FakeStore(), run, with_series=False, beside=native)["rtos_study"]
    assert study["beside"] is None and "the units differ" in study["note"] and study["exact"]
    buf = io.StringIO()
    show(study, Console(file=buf, width=200, no_color=True))
    head = buf.getvalue().splitlines()[1]
    assert " insn " in head and " ns " not in head and "cycles" not in head.replace("hw cycles", "")


def test_sides_in_different_units_get_no_ratio():
    from tickmark.analysis import rtos_table

    t = rtos_table.build(
        [_side("FreeRTOS", FREERTOS, "FreeRTOS V11.2.0"), _side("Linux", LINUX, "Linux", method="perf", board="rpi4")]
    )
    assert t.unit == "mixed" and all(x is None for r in t.rows for x in r.ratios)
    assert any("different units" in n for n in t.notes) and any("different boards" in n for n in t.notes)
    assert rtos_table.side_label({"fingerprint": {"os": "bare metal (picolibc)"}}) == "bare metal"
    assert rtos_table.side_label({"fingerprint": {"rtos": {"name": "FreeRTOS"}, "os": "x"}}) == "FreeRTOS"
    assert (
        rtos_table.side_label({"fingerprint": {"rtos": {"name": "NuttX"}, "os": "NuttX (commit 4ebc8a7291df)"}})
        == "NuttX"
    )


def test_the_table_in_every_view(monkeypatch):
    from tickmark.analysis import rtos_table
    from tickmark.report import documents
    from tickmark.report.terminal import rtos_table as view

    sides = [
        _side("FreeRTOS", FREERTOS, "FreeRTOS V11.2.0 (picolibc)"),
        _side("Linux", LINUX, "Linux (tickmark initramfs, busybox)"),
        _side("bare metal", BAREMETAL, "bare metal (picolibc)"),
    ]
    options = {"stack_fill": "off", "assertions": "off", "stack_check": 1}
    rtos = {"name": "FreeRTOS", "kernel": "FreeRTOS V11.2.0", "heap": "heap_4, 32768 KiB", "options": options}
    sides[0].run["fingerprint"]["rtos"] = rtos
    t = rtos_table.build(sides)
    model = {"format": "tickmark-report", "version": 1, "runs": [], "compare": [], "rtos_study": rtos_table.to_dict(t)}
    md = documents.markdown(model)
    assert "## The RTOS study on virt-aarch64: FreeRTOS, Linux, bare metal" in md
    assert "| heap alloc (4 B) | FreeRTOS | 150 | 150 \u00d73 | 2.00\u00d7 |" in md
    assert "| heap.malloc\\_free\\_4 malloc | Linux | 300 | 297 300 303 | - |" in md
    assert "* FreeRTOS: FreeRTOS V11.2.0, heap heap\\_4, 32768 KiB, stack fill off, assertions off" in md
    html = documents.html(model)
    assert '<h2 id="rtos-study">' in html and "<td>skip: lacks threads</td>" in html
    assert '<td class="n">10.0\u00d7</td>' in html  # the semaphore round trip's ratio
    monkeypatch.setenv("COLUMNS", "80")
    buf = io.StringIO()
    view.show(model["rtos_study"], file=buf)
    out = buf.getvalue()
    assert max(len(line) for line in out.splitlines()) <= 80, out
    assert "Linux is" in out and "guest instructions" in out and "FreeRTOS: FreeRTOS V11.2.0" in out
    sem = out.splitlines()[
        next(i for i, line in enumerate(out.splitlines()) if line.startswith("semaphore round trip"))
    ]
    assert "10.0\u00d7" in sem and "FreeRTOS" in sem


def test_two_freertos_trees_differ_by_their_settings():
    """Two FreeRTOS runs built from different kernel trees: a comparison names what differs in
    the kernel's record, field by field; two different kernels are named by their names."""
    from tickmark.facts import fingerprint

    a = {"rtos": {"name": "FreeRTOS", "version": "V11.2.0", "source": "/a", "sources_sha256": "1" * 64}}
    b = {"rtos": {"name": "FreeRTOS", "version": "V11.2.0", "source": "/b", "sources_sha256": "2" * 64}}
    diff = {k.name: (x, y) for k, x, y in fingerprint.differences(a, b)}
    assert diff == {"rtos.source": ("/a", "/b"), "rtos.sources_sha256": ("1" * 64, "2" * 64)}
    assert fingerprint.label("rtos.source") == "RTOS kernel (name, version, port, configuration): source"
    c = {"rtos": {"name": "NuttX", "commit": "4ebc8a7291df"}}
    assert [(k.name, x, y) for k, x, y in fingerprint.differences(a, c)] == [("rtos", "FreeRTOS", "NuttX")]


def test_two_boards_counted_in_instructions_say_two_cpus_and_where_one_cpu_is():
    """The study's pairing (Zephyr on a Cortex-M7, Linux on a Cortex-A7): ratios are given, in
    guest instructions of two different CPUs, and the line says where the same-CPU table is."""
    from tickmark.analysis import rtos_table

    t = rtos_table.build(
        [
            _side("Zephyr", FREERTOS, "Zephyr 2.7.0", board="mps2-an500"),
            _side("Linux", LINUX, "Linux", board="orangepi-pc"),
        ]
    )
    assert t.unit == "insn" and t.labels[t.reference] == "Linux"
    assert any(x is not None for r in t.rows for x in r.ratios)
    note = next(n for n in t.notes if "different boards" in n)
    assert "two different CPUs" in note and "guest instructions" in note and "rtos-study-virt-aarch64" in note


def test_long_reasons_wrap_in_their_column_and_the_table_stays_whole(monkeypatch):
    """Five systems, two of them skipping the interrupt rows with a long reason: at 100 columns
    the table is one table (a reason wraps in the boots' column, the numbers never do), and each
    line says its system."""
    from tickmark.analysis import rtos_table
    from tickmark.report.terminal import rtos_table as view

    why = "user space on linux cannot raise an interrupt or handle one (tm_os_irq_attach)"
    with_irq = FREERTOS + [result("irq.entry", stats={"": stat(90.0, 0.0, 90.0, "icount-insns"), "entry": stat(70.0)})]
    linux = LINUX + [result("irq.entry", status="skip", reason=why)]
    sides = [
        _side("FreeRTOS", with_irq, "FreeRTOS V11.2.0"),
        _side("Zephyr", [*LINUX, result("irq.entry", status="skip", reason=why.replace("linux", "zephyr"))], "Z"),
        _side("NuttX", with_irq, "NuttX"),
        _side("Linux", linux, "Linux"),
        _side("bare metal", BAREMETAL, "bare metal (picolibc)"),
    ]
    d = rtos_table.to_dict(rtos_table.build(sides))
    monkeypatch.setenv("COLUMNS", "100")
    buf = io.StringIO()
    view.show(d, file=buf)
    out = buf.getvalue().splitlines()
    assert max(len(line) for line in out) <= 100, "\n".join(out)
    assert not any("in 2 parts" in line for line in out), "\n".join(out)
    entry = next(i for i, line in enumerate(out) if line.startswith("interrupt -> handler"))
    assert "FreeRTOS" in out[entry] and "69 70 71" in out[entry]
    linux_line = next(line for line in out[entry:] if "| Linux " in line)
    assert "skip: user space on linux" in linux_line
    assert "tm_os_irq_attach" in "".join(out[entry : entry + 12])  # the rest of the reason, wrapped below


def test_the_settings_line_says_only_what_the_kernels_record_has():
    """SylixOS's record names its heap check, FPU and tick, not a heap or a stack fill: the line
    under the table says those, never 'None' or '?'."""
    from tickmark.analysis.rtos_table import settings_text

    rtos = {"name": "SylixOS", "version": "2.3.8", "heap_check": "yes", "fpu": "off (kfpu=no)", "tick": "1000 Hz"}
    text = settings_text({"fingerprint": {"rtos": rtos, "compiler": "gcc", "cflags": "-O2"}})
    assert text == "SylixOS 2.3.8, heap check yes, FPU off (kfpu=no), tick 1000 Hz, core gcc -O2", text
