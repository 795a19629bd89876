"""A campaign's loads axis (`loads = ["idle", "cpu"]`): each cell once per load, a loaded cell's
run under the load as `tickmark run --load` runs it (its label, its fingerprint with the measured
intensity), the idle and loaded runs of a variant compared side by side; the file's mistakes."""

import os

import pytest

from test_campaign import runs_by_name
from tickmark.base.errors import TickmarkError
from tickmark.run.campaign_file import cells, parse

LOADED = """
name = "cl"
rounds = 1
max_rounds = 1
samples = 3
loads = ["idle", "cpu"]

[targets]
a = "local"

[workloads]
sys = ["sys.*"]
"""


def test_each_cell_runs_idle_and_under_its_load_side_by_side(env, cli, tmp_path):
    f = tmp_path / "loads.toml"
    f.write_text(LOADED)
    rc, out, err = cli("campaign", str(f))
    assert rc == 0, err + out
    runs = runs_by_name(env)
    assert sorted(runs) == ["cl:a:default:sys", "cl:a:default:sys:cpu"]
    idle, busy = runs["cl:a:default:sys"], runs["cl:a:default:sys:cpu"]
    assert idle["status"] == busy["status"] == "complete"
    # the idle cell is a plain run: no load label, no load in its fingerprint
    assert idle["notes"].get("labels", {}) == {} and "load" not in idle["fingerprint"]
    assert "load" not in idle["notes"]["cell"]["definition"]
    # the loaded cell carries the load as `run --load` does
    assert busy["notes"]["labels"] == {"load": "cpu"}
    load = busy["fingerprint"]["load"]
    assert load["name"] == "cpu" and load["unit"] == "loops/s" and load["intensity"] > 0, load
    assert busy["notes"]["cell"]["id"] == "a:default:sys:cpu" and busy["notes"]["cell"]["load"] == "cpu"
    assert busy["notes"]["cell"]["definition"]["load"] == "cpu"
    # the two runs never overlap (one cell at a time on this machine)
    assert idle["finished"] <= busy["started"] or busy["finished"] <= idle["started"]
    # the summary: both cells, and the loaded run compared with the idle one
    assert "(1 targets x 1 variants x 1 workloads x 2 loads: idle, cpu)" in out
    assert "compare across targets and loads, variant default, workload sys (baseline cl:a:default:sys)" in out
    assert "A = cl:a:default:sys" in out and "B = cl:a:default:sys:cpu" in out and "sys.fast" in out
    assert "load" in out.split("compare across targets and loads")[1]  # the difference is named

    # a second start runs nothing; the report holds both, the idle run first
    rep = tmp_path / "r.md"
    rc, out, err = cli("campaign", str(f), "--report", str(rep))
    assert rc == 0 and "2 finished" in out and "nothing to run" in err, err + out
    text = rep.read_text()
    assert "B = cl:a:default:sys:cpu (default) against A = cl:a:default:sys (default)" in text
    assert "| load | not recorded | cpu |" in text and "- load: cpu (one busy loop per CPU)" in text
    assert text.index("## Run 1: cl:a:default:sys\n") < text.index("## Run 2: cl:a:default:sys:cpu\n")


def test_loads_added_to_a_campaign_keep_its_idle_cells(env, cli, tmp_path):
    """Adding a loads axis to a campaign that ran: its stored cells are the idle ones (same names),
    skipped; only the loaded cells run."""
    f = tmp_path / "loads.toml"
    f.write_text(LOADED.replace('loads = ["idle", "cpu"]\n', ""))
    rc, out, err = cli("campaign", str(f))
    assert rc == 0 and sorted(runs_by_name(env)) == ["cl:a:default:sys"], err + out
    f.write_text(LOADED.replace('"cpu"', '"messages"'))
    rc, out, err = cli("campaign", str(f))
    assert rc == 0, err + out
    assert "1 of 2 cells are stored complete" in err
    assert runs_by_name(env)["cl:a:default:sys:messages"]["fingerprint"]["load"]["name"] == "messages"


