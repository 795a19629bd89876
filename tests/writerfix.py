"""What the tests of a store changed under a running writer share (a backup restored over it,
the file emptied or replaced): a backup of stored runs, and a run of the synthetic core that is
writing to the store, caught inside a slow instance."""

import sqlite3
import time

from conftest import row_counts, synthetic_store, tickmark_proc, wait_results

RUN = ("run", "-q", "--rounds", "1", "--samples", "2")
SWEEP = "size=" + ",".join(str(1024 * k) for k in range(1, 40))


def make_backup(folder, runs):
    """A store of RUNS runs in FOLDER with its log folded in (a backup as a user keeps one)
    -> its path."""
    path = synthetic_store(folder, *[(*RUN, "sys.fast", "--name", f"b{i}") for i in range(runs)])
    db = sqlite3.connect(str(path))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


def writing_run(env, slow=6):
    """A run that stores results before and after a slow instance (ipc.ping, SLOW seconds) -> its
    process, once it is inside that instance (no result stored for a second)."""
    p = tickmark_proc(
        RUN + ("lat.sweep", "ipc.ping", "sys.fast", "--param", SWEEP, "--seed", "1", "--name", "victim"),
        env={"FAKECORE_MODE": f"slowkey=ipc.ping,slow={slow}"},
    )
    wait_results(env, 3)
    seen, since = None, time.time()
    while time.time() - since < 1.0:
        n = row_counts(env)["results"]
        if n != seen:
            seen, since = n, time.time()
        time.sleep(0.05)
    assert p.poll() is None
    return p
