"""The report model (golden values from a synthetic store), its HTML/Markdown/JSON views, the HTML
page in headless Chromium, and the terminal output at 80 columns and in a pipe."""

import io
import json
import os
import re
import sys

import pytest
from markupsafe import escape

import reportdata
from tickmark.base import fmt
from tickmark.report import documents as views
from tickmark.report import model
from tickmark.report.console import PIPE_WIDTH

XSS_NAME = "<script>alert(1)</script>"
XSS_PARAM = '&<>"'


@pytest.fixture
def syn(tmp_path, monkeypatch):
    path = tmp_path / "syn.db"
    st = reportdata.make_store(str(path))
    monkeypatch.setenv("TICKMARK_STORE", str(path))
    return st


# ---------------------------------------------------------------- the model (data, not pixels)
def test_model_golden(syn):
    m = model.build(syn, ["base", "slow"])
    assert m["format"] == "tickmark-report" and [r["name"] for r in m["runs"]] == ["base", "slow"]
    run = m["runs"][0]
    assert ["virtualized"] == [f["flag"] for f in run["env_flags"]]
    assert "virtual machine" in run["env_flags"][0]["meaning"]
    assert dict(run["machine"])["CPU"] == "Test CPU 9000 (x86_64, 4 CPUs)"
    assert dict(run["machine"])["caches (OS)"] == "L1d 32K, L1i 32K, L2u 1M, L3u 16M"
    # rows: name order, parameters in numeric order, sub-metrics after their headline
    keys = [(r["key"], r["metric"]) for r in run["rows"]]
    lat = [k for k, _ in keys if k.startswith("mem.lat_rand")]
    assert lat[:3] == [
        "mem.lat_rand[size=4096,thp=0]",
        "mem.lat_rand[size=8192,thp=0]",
        "mem.lat_rand[size=16384,thp=0]",
    ]
    assert keys[keys.index(("sync.mutex", "")) + 1 : keys.index(("sync.mutex", "")) + 3] == [
        ("sync.mutex", "lock"),
        ("sync.mutex", "unlock"),
    ]
    byk = {(r["key"], r["metric"]): r for r in run["rows"]}
    assert byk[("sys.skipper", "")]["status"] == "skip" and byk[("sys.skipper", "")]["reason"] == "needs a unicorn"
    assert byk[("sys.crasher", "")]["status"] == "crashed"
    g = byk[("sys.getppid", "")]
    assert g["value"] == pytest.approx(50.0) and g["value_text"] == "50.0 ns/op" and g["unit"] == "ns/op"
    assert g["ci95_lo"] <= 50.0 <= g["ci95_hi"] and g["determinism"] == pytest.approx(0.0)
    assert g["flags"] == []  # 'virtualized' is said once per run, not per row
    assert byk[("mem.lat_rand[size=65536,thp=0]", "")]["value"] == pytest.approx(4.0 * 0.996, rel=1e-3)  # min headline
    fams = {f["family"]: f for f in run["families"]}
    assert fams["sys"]["n"] == 3 and fams["sys"]["ok"] == 1 and fams["cpu"]["n"] == 10

    s = run["series"]
    levels = s["latency"]["levels"]
    # one point per octave here: each level within one sweep step (x2) above its knee
    assert [lv["name"] for lv in levels] == ["L1", "L2", "L3", "memory"] and levels[-1]["size"] is None
    for lv, size in zip(levels, (32768, 1048576, 16777216)):
        assert size <= lv["size"] <= 2 * size, lv
    assert levels[0]["latency_ns"] == pytest.approx(1.2 * 0.996, rel=1e-3)
    assert s["latency"]["os_levels"] == [
        {"name": "L1d", "size": 32768},
        {"name": "L2", "size": 1048576},
        {"name": "L3", "size": 16777216},
    ]
    assert len(s["latency"]["points_4k"]) == len(reportdata.LAT) and s["latency"]["points_huge"] == []
    ring = {ln["size_kib"]: ln["points"] for ln in s["ctx_ring"]}
    assert sorted(ring) == [0, 16] and [p[0] for p in ring[0]] == [2, 8, 32]
    assert ring[16][1][1] == pytest.approx(2000 + 40 * 8 + 1600)
    (h,) = s["hists"]
    assert h["key"] == "sched.pipe_pingpong[cross=0]" and h["count"] == 1000 and h["max"] == 250000
    assert h["p50"] == 3200 and h["buckets"][0] == [2944, 10]
    bw = {(b["group"], b["impl"]): b["points"] for b in s["bandwidth"]}
    # the best round's rate: its samples' ripple (+-0.4 %) averages out over the round
    assert bw[("mem.bw", None)][0] == [16384, pytest.approx(20000, rel=1e-6)]
    assert bw[("memfn.memcpy", "libc")][0] == [64, pytest.approx(64 * 1000 / (64 * 0.05 + 2))]
    assert bw[("memfn.memcpy", "ref")][1][0] == 4096
    nb = {r["name"]: r for r in s["nbench"]["rows"]}
    # no task-clock in these samples: the rates are on wall time, the mean of the samples' rates
    rates = [1e9 * x["ops"] / x["ns"] for x in reportdata.samples(2.0e6)]
    assert nb["cpu.numsort"]["basis"] == "wall" and s["nbench"]["basis"] == "wall"
    assert nb["cpu.numsort"]["new"] == pytest.approx(sum(rates) / len(rates) / 118.73, rel=1e-12)
    assert s["nbench"]["linux_groups"]["INTEGER"] is not None and run["nbench"] == s["nbench"]

    (prof,) = s["profiles"]
    assert prof["key"] == "cpu.stringsort" and [r["name"] for r in prof["routines"]] == [
        "stringsort_kernel",
        "memmove",
        "page_fault",
    ]  # ranked by their own share; main has none
    assert prof["routines"][1]["ns_per_op"] == pytest.approx(0.25 * 9.0e6)
    assert dict(prof["groups"])["libc"] == pytest.approx(0.25)

    (c,) = m["compare"]["comparisons"]
    assert (c["a"], c["b"]) == ("base", "slow")
    assert {(d["field"], d["a"], d["b"]) for d in c["differences"]} == {
        ("cflags", "-O2", "-Os"),
        ("variant", "base", "slow"),
    }
    assert c["families"]["sys"]["geomean_time_ratio"] == pytest.approx(1.25, rel=1e-3)
    assert c["families"]["mem"]["geomean_time_ratio"] == pytest.approx(1.25, rel=1e-3)  # bandwidth inverted
    assert c["families"]["cpu"]["verdicts"] == {"slower": 10} and c["families"]["cpu"]["multiple"] == "1.25× slower"
    row = next(r for r in c["rows"] if r["key"] == "sys.getppid" and not r["metric"])
    assert row["ratio"] == pytest.approx(1.25, rel=1e-3) and row["verdict"] == "slower" and row["ci"][0] > 0.2
    bwrow = next(r for r in c["rows"] if r["key"] == "mem.bw_read[size=16384]" and not r["metric"])
    assert bwrow["unit"] == "MB/s" and bwrow["ratio"] == pytest.approx(0.8, rel=1e-3) and bwrow["verdict"] == "slower"
    ck = [r["key"] for r in c["rows"] if r["key"].startswith("mem.lat_rand") and not r["metric"]]
    assert ck[:2] == ["mem.lat_rand[size=4096,thp=0]", "mem.lat_rand[size=8192,thp=0]"]  # numeric order
    missing = next(r for r in c["rows"] if r["key"] == "sys.skipper")
    assert missing["verdict"] == "missing" and missing["median_a"] is None
    nbt = m["compare"]["nbench"]  # the study's table: the runs' indices side by side
    assert nbt["labels"] == ["base", "slow"] and nbt["basis"] == ["wall", "wall"]
    mem = next(g for g in nbt["groups"] if g["group"] == "MEMORY")
    assert mem["values"][1] == pytest.approx(mem["values"][0] / 1.25) and mem["ratios"][1] == pytest.approx(0.8)
    assert [k["name"] for k in nbt["kernels"]][:2] == ["cpu.numsort", "cpu.stringsort"]


