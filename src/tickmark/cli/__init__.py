"""The `tickmark` command line: the group and its entry point; each command is a module of this
package (options.py: what they share). The only layer that imports click. Every error is one
line `tickmark: error: ...` and exit status 2."""

import os
import signal
import sys

import click

from .. import __version__
from ..base.errors import Interrupted, TickmarkError
from ..base.names import printable
from .bisect import bisect_cmd
from .bounds import bounds_cmd, check_cmd
from .campaign import campaign_cmd
from .compare import compare_cmd
from .document import export_cmd, import_cmd
from .exec import exec_cmd
from .history import history_cmd
from .info import info_cmd, list_cmd, suites_cmd
from .ingest import ingest_cmd
from .matrix import matrix_cmd
from .memory import bandwidth_cmd, memfn_cmd
from .options import add_store_option, refuse_empty
from .profile import profile_cmd
from .report import report_cmd
from .run import run_cmd
from .show import runs_cmd, show_cmd
from .topology import topology_cmd


class _Group(click.Group):
    """The command group: its list of commands gives each one's first sentence whole (click cuts
    it with "..." at the width), wrapped under itself."""

    def format_commands(self, ctx, formatter):
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    "store_path",
    envvar="TICKMARK_STORE",
    type=click.Path(dir_okay=False),
    help="Result store: an SQLite file (default: ~/.local/share/tickmark/results.db; also sqlite:///PATH) "
    "or a postgresql://USER@HOST/DB URL (a team's shared store).",
)
@click.option(
    "--core", envvar="TICKMARK_CORE", hidden=True, help="Use this prebuilt tickmark-core instead of building one."
)
@click.version_option(__version__, prog_name="tickmark")
@click.pass_context
def cli(ctx, store_path, core):
    """tickmark: OS and processor performance evaluation."""
    ctx.obj = {"store_path": store_path, "store": None, "core": core, "target_uri": None, "target": None}


# every command, and `--store` after the subcommand too (tickmark run --store X) on those that use
# the store (suites, list and info describe the core and the target: no store)
for _cmd in (
    run_cmd,
    matrix_cmd,
    exec_cmd,
    campaign_cmd,
    show_cmd,
    runs_cmd,
    export_cmd,
    import_cmd,
    compare_cmd,
    history_cmd,
    report_cmd,
    topology_cmd,
    memfn_cmd,
    bandwidth_cmd,
    profile_cmd,
    ingest_cmd,
    bisect_cmd,
    bounds_cmd,
    check_cmd,
):
    cli.add_command(refuse_empty(add_store_option(_cmd)))
for _cmd in (suites_cmd, list_cmd, info_cmd):
    cli.add_command(refuse_empty(_cmd))
refuse_empty(cli)


def _error(msg, detail=""):
    """One line `tickmark: error: ...` (control characters escaped, at most 400 characters), then
    any detail lines (e.g. compiler output), escaped as well."""
    msg = " ".join(printable(msg).split()) if msg else "unknown error"
    if len(msg) > 400:
        msg = msg[:397] + "..."
    click.echo(f"tickmark: error: {msg}", err=True)
    if detail:
        click.echo("\n".join(printable(line) for line in str(detail).splitlines()), err=True)
    return 2


def _interrupted(e):
    click.echo(f"tickmark: {getattr(e, 'message', None) or 'interrupted'}", err=True)
    return 130


class OutputLost(Exception):
    """Standard output cannot be written (a full disk, /dev/full, a closed descriptor)."""


