"""tickmark profile: naming, perf and gprof read-back, the memmove story with the real core, storage,
export and import, and the one-line refusals (stripped binary, no sampler)."""

import json
import os
import re
import shutil
import sqlite3
import subprocess

import pytest

from tickmark.profile import has_symtab, perf
from tickmark.profile.model import describe, diff, dso_group, routine_name, top_change

DATA = os.path.join(os.path.dirname(__file__), "data")
BYTEWISE = os.path.join(DATA, "bytewise_memmove.c")
FIXED = os.path.join(DATA, "my_memmove.c")


def _said(err):
    """stderr without the progress lines (report/progress.py: those of a build that lasts)."""
    return "".join(line for line in err.splitlines(True) if not re.match(r"tickmark: .*, \d+:\d\d spent", line))


def _need(tool, usable=None):
    """Skip (fail under CI=true) when a tool that bootstrap installs is missing."""
    if shutil.which(tool) is None:
        msg = f"{tool} is not installed (bootstrap test installs it)"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    if usable:
        why = usable()
        if why:
            pytest.skip(why)


def _perf_records():
    """perf is installed, but may not be allowed to sample here (perf_event_paranoid, seccomp)."""
    why = perf.available()
    if why:
        return why
    r = subprocess.run(
        ["perf", "record", "-q", "-e", perf.event(perf.user_only_needed()), "-o", "/dev/null", "--", "true"],
        capture_output=True,
        text=True,
    )
    return None if r.returncode == 0 else f"perf record is not allowed here: {r.stderr.strip()[-200:]}"


# ---------------------------------------------------------------- naming and grouping
def test_routine_names():
    assert routine_name("__memmove_avx512_unaligned_erms", "libc") == "memmove"
    assert routine_name("__strncmp_evex", "libc") == "strncmp"
    assert routine_name("__memcpy_sse2_unaligned", "libc") == "memcpy"
    assert routine_name("__memmove_generic", "libc") == "memmove"
    assert routine_name("__libc_start_main", "libc") == "__libc_start_main"
    assert routine_name("tm_user_memmove", "core") == "memmove"
    assert routine_name("cmd_run.constprop.0", "core") == "cmd_run"
    assert routine_name("finish_task_switch.isra.0", "kernel") == "finish_task_switch"
    assert routine_name("ss_resize", "core") == "ss_resize"


def test_dso_groups():
    core = ["/cache/abc/tickmark-core"]
    assert dso_group("/cache/abc/tickmark-core", core) == "core"
    assert dso_group("/usr/lib/x86_64-linux-gnu/libc.so.6", core) == "libc"
    assert dso_group("/lib/ld-linux-aarch64.so.1", core) == "libc"
    assert dso_group("/usr/lib/x86_64-linux-gnu/libm.so.6", core) == "libc"
    assert dso_group("[kernel.kallsyms]", core) == "kernel"
    assert dso_group("[vdso]", core) == "kernel"
    assert dso_group("/usr/lib/libfoo.so.1", core) == "other"
    assert dso_group("[unknown]", core) == "other"


def _prof(ns, routines, unit="iteration"):
    return {
        "key": "cpu.stringsort",
        "tool": "perf",
        "unit": unit,
        "ns_per_op": ns,
        "routines": [dict(name=n, symbols=[s], group=g, self=a, total=t) for n, s, g, a, t in routines],
    }


def test_diff_ranks_time_per_operation_and_says_it_in_words():
    a = _prof(
        1.0e6,
        [
            ("ss_resize", "ss_resize", "core", 0.66, 0.9),
            ("memmove", "__memmove_avx512_unaligned_erms", "libc", 0.25, 0.25),
        ],
    )
    b = _prof(
        10.0e6, [("memmove", "tm_user_memmove", "core", 0.90, 0.92), ("ss_resize", "ss_resize", "core", 0.07, 0.98)]
    )
    rows = diff(a, b)
    assert rows[0]["name"] == "memmove"
    assert rows[0]["dns"] == pytest.approx(9.0e6 - 0.25e6)
    text = describe(rows[0], "iteration")
    assert text == "memmove: 25 % \u2192 90 % self, +8.75 ms per iteration (libc \u2192 core: tm_user_memmove)"
    assert top_change(a, b) == text
    back = describe(diff(b, a)[0], "iteration")
    assert back.startswith("memmove: 90 % \u2192 25 % self, \u22128.75 ms per iteration")