def test_model_json_round_trip_and_markdown(syn, cli, tmp_path):
    out = tmp_path / "r.json"
    rc, _, err = cli("report", "base", "slow", "-o", str(out))
    assert rc == 0 and "wrote" in err
    doc = json.loads(out.read_text())
    assert doc == json.loads(views.to_json(model.build(syn, ["base", "slow"])))
    rc, md, _ = cli("report", "base", "slow", "--format", "md")
    assert rc == 0
    assert "## Comparison: B = slow against A = base" in md
    assert "| sys.getppid | 50.0 ns | 62.5 ns | 1.250 |" in md
    assert re.search(r"^\| sys \| 1\.250 \| 1\.25× slower \| 1 benchmark \| 1 slower \|$", md, re.M)
    # nbench: the runs side by side, and each run's own table with its time basis
    assert "## nbench side by side" in md
    assert re.search(r"^\| MEMORY index \(AMD K6/233 = 1\) \| [\d.]+ \| [\d.]+ \| 0\.800 \|$", md, re.M)
    assert re.search(r"^\| verified \(each kernel checks its own output\) \| 10 of 10 \| 10 of 10 \| \|$", md, re.M)
    assert md.count("| nbench 2.2.3 kernel | iterations/s |") == 2
    assert re.search(r"^\| NUMERIC SORT \| 500\.\d* \| [\d.]+ \| 4\.21 \| ±[\d.]+% \|$", md, re.M)
    assert "the mean of the samples' rates on wall time (no task-clock on this target)" in md
    assert (
        re.search(r"\| L2 \| 1\.\d+M \| 1M-2M \| [\d.]+ ns \| [\d.]+ \| [\d.]+ \| 1M L2 \|", md)
        and "`virtualized`" in md
    )


def test_report_errors_are_one_line(syn, cli, tmp_path):
    rc, _, err = cli("report", "nosuchrun")
    assert rc == 2 and err.startswith("tickmark: error: no run 'nosuchrun'") and err.count("\n") == 1
    rc, _, err = cli("report", "base", "-o", str(tmp_path / "no" / "such" / "dir" / "r.html"))
    assert rc == 2 and "cannot write" in err


def test_markdown_escapes_names(tmp_path):
    st = reportdata.make_store(str(tmp_path / "x.db"), second=False, name_a=XSS_NAME + "|x", param_value=XSS_PARAM)
    md = views.markdown(model.build(st, [XSS_NAME + "|x"]))
    assert "<script>" not in md and "&lt;script&gt;alert(1)&lt;/script&gt;\\|x" in md
    assert 'sys.param\\[name=&amp;&lt;&gt;"\\]' in md  # brackets too: a name is never a link


# ---------------------------------------------------------------- the HTML page
def test_html_is_self_contained_and_escaped(tmp_path):
    st = reportdata.make_store(str(tmp_path / "x.db"), name_a=XSS_NAME, param_value=XSS_PARAM)
    page = views.html(model.build(st, [XSS_NAME, "slow"]))
    assert "<script" not in page.lower()  # no script of ours, and the run name is text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "sys.param[name=&amp;&lt;&gt;&#34;]" in page
    # nothing that would make a browser fetch: no external URL in src/href, no @import or url()
    assert not re.search(r'(src|href)\s*=\s*"(?!#)', page)
    assert "@import" not in page and not re.search(r"url\((?!#)", page)  # url(#id): inside the SVG
    assert page.count("<svg") >= 4 and "Content-Security-Policy" in page
    assert '<h3 id="run-1-profiles">Profiles</h3>' in page and "stringsort_kernel" in page


