"""The one exception type the command line turns into `tickmark: error: ...` (exit 2)."""


class TickmarkError(Exception):
    """A user-facing error: a one-line message, plus optional detail lines (e.g. compiler output)."""

    def __init__(self, message, detail=""):
        super().__init__(message)
        self.detail = detail


class CorruptStore(TickmarkError):
    """A store whose file or rows are damaged (or were edited by hand into something tickmark never writes)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or a signal) at a point that has something to say about it, e.g. what was cleaned up."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message