def test_diff_without_times_ranks_by_share():
    a = _prof(None, [("f", "f", "core", 0.5, 0.5), ("g", "g", "core", 0.5, 0.5)])
    b = _prof(None, [("f", "f", "core", 0.1, 0.1), ("g", "g", "core", 0.6, 0.6), ("h", "h", "libc", 0.3, 0.3)])
    rows = diff(a, b)
    assert [r["name"] for r in rows] == ["f", "h", "g"]
    assert describe(rows[1]) == "h: 0 % \u2192 30 % self (new in B)"


PERF_SCRIPT = """\
    0/0     PERF_RECORD_COMM: perf-exec:100/100
100/100 PERF_RECORD_COMM exec: tickmark-core:100/100
100/100    1000000
\t            87e0 tm_env_measure (/c/tickmark-core)
\t            a0ce cmd_run.constprop.0 (/c/tickmark-core)

100/100 PERF_RECORD_FORK(101:101):(100:100)
101/101    1000000
\t          16d899 __memmove_avx512_unaligned_erms (/usr/lib/x86_64-linux-gnu/libc.so.6)
\t           1357b ss_resize (/c/tickmark-core)
\t           13d4c ss_run (/c/tickmark-core)
\tffffffffffffffff [unknown] ([unknown])

101/101    1000000
\t           1346f ss_resize (/c/tickmark-core)
\t           13d4c ss_run (/c/tickmark-core)

101/101    1000000
\tffffffff81341977 finish_task_switch.isra.0 ([kernel.kallsyms])
\tffffffff81341900 schedule ([kernel.kallsyms])
\t           1346f ss_resize (/c/tickmark-core)
\t           13d4c ss_run (/c/tickmark-core)

101/102    1000000
\t           1346f ss_resize (/c/tickmark-core)
\t           1346f ss_resize (/c/tickmark-core)
101/101 PERF_RECORD_EXIT(101:101):(100:100)
"""


def test_perf_script_counts_the_instance_process_only():
    routines, hits, total, kernel, unknown, chained = perf.parse(PERF_SCRIPT, ["/c/tickmark-core"])
    assert hits == 4 and total == 4_000_000 and kernel == 1_000_000 and unknown == 0 and chained == 2
    assert "tm_env_measure" not in routines  # the runner's process is left out
    assert routines["ss_resize"]["self"] == 2_000_000
    assert routines["ss_resize"]["total"] == 4_000_000  # counted once per sample, recursion or not
    assert routines["memmove"]["group"] == "libc" and routines["memmove"]["self"] == 1_000_000
    assert routines["finish_task_switch"]["group"] == "kernel"
    assert routines["ss_run"]["self"] == 0 and routines["ss_run"]["total"] == 3_000_000


def test_has_symtab_tells_a_stripped_binary(tmp_path):
    _need("cc")
    _need("strip")
    src = tmp_path / "a.c"
    src.write_text("int main(void) { return 0; }\n")
    exe = tmp_path / "a"
    subprocess.run(["cc", "-o", str(exe), str(src)], check=True)
    assert has_symtab(str(exe))
    subprocess.run(["strip", str(exe)], check=True)
    assert not has_symtab(str(exe))


# ---------------------------------------------------------------- the real core
@pytest.mark.integration
@pytest.mark.alone  # compares the timings of two runs
def test_memmove_story_with_perf(real, cli, monkeypatch):
    """A bytewise memmove makes cpu.stringsort slower; the profile diff and compare name memmove."""
    _need("perf", _perf_records)
    monkeypatch.setenv("COLUMNS", "200")  # one line a routine (narrower, lines wrap: tests/test_width.py)
    rc, out, err = cli("profile", "cpu.stringsort", "--seconds", "0.6", "--name", "libc")
    assert rc == 0, err
    assert "cpu.stringsort: perf (cpu-clock" in out and "ss_resize" in out
    rc, out, err = cli("profile", "cpu.stringsort", "--seconds", "0.6", "--memfn", BYTEWISE, "--name", "bytewise")
    assert rc == 0, err
    top = [line for line in out.splitlines() if "%" in line and line.split()[-1] != "routine"][1]
    # the first routine row is memmove, led by the core's own copy (libc's may follow it in the list)
    assert "memmove (tm_user_memmove" in top, top

    rc, out, err = cli("profile", "--diff", "libc", "bytewise")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("cpu.stringsort: B = bytewise") and "per iteration" in lines[0]
    assert lines[1].strip().startswith("memmove: ")
    assert "self, +" in lines[1] and "(libc \u2192 core: tm_user_memmove)" in lines[1]

    rc, out, err = cli("compare", "libc", "bytewise", "--no-counters")
    assert rc == 0, err
    row = next(line for line in out.splitlines() if line.startswith("cpu.stringsort "))
    assert "slower" in row and "profile: memmove: " in row

    rc, out, err = cli("show", "bytewise")
    assert rc == 0, err
    assert "memmove (tm_user_memmove" in out and "groups (self): core" in out