def _chromium_or_skip():
    from browser import find_chromium

    if find_chromium() is None:
        msg = "chromium is not installed (./bootstrap test installs it)"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    try:
        import websocket  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("websocket-client is missing (pip install -e '.[test]')")
        pytest.skip("websocket-client is missing")


def _non_white(png):
    from PIL import Image

    im = Image.open(io.BytesIO(png)).convert("L")
    hist = im.histogram()
    return sum(hist[:200]) / (im.width * im.height)  # share of clearly non-white pixels


def test_html_in_headless_chromium(tmp_path):
    """Both kinds of report load from file:// with no request leaving the file, no console error,
    no script run (the run named <script>alert(1)</script> stays text), plots in the DOM, and a
    screenshot that is not blank."""
    _chromium_or_skip()
    from browser import Browser

    st = reportdata.make_store(str(tmp_path / "x.db"), name_a=XSS_NAME, param_value=XSS_PARAM)
    one = tmp_path / "one.html"
    one.write_text(views.html(model.build(st, [XSS_NAME])), encoding="utf-8")
    two = tmp_path / "cmp.html"
    two.write_text(views.html(model.build(st, [XSS_NAME, "slow"])), encoding="utf-8")
    with Browser(width=1200, height=900) as b:
        for f, min_svgs in ((one, 4), (two, 40)):
            url = f.as_uri()
            page = b.load(url)
            assert page.requests == [url], f"{f.name} asked for {page.requests}"
            assert not page.failed and not page.exceptions and not page.dialogs
            errors = [c for c in page.console if c[0] in ("error", "warning", "assert")]
            assert not errors, errors
            assert b.evaluate("document.querySelectorAll('script').length") == 0
            assert b.evaluate("document.querySelectorAll('svg').length") >= min_svgs
            assert b.evaluate("document.querySelectorAll('svg.plot').length") >= 4
            text = b.evaluate("document.body.innerText")
            assert XSS_NAME in text and 'sys.param[name=&<>"]' in text
            assert b.evaluate("document.title").startswith("tickmark report: " + XSS_NAME)
            # the plots have a size on the page (rendered, not collapsed)
            assert (
                b.evaluate(
                    "Math.min(...[...document.querySelectorAll('svg.plot')].map(s => s.getBoundingClientRect().height))"
                )
                > 100
            )
            png = b.screenshot(full_page=False)
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            assert _non_white(png) > 0.02, f"{f.name}: the screenshot is (nearly) blank"
            b.evaluate("document.getElementById('run-1-latency').scrollIntoView()")
            assert _non_white(b.screenshot(full_page=False)) > 0.02


# ---------------------------------------------------------------- terminal output
def _lines(text):
    return text.splitlines()


def test_show_at_80_columns_and_in_a_pipe(syn, cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, _ = cli("show", "base")
    assert rc == 0 and "\x1b[" not in out  # a pipe: no colour codes
    assert max(len(x) for x in _lines(out)) <= 80
    for needle in (
        "sys.getppid",
        "50.0 ns/op",
        "sched.pipe_pingpong[cross=0]",
        "needs a unicorn",
        "crashed",
        "  lock",
    ):
        assert needle in out, needle
    assert any(x.startswith("event latency") and "p50" in x and "max" in x for x in _lines(out)), out
    assert any(x.startswith("sched.") and "| 3.20 us |" in x for x in _lines(out)), out  # p50, on one line
    assert "on every result: virtualized" in out
    monkeypatch.setenv("COLUMNS", "200")
    rc, wide, _ = cli("show", "base")
    assert max(len(x) for x in _lines(wide)) > 80 and "ops/s" in wide and "round-cv" in wide
    monkeypatch.delenv("COLUMNS")
    rc, pipe, _ = cli("show", "base")
    assert max(len(x) for x in _lines(pipe)) <= PIPE_WIDTH


def test_memfn_keys_name_the_implementation_and_break_once(syn, cli, monkeypatch):
    """A memfn.* key says libc/ref/word/user, not impl=0..3, and at 80 columns it is whole on
    its line or broken once, between two parameters (not over three lines)."""
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, _ = cli("show", "base")
    assert rc == 0 and "impl=0" not in out and "impl=1" not in out
    lines = _lines(out)
    starts = [i for i, x in enumerate(lines) if x.startswith("memfn.memcpy[")]
    keys = [lines[i].split("|")[0].strip() for i in starts]
    assert [k.split(",")[0] for k in keys] == ["memfn.memcpy[impl=libc"] * 2 + ["memfn.memcpy[impl=ref"] * 2
    for i, key in zip(starts, keys):  # whole on its line, or broken after a comma and ended on the next
        nxt = lines[i + 1].split("|")[0].strip()
        assert key.endswith("]") or (key.endswith(",") and nxt.endswith("]")), lines[i : i + 2]


@pytest.mark.parametrize("width", [80, 120])
def test_event_latencies_with_cyclictests_min_and_avg(syn, cli, monkeypatch, width):
    """The event table has cyclictest's Min and Avg beside the percentiles (the avg from the
    events' exact sum), says which figure is the batch mean lmbench reports, and fits the width
    (columns left out with a note where they do not)."""
    monkeypatch.setenv("COLUMNS", str(width))
    rc, out, _ = cli("show", "base")
    lines = out.splitlines()
    assert max(len(x) for x in lines) <= width, out
    at = next(i for i, x in enumerate(lines) if x.startswith("event latency"))
    head, row = lines[at], next(x for x in lines[at:] if x.startswith("sched.pipe_pingpong[cross=0] "))
    cells = dict(zip([c.strip() for c in head.split("|")], [c.strip() for c in row.split("|")]))
    assert cells["min"] == "3.00 us" and cells["avg"] == "4.10 us" and cells["p50"] == "3.20 us"
    assert cells["max"] == "250 us"
    assert ("events" in cells) == (width == 120) and ("(left out at this width: events" in out) == (width == 80)
    note = " ".join(out.split("each event timed alone")[1].split())
    assert "the figure lmbench reports" in note and "avg above p50" in note
    page = views.html(model.build(syn, ["base"]))
    assert '<th class="n">min</th><th class="n">avg</th><th class="n">p50</th>' in page
    assert "4.10 us" in page and "the figure lmbench reports" in page


def test_list_at_80_columns_and_in_a_pipe(env, cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, _ = cli("list")
    assert rc == 0 and "\x1b[" not in out
    assert max(len(x) for x in _lines(out)) <= 80
    assert "synthetic lat.sweep" in out and "size=1024,65536" in out and "skip: needs a unicorn" in out


def test_sweep_abbreviation():
    sweep = ",".join(["1K", "1536", "2K"] + [f"{k}M" for k in range(1, 129)])
    assert fmt.fmt_sweep(sweep) == "1K..128M (131 values)"
    assert fmt.fmt_sweep("0,1") == "0,1" and fmt.fmt_sweep("16K,256K,4M,128M") == "16K,256K,4M,128M"


def test_store_after_the_subcommand_and_from_the_environment(syn, cli, tmp_path, monkeypatch):
    path = os.environ["TICKMARK_STORE"]
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "elsewhere.db"))
    rc, out, err = cli("runs")
    assert rc == 0 and "no runs stored yet" in out
    rc, out, err = cli("runs", "--store", path)
    assert rc == 0 and "base" in out and "slow" in out
    rc, out, _ = cli("show", "base", "--store", path)
    assert rc == 0 and "sys.getppid" in out
    rc, out, _ = cli("--store", str(tmp_path / "elsewhere.db"), "show", "--store", path, "slow")
    assert rc == 0 and "run 2 'slow'" in out  # after the subcommand wins
    monkeypatch.setenv("TICKMARK_STORE", path)
    rc, out, _ = cli("show", "slow")
    assert rc == 0 and "run 2 'slow'" in out


