"""A core killed before it could remove its scratch folder ($TMPDIR/tickmark-<pid>) leaves it
behind, with whatever its benchmark wrote there (fs.read_bw's 4 MiB file): the next local run
removes the folders of cores that have ended, and leaves those of cores still running."""

import os
import subprocess
import tempfile

from tickmark.targets.local import LocalTarget


def test_a_killed_cores_scratch_folder_goes_at_the_next_run_and_a_live_ones_stays(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    ended = subprocess.Popen(["true"])
    ended.wait()
    dead = tmp_path / f"tickmark-{ended.pid}"
    dead.mkdir()
    (dead / "fs-read").write_bytes(b"x" * 4096)
    live = tmp_path / f"tickmark-{os.getpid()}"
    live.mkdir()
    other = tmp_path / "tickmark-files-notapid"
    other.mkdir()
    LocalTarget.from_uri("local", prebuilt="true").prepare()
    assert not dead.exists()
    assert live.is_dir() and other.is_dir()