@pytest.mark.integration
def test_profile_attaches_to_a_run_built_the_same_way(real, cli, tmp_path):
    _need("perf", _perf_records)
    rc, out, err = cli("run", "cpu.stringsort", "--rounds", "1", "--samples", "3", "--name", "r", "-q")
    assert rc == 0, err
    rc, out, err = cli("profile", "cpu.stringsort", "--seconds", "0.4", "--memfn", BYTEWISE, "--run", "r")
    assert rc == 2 and "was measured with another core" in err and len(_said(err).strip().splitlines()) == 1
    rc, out, err = cli("profile", "cpu.stringsort", "--seconds", "0.4", "--run", "r")
    assert rc == 0, err
    assert "(median of run r)" in out
    db = sqlite3.connect(str(real))
    assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 1  # kept with r, no new run
    assert db.execute("SELECT key, tool FROM profiles").fetchall() == [("cpu.stringsort", "perf")]

    # export and import keep it; a broken profile in a document is refused
    doc_path = tmp_path / "r.json"
    assert cli("export", "r", "-o", str(doc_path))[0] == 0
    doc = json.loads(doc_path.read_text())
    assert [p["key"] for p in doc["profiles"]] == ["cpu.stringsort"]
    rc, out, err = cli("import", str(doc_path))
    assert rc == 0, err
    rc, out, err = cli("profile", "--diff", "r", "r-2")
    assert rc == 0 and out.startswith("cpu.stringsort: B = r-2")
    doc["profiles"][0]["routines"][0]["self"] = 7
    doc_path.write_text(json.dumps(doc))
    rc, out, err = cli("import", str(doc_path))
    assert rc == 2 and "profiles[0].routines[0].self: a share between 0 and 1" in err


@pytest.mark.integration
def test_gprof_profile_of_a_pg_build(real, cli, tmp_path, monkeypatch):
    """... and no gmon.out in the user's folder: the -pg core's checks (`list`) before the
    sampled run wrote one there, and so did every round of `run --cflags -pg`."""
    _need("gprof")
    monkeypatch.setenv("COLUMNS", "200")  # one line a routine (narrower, lines wrap: tests/test_width.py)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    rc, out, err = cli(
        "profile", "cpu.stringsort", "--tool", "gprof", "--seconds", "1", "--memfn", BYTEWISE, "--name", "g"
    )
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("cpu.stringsort: gprof (") and "per iteration" in lines[0]
    first = next(line for line in lines if line.strip().endswith("routine"))
    row = lines[lines.index(first) + 1].split()
    assert row[-2:] == ["memmove", "(tm_user_memmove)"] and float(row[0].rstrip("%")) > 50
    import tickmark.store

    prof = tickmark.store.Store(str(real)).profiles(1)["cpu.stringsort"]
    # 100 Hz of CPU time: a loaded machine gives the instance fewer samples than its 1 s of wall time
    assert prof["tool"] == "gprof" and prof["hits"] >= 10
    assert {r["group"] for r in prof["routines"]} <= {"core", "libc"}
    rc, out, err = cli(
        "run", "sys.getppid", "--cflags", "-O2 -pg", "--memfn", BYTEWISE,
        "--rounds", "1", "--samples", "2", "--sample-ms", "2", "-q",
    )  # fmt: skip
    assert rc == 0, err
    assert os.listdir(here) == []


@pytest.mark.integration
def test_stripped_core_is_refused(real, cli, tmp_path, monkeypatch, core_binary):
    _need("strip")
    _need("perf", _perf_records)
    stripped = tmp_path / "tickmark-core"
    shutil.copy(core_binary, stripped)
    subprocess.run(["strip", str(stripped)], check=True)
    monkeypatch.setenv("TICKMARK_CORE", str(stripped))
    rc, out, err = cli("profile", "cpu.stringsort", "--tool", "perf")
    assert rc == 2 and out == ""
    assert _said(err).strip() == (
        f"tickmark: error: the core binary {stripped} is stripped (no symbol table): a profile "
        "cannot name its routines; profile an unstripped build"
    )


@pytest.mark.integration
def test_one_instance_only(real, cli):
    _need("perf", _perf_records)
    rc, out, err = cli("profile", "mem.bw_copy", "--tool", "perf")
    assert rc == 2 and out == ""
    assert _said(err).startswith("tickmark: error: a profile takes one benchmark instance; this selects ")
    assert len(_said(err).strip().splitlines()) == 1
    from tickmark.store import Store

    assert Store(str(real)).runs() == []


