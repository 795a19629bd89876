"""tickmark: OS and processor performance evaluation toolkit (host harness)."""

import _signal  # the C module: `signal` loads enum first, a tenth of a second on a busy machine
import os
import sys

__version__ = "0.1.0"


def interrupted_early(signum, frame):
    """Ctrl-C, SIGTERM or SIGHUP while the command line loads (click, every command) or after it
    has ended: one line and exit status 130, as while it runs; there is nothing to clean up yet."""
    os.write(2, b"tickmark: interrupted\n")
    os._exit(130)


EARLY_SIGNALS = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)

# only when this is the `tickmark` program (its script or `python -m tickmark.cli`), never when
# another program imports the package; the command line's main() takes these signals over. A
# signal that is ignored (SIGHUP under nohup) stays ignored.
if sys.argv[:1] == ["-m"] or os.path.basename(sys.argv[0] if sys.argv else "") == "tickmark":
    for _sig in EARLY_SIGNALS:
        if _signal.getsignal(_sig) in (_signal.default_int_handler, _signal.SIG_DFL):
            _signal.signal(_sig, interrupted_early)