def test_preempted_said_once_in_the_header(tmp_path, cli, monkeypatch):
    from tickmark.analysis import stats
    from tickmark.store import Store

    st = Store(str(tmp_path / "p.db"))
    rid = st.create_run(name="p", patterns=["*"], fingerprint=reportdata.FP, status="complete", notes={"rounds": 1})
    for i, moved in enumerate((False, False, True)):
        ss = reportdata.samples(100, rounds=1, per_round=12)
        hit = ss[:9] if moved else ss[:2]
        for s in hit:
            s.update(retaken=1, nivcsw=1, ns=s["ns"] * (2 if moved else 1))
        st.add_result(rid, key=f"sys.b{i}", bench=f"sys.b{i}", stats=stats.summarize(ss))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "p.db"))
    rc, out, _ = cli("show", "p")
    header = " ".join(out.split("benchmark")[0].split())  # the header, unwrapped
    assert (
        "3 of 3 results had samples preempted by a context switch or a CPU migration, even after one retake; "
        "it changed 1 of these results (flagged 'preempted')"
    ) in header
    flagged = [x for x in _lines(out) if "preempted" in x and x.startswith("sys.")]
    assert len(flagged) == 1 and flagged[0].startswith("sys.b2")


@pytest.mark.skipif(sys.platform != "linux", reason="Linux only")
def test_report_cli_html_from_fake_core_run(env, cli, tmp_path):
    """End to end through the command line: a run, then its report (default: the latest run)."""
    rc, _, err = cli("run", "sys.*", "ipc.*", "lat.*", "bw.*", "--rounds", "2", "--quiet")
    assert rc == 0, err
    out = tmp_path / "r.html"
    rc, _, err = cli("report", "-o", str(out))
    assert rc == 0, err
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "ipc.ping" in page and "Event latency histograms" in page
    assert out.stat().st_size < 2_000_000


# ---------------------------------------------------------------- one table of formats
def test_compare_json_is_the_reports_comparison(syn, cli):
    """One comparison, one JSON shape: `compare --format json` prints the document that
    `report --format json` holds under "compare" (rows, families, differences, nbench table)."""
    rc, out, err = cli("compare", "base", "slow", "--format", "json")
    assert rc == 0, err
    rc, rep, err = cli("report", "base", "slow", "--format", "json")
    assert rc == 0, err
    doc, rep = json.loads(out), json.loads(rep)
    assert doc == rep["compare"] and doc["format"] == "tickmark-compare"
    assert doc["nbench"]["labels"] == ["base", "slow"] and doc["comparisons"][0]["families"]["sys"]["covers"]
    rc, one, _ = cli("report", "base", "--format", "json")
    assert rc == 0 and json.loads(one)["compare"] is None