def test_no_sampler_is_one_line(env, cli, tmp_path, monkeypatch):
    """No perf, and a prebuilt core that cannot be rebuilt with -pg: no profile, one line."""
    monkeypatch.setenv("TICKMARK_PERF", str(tmp_path / "no-such-perf"))
    rc, out, err = cli("profile", "cpu.stringsort")
    assert rc == 2 and out == ""
    assert err.strip() == (
        "tickmark: error: cannot profile here: perf is not installed (apt-get install "
        "linux-perf), and gprof needs a core built from source with -pg (a prebuilt core "
        "was given)"
    )
    rc, out, err = cli("profile", "cpu.stringsort", "--tool", "perf")
    assert rc == 2 and err.strip() == (
        "tickmark: error: cannot profile with perf: perf is not installed (apt-get install linux-perf)"
    )
    rc, out, err = cli("profile", "cpu.stringsort", "--tool", "gprof")
    assert rc == 2 and err.strip() == (
        "tickmark: error: cannot profile with gprof: gprof needs a core built "
        "from source with -pg (a prebuilt core was given)"
    )


def test_profile_refuses_a_command_that_is_no_elf_binary(env, cli):
    """The synthetic core is a Python script: perf could run it, but there are no ELF symbols to read."""
    _need("perf", _perf_records)
    rc, out, err = cli("profile", "sys.fast", "--tool", "perf")
    assert rc == 2 and len(_said(err).strip().splitlines()) == 1
    assert "is not an ELF executable; profiles read ELF binaries only" in err


def test_bad_usage(env, cli):
    assert cli("profile")[0] == 2
    rc, out, err = cli("profile", "--diff", "a", "b", "--memfn", "x.c")
    assert rc == 2 and "--diff compares stored profiles" in err
    rc, out, err = cli("profile", "cpu.stringsort", "--param", "size=1,2")
    assert rc == 2 and "a profile takes one point" in err


def test_store_keeps_profiles_and_adds_the_table_to_an_older_store(new_store):
    """On both backends: the table is made in a store that predates it; a new profile of the same
    instance replaces the old; deleting the run deletes its profiles."""
    from tickmark.store import Store

    target = new_store()
    st = Store(target)
    st._x("DROP TABLE profiles")  # a store written before profiles existed
    st.close()
    st = Store(target)
    rid = st.create_run(patterns=["x"])
    st.add_result(rid, key="x", bench="x")
    with st.transaction():
        st.add_profile(rid, "x", {"tool": "perf", "routines": []})
    with st.transaction():
        st.add_profile(rid, "x", {"tool": "gprof", "routines": []})  # replaces
    assert st.profiles(rid) == {"x": {"tool": "gprof", "routines": []}}
    assert st.count("profiles") == 1
    st.delete_run(rid)
    assert st.count("profiles") == 0
    st.close()


@pytest.mark.integration
def test_gprof_on_qemu_user_uses_the_cross_toolchain(real, cli):
    """A board without perf, imitated by qemu-user: a static cross -pg build, read with aarch64 gprof;
    aarch64 nm tells the core's routines from the C library's linked into the same binary."""
    for tool in ("aarch64-linux-gnu-gcc", "aarch64-linux-gnu-gprof", "qemu-aarch64"):
        _need(tool)
    rc, out, err = cli("profile", "cpu.stringsort", "--target", "qemu-user:aarch64", "--seconds", "0.5", "--name", "q")
    assert rc == 0, err
    assert out.startswith("cpu.stringsort: gprof (")
    import tickmark.store

    prof = tickmark.store.Store(str(real)).profiles(1)["cpu.stringsort"]
    groups = {r["name"]: r["group"] for r in prof["routines"]}
    assert groups["ss_resize"] == "core" and groups["memmove"] == "libc"
    rc, out, err = cli("profile", "cpu.stringsort", "--target", "qemu-user:aarch64", "--tool", "perf")
    assert rc == 2 and err.strip() == (
        "tickmark: error: cannot profile with perf: perf would sample the emulator, not the core (qemu-user)"
    )


def test_bare_metal_target_is_unsupported_in_one_line(env, cli, monkeypatch):
    monkeypatch.delenv("TICKMARK_CORE")
    rc, out, err = cli("profile", "cpu.stringsort", "--target", "qemu-system:mps2-an500")
    assert rc == 2 and out == ""
    assert err.strip() == (
        "tickmark: error: profiles are not supported on qemu-system:mps2-an500: perf and gprof run only where "
        "the core is a process of this machine (local, qemu-user) or of an SSH board"
    )


