"""Cold calls (a benchmark's `.cold`): one operation timed alone right after the port flushed the
caches, reported as the sub-metric "cold" beside the steady state and never in the headline; on
the real core (Linux here; FreeRTOS under QEMU -icount in test_freertos.py)."""

import json
import re
import statistics
import subprocess

import pytest

from tickmark.analysis import stats

RECORD = re.compile(r"TM1 (\{.*\})\s*$")


def core_run(core, *patterns):
    res = subprocess.run(
        [str(core), "run", "--samples", "5", "--sample-ms", "2", "--seed", "7", "--", *patterns],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    return [json.loads(m.group(1)) for line in res.stdout.splitlines() if (m := RECORD.search(line))]


@pytest.mark.alone
def test_cold_calls_are_single_operations_beside_the_headline(core_binary):
    recs = core_run(core_binary, "sync.mutex")
    meta = next(r for r in recs if r["t"] == "meta")
    samples = [r for r in recs if r["t"] == "sample"]
    assert re.fullmatch(
        r"read \d+ [KM]iB: twice the \d+ [KM]iB L\d cache, the largest the kernel lists", meta["cold_flush"]
    ), meta
    assert len(samples) == 5 and all(s["cold"] > 0 for s in samples)
    # per call: one lock and unlock, where a sample times tens of thousands of them in 2 ms
    assert all(s["cold"] * 20 < s["ns"] and s["ops"] > 1000 for s in samples)
    st = stats.compute(samples)
    cold, head = st.get(stats.COLD), st.main
    assert cold.flags[0] == "cold" and cold.unit == stats.NS_OP and cold.ops_per_s is None and cold.n == 5
    assert cold.value == statistics.median(s["cold"] for s in samples)  # never divided by the operations
    # no part of the headline: the samples without their cold calls give the same headline
    plain = stats.compute([{k: v for k, v in s.items() if k != "cold"} for s in samples])
    assert plain.main.value == head.value and stats.COLD not in plain.subs
    # the flush evicted what the call needs: one cold call costs more than a warm one on average
    assert cold.value > head.median


def test_show_report_and_export_put_cold_beside_warm(real, cli, tmp_path):
    one_round = ("--rounds", "1", "--max-rounds", "1", "--sample-ms", "2", "-q")
    rc, out, err = cli("run", *one_round, "--samples", "3", "sync.mutex", "loop.control")
    assert rc == 0, err + out
    rc, out, err = cli("show")
    assert rc == 0, err
    assert re.search(r"^  cold +\| +[\d.]+ [nu]s/op .*\bcold\b", out, re.M), out
    row = re.search(r"^sync\.mutex +\| +([\d.]+ [nu]s/op) \| +([\d.]+ [nu]s/op) \| +([\d.]+)× \| +(\d+)$", out, re.M)
    assert row, out
    assert "flush: read " in out and "The cold calls are no part of the headline" in out
    assert not re.search(r"^loop\.control +\|.*×", out, re.M)  # no cold calls: not in the table
    rc, doc, err = cli("export", "latest", "--format", "json")
    mutex = next(r for r in json.loads(doc)["results"] if r["key"] == "sync.mutex")
    cold, head = mutex["stats"]["cold"], mutex["stats"][""]
    assert cold["flags"][0] == "cold" and cold["value"] == statistics.median(s["cold"] for s in mutex["samples"])
    assert float(row.group(3)) == pytest.approx(cold["value"] / head["value"], rel=0.01)
    assert int(row.group(4)) == cold["n"] == len(mutex["samples"])  # a cold call per sample
    assert mutex["meta"]["cold_flush"].startswith("read ")
    rc, out, err = cli("report", "-o", str(tmp_path / "r.md"))
    assert rc == 0, err + out
    md = (tmp_path / "r.md").read_text()
    assert re.search(r"^\| sync\.mutex \| [\d.]+ [nu]s/op \| [\d.]+ [nu]s/op \| [\d.]+× \| \d+ \|$", md, re.M), md
    rc, out, err = cli("report", "-o", str(tmp_path / "r.html"))
    assert rc == 0, err + out
    assert re.search(r"<td class=\"k\">sync\.mutex</td>(<td class=\"n\">[^<]+</td>){2}<td class=\"n\">[\d.]+×</td>",
                     (tmp_path / "r.html").read_text())  # fmt: skip
    # an imported document computes the same cold figure again from its samples
    (tmp_path / "run.json").write_text(doc)
    rc, out, err = cli("--store", str(tmp_path / "copy.db"), "import", str(tmp_path / "run.json"))
    assert rc == 0, err + out
    rc, again, err = cli("--store", str(tmp_path / "copy.db"), "export", "latest", "--format", "json")
    copy = next(r for r in json.loads(again)["results"] if r["key"] == "sync.mutex")
    assert copy["stats"]["cold"]["value"] == cold["value"] and copy["meta"]["cold_flush"] == mutex["meta"]["cold_flush"]


def test_a_port_that_cannot_flush_skips_the_cold_sub_metric(make_core, real, cli, monkeypatch):
    core = make_core("PORT=posix")
    recs = core_run(core, "sync.mutex")
    meta = next(r for r in recs if r["t"] == "meta")
    assert meta["cold_skip"] == "the posix port cannot tell how large the caches are, so it cannot flush them"
    assert "cold_flush" not in meta and not any("cold" in r for r in recs if r["t"] == "sample")
    assert next(r for r in recs if r["t"] == "end")["status"] == "ok"  # the headline stands
    monkeypatch.setenv("TICKMARK_CORE", str(core))
    rc, out, err = cli("run", "--rounds", "1", "--max-rounds", "1", "--samples", "2", "-q", "sync.mutex")
    assert rc == 0, err + out
    rc, out, err = cli("show")
    assert re.search(r"^  cold +\| +skip [| ]+the posix port cannot", out, re.M), out
    assert "no cold calls: sync.mutex (the posix port cannot tell" in " ".join(out.split())