def test_every_format_is_one_reporter_chosen_from_one_table(syn, cli, tmp_path):
    from tickmark.cli import compare, document, history, report
    from tickmark.report import formats

    for cmd, what in (
        (document.export_cmd, "run"),
        (report.report_cmd, "report"),
        (compare.compare_cmd, "comparison"),
        (history.history_cmd, "history"),
    ):
        (opt,) = [p for p in cmd.params if p.name == "fmt"]
        assert list(opt.type.choices) == formats.names(what, aliases=True), cmd.name
    assert formats.names("history") == ["terminal", "json", "md", "html"]
    assert formats.from_extension("h.markdown", "history", "terminal") == "md"
    assert formats.from_extension("h.txt", "history", "terminal") == "terminal"
    # history's JSON from the table is the document it printed before (the series, the metric)
    rc, text, err = cli("history", "--format", "json")
    assert rc == 0 and json.loads(text)["metric"] == "headline" and json.loads(text)["series"], err
    assert formats.from_extension("r.md", "report", "html") == "md"
    assert formats.from_extension("r.xml", "report", "html") == "html"  # junit writes runs, not reports
    rc, _, err = cli("export", "base", "--format", "md")
    assert rc == 2 and "'md' is not one of" in err
    # the same comparison in Markdown from compare as in the report of the two runs
    rc, md, err = cli("compare", "base", "slow", "--format", "md")
    assert rc == 0, err
    rc, full, _ = cli("report", "base", "slow", "--format", "md")
    nb_and_pairs = md[md.index("## nbench side by side") : md.index("_tickmark ")]
    assert nb_and_pairs.startswith("## nbench side by side") and "## Comparison: B = slow against A = base" in md
    assert nb_and_pairs in full
    rc, text, _ = cli("compare", "base", "slow", "--format", "table")
    assert rc == 0 and "nbench side by side" in text
    side = text[text.index("nbench side by side") :].splitlines()
    assert max(len(line) for line in side) <= 80 and re.search(r"^MEMORY K6\s+[\d.]+\s+[\d.]+\s+x0\.80$", text, re.M)


def test_family_mean_says_which_benchmarks_it_covers():
    """The geometric mean leaves unstable rows out: it says so, and over how many of the
    family's benchmarks it is taken, instead of naming the whole family."""
    from tickmark.analysis import compare as cmp

    def row(ratio, unstable):
        return {"family": "memfn", "metric": "", "ratio": ratio, "unstable": unstable, "verdict": "slower"}

    fams = cmp.families([row(1.2, False), row(1.3, False)] + [row(0.5, True)] * 14)
    f = fams["memfn"]
    assert (f["n"], f["of"]) == (2, 16) and f["geomean_time_ratio"] == pytest.approx((1.2 * 1.3) ** 0.5)
    assert model.family_covers(f) == "2 of 16 benchmarks (14 unstable left out)"
    assert model.family_covers(cmp.families([row(1.2, True)] * 3)["memfn"]) == "3 benchmarks, all unstable"
    assert model.family_covers(cmp.families([row(1.2, False)])["memfn"]) == "1 benchmark"


# ---------------------------------------------------------------- a board's runs
def _runs_store(tmp_path, monkeypatch, make):
    """A store that make(path) fills, the CLI's store -> (store, its run ids as text)."""
    path = tmp_path / "runs.db"
    st, ids = make(str(path))
    monkeypatch.setenv("TICKMARK_STORE", str(path))
    return st, [str(i) for i in ids]


@pytest.fixture
def board(tmp_path, monkeypatch):
    return _runs_store(tmp_path, monkeypatch, reportdata.make_board_store)


def test_report_of_four_disjoint_runs_with_the_board_page(board, cli, tmp_path):
    """An os-suite run, a context-switch sweep, a bandwidth run and a latency sweep of one board,
    which share no benchmark: one HTML and one Markdown file, the board page first (lmbench's
    summary), a section per run and family, no comparison and a note saying why."""
    st, ids = board
    for name in ("b.html", "b.md"):
        rc, _, err = cli("report", *ids, "-o", str(tmp_path / name))
        assert rc == 0, err
    md = (tmp_path / "b.md").read_text()
    assert md.index("lmbench's summary") < md.index("## Run 1")
    for row in (
        "| null call | 180 ns | sys.getppid | 1 |",
        "| null I/O | 230 ns | sys.read + sys.write (mean) | 1 |",
        "| fork | 90.0 us | proc.fork\\_exit | 1 |",
        "| pipe | 9.00 us | ipc.pipe\\_lat\\[cross=0\\] | 1 |",  # brackets escaped: a name is never a link
        "| UDP | - | ipc.udp\\_lat | not measured |",
        "| mem.bw\\_read\\[size=134217728\\] | 3 |",
        "| 2p | 1.55 us | 1.87 us | 2.83 us |",  # switch_derived: half the hop, per procs x size
        "| 16p | 1.90 us | 2.22 us | 3.18 us |",
    ):
        assert row in md, row
    assert re.search(r"\| L1 \| 4\d\.\d+K \| 1\.\d+ ns \|", md) and re.search(r"\| memory \| - \| 9\d\.\d ns \|", md)
    assert "## Comparison" not in md and "run 2 (board-ctx) shares no benchmark with run 1 (board-os)" in md
    for i in ids:
        assert f"## Run {i}: board-" in md
    page = (tmp_path / "b.html").read_text()
    assert page.index('id="board"') < page.index('id="run-1"')
    for fam, run in (("sys", 1), ("sched", 2), ("mem", 3)):
        assert f'href="#run-{run}-fam-{fam}"' in page and f'id="run-{run}-fam-{fam}"' in page


