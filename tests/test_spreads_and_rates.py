"""What the numbers of a run are, in every output a program reads: each spread a fraction (rcv,
cv, round_cv and determinism alike), no rate per second of a CPU time; a campaign of the RTOS
study summed up by the study's table; the Markdown mark of an unsettled nbench kernel."""

import csv
import io
import json
import re

import pytest

EXEC = ("exec", "-q", "--rounds", "3", "--runs", "3")


def _json(cli, *args):
    rc, out, err = cli(*args)
    assert rc == 0, err
    return json.loads(out)


def test_every_spread_is_a_fraction_and_a_cpu_time_has_no_rate(real, cli):
    """On main a JSON export gave determinism in percent (470.0) beside rcv, cv and round_cv as
    fractions, and the task-clock row of an exec run a rate of 1/CPU time (957/s for a program
    that ran 93 times a second)."""
    rc, out, err = cli(*EXEC, "--name", "nap", "--", "sleep", "0.002")
    assert rc == 0, err
    doc = _json(cli, "export", "nap", "--format", "json")
    (res,) = doc["results"]
    for name in ("", "task-clock"):
        d = res["stats"][name]
        med, rounds = d["median"], d["round_medians"]
        assert len(rounds) >= 3
        assert d["determinism"] == pytest.approx(max(abs(m - med) for m in rounds) / med)
        for k in ("rcv", "cv", "round_cv"):
            assert 0 <= d[k] < 5, (name, k, d[k])
    wall, cpu = res["stats"][""], res["stats"]["task-clock"]
    assert wall["ops_per_s"] == pytest.approx(1e9 / wall["median"])
    assert "ops_per_s" in cpu and cpu["ops_per_s"] is None
    # the CSV export gives the statistics as they are
    rows = {r["sub"]: r for r in csv.DictReader(io.StringIO(cli("export", "nap", "--format", "csv")[1]))}
    assert float(rows[""]["determinism"]) == pytest.approx(wall["determinism"])
    assert float(rows["task-clock"]["determinism"]) == pytest.approx(cpu["determinism"])
    assert rows["task-clock"]["ops_per_s"] == "" and float(rows[""]["ops_per_s"]) > 0
    # the terminal prints them in percent, and no rate in the task-clock row
    rc, shown, err = cli("show", "nap")
    assert rc == 0, err
    header = next(line for line in shown.splitlines() if line.startswith("benchmark "))
    cols = [c.strip() for c in header.split("|")]
    tc = next(line for line in shown.splitlines() if line.strip().startswith("task-clock |"))
    cells = [c.strip() for c in tc.split("|")]
    assert cells[cols.index("det")] == f"{cpu['determinism'] * 100:.1f}%", shown
    assert cells[cols.index("ops/s")] == "-", shown
    # a comparison's determinism of each side is a fraction too
    rc, out, err = cli(*EXEC, "--name", "nap2", "--", "sleep", "0.002")
    assert rc == 0, err
    cmp = _json(cli, "compare", "nap", "nap2", "--format", "json")
    wall_row, cpu_row = cmp["comparisons"][0]["rows"]
    assert wall_row["det_a"] == pytest.approx(wall["determinism"]) and cpu_row["metric"] == "task-clock"
    assert cpu_row["det_a"] == pytest.approx(cpu["determinism"])


def test_a_shell_line_is_named_by_its_first_program(real, cli):
    """'true; true' was named exec.true_ (the word 'true;' made a name)."""
    rc, out, err = cli(*EXEC, "--shell", "-c", "true; true", "--name", "two")
    assert rc == 0, err
    rc, out, err = cli("show", "two")
    assert rc == 0 and re.search(r"^exec\.true +\|", out, re.M), out


STUDY = """
name = "st"
rounds = 1
max_rounds = 1
samples = 2
sample_ms = 2

[targets]
a = "local"
b = "local"

[variants]
O2 = { cflags = "-O2" }

[workloads]
study = "rtos-study"
"""


