"""tickmark campaign with the synthetic core on local targets: the cells, their tags, one cell at a
time per target, resuming, Ctrl-C, a target that cannot be opened, and the file's mistakes."""

import os
import signal
import sys
import time

import pytest

from conftest import FAKECORE, tickmark_proc
from tickmark.store import Store

CAMPAIGN = """
name = "{name}"
rounds = 2
max_rounds = 2
samples = 5

[targets]
{targets}

[variants]
O2 = {{ cflags = "-O2" }}
Os = {{ cflags = "-Os" }}

[workloads]
{workloads}
"""


def write(tmp_path, name="c1", targets='a = "local"\nb = "local"', workloads='sys = ["sys.*"]', fname="camp.toml"):
    p = tmp_path / fname
    p.write_text(CAMPAIGN.format(name=name, targets=targets, workloads=workloads))
    return str(p)


def runs_by_name(store_path):
    st = Store(store_path)
    try:
        return {r["name"]: r for r in st.runs()}
    finally:
        st.close()


def test_campaign_runs_every_cell_tags_them_and_resumes(env, cli, tmp_path):
    f = write(tmp_path)
    rc, out, err = cli("campaign", f)
    assert rc == 0, err
    runs = runs_by_name(env)
    cells = [f"c1:{t}:{v}:sys" for t in "ab" for v in ("O2", "Os")]
    assert sorted(runs) == sorted(cells)
    for name, r in runs.items():
        _, t, v, w = name.split(":")
        assert r["status"] == "complete" and r["n_results"] == 3
        assert r["notes"]["campaign"] == "c1"
        assert r["notes"]["cell"] == {
            "target": t,
            "target_uri": "local",
            "variant": v,
            "workload": w,
            "id": f"{t}:{v}:{w}",
            "definition": {
                "target_uri": "local",
                "target_sources": {},
                "cc": None,
                "cflags": f"-{v}",
                "memfn": None,
                "memfn_sha256": None,
                "patterns": ["sys.*"],
                "params": [],
            },
        }
        assert r["fingerprint"]["target_uri"] == "local"
    # one cell at a time on each machine: a and b are both this machine, so none of the four
    # runs overlaps another in time
    spans = sorted((r["started"], r["finished"]) for r in runs.values())
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
    assert "4 done" in out
    assert out.count("cross-target compare") == 2
    assert "B = c1:b:O2:sys" in out and "A = c1:a:O2:sys" in out and "sys.fast" in out

    # a second start runs nothing
    rc, out, err = cli("campaign", f)
    assert rc == 0 and "4 finished" in out and "nothing to run" in err
    assert sorted(runs_by_name(env)) == sorted(cells)

    # a cell whose run did not finish runs again; its partial run is kept under another name
    st = Store(env)
    partial = st.run("c1:b:Os:sys")["id"]
    st.update_run(partial, status="incomplete")
    st.close()
    rc, out, err = cli("campaign", f)
    assert rc == 0, err
    assert "3 finished, 1 done" in out or "1 done, 3 finished" in out
    runs = runs_by_name(env)
    assert runs[f"c1:b:Os:sys~{partial}"]["status"] == "incomplete"
    assert runs["c1:b:Os:sys"]["status"] == "complete" and runs["c1:b:Os:sys"]["id"] != partial
    assert len(runs) == 5
    rc, out, err = cli("campaign", f, "--status")
    assert rc == 0 and "4 finished" in out and len(runs_by_name(env)) == 5
    rep = tmp_path / "campaign.md"
    rc, out, err = cli("campaign", f, "--report", str(rep))
    assert rc == 0, err
    text = rep.read_text()
    assert all(n in text for n in cells) and "sys.fast" in text


def test_campaign_report_of_disjoint_workloads(env, cli, tmp_path):
    """Workloads that share no benchmark (the README's lab.toml shape): every cell in one report,
    each workload compared across the targets, the cells of different workloads not compared."""
    f = write(tmp_path, name="c9", workloads='sys = ["sys.fast"]\nipc = ["ipc.*"]')
    for rep in (tmp_path / "r.md", tmp_path / "r.html"):
        rc, out, err = cli("campaign", f, "--report", str(rep))
        assert rc == 0, err
        text = rep.read_text()
        assert "sys.fast" in text and "ipc.ping" in text
        assert text.count("Comparison: B = c9:b:") == 4  # each target-b cell against target a's
        assert "shares no benchmark" in text


