"""nbench view of the cpu.* kernels: index arithmetic against known numbers, the table, and the
kernels' own verification (a broken memmove makes string sort fail, never a speed)."""

import json
import math
import re
import subprocess
from pathlib import Path

import pytest

from tickmark.analysis import nbench
from tickmark.report.terminal import nbench as nbench_view
from tickmark.store.analyses import nbench_unsettled

CORE = Path(__file__).resolve().parent.parent / "src" / "tickmark" / "core"
DATA = Path(__file__).resolve().parent / "data"


def ns_for(name, it_per_s):
    """Nanoseconds per cpu.* iteration that give nbench rate it_per_s."""
    return nbench._BY_NAME[name][2] * 1e9 / it_per_s


def result(name, it_per_s, status="ok"):
    stats = {"": {"value": ns_for(name, it_per_s)}} if status == "ok" else {}
    return {"key": name, "status": status, "reason": "" if status == "ok" else "bad", "stats": stats}


def test_baselines_give_index_one():
    for name, _, _, p90, k6, _, _ in nbench.KERNELS:
        old, _ = nbench.indices(name, nbench.rate(name, ns_for(name, p90)))
        _, new = nbench.indices(name, nbench.rate(name, ns_for(name, k6)))
        assert old == pytest.approx(1.0) and new == pytest.approx(1.0)
    orig, _ = nbench.group_indices({k[0]: k[3] for k in nbench.KERNELS})
    _, linux = nbench.group_indices({k[0]: k[4] for k in nbench.KERNELS})
    assert all(v == pytest.approx(1.0) for v in list(orig.values()) + list(linux.values()))


def test_unit_conversion():
    # one bitfield iteration is 2,258,842 bits; one Fourier iteration is 199 coefficients
    assert nbench.rate("cpu.bitfield", 1e9) == 2258842
    assert nbench.rate("cpu.fourier", 1e6) == pytest.approx(199000)
    assert nbench.rate("cpu.idea", 1e5) == pytest.approx(10000)


def test_published_reference_indices():
    # measured stock nbench 2.2.3 figures and the Linux indices printed with them
    rates = {
        "cpu.numsort": 2062,
        "cpu.stringsort": 1807,
        "cpu.bitfield": 9.19e8,
        "cpu.fpemu": 934,
        "cpu.fourier": 1.52e5,
        "cpu.assign": 64.4,
        "cpu.idea": 15464,
        "cpu.huffman": 9089,
        "cpu.nnet": 207.7,
        "cpu.lu": 4241,
    }
    _, linux = nbench.group_indices(rates)
    assert linux["MEMORY"] == pytest.approx(64.0, rel=2e-3)
    assert linux["INTEGER"] == pytest.approx(56.5, rel=2e-3)
    assert linux["FLOATING-POINT"] == pytest.approx(129.2, rel=2e-3)


def test_literal_exponents_and_partial_groups():
    rates = {k[0]: 10 * k[3] for k in nbench.KERNELS}  # every old index is 10
    orig, _ = nbench.group_indices(rates)
    assert orig["INTEGER"] == pytest.approx(10 ** (7 * 0.142857), rel=1e-12)
    assert orig["INTEGER"] != pytest.approx(10.0, rel=1e-7)
    del rates["cpu.lu"]
    orig, linux = nbench.group_indices(rates)
    assert orig["FLOATING-POINT"] is None and linux["FLOATING-POINT"] is None
    assert linux["MEMORY"] is not None


def test_t_halfwidth_known_data():
    vals = [10.0, 11.0, 9.0, 10.0, 10.0]  # mean 10, s = sqrt(0.5), df 4 -> t 2.776
    assert nbench.t_halfwidth(vals) == pytest.approx(2.776 * math.sqrt(0.5) / math.sqrt(5) / 10)
    assert nbench.t_halfwidth([5.0]) is None