def test_a_campaign_of_the_rtos_study_is_summed_up_by_its_table(real, cli, tmp_path):
    """On main a campaign printed hundreds of lines of comparisons against its first target
    before the study's table; now the table, and the command that gives the pairs."""
    f = tmp_path / "st.toml"
    f.write_text(STUDY)
    rc, out, err = cli("campaign", str(f))
    assert rc == 0, err + out
    assert "The RTOS study" in out and "context switch (yield)" in out, out
    assert "cross-target compare" not in out and "B/A" not in out and "95% CI" not in out, out
    said = re.sub(r"\s+", " ", out.split("benchmark by benchmark:")[1])
    assert said.strip() == "tickmark compare st:a:O2:study st:b:O2:study", said


def test_the_mark_of_an_unsettled_kernel_renders_as_an_asterisk(real, cli, tmp_path):
    """The Markdown source reads '±5.8% \\*': CommonMark's escape of a literal asterisk (without
    it, two marks in a row would start an emphasis); rendered, the cell reads '±5.8% *'."""
    from markdown_it import MarkdownIt

    rc, out, err = cli("run", "cpu.numsort", "--rounds", "1", "--samples", "3", "-q", "--name", "nb")
    assert rc == 0, err
    doc = _json(cli, "export", "nb", "--format", "json")
    (res,) = doc["results"]
    # rates far apart: the ± above 5 % (every sample: a contended run adds a floor round of its own)
    for i, s in enumerate(res["samples"]):
        scale = (1.0, 1.5, 0.6)[i % 3]
        s["ns"] = int(s["ns"] * scale)
        if "task_clock" in (s.get("ctr") or {}):
            s["ctr"]["task_clock"] = int(s["ctr"]["task_clock"] * scale)
    doc["run"]["name"] = "spread"
    path = tmp_path / "spread.json"
    path.write_text(json.dumps(doc))
    rc, out, err = cli("import", str(path))
    assert rc == 0, err
    rc, md, err = cli("report", "spread", "--format", "md")
    assert rc == 0, err
    row = next(line for line in md.splitlines() if line.startswith("| NUMERIC SORT |"))
    assert re.search(r"±\d+\.\d% \\\* \|$", row), row
    html = MarkdownIt("commonmark").enable("table").render(md)
    assert re.search(r"<td[^>]*>±\d+\.\d% \*</td>", html), html
    assert "\\*" not in html


def _row(shown, key):
    header = next(line for line in shown.splitlines() if line.startswith("benchmark "))
    cols = [c.strip() for c in header.split("|")]
    line = next(line for line in shown.splitlines() if line.startswith(key + " "))
    return dict(zip(cols, (c.strip() for c in line.split("|"))))


def test_a_ci_only_where_the_samples_reach_95_percent(real, cli):
    """Three samples cover the median only at 75 % (the interval between the smallest and the
    largest): on main their whole range was shown as a '±CI' (±131 % beside a round-cv of
    2.3 %); now none, and the few-samples flag says why. Fifteen samples reach 96.5 %."""
    rc, out, err = cli(
        "run", "sys.getppid", "--rounds", "1", "--max-rounds", "1", "--samples", "3", "-q", "--name", "few"
    )
    assert rc == 0, err
    rc, out, err = cli("run", "sys.getppid", "--rounds", "3", "--samples", "5", "-q", "--name", "enough")
    assert rc == 0, err
    stats = {n: _json(cli, "export", n, "--format", "json")["results"][0]["stats"][""] for n in ("few", "enough")}
    assert stats["few"]["ci95_level"] == pytest.approx(0.75) and stats["enough"]["ci95_level"] > 0.95
    few = _row(cli("show", "few")[1], "sys.getppid")
    assert few["±CI"] == "-" and "few-samples" in stats["few"]["flags"], few
    enough = _row(cli("show", "enough")[1], "sys.getppid")
    assert re.fullmatch(r"±\d+\.\d%", enough["±CI"]), enough
    report = _json(cli, "report", "few", "--format", "json")
    (row,) = [r for r in report["runs"][0]["rows"] if r["key"] == "sys.getppid" and not r["metric"]]
    assert row["ci_pct"] is None and row["ci95_lo"] is None and row["ci95_hi"] is None, row
