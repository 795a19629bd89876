"""tickmark's SSH keepalive (5 s x 3) where the user's ssh configuration sets BatchMode but no
ServerAliveInterval: Debian's ssh implies an interval of 300 s with BatchMode, which is no
choice of the user's, and a hung board would stall a run for 15 minutes."""

import shutil

import pytest

from conftest import need_tool


def test_batchmode_alone_keeps_tickmarks_keepalive(tmp_path, monkeypatch):
    if not shutil.which("ssh"):
        need_tool("ssh (openssh-client) is not installed")
    from tickmark.targets import open_target
    from tickmark.targets.ssh import _KEEPALIVE

    cfg = tmp_path / "ssh_config"
    cfg.write_text("Host *\n  BatchMode yes\n")
    monkeypatch.setenv("TICKMARK_SSH_CONFIG", str(cfg))
    assert open_target("ssh:board")._opts() == ["-F", str(cfg), *_KEEPALIVE]
    cfg.write_text("Host *\n  BatchMode yes\n  ServerAliveInterval 20\n")  # the user's own choice: kept
    assert open_target("ssh:board")._opts() == ["-F", str(cfg)]


@pytest.fixture(autouse=True)
def _no_user_config(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