def test_summarize_and_render():
    results = [result(k[0], 2 * k[4]) for k in nbench.KERNELS]
    results[1] = result("cpu.stringsort", 0, status="failed")
    lu_cpu = (1e6, 1.01e6, 0.99e6, 1e6, 1e6)
    samples = {
        "cpu.numsort": [{"iters": 1, "ns": ns_for("cpu.numsort", r)} for r in (100, 150, 60)],
        "cpu.lu": [{"iters": 2, "ns": 1000, "ctr_ops": 2, "ctr": {"task_clock": t}} for t in lu_cpu],
    }
    rows, (orig, linux) = nbench.summarize(results, lambda r: samples.get(r["key"]))
    by = {r["name"]: r for r in rows}
    # LU counted task-clock: its rate and its ± are on CPU time (the wall ns says 2e9 it/s)
    lu_rate = sum(2e9 / t for t in lu_cpu) / len(lu_cpu)
    assert by["cpu.lu"]["basis"] == "cpu" and by["cpu.lu"]["rate"] == pytest.approx(lu_rate)
    assert by["cpu.lu"]["new"] == pytest.approx(lu_rate / 26.732) and by["cpu.lu"]["certain"] is True
    # numeric sort did not: the mean of its samples' wall-time rates, as nbench's mean of scores
    assert by["cpu.numsort"]["basis"] == "wall" and by["cpu.numsort"]["rate"] == pytest.approx(310 / 3)
    assert by["cpu.numsort"]["certain"] is False and by["cpu.numsort"]["n"] == 3
    # no samples at all: the stored headline, on wall time, with no interval
    assert by["cpu.idea"]["new"] == pytest.approx(2.0) and by["cpu.idea"]["ci"] is None
    assert "rate" not in by["cpu.stringsort"]
    assert linux["INTEGER"] == pytest.approx((310 / 3 / 118.73 * 8) ** 0.25) and linux["MEMORY"] is None
    nb = {"rows": rows, "original_groups": orig, "linux_groups": linux, "basis": "mixed"}
    nb["basis_text"] = nbench.BASIS_TEXT["mixed"]
    text = "\n".join(nbench_view.lines(nb))
    assert re.search(r"^STRING SORT\s*:\s*FAILED : bad$", text, re.M)
    assert re.search(r"^LU DECOMPOSITION\s*:\s*200\d\.\d+ :.* ±0\.\d% n=5$", text, re.M)
    assert re.search(r"^NUMERIC SORT\s*:\s*103\.333 :.* n=3\*$", text, re.M)
    assert re.search(r"^on wall time \(no task-clock\): NUMERIC SORT, BITFIELD", text, re.M)
    assert "time basis: CPU time (task-clock) where counted, else wall time" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert re.search(r"^\* 95% CI half-width above ±5% of the mean \(nbench's criterion\): NUMERIC SORT$", text, re.M)


def test_index_on_cpu_time_on_a_loaded_machine():
    """The same system measured twice, once while something else shared its CPU: the wall time
    of each sample doubled (STRING SORT 852 against 1698 it/s on wall time), the task-clock did
    not (593 against 581 us). The index is on CPU time, as nbench's clock() timer, and so is its
    ±: the two measurements agree within their intervals."""

    def samples(wall_us, cpu_us):
        return [
            {
                "iters": 10,
                "ns": int(10 * wall_us * 1e3 * f),
                "ctr_ops": 10,
                "ctr": {"task_clock": int(10 * cpu_us * 1e3 * f)},
            }
            for f in (1.0, 1.01, 0.99, 1.005, 0.995, 1.0)
        ]

    figs = []
    for wall_us, cpu_us in ((1174, 593), (589, 581)):
        r = {"key": "cpu.stringsort", "status": "ok", "stats": {"": {"value": wall_us * 1e3}}}
        (row,), _ = nbench.summarize([r], lambda _r, w=wall_us, c=cpu_us: samples(w, c))
        figs.append(row)
    quiet, loaded = figs[1], figs[0]
    assert loaded["basis"] == quiet["basis"] == "cpu"
    assert loaded["rate"] == pytest.approx(1e6 / 593, rel=1e-3) and quiet["rate"] == pytest.approx(1e6 / 581, rel=1e-3)
    assert abs(loaded["rate"] / quiet["rate"] - 1) < 0.03 and loaded["ci"] < 0.02
    assert loaded["new"] == pytest.approx(loaded["rate"] / 14.459)


def test_samples_a_context_switch_hit_are_left_out_of_the_rate():
    """On a busy machine a sample that a context switch hit is slower on CPU time too (the kernel
    refills its caches: BITFIELD 276 against 314 it/s here): with five or more clean samples the
    rate is theirs alone and says how many were left out; with fewer, every sample counts."""

    def samples(n_clean, n_hit):
        clean = [{"iters": 1, "ns": 1_000_000, "ctr_ops": 1, "ctr": {"task_clock": 1_000_000}}] * n_clean
        hit = [{"iters": 1, "ns": 3_000_000, "ctr_ops": 1, "ctr": {"task_clock": 1_150_000}, "nivcsw": 2}] * n_hit
        return clean + hit

    row = nbench.kernel_figures("cpu.numsort", samples(6, 9))
    assert row["rate"] == pytest.approx(1000.0) and row["n"] == 6 and row["switched_out"] == 9
    few = nbench.kernel_figures("cpu.numsort", samples(4, 9))
    assert few["n"] == 13 and few["switched_out"] == 0 and few["rate"] < 950


