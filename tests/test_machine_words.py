"""The machine in words, one way: `tickmark info`, the header of `tickmark show` and the report's
machine section (Markdown and HTML) render one run's machine through machine.lines, so its
caches, timer, CPUs and cycles read the same in each."""

import html
import io

import pytest

import reportdata
from tickmark.base.fmt import md_text
from tickmark.cli.info import info_lines
from tickmark.facts import fingerprint
from tickmark.facts import words as machine
from tickmark.report import documents, model
from tickmark.report.terminal import header_lines, render

RICH = dict(
    reportdata.FP,
    board="Raspberry Pi 4 Model B Rev 1.4",
    target="aarch64-linux-gnu",
    target_uri="ssh://pi@board",
    host="lab-1",
    binary_sha256="0123456789abcdef" * 4,
    linkage="static",
    core_libc="glibc 2.36 (static)",
    ticks="cntvct_el0",
    counters="task_clock,context_switches",
    counters_unsupported="cycles,instructions",
    perf_event_paranoid=2,
    clocksource="arch_sys_counter",
    loadavg="0.10 0.20 0.30 1/100 42",
)


@pytest.fixture
def one_run(tmp_path):
    st = reportdata.Store(str(tmp_path / "m.db"))
    reportdata.fill(st, "rich", fp=RICH)
    yield st, st.run("rich")
    st.close()


def test_info_show_and_report_word_one_run_alike(one_run):
    st, run = one_run
    fp = run["fingerprint"]
    words = machine.lines(fp)
    assert dict(words)["caches (OS)"] == "L1d 32K, L1i 32K, L2u 1M, L3u 16M"
    assert dict(words)["CPU"] == "Test CPU 9000 (x86_64, 4 CPUs)"
    assert dict(words)["timer"] == "CLOCK_MONOTONIC, resolution 1 ns, read costs 20.0 ns, ticks cntvct_el0"
    assert dict(words)["cycles"].endswith("(no cycle counter reachable), 3.00 GHz")

    # info: every line of the machine, then what the target lets a process do
    info = info_lines(fp)
    assert [list(x) for x in info[: len(words)]] == words
    assert [k for k, _ in info[len(words) :]] == ["real-time prio", "CPU affinity", "flags"]

    # the report: the same pairs in its model, and each in its Markdown and HTML
    report = model.build(st, ["rich"], with_compare=False)["runs"][0]
    assert report["machine"] == words
    md = documents.markdown(model.build(st, ["rich"], with_compare=False))
    page = documents.html(model.build(st, ["rich"], with_compare=False))
    for k, v in words:
        assert f"- {k}: {md_text(v)}\n" in md, k
        assert f"<dt>{k}</dt><dd>{html.escape(v, quote=True)}</dd>" in page.replace("&#39;", "'"), k

    # show: the header's lines (those wording a header key), each as `label words`; the time
    # base has a line of its own there, saying what it means for the table
    ess = model.run_model(st, run, with_series=False)["essentials"]
    head = "\n".join(header_lines(ess))
    is_header = {line.label: line.header for line in machine.LINES}
    assert ess["machine"] == [[k, v] for k, v in words if is_header[k]]
    assert [k for k, _ in ess["machine"]] == ["CPU", "OS", "compiler", "target", "timer", "cycles", "virtualization"]
    for k, v in ess["machine"]:
        assert f"{k} {v}" in head, (k, head)
    out = io.StringIO()
    render(model.run_model(st, run, with_series=False), out)
    assert "CPU Test CPU 9000 (x86_64, 4 CPUs)" in out.getvalue()


def test_the_header_is_derived_from_the_key_registry():
    """A line is in the header when it words a header key; every key a line words is a key."""
    for line in machine.LINES:
        assert all(k in fingerprint.KEYS for k in line.keys), line.label
        assert line.header == any(fingerprint.KEYS[k].header for k in line.keys)
    worded = {k for line in machine.LINES for k in line.keys}
    assert {k.name for k in fingerprint.keys(header=True)} - worded == {"flags"}  # flags: a line of their own


def test_a_setting_not_recorded_reads_unknown():
    words = dict(machine.lines({}))
    assert words["CPU"] == "unknown (unknown, ? CPUs)"
    assert words["caches (OS)"] == "not reported"
    assert words["timer"] == "unknown" and words["cycles"] == "not available"
    assert "board" not in words and "time base" not in words and "core binary" not in words
    assert None not in words.values()
    assert machine.lines("not a fingerprint") == machine.lines({})
