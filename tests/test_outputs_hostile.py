"""Hostile output files: never the store itself, and a failed write keeps the old file."""

import json
import shutil
from pathlib import Path

import pytest

from conftest import need_tool, row_counts
from hostilefix import _tmpfs_script, base_store, exported, one_error_line, store_readable  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


OUTPUT_ON_STORE = [
    ["export", "base", "-o", "{S}"],
    ["export", "base", "-o", "{S}-wal"],
    ["export", "base", "--format", "csv", "-o", "{S}-journal"],
    ["export", "base", "-o", "{link}"],
    ["report", "base", "-o", "{S}"],
    ["report", "base", "-o", "{S}-shm"],
    ["campaign", "{camp}", "--report", "{S}"],
]


@pytest.mark.parametrize("args", OUTPUT_ON_STORE, ids=[" ".join(a) for a in OUTPUT_ON_STORE])
def test_output_onto_the_store_is_refused(exported, env, cli, tmp_path, args):
    (tmp_path / "link.db").symlink_to(env)
    camp = tmp_path / "c.toml"
    camp.write_text('name = "c"\nrounds = 1\n[targets]\na = "local"\n[workloads]\nw = ["sys.fast"]\n')
    argv = [a.format(S=env, link=tmp_path / "link.db", camp=camp) for a in args]
    before = row_counts(env)
    rc, out, err = cli(*argv)
    one_error_line(rc, err, "is a file of the result store")
    assert row_counts(env) == before, "the command ran before it refused"
    store_readable(cli, "base", "base")


def _on_a_full_disk(argv, tmp_path, old_text):
    """argv run in a folder on a small tmpfs (a private mount) holding out.txt = old_text and
    no space left -> (CompletedProcess, what out.txt holds afterwards, files left there)."""
    if not shutil.which("unshare"):
        need_tool("unshare (util-linux) not found")
    mnt = tmp_path / "full"
    mnt.mkdir()
    script = (
        'm="$0"; mount -t tmpfs -o size=1m tmpfs "$m" || exit 99; cd "$m"; printf %s "$1" > out.txt; shift; '
        "head -c 2000K /dev/zero > filler 2>/dev/null; "
        '"$@"; rc=$?; echo; echo ===; cat out.txt; echo; echo ===; ls -A; exit $rc'
    )
    r = _tmpfs_script(script, [str(mnt), old_text], argv)
    _, held, files = r.stdout.rsplit("===", 2)
    return r, held.strip("\n"), files.split()


@pytest.mark.parametrize("args", [["export", "base", "-o", "out.txt"], ["report", "base", "-o", "out.txt"]])
def test_a_failed_output_write_keeps_the_old_file(exported, env, cli, tmp_path, args):
    r, held, files = _on_a_full_disk(["--store", str(env), *args], tmp_path, "OLD CONTENT")
    one_error_line(r.returncode, r.stderr, "cannot write out.txt", "No space left")
    assert held == "OLD CONTENT"
    assert sorted(files) == ["filler", "out.txt"], "a temporary file was left behind"


def test_output_replaces_the_old_file_whole(exported, env, cli, tmp_path):
    out = tmp_path / "out.json"
    out.write_text("x" * 100000)
    out.chmod(0o640)
    rc, _, err = cli("export", "base", "-o", str(out))
    assert rc == 0, err
    assert json.loads(out.read_text())["run"]["name"] == "base"
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out")) == []
    rc, text, err = cli("export", "base", "-o", "/dev/stdout")  # a device is written, never replaced
    assert rc == 0 and Path("/dev/stdout").exists()