def test_board_page_in_chromium(board, tmp_path):
    """The board page renders: its tables in the DOM with their figures, nothing fetched, and a
    screenshot of it that is not blank."""
    _chromium_or_skip()
    from browser import Browser

    st, ids = board
    f = tmp_path / "board.html"
    f.write_text(views.html(model.build(st, ids)), encoding="utf-8")
    with Browser(width=1200, height=900) as b:
        page = b.load(f.as_uri())
        assert page.requests == [f.as_uri()] and not page.exceptions
        text = b.evaluate("document.getElementById('board').innerText")
        for needle in ("null call", "180 ns", "signal handler", "1.40 us", "AF_UNIX", "16p", "64K", "memory read"):
            assert needle in text, needle
        assert b.evaluate("document.querySelectorAll('#board table').length") == 5
        b.evaluate("document.getElementById('board').scrollIntoView()")
        png = b.screenshot(full_page=False)
        (tmp_path / "board.png").write_bytes(png)
        assert _non_white(png) > 0.02


def test_show_summary_of_a_boards_runs(board, cli, monkeypatch):
    st, ids = board
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, err = cli("show", "--summary", *ids)
    assert rc == 0, err
    assert max(len(x) for x in out.splitlines()) <= 80, out
    lines = out.splitlines()
    assert any(x.startswith("null call") and "180 ns" in x for x in lines), out
    assert any(x.startswith("8p") and "1.70 us" in x and "2.98 us" in x for x in lines), out
    rc, out, err = cli("show", "--summary", ids[2])
    assert rc == 0 and "memory read" in out and "null call" not in out.split("bandwidth")[-1]
    rc, out, err = cli("show", "1", "2")
    assert rc == 2 and "several with --summary" in err


# ---------------------------------------------------------------- plots
OVERLAPS = """
(() => {
  const out = [];
  for (const svg of document.querySelectorAll(SELECTOR)) {
    const boxes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
      .map(t => [t.textContent, t.getBoundingClientRect()]).filter(([, r]) => r.width > 0);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, r] = boxes[i], [b, s] = boxes[j];
        const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
        const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
        if (w > -2 && h > 1) out.push(a + ' / ' + b);  // closer than 2 px side by side reads as one
      }
    const legend = svg.querySelector('[id^=legend]'), axes = svg.querySelector('[id^=axes] > [id^=patch]');
    if (legend && axes) {
      const r = legend.getBoundingClientRect(), s = axes.getBoundingClientRect();
      const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
      const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
      if (w > 1 && h > 1) out.push('legend over the plot');
    }
  }
  return out;
})()
"""


def test_plots_text_does_not_overlap_and_legends_stay_off_the_curves(tmp_path):
    """In Chromium: the level labels of the latency plot (detected and the OS's, close together
    here: 45K against 32K, 1.4M against 1M) and every other text of the latency and bandwidth
    plots keep apart, and no legend lies over a plot's axes; the bandwidth plot names its series
    as the bandwidth table does and reads its axis in MB/s or GB/s."""
    _chromium_or_skip()
    from browser import Browser

    st, ids = reportdata.make_board_store(str(tmp_path / "b.db"))
    m = model.build(st, [str(i) for i in ids])
    f = tmp_path / "plots.html"
    f.write_text(views.html(m), encoding="utf-8")
    page = f.read_text()
    bw = page[page.index('id="run-3-bandwidth"') :]
    bw = bw[: bw.index("</svg>")]
    assert ">read<" in bw and ">write<" in bw and ">copy<" in bw and "e+0" not in bw and " GB/s<" in bw
    with Browser(width=1200, height=900) as b:
        b.load(f.as_uri())
        for anchor in ("run-4-latency", "run-3-bandwidth", "run-2-ctx-ring"):
            sel = f"#{anchor} + figure svg"
            assert b.evaluate(f"document.querySelectorAll('{sel}').length") == 1
            assert b.evaluate(OVERLAPS.replace("SELECTOR", repr(sel))) == [], anchor
            height = b.evaluate(f"document.querySelector('{sel}').getBoundingClientRect().height")
            assert height > 250, (anchor, height)
        labels = b.evaluate(
            "[...document.querySelectorAll('#run-4-latency + figure svg text')].map(t => t.textContent)"
        )
        assert any(t.startswith("OS L1d 32K") for t in labels) and any(t.startswith("L1 4") for t in labels)
        b.evaluate("document.getElementById('run-4-latency').scrollIntoView()")
        (tmp_path / "latency.png").write_bytes(b.screenshot(full_page=False))


def test_comparison_chart_has_the_task_clock_rows_and_their_mean(tmp_path):
    """A run that is faster in wall time but slower on the CPU (task-clock; neither side kept off
    the CPU, which would decide the wall-time rows on task-clock): the chart shows the task-clock
    rows under a family mean of their own beside the wall-time mean."""
    from tickmark.analysis import stats
    from tickmark.store import Store

    st = Store(str(tmp_path / "tc.db"))
    for name, wall, cpu in (("a", 100.0, 100.0), ("b", 80.0, 128.0)):
        rid = st.create_run(
            name=name, patterns=["*"], fingerprint=reportdata.FP, status="complete", notes={"rounds": 3}
        )
        for bench in ("sys.x", "sys.y"):
            ss = reportdata.samples(wall)
            for s in ss:
                s.update(ctr_ops=s["ops"], ctr={"task_clock": int(s["ns"] * cpu / wall)})
            res = st.add_result(rid, key=bench, bench=bench, stats=stats.summarize(ss))
            st.add_samples(res, 1, ss)
    m = model.build(st, ["a", "b"])
    (c,) = m["compare"]["comparisons"]
    assert c["families"]["sys (task-clock)"]["multiple"] == "1.28× slower"
    assert c["families"]["sys"]["multiple"] == "1.25× faster"
    page = views.html(m)
    chart = page[page.index("<h3>Ratio per benchmark</h3>") : page.index("Table of all")]
    assert "<th>sys (task-clock).*</th>" in chart and "<th>sys.*</th>" in chart
    assert chart.count('<td class="k">sys.x task-clock</td>') == 1 and chart.count('<td class="k">sys.x</td>') == 1
    assert "geometric mean: B 1.28× slower" in chart and "geometric mean: B 1.25× faster" in chart


