"""Campaign claims: a cell held by a process of this host that has died (a tickmark killed with
SIGKILL) is taken over at once, without waiting out its lease; a live holder's cell is not."""

import os
import socket
from types import SimpleNamespace

from tickmark.store import Store, claims


def _dead_pid():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def test_a_dead_holders_cell_is_taken_at_once(tmp_path):
    st = Store(str(tmp_path / "s.db"))
    try:
        cells = [SimpleNamespace(id="m:O2:w", machine="m")]
        claims.register(st, "c", cells, finished=())
        dead = f"{socket.gethostname()}:{_dead_pid()}"
        assert claims.claim(st, "c", "m", ["m:O2:w"], dead, lease=600) == ("m:O2:w", None)
        me = claims.holder_id()
        assert claims.claim(st, "c", "m", ["m:O2:w"], me, lease=600) == ("m:O2:w", dead)
        # a live holder (this process) keeps its cell for its lease
        assert claims.claim(st, "c", "m", ["m:O2:w"], "other:1", lease=600) is None
    finally:
        st.close()