class _Stdout:
    """Standard output for the commands: a write that fails says so as OutputLost; a pipe whose
    reader went away (`| head`) is not an error: what follows is thrown away and the command goes
    on to its end (a run is still stored) and its own exit status. A text the stream's encoding
    cannot hold (PYTHONIOENCODING=ascii) is written with backslash escapes."""

    fd = 1

    def __init__(self, stream):
        self._stream = stream
        self.broken = False

    def write(self, text):
        if self.broken:
            return len(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._reader_gone()
            return len(text)
        except UnicodeEncodeError:
            return self._stream.write(_encodable(text, self._stream))
        except OSError as e:
            raise OutputLost(e.strerror or str(e)) from e

    def flush(self):
        if self.broken:
            return None
        try:
            return self._stream.flush()
        except BrokenPipeError:
            self._reader_gone()
        except OSError as e:
            raise OutputLost(e.strerror or str(e)) from e

    def _reader_gone(self):
        self.broken = True
        _silence(self._stream, self.fd)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class _Stderr(_Stdout):
    """Standard error for the commands: when it cannot be written (its reader gone: `2>&1 |
    head`, a full disk), what follows is thrown away; the command goes on to its end."""

    fd = 2

    def write(self, text):
        try:
            return super().write(text)
        except OutputLost:
            self._reader_gone()
            return len(text)

    def flush(self):
        try:
            return super().flush()
        except OutputLost:
            self._reader_gone()


def _encodable(text, stream):
    """text as the stream's encoding can hold it: other characters as backslash escapes."""
    enc = getattr(stream, "encoding", None) or "utf-8"
    return text.encode(enc, "backslashreplace").decode(enc, "replace")


def _escaping_errors(stream):
    """A text stream of the system whose encoding cannot hold a character writes it as a
    backslash escape (not UnicodeEncodeError): for standard error, Python's own default."""
    try:
        stream.reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError, OSError):  # not a TextIOWrapper (a test's capture)
        pass


def _standard_descriptors():
    """Descriptors 0, 1, 2 that are closed (`tickmark runs >&-`) -> their numbers, each now
    /dev/null, so that no file the command opens (the store) takes their place and gets what
    is printed."""
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
    for fd in closed:
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    return closed


def _silence(stream, fd=1):
    """After a failed or broken standard output (descriptor fd, 1 or 2): later writes (Python's
    own at exit) go nowhere."""
    try:
        if stream is None or stream.fileno() != fd:
            return
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a file of the system (a test's capture)
        pass


def _on_signal(signum, frame):
    raise Interrupted(f"interrupted by {signal.Signals(signum).name}")


def main(argv=None):
    from .. import EARLY_SIGNALS, interrupted_early

    # the program's handlers while it loads (tickmark/__init__.py) give way to exceptions that
    # let the command clean up: Ctrl-C as KeyboardInterrupt, SIGTERM and SIGHUP as Interrupted
    early = [s for s in EARLY_SIGNALS if signal.getsignal(s) is interrupted_early]
    rc = _main(argv, early)
    if early:
        _end(rc)
    return rc


def _end(rc):
    """The end of the program: what is left to do at exit is done here, while a signal still
    gets the program's own handler (status 130), then the process ends with rc. Python's own
    shutdown, which would follow, gives the signals back to the system first: a SIGTERM in its
    last moments ended the program by the signal (status 143)."""
    import atexit

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    atexit._run_exitfuncs()
    os._exit(rc)


def _main(argv, early):
    from .. import interrupted_early

    for s in early:
        signal.signal(s, signal.default_int_handler if s == signal.SIGINT else _on_signal)
    args = sys.argv[1:] if argv is None else list(argv)
    real_stdout, real_stderr = sys.stdout, sys.stderr
    try:
        if 1 in _standard_descriptors() or sys.stdout is None:
            return _error("standard output is closed: nothing to print to (redirect it to a file or /dev/null)")
        _escaping_errors(sys.stdout)
        sys.stdout = _Stdout(real_stdout)
        if real_stderr is not None:
            sys.stderr = _Stderr(real_stderr)
        if not args:
            click.echo(cli.get_help(click.Context(cli, info_name="tickmark")))
            return 0
        rv = cli.main(args=args, prog_name="tickmark", standalone_mode=False)
        rv = rv if isinstance(rv, int) and not isinstance(rv, bool) else 0  # ctx.exit(N) -> N
        sys.stdout.flush()
        return rv
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.exceptions.Abort as e:
        return _interrupted(e.__cause__)
    except click.ClickException as e:
        return _error(e.format_message())
    except TickmarkError as e:
        return _error(str(e), e.detail)
    except KeyboardInterrupt as e:
        return _interrupted(e)
    except OutputLost as e:
        _silence(real_stdout)
        return _error(f"cannot write to standard output: {e}")
    finally:
        sys.stdout, sys.stderr = real_stdout, real_stderr
        try:
            if real_stdout is not None:
                real_stdout.flush()
        except OSError:
            _silence(real_stdout)
        for s in early:
            signal.signal(s, interrupted_early)
