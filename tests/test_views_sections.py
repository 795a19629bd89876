"""Every view renders every section of the report model: one rich run (every section non-empty:
results with sub-metrics, event latencies, the RTOS study, the kernel-entry and host-clock tables,
the topology, nbench, what checked its own output, problems, malformed lines, an unfinished run)
rendered by the terminal, Markdown, HTML and JSON views. Each section has a marker, words taken
from the model's own data, that each view must show; a section of the run model with no marker
and no stated reason fails too, so a new section is checked from the day it is added. On main,
`verified` was rendered by the terminal only and `malformed` was missing from Markdown."""

import html
import io
import json
import re

import pytest

import reportdata
from reportdata import HIST, LAT, NBENCH_NS, add, samples
from tickmark.report import formats, model
from tickmark.report.terminal import render as terminal_render
from tickmark.store import Store

FP = dict(reportdata.FP, host_clock=True)  # timed from the host: the host-clock table


def _result(st, rid, key, meta, ns=500.0):
    """A result with its own meta record (what add() does not set) and samples carrying the
    board's clock beside the host's (a host-timed run)."""
    ss = samples(ns)
    for s in ss:
        s["board_ns"] = int(s["ns"] * 0.99)
    from tickmark.analysis import stats

    res = st.add_result(
        rid, key=key, bench=key.split("[")[0], meta=meta, stats=stats.summarize(ss, cycles_method="calibrated-freq")
    )
    st.add_samples(res, 1, ss)


@pytest.fixture(scope="module")
def rich(tmp_path_factory):
    st = Store(str(tmp_path_factory.mktemp("views") / "results.db"))
    rid = st.create_run(
        name="rich",
        suite="rtos-study",
        patterns=["*"],
        fingerprint=FP,
        hello={"counters": ["task_clock"]},
        status="incomplete",
        started=1_700_000_000,
        finished=1_700_000_100,
        notes={
            "rounds": 3,
            "problems": ["round 2: the board went quiet for 60 s"],
            "malformed": 7,
            "incomplete": "interrupted by SIGTERM",
        },
    )
    for size, ns in LAT:  # a latency sweep: the topology
        add(st, rid, "mem.lat_rand", {"size": size, "thp": 0}, ns=ns, stat="min")
    add(st, rid, "sched.pipe_pingpong", {"cross": 0}, ns=3500, hist=HIST)  # event latencies
    for k, ns in NBENCH_NS.items():  # nbench
        add(st, rid, k, ns=ns)
    # the RTOS study's figures, with their sub-metrics
    add(st, rid, "sync.mutex", ns=40, subs={"lock": 0.6, "unlock": 0.4})
    add(st, rid, "heap.malloc_free_4", ns=90, subs={"malloc": 0.5, "free": 0.5})
    add(st, rid, "sys.skipper", status="skip", reason="needs a unicorn")
    # the kernel-entry table, timed from the host (the host-clock table)
    hc = {"char_ns": 86805, "res_ns": 90000, "sample_ppm": 4300, "host_ps_per_op": 500_000, "board_ps_per_op": 495_000}
    for key in ("trap.syscall", "loop.control"):
        _result(st, rid, key, {"host_clock": hc})
    _result(st, rid, "cpu.verifier", {"verified": "sorted output"})  # checked its own output
    return model.build(st, ["rich"])


def _text(s):
    """A view's output as plain words: no HTML tags or entities, no Markdown escapes, one space
    between words."""
    s = html.unescape(re.sub(r"<[^>]+>", " ", s))
    return " ".join(s.replace("\\", "").split())


def _views(m, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")  # the terminal's rows on one line each
    out = io.StringIO()
    terminal_render(m["runs"][0], out)
    return {
        "terminal": _text(out.getvalue()),
        "markdown": _text(formats.render("md", "report", m)),
        "html": _text(formats.render("html", "report", m)),
    }


# section of a run's model -> its marker: the words every view shows where the section is not empty
MARKERS = {
    "rows": lambda r: [x["key"] for x in r["rows"]] + [x["value_text"] for x in r["rows"] if x["status"] == "ok"],
    "incomplete": lambda r: [r["incomplete"]],
    "preemption": lambda r: [r["preemption"]],
    "problems": lambda r: r["problems"]["first"],
    "malformed": lambda r: [f"{r['malformed']} malformed"],
    "verified": lambda r: ["verified"] + [x["bench"] for x in r["verified"]],
    "nbench": lambda r: [k["label"] for k in r["nbench"]["rows"]],
    "rtos_study": lambda r: [x["figure"] for x in r["rtos_study"]["rows"]],
    "kernel_entry": lambda r: (
        [r["kernel_entry"]["title"]] + [c["text"] for s in r["kernel_entry"]["systems"] for c in s["cells"]]
    ),
    "host_clock": lambda r: [r["host_clock"]["title"]] + [x["host_text"] for x in r["host_clock"]["rows"]],
    "topology": lambda r: [r["topology"]["title"]],
    "env_flags": lambda r: [f["flag"] for f in r["env_flags"]],
    "exact": lambda r: [r["exact"]],
    "cycles_note": lambda r: [r["cycles_note"]],
}
# sections and fields that are not checked here, and why
NOT_SECTIONS = {
    "id": "a field of the header",
    "name": "a field of the header",
    "label": "a field of the header",
    "started": "a field of the header",
    "status": "a field of the header",
    "suite": "a field of the header",
    "patterns": "a field of the header",
    "rounds": "a field of the header",
    "essentials": "the header of the terminal (its machine in one line)",
    "machine": "the machine of the documents (the terminal's is in essentials)",
    "flag_meanings": "the meanings of the flags in the rows (the documents' legend)",
    "families": "the index of the report's families (the documents' links between runs)",
    "series": "what the HTML view's plots draw (text views have no plots)",
    "thread_metric": "the terminal's table of a thread-metric run; the documents draw the report's "
    "table across its runs (the report model's own thread_metric, tests/test_thread_metric.py)",
    "cold": "the cold-and-warm table, drawn from a real core's cold calls in the terminal, Markdown "
    "and HTML views by tests/test_cold.py (the rich model here has no cold samples)",
}


def test_every_section_has_a_marker_or_a_reason(rich):
    """A section added to the run model is checked by the test below, or says why not."""
    assert set(rich["runs"][0]) == set(MARKERS) | set(NOT_SECTIONS)


def test_every_view_renders_every_section(rich, monkeypatch):
    run = rich["runs"][0]
    shown = [k for k in MARKERS if run[k]]
    # the rich model has every section that can be non-empty together (a run either counted
    # guest instructions or was timed from the host)
    assert set(MARKERS) - set(shown) == {"exact", "preemption"}, shown
    views = _views(rich, monkeypatch)
    missing = [
        (view, section, marker)
        for section in shown
        for marker in MARKERS[section](run)
        for view, text in views.items()
        if " ".join(str(marker).split()).replace("\\", "") not in text
    ]
    assert not missing, "\n".join(map(str, missing))
    # the JSON view is the model: every section as it is
    doc = json.loads(formats.render("json", "report", rich))
    assert [doc["runs"][0][k] for k in shown] == [json.loads(json.dumps(run[k])) for k in shown]
