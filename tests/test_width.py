"""Every command fits the width it is given: at 60, 80 and 120 columns, in a pipe (COLUMNS) and
on a terminal of that width (a pseudo-terminal), no line of its output is longer. Tables leave
optional columns out with a note, wrap their text (keys between their pieces), or come in parts;
prose wraps under itself. On synthetic stores: the synthetic core's runs (labels, a board's
long target URI, a matrix, a change in history, a campaign) and the report's store (every
family's figures, counters, a profile)."""

import json
import re

import pytest

import reportdata
from conftest import FAKECORE, copy_store, synthetic_store
from ptyfix import run_in_pty

WIDTHS = (60, 80, 120)
Q = ("--rounds", "1", "--samples", "2")
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """{"fake": the synthetic core's store, "report": the report's, "board": a board's runs,
    "campaign": the campaign file} (made once)."""
    folder = tmp_path_factory.mktemp("width")
    doc = folder / "n.json"
    run = ("run", "-q", *Q, "sys.*", "ipc.ping", "lat.sweep", "--label", "board=rev-a")
    fake = synthetic_store(
        folder,
        *[(*run, "--name", f"nightly-{i}", "--label", f"build={i}") for i in range(4)],
        ("run", "-q", "--rounds", "1", "--samples", "9", "sys.*", "ipc.ping", "lat.sweep", "--name", "steady"),
        ("export", "steady", "-o", str(folder / "steady.json")),
        ("export", "nightly-3", "-o", str(doc)),
    )
    d = json.loads((folder / "steady.json").read_text())
    d["run"]["name"] = "loaded"  # a loaded machine: samples far apart, one far out
    for r in d["results"]:
        for i, smp in enumerate(r["samples"]):
            smp["ns"] = int(smp["ns"] * (1.4 if i % 2 else 1) * (3 if i == len(r["samples"]) - 1 else 1))
    (folder / "loaded.json").write_text(json.dumps(d))
    synthetic_store(folder, ("import", str(folder / "loaded.json")))
    d = json.loads(doc.read_text())
    for i in (4, 5, 6):  # a board with a long URI and another build, twice as slow: a change in history
        d["run"]["name"] = f"nightly-{i}"
        d["run"]["notes"]["labels"] = {"build": str(i), "board": "rev-b"}
        d["run"]["fingerprint"].update(
            target_uri="ssh://root@board-seven.lab.example.com:2222", cflags="-O0", kernel="6.1.0-25-amd64-preempt-rt"
        )
        for r in d["results"]:
            for smp in r["samples"]:
                smp["ns"] *= 2
        doc.write_text(json.dumps(d))
        synthetic_store(folder, ("import", str(doc)))
    camp = folder / "lab.toml"
    camp.write_text(
        'name = "lab"\nrounds = 1\nsamples = 2\n[targets]\nhere = "local"\n'
        '[variants]\nO2 = { cflags = "-O2" }\nOs = { cflags = "-Os" }\n'
        '[workloads]\nsys = ["sys.*"]\nlocks = ["sync.lockpair"]\n'
    )
    matrix = ("matrix", "-q", *Q, "--cflags", "-O2", "--cflags", "-Os", "--name", "mx", "sys.*", "lat.sweep")
    synthetic_store(folder, ("campaign", "-q", str(camp)), matrix)
    report = folder / "report.db"
    reportdata.make_store(str(report)).close()
    board = folder / "board.db"
    st, ids = reportdata.make_board_store(str(board))
    st.close()
    return {"fake": fake, "report": report, "board": board, "campaign": camp, "board_ids": [str(i) for i in ids]}