def test_campaign_ctrl_c_then_resume_runs_only_the_rest(env, cli, tmp_path):
    f = write(tmp_path, name="c2", workloads='w = ["sys.fast", "ipc.*"]')
    p = tickmark_proc(["campaign", f], env={"FAKECORE_MODE": "slowkey=ipc.ping"}, start_new_session=True)
    try:
        # another process sees the runs as they are written (a campaign process holds several
        # connections to the store; none of them may lose its locks and with them its log)
        deadline, seen = time.time() + 60, 0
        while time.time() < deadline and seen < 1:
            try:
                seen = len(runs_by_name(env))
            except Exception:  # not made yet, or busy
                pass
            time.sleep(0.1)
        assert seen == 1, "the campaign's run did not become visible to another process"
        time.sleep(0.5)
        os.kill(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "interrupted" in err and "start the campaign again" in err
    runs = runs_by_name(env)
    assert runs and all(r["status"] == "incomplete" for r in runs.values()), (
        out,
        err,
        {n: r["status"] for n, r in runs.items()},
    )
    assert "interrupted" in out
    rc, out, err = cli("campaign", f)
    assert rc == 0, err
    assert "4 done" in out
    runs = runs_by_name(env)
    assert sum(r["status"] == "complete" for r in runs.values()) == 4


def test_target_that_cannot_open_fails_its_cells_only(env, cli, tmp_path):
    """A target whose URI is good but that cannot be reached: its cells fail, the others run."""
    f = write(tmp_path, name="c3", targets='a = "local"\nbad = "ssh://nobody@127.0.0.1:1"')
    rc, out, err = cli("campaign", f)
    assert rc == 1
    assert "some cells did not finish" in err
    runs = runs_by_name(env)
    assert sorted(runs) == ["c3:a:O2:sys", "c3:a:Os:sys"]
    assert "2 done" in out and "bad:O2:sys" in out and "failed" in out
    assert "no cross-target compare" in out


BAD = [
    ("name = 12\n[targets]\na='local'\n[workloads]\nw='os'\n", "'name' must be a word"),
    ("name = 'x'\nfrobs = 1\n[targets]\na='local'\n[workloads]\nw='os'\n", "unknown key 'frobs'"),
    ("name = 'x'\n[workloads]\nw='os'\n", "[targets] must be a table"),
    ("name = 'x'\n[targets]\na='local'\n[workloads]\nw='nosuite'\n", "unknown suite 'nosuite'"),
    ("name = 'x'\n[targets]\na='local'\n[workloads]\nw=[]\n", "workloads.w: expected a suite name"),
    (
        "name = 'x'\n[targets]\na='local'\n[variants]\nv={cflags='-O2', x='1'}\n[workloads]\nw='os'\n",
        "variants.v: unknown key 'x'",
    ),
    (
        "name = 'x'\n[targets]\na='local'\n[variants]\nv={memfn='nope.c'}\n[workloads]\nw='os'\n",
        "variants.v.memfn: nope.c does not exist",
    ),
    ("name = 'x'\nrounds = 0\n[targets]\na='local'\n[workloads]\nw='os'\n", "'rounds' must be an integer"),
    ("name = 'x'\nbaseline = 'z'\n[targets]\na='local'\n[workloads]\nw='os'\n", "baseline 'z' is not one"),
    ("name = 'x'\n[targets]\n'a/b'='local'\n[workloads]\nw='os'\n", "targets.a/b: a name of letters"),
    ("name = [\n", "not valid TOML"),
    # a target's URI is checked before anything runs (it was a failed cell)
    ("name = 'x'\n[targets]\na='local'\nb='qemu-user:nosucharch'\n[workloads]\nw='os'\n", "targets.b: bad target"),
    ("name = 'x'\n[targets]\na='nosuch:x'\n[workloads]\nw='os'\n", "targets.a: unknown target 'nosuch:x'"),
    # the command line's limits (the core refuses more): they were 10000 and 100000 here
    (
        "name = 'x'\nsamples = 5000\n[targets]\na='local'\n[workloads]\nw='os'\n",
        "'samples' must be an integer in 1..1000",
    ),
    (
        "name = 'x'\nsample_ms = 20000\n[targets]\na='local'\n[workloads]\nw='os'\n",
        "'sample_ms' must be an integer in 1..10000",
    ),
    # the workloads' patterns and parameters, as `run` checks them (they failed in a cell)
    (
        "name = 'x'\n[targets]\na='local'\n[workloads]\nw=['sys.*', 'nosuch.*']\n",
        "workloads.w: no benchmark matches 'nosuch.*'",
    ),
    (
        "name = 'x'\nparams = ['procs=2']\n[targets]\na='local'\n[workloads]\nw=['sys.*']\n",
        "no selected benchmark has a parameter 'procs'",
    ),
    ("name = 'x'\nparams = ['lat.*:size=1,1']\n[targets]\na='local'\n[workloads]\nw=['lat.*']\n", "is the same as 1"),
]


@pytest.mark.parametrize("text,msg", BAD, ids=[m for _, m in BAD])
def test_bad_campaign_files_one_line_and_nothing_run(env, cli, tmp_path, text, msg):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    rc, out, err = cli("campaign", str(p))
    assert rc == 2 and err.startswith("tickmark: error: campaign ") and err.count("\n") == 1, err
    assert msg in err
    assert not os.path.exists(env) or runs_by_name(env) == {}


def test_missing_campaign_file(env, cli, tmp_path):
    rc, out, err = cli("campaign", str(tmp_path / "none.toml"))
    assert rc == 2 and "cannot read campaign" in err and err.count("\n") == 1


def test_campaign_against_postgresql(pg_server, cli, monkeypatch, tmp_path):
    url = pg_server.new_database()
    monkeypatch.setenv("TICKMARK_STORE", url)
    monkeypatch.setenv("TICKMARK_CORE", f"{sys.executable} {FAKECORE}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("FAKECORE_MODE", raising=False)
    rc, out, err = cli("campaign", write(tmp_path, name="pg"))
    assert rc == 0, err
    runs = runs_by_name(url)
    assert len(runs) == 4 and all(r["status"] == "complete" and r["n_results"] == 3 for r in runs.values())


def test_power_cycle_needs_a_target_with_power_control(env, cli):
    rc, out, err = cli("run", "sys.fast", "--power-cycle")
    assert rc == 2 and err.count("\n") == 1
    assert "--power-cycle: target 'local' has no power control" in err


def test_campaign_labels_from_the_file_and_the_command_line(env, cli, tmp_path):
    p = tmp_path / "lab.toml"
    p.write_text(
        CAMPAIGN.format(name="lb", targets='a = "local"', workloads='sys = ["sys.fast"]')
        + '\n[labels]\nbuild = "1234"\n'
    )
    rc, out, err = cli("campaign", str(p), "--label", "board=rev-b")
    assert rc == 0, err
    runs = runs_by_name(env)
    assert len(runs) == 2 and all(r["notes"]["labels"] == {"build": "1234", "board": "rev-b"} for r in runs.values())
    rc, out, err = cli("history", "sys.fast", "--label", "build=1234", "--format", "json")
    assert rc == 0 and len(__import__("json").loads(out)["series"][0]["points"]) == 2
    p.write_text(
        CAMPAIGN.format(name="lb2", targets='a = "local"', workloads='sys = ["sys.fast"]') + "\n[labels]\nbuild = 5\n"
    )
    rc, out, err = cli("campaign", str(p))
    assert rc == 2 and "bad label build='5'" in err, err
    rc, out, err = cli("run", "sys.fast", "--label", "x", "-q")
    assert rc == 2 and "bad --label 'x' (expected KEY=VALUE" in err


def test_a_cell_whose_definition_changed_runs_again(env, cli, tmp_path, monkeypatch):
    """A cell is its definition, not its name: after a variant's flags or a workload's patterns
    change, a start runs the cells they touch again and keeps the old runs aside (it said
    'finished' and showed the old data under the new definition)."""
    monkeypatch.setenv("COLUMNS", "80")
    f = write(tmp_path, name="cd", targets='a = "local"', workloads='sys = ["sys.fast"]')
    assert cli("campaign", f, "-q")[0] == 0
    old = {n: r["id"] for n, r in runs_by_name(env).items()}
    text = open(f).read().replace('Os = { cflags = "-Os" }', 'Os = { cflags = "-Os -g" }')
    open(f, "w").write(text)
    rc, out, err = cli("campaign", f, "--status")
    assert rc == 0 and "1 finished, 1 pending" in out and "changed since run" in out and "cflags" in out, out
    assert max(len(line) for line in out.splitlines()) <= 80, out
    rc, out, err = cli("campaign", f)
    assert rc == 0, err
    assert "a:Os:sys: changed since run" in err and "1 finished, 1 done" in out, (out, err)
    runs = runs_by_name(env)
    assert runs["cd:a:O2:sys"]["id"] == old["cd:a:O2:sys"]
    assert runs["cd:a:Os:sys"]["id"] != old["cd:a:Os:sys"]
    assert runs["cd:a:Os:sys"]["notes"]["cell"]["definition"]["cflags"] == "-Os -g"
    kept = runs[f"cd:a:Os:sys~{old['cd:a:Os:sys']}"]
    assert kept["status"] == "complete" and "cflags" in kept["notes"]["superseded_because"]
    # a workload's patterns: both cells again
    open(f, "w").write(text.replace('sys = ["sys.fast"]', 'sys = ["sys.fast", "sync.*"]'))
    rc, out, err = cli("campaign", f)
    assert rc == 0 and "2 done" in out, (out, err)
    assert all(r["n_results"] == 2 for n, r in runs_by_name(env).items() if "~" not in n)


def _stored_with(definition):
    """A stored run of a cell as changed() reads it: its notes with the cell's definition."""
    return {"notes": {"cell": {"definition": definition}}}


def test_a_cells_definition_holds_what_its_target_builds_from(tmp_path, monkeypatch):
    """The kernel image and busybox of ?kernel=, and the NuttX trees of os=nuttx, by path and
    content, read without booting or building: another image or an edited tree is another
    definition, said in words (the FreeRTOS tree, end to end: test_freertos.py)."""
    from tickmark.run import campaign as cp
    from tickmark.run import campaign_file

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    image, busybox = tmp_path / "vmlinuz", tmp_path / "busybox"
    image.write_bytes(b"a kernel image")
    busybox.write_bytes(b"a busybox")
    monkeypatch.setenv("TICKMARK_BUSYBOX", str(busybox))
    nuttx, apps = tmp_path / "nuttx", tmp_path / "apps"
    for f in (nuttx / "sched" / "Kconfig", nuttx / "tools" / "configure.sh", apps / "Makefile"):
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("# one\n")
    monkeypatch.setenv("NUTTX_DIR", str(nuttx))
    monkeypatch.setenv("NUTTX_APPS_DIR", str(apps))
    doc = {
        "name": "src",
        "targets": {
            "lx": f"qemu-system:x86_64?kernel={image}",
            "nx": "qemu-system:virt-aarch64?os=nuttx",
            "bm": "qemu-system:virt-aarch64",
        },
        "workloads": {"w": ["sys.*"]},
    }

    def definitions():
        spec = campaign_file.parse(doc, "src.toml")  # each start reads the sources again
        return spec, {c.target: (c, cp.definition(spec, c)) for c in campaign_file.cells(spec)}

    spec, before = definitions()
    lx, nx = before["lx"][1]["target_sources"], before["nx"][1]["target_sources"]
    assert lx["kernel_image"]["path"] == str(image) and len(lx["kernel_image"]["sha256"]) == 64
    assert lx["busybox"]["path"] == str(busybox)
    assert nx["nuttx"]["path"] == str(nuttx) and nx["nuttx"]["apps"] == str(apps)
    assert before["bm"][1]["target_sources"] == {}
    for c, d in before.values():
        assert cp.changed(_stored_with(d), spec, c) == []

    image.write_bytes(b"another kernel image")
    (apps / "Makefile").write_text("# two, longer\n")
    spec, after = definitions()
    changed = {t: cp.changed(_stored_with(before[t][1]), spec, c) for t, (c, _) in after.items()}
    assert changed == {
        "lx": ["the Linux kernel image (its contents)"],
        "nx": ["the NuttX trees (its contents)"],
        "bm": [],
    }, changed
    monkeypatch.setenv("TICKMARK_BUSYBOX", str(tmp_path / "gone"))
    spec, gone = definitions()
    c = gone["lx"][0]
    assert cp.changed(_stored_with(after["lx"][1]), spec, c) == ["the target's sources (not readable now)"]
    # a run stored before definitions held the target's sources: not run again for that alone
    old = {k: v for k, v in before["nx"][1].items() if k != "target_sources"}
    assert cp.changed(_stored_with(old), spec, gone["nx"][0]) == []


def test_a_hand_made_run_with_the_set_aside_name_does_not_block_the_cell(env, cli, tmp_path):
    """A run named CELL~ID made by hand (anyone can, on a shared store) took the name the cell's
    unfinished run is kept under: every resume failed with the store's IntegrityError."""
    f = write(tmp_path, name="hm", targets='a = "local"', workloads='sys = ["sys.fast"]')
    assert cli("campaign", f, "-q")[0] == 0
    st = Store(env)
    partial = st.run("hm:a:O2:sys")["id"]
    st.update_run(partial, status="incomplete")
    st.close()
    assert cli("run", "sys.fast", "--rounds", "1", "-q", "--name", f"hm:a:O2:sys~{partial}")[0] == 0
    rc, out, err = cli("campaign", f)
    assert rc == 0 and "1 done" in out, (out, err)
    runs = runs_by_name(env)
    assert runs["hm:a:O2:sys"]["status"] == "complete"
    assert runs[f"hm:a:O2:sys~{partial}-2"]["id"] == partial
    assert "campaign" not in runs[f"hm:a:O2:sys~{partial}"]["notes"]


def test_status_of_a_cell_whose_runner_was_killed(env, cli, tmp_path, monkeypatch):
    """After SIGKILL of the campaign's process, --status said 'running on HOST:PID, lease renewed'
    for a process that is gone from this host; it checks the PID and its start time now."""
    f = write(tmp_path, name="k9", targets='a = "local"', workloads='w = ["ipc.*"]')
    p = tickmark_proc(["campaign", f, "-q"], env={"FAKECORE_MODE": "slowkey=ipc.ping"}, start_new_session=True)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if runs_by_name(env):
                    break
            except Exception:
                pass
            time.sleep(0.1)
        rc, out, err = cli("campaign", f, "--status")
        assert rc == 0 and "lease renewed" in out, out
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    monkeypatch.setenv("COLUMNS", "200")
    rc, out, err = cli("campaign", f, "--status")
    assert rc == 0, err
    line = next(ln for ln in out.splitlines() if "a:O2:w" in ln)
    assert "abandoned" in line and f":{p.pid}, which ended without finishing it" in line, out
    assert "lease renewed" not in out
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, err = cli("campaign", f, "--status")
    assert max(len(line) for line in out.splitlines()) <= 80, out


def test_report_path_is_checked_before_any_cell_runs(env, cli, tmp_path):
    """--report into a folder that does not exist failed after every cell had run; --report onto
    the campaign file overwrote it; --status --report wrote nothing without a word."""
    f = write(tmp_path, name="rp", targets='a = "local"', workloads='sys = ["sys.fast"]')
    text = open(f).read()
    rc, out, err = cli("campaign", f, "--report", str(tmp_path / "nodir" / "r.html"))
    assert rc == 2 and "no folder" in err and err.count("\n") == 1, err
    assert not os.path.exists(env) or runs_by_name(env) == {}
    rc, out, err = cli("campaign", f, "--report", f)
    assert rc == 2 and "it is the command's input" in err, err
    assert open(f).read() == text
    rc, out, err = cli("campaign", f, "--status", "--report", str(tmp_path / "none.md"))
    assert rc == 0 and "no cell of campaign rp is stored yet" in err and not (tmp_path / "none.md").exists()
    assert cli("campaign", f, "-q")[0] == 0
    rc, out, err = cli("campaign", f, "--status", "--report", str(tmp_path / "r.md"))
    assert rc == 0 and "rp:a:O2:sys" in (tmp_path / "r.md").read_text(), err


def test_command_line_label_against_the_files(env, cli, tmp_path):
    """--label build=2 silently replaced the file's [labels] build = "1234": refused now, and a
    new key is added beside the file's."""
    p = tmp_path / "lab.toml"
    p.write_text(
        CAMPAIGN.format(name="lc", targets='a = "local"', workloads='sys = ["sys.fast"]')
        + '\n[labels]\nbuild = "1234"\n'
    )
    rc, out, err = cli("campaign", str(p), "--label", "build=2")
    assert rc == 2 and "sets build = '1234' in its [labels]" in err and err.count("\n") == 1, err
    assert not os.path.exists(env) or runs_by_name(env) == {}
    rc, out, err = cli("campaign", str(p), "--label", "build=1234", "-q")
    assert rc == 0, err


def test_status_of_a_campaign_with_a_bad_target_says_why(env, cli, tmp_path):
    """--status showed the cells of a target whose URI is bad as 'pending', with no reason (and a
    start failed them one by one, exit status 1)."""
    f = write(tmp_path, name="bu", targets='a = "local"\nb = "ssh://h:0"', workloads='sys = ["sys.fast"]')
    for args in (["--status"], []):
        rc, out, err = cli("campaign", f, *args)
        assert rc == 2 and err.count("\n") == 1, err
        assert "targets.b: bad --target 'ssh://h:0' (the port must be a number, 1..65535)" in err
    assert not os.path.exists(env) or runs_by_name(env) == {}
