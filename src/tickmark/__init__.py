"""tickmark: OS and processor performance evaluation toolkit (host harness)."""

import _signal  # the C module: `signal` loads enum first, a tenth of a second on a busy machine
import os
import sys

__version__ = "0.1.0"


def interrupted_early(signum, frame):
    """Ctrl-C while the command line loads (click, every command) or after it has ended: one
    line and exit status 130, as a Ctrl-C while it runs; there is nothing to clean up yet."""
    os.write(2, b"tickmark: interrupted\n")
    os._exit(130)


# only when this is the `tickmark` program (its script or `python -m tickmark.cli`), never when
# another program imports the package; the command line's main() takes Ctrl-C over
if (sys.argv[:1] == ["-m"] or os.path.basename(sys.argv[0] if sys.argv else "") == "tickmark") and (
    _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler
):
    _signal.signal(_signal.SIGINT, interrupted_early)