def test_side_by_side_index_table_and_its_terminal_view():
    """Two or more runs: group indices and per-kernel rates per run with each run's ratio to
    the first; the terminal view fits 80 columns with any number of runs."""
    runs = []
    for label, scale in (("o2", 1.0), ("o3", 1.5), ("os", 0.8), ("o1", 0.9), ("og", 0.5)):
        results = [result(k[0], scale * k[4]) for k in nbench.KERNELS]
        if label == "os":
            results = [r for r in results if r["key"] != "cpu.lu"]
        rows, (orig, linux) = nbench.summarize(results)
        runs.append((label, rows, orig, linux))
    t = nbench.side_by_side(runs)
    assert t["labels"] == ["o2", "o3", "os", "o1", "og"] and t["basis"] == ["wall"] * 5
    mem = next(g for g in t["groups"] if g["group"] == "MEMORY" and g["baseline"] == "AMD K6/233")
    assert mem["values"][0] == pytest.approx(1.0) and mem["ratios"] == pytest.approx([1.0, 1.5, 0.8, 0.9, 0.5])
    fp = next(g for g in t["groups"] if g["group"] == "FLOATING-POINT" and g["baseline"] == "AMD K6/233")
    assert fp["values"][2] is None and fp["ratios"][2] is None  # "os" has no LU: no FP index
    lu = next(k for k in t["kernels"] if k["name"] == "cpu.lu")
    assert lu["status"][2] == "absent" and lu["rates"][2] is None and lu["ratios"][1] == pytest.approx(1.5)
    text = nbench_view.side_by_side_lines(t)
    assert max(len(line) for line in text) <= 80
    assert sum(1 for line in text if line.lstrip().startswith("MEMORY K6")) == 2  # five runs: two blocks
    assert re.search(r"^MEMORY K6\s+1\.00\s+1\.50\s+x1\.50\s+0\.80\s+x0\.80$", "\n".join(text), re.M)
    # runs that counted instructions (QEMU -icount): rates per 10^9 instructions, no index rows,
    # and how many kernels each run verified
    icount = dict(t, icount=True, verified=[10, 10, 9, 10, 10])
    text = "\n".join(nbench_view.side_by_side_lines(icount))
    assert "iterations per 10^9 guest instructions per run" in text and "MEMORY K6" not in text
    assert "it/s" not in text and "on wall time" not in text
    assert "verified (each kernel checked its own output): A 10 of 10, B 10 of 10, C 9 of 10" in text


