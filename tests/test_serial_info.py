"""`tickmark info --target serial:...` on a console that never answers: one error line, exit 2
(it printed a table of "unknown" and exit 0)."""

import os

from conftest import need_tool, one_error_line


def test_info_on_a_silent_console_says_so(env, cli, monkeypatch):
    monkeypatch.delenv("TICKMARK_CORE")
    try:
        import serial  # noqa: F401
    except ImportError:
        need_tool("pyserial is missing")
    master, slave = os.openpty()
    try:
        rc, out, err = cli("info", "--target", f"serial:{os.ttyname(slave)}?silence=2")
        one_error_line(rc, err, "did not answer", "no hello record")
        assert "unknown" not in out
    finally:
        os.close(master)
        os.close(slave)