def test_comparison_chart_only_where_both_runs_have_the_benchmark(board, tmp_path):
    """A run that shares two benchmarks with the os run: the report compares those two, and the
    chart leaves out the rest with a line that counts them (the table of all comparisons keeps
    them)."""
    st, ids = board
    rid = st.create_run(name="board-os2", patterns=["*"], fingerprint=reportdata.FP, status="complete")
    for bench in ("sys.getppid", "sys.stat"):
        reportdata.add(st, rid, bench, ns=reportdata.BOARD_OS[bench] * 1.1)
    m = model.build(st, ids + [str(rid)])
    (c,) = m["compare"]["comparisons"]
    assert (c["a"], c["b"]) == ("board-os (gcc -O2)", "board-os2 (gcc -O2)")
    page = views.html(m)
    chart = page[page.index("<h3>Ratio per benchmark</h3>") : page.index("Table of all")]
    assert chart.count('<td class="k">') == 2 and '<td class="k">sys.getppid</td>' in chart
    only_a = sum(1 for r in c["rows"] if not r["metric"] and r["note"] == "not in B")
    assert only_a == len(reportdata.BOARD_OS) - 2 + 9
    assert f"{only_a} benchmarks only in A and 0 only in B are left out of the chart" in chart
    table = page[page.index("Table of all") :]
    assert "ipc.pipe_lat[cross=0]" in table.split("</details>")[0]


def test_flag_meanings_and_header_keys_have_one_source():
    """The report's flag meanings are the statistics' (with their thresholds) and the
    fingerprint's (the flags on every result); the header's keys are the fingerprint registry's
    keys marked header: no second copy to drift."""
    from tickmark.analysis import stats
    from tickmark.facts import fingerprint
    from tickmark.report.model import run as run_model

    assert model.FLAG_MEANINGS == {**stats.FLAG_MEANINGS, **fingerprint.ENV_FLAG_MEANINGS}
    assert f"{stats.UNSTABLE_RCV * 100:g} %" in stats.FLAG_MEANINGS["unstable"]
    assert f"fewer than {stats.FEW_SAMPLES} samples" in stats.FLAG_MEANINGS["few-samples"]
    assert set(fingerprint.env_flags({"virtualization": "kvm", "governor": "powersave"})) <= set(
        fingerprint.ENV_FLAG_MEANINGS
    )
    assert run_model.HEADER_KEYS == tuple(k.name for k in fingerprint.keys(header=True))
    assert {"cpu_model", "kernel", "cycles_method", "target_uri"} <= set(run_model.HEADER_KEYS)


def test_axis_labels_under_the_row_charts_do_not_overlap(tmp_path):
    """The time axis under the histograms of a run whose events span 335 ns to 12 ms (as an os-suite
    run on a loaded VM: six decades in 260 px): in Chromium no two tick labels overlap, and the
    first and last are there."""
    _chromium_or_skip()
    from browser import Browser

    scale = views.LogScale(335 / 1.1, 1.19e7 * 1.1)
    svg = views.axis_svg(scale, views._decades(scale), fmt.fmt_time, "event latency (log)")
    f = tmp_path / "axis.html"
    f.write_text(f"<!DOCTYPE html><html><body>{svg}</body></html>", encoding="utf-8")
    with Browser(width=600, height=200) as b:
        b.load(f.as_uri())
        assert b.evaluate(OVERLAPS.replace("SELECTOR", repr("svg"))) == []
        labels = b.evaluate("[...document.querySelectorAll('svg text')].map(t => t.textContent)")
        assert labels[0] == "1.00 us" and labels[-2] == "10.0 ms" and labels[-1] == "event latency (log)"


# ---------------------------------------------------------------- kernel entry and host clock
@pytest.fixture
def systems(tmp_path, monkeypatch):
    return _runs_store(tmp_path, monkeypatch, reportdata.make_systems_store)


def _figures(c):
    """What a kernel-entry cell shows: its figure (or why there is none), then its rate."""
    return [c["text"]] + ([c["rate"]] if c["rate"] else [])


def _html_rows(page, section):
    """The cells' texts (a <br> as a line break) of every row of the tables in one element."""
    import html as markup

    part = re.search(rf'id="{section}">(.*?)</(?:section|ul)>', page, re.S).group(1)
    rows = []
    for tr in re.findall(r"<tr>(.*?)</tr>", part, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        rows.append([markup.unescape(re.sub(r"<[^>]+>", "", c.replace("<br>", "\n"))) for c in cells])
    return [r for r in rows if r]


def _terminal_rows(out, title):
    """The rows of the terminal table under `title`: per row, each column's lines."""
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.strip() == title)
    body = lines[next(i for i in range(start, len(lines)) if set(lines[i]) <= set("-+")) + 1 :]
    rows = []
    for x in body:
        if set(x) <= set("-+"):  # a rule between rows
            continue
        if " | " not in x:
            break
        cells = [c.strip() for c in x.split("|")]
        if rows and cells[1] == "" and len(cells) == len(rows[-1]):  # the same row, one line down
            for k, c in enumerate(cells):
                rows[-1][k] += [c] if c else []
        else:
            rows.append([[c] if c else [] for c in cells])
    return rows