def test_cells_and_names_with_loads():
    spec = parse(
        {
            "name": "n",
            "loads": ["idle", "memory", "io"],
            "targets": {"a": "local", "b": "local"},
            "workloads": {"w": ["sys.*"]},
        }
    )
    assert [c.run_name for c in cells(spec)] == [
        "n:a:default:w",
        "n:a:default:w:memory",
        "n:a:default:w:io",
        "n:b:default:w",
        "n:b:default:w:memory",
        "n:b:default:w:io",
    ]
    assert spec.plan("w", load="io").labels == {"load": "io"} and spec.plan("w").labels == {}
    plain = parse({"name": "n", "targets": {"a": "ssh://root@10.0.0.7"}, "workloads": {"w": ["sys.*"]}})
    assert plain.loads == ["idle"] and [c.id for c in cells(plain)] == ["a:default:w"]


BAD = [
    ({"loads": ["idle", "disk"]}, "loads: unknown load 'disk' (known: idle, cpu, memory, messages, io)"),
    ({"loads": []}, "'loads' must be a non-empty list of load names"),
    ({"loads": "cpu"}, "'loads' must be a non-empty list of load names"),
    ({"loads": ["cpu", "cpu"]}, "loads: 'cpu' is named twice"),
    ({"loads": ["cpu"], "labels": {"load": "x"}}, "[labels]: the label 'load' is the loads' own"),
    (
        {"loads": ["idle", "messages"], "targets": {"a": "local", "b": "qemu-user:aarch64"}},
        "targets.b: load 'messages' runs on this machine: the target must be local, not qemu-user:aarch64",
    ),
]


@pytest.mark.parametrize("extra,msg", BAD, ids=[m[:40] for _, m in BAD])
def test_bad_loads_are_one_line(extra, msg):
    doc = {"name": "n", "targets": {"a": "local"}, "workloads": {"w": ["sys.*"]}, **extra}
    with pytest.raises(TickmarkError) as e:
        parse(doc, "f.toml")
    assert str(e.value).startswith("campaign f.toml: ") and msg in str(e.value) and "\n" not in str(e.value)


def test_a_remote_target_with_loads_is_refused_before_anything_runs(env, cli, tmp_path):
    f = tmp_path / "loads.toml"
    f.write_text(LOADED.replace('a = "local"', 'a = "local"\nb = "qemu-user:aarch64"'))
    rc, out, err = cli("campaign", str(f))
    assert rc == 2 and err.count("\n") == 1, err + out
    assert "load 'cpu' runs on this machine: the target must be local, not qemu-user:aarch64" in err
    assert not os.path.exists(env) or runs_by_name(env) == {}


def test_command_line_label_load_is_refused_with_loads(env, cli, tmp_path):
    f = tmp_path / "loads.toml"
    f.write_text(LOADED)
    rc, out, err = cli("campaign", str(f), "--label", "load=x")
    assert rc == 2 and "the label 'load' is theirs" in err, err + out


def test_loads_with_the_real_core(real, cli, tmp_path):
    """The real core on this machine, a few seconds: the cell under the cpu load is stored with
    its load, and compared with the idle cell."""
    f = tmp_path / "real.toml"
    f.write_text(
        'name = "rl"\nrounds = 1\nmax_rounds = 1\nsamples = 2\nsample_ms = 2\nloads = ["idle", "cpu"]\n'
        '[targets]\nhere = "local"\n[workloads]\nctl = ["loop.control"]\n'
    )
    rc, out, err = cli("campaign", str(f))
    assert rc == 0, err + out
    runs = runs_by_name(real)
    assert sorted(runs) == ["rl:here:default:ctl", "rl:here:default:ctl:cpu"]
    load = runs["rl:here:default:ctl:cpu"]["fingerprint"]["load"]
    assert load["name"] == "cpu" and load["intensity"] > 0 and load["workers"] == (os.cpu_count() or 1), load
    assert "load" not in runs["rl:here:default:ctl"]["fingerprint"]
    assert "B = rl:here:default:ctl:cpu (default)  vs  A = rl:here:default:ctl (default)" in out
    assert "differs: load: not recorded | cpu" in out


def test_status_names_a_single_load(env, cli, tmp_path):
    f = tmp_path / "one.toml"
    f.write_text(LOADED.replace('["idle", "cpu"]', '["cpu"]'))
    rc, out, err = cli("campaign", str(f), "--status")
    assert rc == 0, err + out
    assert "(1 targets x 1 variants x 1 workloads x 1 loads: cpu)" in out and "a:default:sys:cpu  pending" in out
