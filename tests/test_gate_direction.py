"""Which way is better has one answer (analysis/stats.py better_higher, time_ratio), and the three
gates take it: a table over unit x direction x ratio of figures read from a program's output
(`tickmark exec --figure NAME:UNIT:higher|lower=...`), each going 100 -> 150 and 150 -> 100.
compare --fail-above, the JUnit export and history --fail-on-change fail exactly the figures that
got worse, a lower-is-better figure in MB/s among them."""

import itertools
import xml.etree.ElementTree as ET

import pytest

from conftest import need_cc
from tickmark.analysis.stats import better_higher, time_ratio
from tickmark.cli import main

UNITS = ("MB/s", "points")
DIRECTIONS = ("higher", "lower")
FIGURES = {f"f{i}": (unit, way) for i, (unit, way) in enumerate(itertools.product(UNITS, DIRECTIONS))}


def figure_options():
    out = []
    for name, (unit, way) in FIGURES.items():
        out += ["--figure", f"{name}:{unit}:{way}={name}=([0-9]+)"]
    return out


@pytest.fixture(scope="module")
def made(tmp_path_factory, build_cache):
    """Four runs of one program printing every figure: 100 in builds 1-2, 150 in builds 3-4
    (labels up=1..4 and down=4..1: the same runs ordered the other way round)."""
    need_cc()
    folder = tmp_path_factory.mktemp("direction")
    store = folder / "results.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(build_cache))
        mp.setenv("TICKMARK_STORE", str(store))
        for name in ("TICKMARK_CORE", "TICKMARK_TARGET", "CC", "CFLAGS"):
            mp.delenv(name, raising=False)
        for i in (1, 2, 3, 4):
            value = 100 if i <= 2 else 150
            text = " ".join(f"{n}={value}" for n in FIGURES)
            argv = ["exec", "-q", "--runs", "9", "--rounds", "1", "--warmup", "0", "--name", f"r{i}"]
            argv += ["--label", f"up={i}", "--label", f"down={5 - i}", *figure_options(), "--", "echo", text]
            assert main(argv) == 0
    return store


def worse(unit, way, ratio):
    """What the gates must say: the figure got worse (the one rule, written out here by hand)."""
    return ratio > 1 if way == "lower" else ratio < 1


def test_the_rule_itself():
    assert better_higher("MB/s") and not better_higher("ns/op") and not better_higher("points")
    assert not better_higher("MB/s", False) and better_higher("points", True)
    assert time_ratio(1.5, False) == 1.5 and time_ratio(1.5, True) == pytest.approx(1 / 1.5)
    assert time_ratio(0, True) is None and time_ratio(float("nan"), False) is None


@pytest.mark.parametrize("ratio", [1.5, 1 / 1.5], ids=["100->150", "150->100"])
def test_every_gate_fails_the_figures_that_got_worse(made, monkeypatch, capsys, ratio):
    monkeypatch.setenv("TICKMARK_STORE", str(made))
    a, b, by = ("r1", "r4", "label:up") if ratio > 1 else ("r4", "r1", "label:down")
    bad = sorted(f"exec.echo.{n}" for n, (unit, way) in FIGURES.items() if worse(unit, way, ratio))
    assert len(bad) == 2  # one of each unit: MB/s lower-is-better going up, or higher going down

    def run(*argv):
        capsys.readouterr()
        try:
            rc = main(list(argv))
        except SystemExit as e:
            rc = e.code
        out, err = capsys.readouterr()
        return rc, out, err

    rc, _, err = run("compare", "--baseline", a, b, "exec.echo.f*", "--fail-above", "10%")
    assert rc == 1 and f"{len(bad)} regression(s) above 10%" in err, err
    assert all(k in err for k in bad) and sum(f"exec.echo.{n}" in err for n in FIGURES) == len(bad), err
    rc, xml, err = run("export", b, "--format", "junit", "--baseline", a, "--fail-above", "10%")
    failed = sorted(tc.get("name") for tc in ET.fromstring(xml).iter("testcase") if tc.find("failure") is not None)
    assert rc == 0 and [k for k in failed if k.startswith("exec.echo.f")] == bad, xml
    rc, out, err = run("history", "exec.echo.f*", "--by", by, "--fail-on-change", "10")
    assert rc == 1 and f"{len(bad)} benchmark(s) at the newest run {b}" in err, err
    assert all(k in err for k in bad) and sum(f"exec.echo.{n}" in err for n in FIGURES) == len(bad), err
    # the history's words say which way each change went, by the same rule
    for n, (unit, way) in FIGURES.items():
        line = next(x for x in out.split("\n") if x.strip().startswith(f"exec.echo.{n}:"))
        assert ("(better)" in line) != worse(unit, way, ratio), line