def test_kernel_entry_and_host_clock_alike_in_every_view(systems, cli, tmp_path, monkeypatch):
    """A report of runs from five systems (bare metal and FreeRTOS boards, Linux under qemu-system
    and native, a board timed from the host) has one kernel-entry table, and the host-timed run its
    host-clock table: the same figures in JSON, Markdown, HTML and the terminal (`show --beside`)."""
    st, ids = systems
    for ext in ("json", "md", "html"):
        rc, _, err = cli("report", *ids, "-o", str(tmp_path / f"r.{ext}"))
        assert rc == 0, err
    m = json.loads((tmp_path / "r.json").read_text())
    ke = m["kernel_entry"]
    assert [s["run"] for s in ke["systems"]] == [int(i) for i in ids[:5]]  # the run without trap.* is not in it
    assert [s["label"] for s in ke["systems"]] == [
        "bare metal, mps2-an385", "FreeRTOS, mps2-an500", "Linux, virt-aarch64", "Linux, x86_64",
        "bare metal, mps2-an500 (host clock)",
    ]  # fmt: skip
    cells = {s["name"]: {c["key"]: c for c in s["cells"]} for s in ke["systems"]}
    assert _figures(cells["linux-a53"]["trap.syscall"]) == ["494 insn"]  # guest instructions: no rate
    assert _figures(cells["native"]["trap.abort"]) == ["8.10 us", "123k/s"]  # calibrated cycles: the time
    assert _figures(cells["bare-m3"]["loop.control"]) == ["2.00 insn"]
    assert _figures(cells["native"]["trap.irq"]) == ["skip [1]"] and cells["linux-a53"]["trap.irq"]["note"] == 1
    assert ke["notes"] == [{"n": 1, "text": "skip: " + reportdata.LINUX_IRQ}]
    assert _figures(cells["hosted"]["trap.abort"]) == ["not run"] and ke["host_clock_note"]
    hc = next(r for r in m["runs"] if r["name"] == "hosted")["host_clock"]
    hc_cols = ("key", "host_text", "board_text", "differ_text", "sample_text", "res_text")
    assert [tuple(r[k] for k in hc_cols) for r in hc["rows"]] == [
        ("trap.syscall", "4.35 us", "4.55 us", "-4.45%", "±34.89%", "6.21 ms"),
        ("loop.control", "3.69 ns", "3.65 ns", "+0.96%", "±15.65%", "3.47 ms"),
    ]
    assert all(r["host_clock"] is None for r in m["runs"] if r["name"] != "hosted")

    md = (tmp_path / "r.md").read_text()
    assert f"## {ke['title']}" in md
    for s in ke["systems"]:
        row = f"| {fmt.md_text(s['label'])} | {s['run']} | "
        assert row + " | ".join(fmt.md_text(", ".join(_figures(c))) for c in s["cells"]) + " |" in md, s["label"]
    assert f"- [1] {fmt.md_text(ke['notes'][0]['text'])}" in md
    for r in hc["rows"]:
        assert "| " + " | ".join(fmt.md_text(r[k]) for k in hc_cols) + " |" in md
    assert all(f"- {fmt.md_text(n)}" in md for n in hc["notes"])

    page = (tmp_path / "r.html").read_text()
    assert _html_rows(page, "kernel-entry") == [
        [s["label"], str(s["run"])] + ["\n".join(_figures(c)) for c in s["cells"]] for s in ke["systems"]
    ]
    assert f"<li>[1] {escape(ke['notes'][0]['text'])}</li>" in page
    assert _html_rows(page, f"run-{ids[4]}-host-clock") == [[r[k] for k in hc_cols] for r in hc["rows"]]

    monkeypatch.setenv("COLUMNS", "80")
    rc, out, err = cli("show", "linux-a53", "--beside", "native")
    assert rc == 0, err
    assert max(len(x) for x in out.splitlines()) <= 80, out
    rows = _terminal_rows(out, ke["title"])
    assert [(" ".join(r[0]), r[1]) for r in rows] == [(s["label"], [str(s["run"])]) for s in ke["systems"][2:4]]
    assert [r[2:] for r in rows] == [[_figures(c) for c in s["cells"]] for s in ke["systems"][2:4]]
    words = " ".join(out.split())
    assert f"[1] {ke['notes'][0]['text']}" in words and ke["units"] in words
    rc, out, err = cli("show", "hosted")
    assert rc == 0, err
    assert max(len(x) for x in out.splitlines()) <= 80, out
    assert [[" ".join(c) for c in r] for r in _terminal_rows(out, hc["title"])] == [
        [r[k] for k in hc_cols] for r in hc["rows"]
    ]
    assert all(" ".join(n.split()) in " ".join(out.split()) for n in hc["notes"])


def test_kernel_entry_in_chromium(systems, tmp_path):
    """The kernel-entry section renders: a row per system with its figures as the model has them,
    a link to each run's section, nothing fetched, and a screenshot of it that is not blank."""
    _chromium_or_skip()
    from browser import Browser

    st, ids = systems
    m = model.build(st, ids)
    f = tmp_path / "systems.html"
    f.write_text(views.html(m), encoding="utf-8")
    with Browser(width=1200, height=700) as b:
        page = b.load(f.as_uri())
        assert page.requests == [f.as_uri()] and not page.exceptions
        rows = b.evaluate(
            "[...document.querySelectorAll('#kernel-entry tr')].slice(1)"
            ".map(tr => [...tr.cells].map(td => td.innerText))"
        )
        assert rows == [
            [s["label"], str(s["run"])] + ["\n".join(_figures(c)) for c in s["cells"]]
            for s in m["kernel_entry"]["systems"]
        ]
        assert b.evaluate("document.querySelectorAll('#kernel-entry a[href^=\"#run-\"]').length") == 5
        b.evaluate("document.getElementById('kernel-entry').scrollIntoView()")
        png = b.screenshot(full_page=False)
        (tmp_path / "kernel-entry.png").write_bytes(png)
        assert _non_white(png) > 0.02