@pytest.fixture
def board(real, tmp_path, monkeypatch):
    """A real OpenSSH server on 127.0.0.1 standing in for a board (tests/sshfix.py)."""
    from sshfix import serving

    monkeypatch.delenv("TICKMARK_TARGET", raising=False)
    with serving(tmp_path / "sshd", monkeypatch) as s:
        yield s


@pytest.mark.integration
def test_perf_on_an_ssh_board(board, cli):
    """The board's perf records, the file comes back, the host names the routines."""
    _need("perf", _perf_records)
    rc, out, err = cli(
        "profile", "cpu.stringsort", "--target", board.uri, "--seconds", "0.5", "--memfn", BYTEWISE, "--name", "b"
    )
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("cpu.stringsort: perf (cpu-clock")
    first = next(line for line in lines if line.strip().endswith("routine"))
    assert "memmove (tm_user_memmove" in lines[lines.index(first) + 1]  # libc's copy may be listed beside it
    from tickmark.store import Store

    prof = Store(os.environ["TICKMARK_STORE"]).profiles(1)["cpu.stringsort"]
    groups = {r["name"]: r["group"] for r in prof["routines"]}
    assert groups["memmove"] == "core" and groups["ss_resize"] == "core"
    assert not board.ssh("ls -d ${TMPDIR:-/tmp}/tickmark.*/profile.* 2>/dev/null").stdout.strip()


@pytest.mark.integration
def test_gprof_on_an_ssh_board(board, cli):
    _need("gprof")
    rc, out, err = cli(
        "profile",
        "cpu.stringsort",
        "--target",
        board.uri,
        "--tool",
        "gprof",
        "--seconds",
        "0.5",
        "--memfn",
        BYTEWISE,
        "--name",
        "g",
    )
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("cpu.stringsort: gprof (")
    first = next(line for line in lines if line.strip().endswith("routine"))
    assert "memmove (tm_user_memmove" in lines[lines.index(first) + 1]  # libc's copy may be listed beside it


@pytest.mark.integration
def test_profile_of_a_run_builds_its_variant_and_never_replaces_its_profile(real, cli):
    """`profile BENCH --run RUN` asked again for the run's --memfn ('was measured with another
    core ...; give the same --cc/--cflags/--memfn'): the run records its variant. A second profile
    of the same instance silently replaced the first."""
    _need("perf", _perf_records)
    rc, out, err = cli(
        "run", "cpu.stringsort", "--memfn", BYTEWISE, "--rounds", "1", "--samples", "3", "-q", "--name", "fixed"
    )
    assert rc == 0, err
    rc, out, err = cli("profile", "cpu.stringsort", "--seconds", "0.4", "--run", "fixed")
    assert rc == 0, err
    assert "(median of run fixed)" in out and "tm_user_memmove" in out
    db = sqlite3.connect(str(real))
    first = db.execute("SELECT created, data FROM profiles").fetchall()
    rc, out, err = cli("profile", "cpu.stringsort", "--seconds", "0.4", "--run", "fixed")
    assert rc == 2 and "run 'fixed' has a profile of cpu.stringsort already" in err and err.count("\n") == 1, err
    assert db.execute("SELECT created, data FROM profiles").fetchall() == first
    assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 1


def test_diff_with_one_run_does_not_swallow_the_next_option(env, cli, tmp_path):
    """`profile --diff p1 --store X` took '--store' for the second run and X for BENCH, and read
    the default store."""
    rc, out, err = cli("profile", "--diff", "p1", "--store", str(tmp_path / "x.db"))
    assert rc == 2 and err.count("\n") == 1, err
    assert "--diff takes two runs (--diff A B); '--store' is an option" in err
    assert not (tmp_path / "x.db").exists() and not os.path.exists(env)


def test_diff_says_how_many_times_faster():
    """'15.1 ms -> 935 us per iteration (0.06x)' read as a 94 % slowdown at a glance."""
    import io

    from tickmark.report.terminal.profile import show_diff

    base = {"key": "cpu.stringsort", "tool": "perf", "unit": "iteration", "routines": [], "totals": True}
    out = io.StringIO()
    show_diff(dict(base, ns_per_op=15.1e6), dict(base, ns_per_op=935e3), "slow", "fixed", file=out)
    head = out.getvalue().splitlines()[0]
    assert head.endswith("per iteration (16.1× faster)"), head