def commands(stores):
    """(name, store, argv) of every command that prints to the terminal."""
    fake, report, board = stores["fake"], stores["report"], stores["board"]
    return [
        ("suites", fake, ("suites",)),
        ("list", fake, ("list",)),
        ("info", fake, ("info",)),
        ("runs", fake, ("runs",)),
        ("runs-filtered", fake, ("runs", "--label", "board=rev-b")),
        ("show", fake, ("show", "nightly-6")),
        ("show-loaded", fake, ("show", "loaded")),
        ("show-report", report, ("show", "base")),
        ("show-counters", report, ("show", "--counters", "slow")),
        ("show-summary", board, ("show", "--summary", *stores["board_ids"])),
        ("compare", fake, ("compare", "nightly-0", "nightly-6")),
        ("compare-report", report, ("compare", "base", "slow")),
        ("compare-matrix", fake, ("compare", "mx-cc_-O2", "mx-cc_-Os")),
        ("history", fake, ("history",)),
        ("history-label", fake, ("history", "--by", "label:build", "sys.fast")),
        ("memfn", report, ("memfn", "base")),
        ("bandwidth", report, ("bandwidth", "base")),
        ("topology", report, ("topology", "--from", "base")),
        ("profile-diff", report, ("profile", "--diff", "base", "slow")),
        ("campaign-status", fake, ("campaign", str(stores["campaign"]), "--status")),
        ("run", fake, ("run", *Q, "sys.*", "ipc.ping", "lat.sweep", "bw.copy")),
        ("matrix", fake, ("matrix", *Q, "--cflags", "-O2", "--cflags", "-Os", "sys.*", "lat.sweep")),
    ]


def long_lines(text, width):
    text = ESCAPES.sub("", text)
    return [line for line in re.split(r"\r\n|\n|\r", text) if len(line) > width]


@pytest.mark.parametrize("width", WIDTHS)
def test_every_command_fits_a_pipe_of_its_width(stores, env, cli, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    for name, store, argv in commands(stores):
        copy_store(store, env)
        rc, out, err = cli(*argv)
        assert rc in (0, 1), (name, err)
        assert out.strip(), name
        assert not long_lines(out, width), (name, width, long_lines(out, width))
        padded = [line for line in out.splitlines() if line.endswith(" ")]
        assert not padded, (name, width, padded)  # no spaces that pad a line to the table's width


@pytest.mark.parametrize("width", WIDTHS)
def test_every_command_fits_a_terminal_of_its_width(stores, env, monkeypatch, width):
    monkeypatch.setenv("TICKMARK_CORE", f"{__import__('sys').executable} {FAKECORE}")
    for name, store, argv in commands(stores):
        copy_store(store, env)
        rc, screen = run_in_pty(argv, columns=width)
        assert rc in (0, 1) and screen.strip(), (name, screen)
        assert not long_lines(screen, width), (name, width, long_lines(screen, width))


def test_a_narrow_table_says_what_it_left_out(stores, env, cli, monkeypatch):
    copy_store(stores["report"], env)
    monkeypatch.setenv("COLUMNS", "60")
    rc, out, err = cli("compare", "base", "slow")
    assert "(left out at this width: det A/B, p, multiple, 95% CI" in out
    assert re.search(r"^mem\.lat_rand\[size=4096, *\| .*\| slower$", out, re.M) is None  # the key broke
    rc, out, err = cli("show", "base")
    assert "(left out at this width: ops/s, rcv, cycles/op" in out
    header = out.split("\nbenchmark")[0].splitlines()
    assert not [line for line in header if line.endswith("|") or line.startswith("|")], header  # broken at a separator
    monkeypatch.setenv("COLUMNS", "200")
    rc, out, err = cli("compare", "base", "slow")
    assert "left out" not in out


def test_flags_stay_on_one_line_while_a_column_can_go(stores, env, cli, monkeypatch):
    """On a loaded machine every row has flags ('unstable, outliers'): a column is left out
    rather than every row of the table wrapping onto two lines."""
    copy_store(stores["fake"], env)
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, err = cli("show", "loaded")
    rows = [line for line in out.splitlines() if line.endswith("| unstable, outliers")]
    assert len(rows) >= 4, out
    assert not re.search(r"^ +\| .*\| (outliers|unstable,)$", out, re.M), out
    assert "(left out at this width: ops/s, rcv, cycles/op, round-cv;" in out