def run_core(binary, pattern="cpu.stringsort"):
    res = subprocess.run(
        [str(binary), "run", pattern, "--samples", "2", "--timeout", "60"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    recs = [json.loads(line.split("TM1 ", 1)[1]) for line in res.stdout.splitlines() if "TM1 {" in line]
    return {r["key"]: r for r in recs if r["t"] == "end"}, [r for r in recs if r["t"] == "sample"]


def test_broken_memmove_fails_string_sort(make_core):
    ends, samples = run_core(make_core(f"MEMFN={DATA / 'broken_memmove.c'}"))
    assert ends["cpu.stringsort"]["status"] == "failed"
    assert "stringsort" in ends["cpu.stringsort"]["reason"]
    assert not [s for s in samples if s["key"] == "cpu.stringsort"]


def test_all_kernels_verify_with_libc(make_core):
    ends, samples = run_core(make_core(), pattern="cpu.*")
    assert set(ends) == set(nbench.NAMES)
    assert all(e["status"] == "ok" for e in ends.values()), ends


@pytest.mark.integration
def test_run_and_show_print_the_indices(real, cli, tmp_path):
    rc, out, err = cli("run", "cpu.numsort", "cpu.lu", "--rounds", "1", "--samples", "3", "--quiet", "--name", "nb")
    assert rc == 0, err
    assert re.search(r"^NUMERIC SORT\s*:\s*[\d.e+]+ :\s*[\d.]+ :\s*[\d.]+", out, re.M)
    assert re.search(r"^LU DECOMPOSITION\s*:", out, re.M)
    assert "INTEGER INDEX" in out and "(a group index needs all of its kernels" in out
    rc, shown, _ = cli("show", "nb")
    assert rc == 0 and "NUMERIC SORT" in shown and "AMD K6/233" in shown
    # two kernels: each group they belong to gets a partial index, said as partial
    assert re.search(r"^INTEGER INDEX\s*:\s*[\d.]+ partial: 1 of 7 kernels$", shown, re.M), shown
    assert re.search(r"^MEMORY INDEX\s*:\s*-$", shown, re.M)
    for ext in ("md", "html"):
        assert cli("report", "nb", "-o", str(tmp_path / f"nb.{ext}"))[0] == 0
        text = (tmp_path / f"nb.{ext}").read_text()
        assert re.search(r"INTEGER index \(original\)[^\d-]*[\d.]+ partial: 1 of 7", text), ext


@pytest.mark.integration
def test_run_with_broken_memfn_reports_string_sort_failed(real, cli):
    broken = Path(__file__).parent / "data" / "broken_memmove.c"
    rc, out, err = cli("run", "cpu.stringsort", "--memfn", str(broken), "--rounds", "1", "--samples", "2", "--quiet")
    assert rc == 1 and "1 instance failed: cpu.stringsort" in err, err  # a failed check: not all done
    assert re.search(r"^STRING SORT\s*:\s*FAILED : .*memmove", out, re.M)
    assert "Iterations/sec" in out and not re.search(r"^STRING SORT\s*:\s*[\d.]", out, re.M)


def test_nbench_suite_is_the_ten_kernels():
    from fnmatch import fnmatch

    from tickmark.base.suites import patterns_for

    assert all(any(fnmatch(n, p) for p in patterns_for("nbench")) for n in nbench.NAMES)


def test_unsettled_kernels_get_extra_rounds():
    class Store:
        def results(self, run_id):
            return [
                {"id": 1, "key": "cpu.lu", "status": "ok"},
                {"id": 2, "key": "cpu.idea", "status": "ok"},
                {"id": 3, "key": "sys.getppid", "status": "ok"},
            ]

        def samples(self, rid):
            spread = {1: (1.0, 1.5, 0.6, 1.2, 0.8), 2: (1.0, 1.01, 0.99, 1.0, 1.0), 3: (1.0, 9.0)}[rid]
            return [{"iters": 1, "ns": 1e6 * f} for f in spread]

    assert nbench_unsettled(Store(), 1) == ["cpu.lu"]


def test_a_partial_index_is_given_and_said_as_partial():
    """A run of some kernels printed '-' for every group: each group it has some kernels of gets
    the geometric mean of their indices, said as partial with the kernels it lacks."""
    from tickmark.report.model.series import nbench_figures

    rates = {"cpu.numsort": 4 * 38.993, "cpu.idea": 9 * 65.382, "cpu.lu": 2 * 26.732}
    results = [result(k, v) for k, v in rates.items()]
    orig, linux = nbench.partial_groups(rates)
    assert orig["INTEGER"]["value"] == pytest.approx(6.0) and (orig["INTEGER"]["have"], orig["INTEGER"]["of"]) == (2, 7)
    assert linux["FLOATING-POINT"]["value"] == pytest.approx(2.0) and linux["FLOATING-POINT"]["missing"] == [
        "FOURIER",
        "NEURAL NET",
    ]
    assert "MEMORY" not in linux  # none of its kernels: no figure
    full = {k[0]: k[3] for k in nbench.KERNELS}
    assert nbench.partial_groups(full) == ({}, {})  # a full group is the full index, never partial
    nb = nbench_figures(results, lambda r: None)
    text = "\n".join(nbench_view.lines(nb))
    assert re.search(r"^INTEGER INDEX\s*:\s*6\.000 partial: 2 of 7 kernels$", text, re.M), text
    assert re.search(r"^FLOATING-POINT INDEX:\s*\d\.\d{3} partial: 1 of 3, without FOURIER, NEURAL NET$", text, re.M)
    assert re.search(r"^MEMORY INDEX\s*:\s*-$", text, re.M) and "not comparable with a full group index" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_campaign_prints_the_nbench_table_before_its_pairs():
    """The nbench study as a campaign: for each variant, the side-by-side table of every system
    comes first, then the pairs against the baseline, and the table only once."""
    import io

    from tickmark.report.terminal.campaign import render

    runs = []
    for label, scale in (("linux", 1.0), ("sylixos", 0.2)):
        rows, (orig, linux) = nbench.summarize([result(k[0], scale * k[4]) for k in nbench.KERNELS])
        runs.append((label, rows, orig, linux))
    table = dict(nbench.side_by_side(runs), icount=True, verified=[10, 10])
    sources = [
        {"label": r[0], "source": f"run {i}", "counters": {"hardware_status": "none"}} for i, r in enumerate(runs)
    ]
    cell = {"id": "sylixos:default:nbench", "state": "done", "run_id": 2, "results": 10, "seconds": 1.0, "message": ""}
    group = {
        "variant": "default",
        "workload": "nbench",
        "baseline": "linux",
        "rtos_study": None,
        "error": None,
        "comparison": {"runs": sources, "comparisons": [], "nbench": table},
    }
    m = {
        "name": "study",
        "cells": [cell],
        "targets": 2,
        "variants": 1,
        "workloads": 1,
        "loads": ["idle"],
        "counts": {"done": 1},
    }
    buf = io.StringIO()
    render(dict(m, groups=[group]), file=buf)
    out = buf.getvalue()
    assert out.count("nbench side by side") == 1, out
    assert out.index("nbench side by side") < out.index("linux: run 0, hardware counters"), out
    assert "verified (each kernel checked its own output): A 10 of 10, B 10 of 10" in out
