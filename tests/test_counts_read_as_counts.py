"""Instruction counts read as counts: one run of each kind under QEMU -icount (bare metal, FreeRTOS
and Linux on the emulated boards, the real core, one round each, made once for the module) is
rendered through every view (show, show --beside, report as Markdown, HTML and JSON, compare of
two Linux runs) and every export (json, csv, junit, openmetrics; gbench, which holds times only,
refuses it). No output gives a time, a rate per second or a time ratio: on main, sub-metrics
read `lock 72.5 ns/op`, the HTML CI column "164 ns–164 ns", event latencies "175 ns", the
kernel-entry table "2.00 insn, 500M/s", compare "task-clock/op 110 ms", "IPC 1.00" and "time
ratio", and the exports `ns/op`, `time_unit: ns` and `tickmark_op_time_seconds`."""

import json
import os
import re
from pathlib import Path

import pytest

from boards import need_board
from conftest import exclusive, need_tool
from tickmark.base.exact import EXPLANATION

pytestmark = pytest.mark.integration

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tickmark"
FREERTOS_TREE = os.environ.get("FREERTOS_KERNEL") or str(CACHE / "freertos" / "FreeRTOS-Kernel-V11.2.0")
QUICK = ("--rounds", "1", "--samples", "2", "--sample-ms", "2", "--seed", "7", "-q")
RUNS = {
    "bm": ("qemu-system:mps2-an385", "trap.*", "loop.control"),
    "rtos": ("qemu-system:mps2-an385?os=freertos", "--suite", "rtos-study"),
    "lx": ("qemu-system:virt-aarch64?os=linux", "trap.*", "sync.mutex", "thread.create_join", "sched.pipe_pingpong"),
}

# a figure as a time or a rate: "72.5 ns", "1.32 us/op", "500M/s", "ops/s", "per second", seconds
TIME = re.compile(r"\d\s*(?:ns|us|µs|ms)\b|\d\s*s/op\b")
RATE = re.compile(r"\d\s*[kMG]?/s\b|\bops/s\b|per second|_seconds\b|time_unit")
WORDS = re.compile(r"[Tt]ime ratio|task-clock/op|\bIPC\b|\d+ % (?:slower|faster)")
# the run's setting, not a figure: the sample length asked for ("samples 2 of 2 ms")
SETTING = re.compile(r"samples\W+\d+ of \d+ ms")


@pytest.fixture(scope="module")
def icount_store(tmp_path_factory, build_cache):
    """A store with the three runs (the session's build cache: each image is built once), and
    the Linux kernel and busybox that ./bootstrap test fetched, linked into that cache."""
    for board in ("mps2-an385", "virt-aarch64"):
        need_board(board)
    if not os.path.isfile(os.path.join(FREERTOS_TREE, "tasks.c")):
        need_tool(f"no FreeRTOS-Kernel tree at {FREERTOS_TREE} (./bootstrap test fetches it)")
    if not list((CACHE / "kernels").glob("linux-image-*-arm64/boot/vmlinuz-*")):
        need_tool(f"no arm64 kernel in {CACHE / 'kernels'} (./bootstrap test fetches it)")
    link = build_cache / "tickmark" / "kernels"
    with exclusive(build_cache / "kernels-link.lock"):
        if not link.is_symlink():
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(CACHE / "kernels")
    from tickmark.cli import main

    store = tmp_path_factory.mktemp("icount") / "results.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(build_cache))
        mp.setenv("FREERTOS_KERNEL", FREERTOS_TREE)
        mp.setenv("TICKMARK_STORE", str(store))
        for var in ("TICKMARK_CORE", "TICKMARK_TARGET", "CC", "CFLAGS"):
            mp.delenv(var, raising=False)
        for name, (target, *what) in RUNS.items():
            assert main(["run", "--target", target, "--name", name, *QUICK, *what]) == 0, name
    return store


def _bad(text):
    """What in an output reads as a time, a rate per second or a time ratio (the sentence that
    says what the counts are, and the sample-length setting, aside)."""
    text = SETTING.sub("", " ".join(text.split()).replace(" ".join(EXPLANATION.split()), ""))
    return [m.group(0) for pat in (TIME, RATE, WORDS) for m in pat.finditer(text)]


@pytest.fixture
def outputs(icount_store, cli, monkeypatch):
    monkeypatch.setenv("TICKMARK_STORE", str(icount_store))
    monkeypatch.setenv("COLUMNS", "100")
    out = {}

    def take(*args):
        rc, text, err = cli(*args)
        assert rc == 0 and not err.strip(), (args, err)
        out[" ".join(args)] = text

    for name in RUNS:
        take("show", name)
        for fmt in ("md", "html", "json"):
            take("report", name, "--format", fmt)
        for fmt in ("json", "csv", "junit", "openmetrics"):
            take("export", name, "--format", fmt)
    take("show", "rtos", "--beside", "bm")
    take("show", "lx", "--beside", "rtos")
    for fmt in ("md", "html", "json"):
        take("report", "bm", "rtos", "lx", "--format", fmt)
    for fmt in ("terminal", "md", "html", "json"):
        take("compare", "lx", "lx", "--format", fmt)
    return out


def test_no_view_or_export_shows_a_count_as_time(outputs):
    bad = {args: found for args, text in outputs.items() for found in [_bad(text)] if found}
    assert not bad, bad
    # what they show instead
    assert "insn/op" in outputs["show lx"] and "lock" in outputs["show lx"]
    assert "join" in outputs["report lx --format md"] and " k insn/op" in outputs["report lx --format md"]
    assert "event latency" in outputs["show lx"] and " k insn" in outputs["show lx"].split("event latency")[1]
    assert "1.00× the instructions" in outputs["compare lx lx --format terminal"]
    assert "instruction ratio" in outputs["compare lx lx --format md"]
    assert "tickmark_op_instructions" in outputs["export lx --format openmetrics"]
    assert ",insn/op," in outputs["export lx --format csv"]
    entry = outputs["report bm rtos lx --format md"].split("Into the kernel and back")[1]
    assert " insn |" in entry and "not the hardware's exception entry" in entry


def test_the_json_document_holds_counts_and_imports_back_as_the_same_counts(outputs, cli, tmp_path, monkeypatch):
    doc = outputs["export rtos --format json"]
    assert '"ns/op"' not in doc and not re.search(r'"(?:ns_per_op|ops_per_s)": [0-9]', doc)
    assert '"metric": "insn/op"' in doc
    path = tmp_path / "rtos.json"
    path.write_text(doc)
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "imported.db"))
    rc, _, err = cli("import", str(path))
    assert rc == 0, err
    rc, again, err = cli("export", "rtos", "--format", "json")
    assert rc == 0, err
    rows = {r["key"]: r["stats"][""]["median"] for r in json.loads(doc)["results"] if r["status"] == "ok"}
    back = {r["key"]: r["stats"][""]["median"] for r in json.loads(again)["results"] if r["status"] == "ok"}
    assert rows and back == rows
    assert '"ns/op"' not in again


def test_gbench_refuses_counts(icount_store, cli, monkeypatch):
    monkeypatch.setenv("TICKMARK_STORE", str(icount_store))
    rc, out, err = cli("export", "bm", "--format", "gbench")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "counted guest instructions" in err and "holds times only" in err
