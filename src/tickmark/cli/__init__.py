"""The `tickmark` command line: the group and its entry point; each command is a module of this
package (options.py: what they share). The only layer that imports click. Every error is one
line `tickmark: error: ...` and exit status 2."""

import os
import signal
import sys

import click

from .. import __version__
from ..errors import TickmarkError
from ..names import printable
from .campaign import campaign_cmd
from .compare import compare_cmd
from .document import export_cmd, import_cmd
from .exec import exec_cmd
from .history import history_cmd
from .info import info_cmd, list_cmd, suites_cmd
from .ingest import ingest_cmd
from .matrix import matrix_cmd
from .memory import bandwidth_cmd, memfn_cmd
from .options import add_store_option
from .profile import profile_cmd
from .report import report_cmd
from .run import run_cmd
from .show import runs_cmd, show_cmd
from .topology import topology_cmd


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    "store_path",
    envvar="TICKMARK_STORE",
    type=click.Path(dir_okay=False),
    help="Result store: an SQLite file (default: ~/.local/share/tickmark/results.db) "
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


# every command, then `--store` after the subcommand too (tickmark run --store X)
for _cmd in (
    run_cmd,
    matrix_cmd,
    exec_cmd,
    campaign_cmd,
    suites_cmd,
    list_cmd,
    info_cmd,
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
):
    cli.add_command(add_store_option(_cmd))


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
    """Standard output for the commands: a write that fails says so as OutputLost (a pipe whose
    reader went away stays BrokenPipeError: nobody is reading, nothing to say)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputLost(e.strerror or str(e)) from e

    def flush(self):
        try:
            return self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputLost(e.strerror or str(e)) from e

    def __getattr__(self, name):
        return getattr(self._stream, name)


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


def _silence_stdout(stream):
    """After a failed or broken standard output (descriptor 1): later writes (Python's own at
    exit) go nowhere."""
    try:
        if stream is None or stream.fileno() != 1:
            return
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a file of the system (a test's capture)
        pass


def main(argv=None):
    from .. import interrupted_early

    early = signal.getsignal(signal.SIGINT) is interrupted_early
    if early:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    args = sys.argv[1:] if argv is None else list(argv)
    real_stdout = sys.stdout
    try:
        if 1 in _standard_descriptors() or sys.stdout is None:
            return _error("standard output is closed: nothing to print to (redirect it to a file or /dev/null)")
        sys.stdout = _Stdout(real_stdout)
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
    except BrokenPipeError:
        _silence_stdout(real_stdout)
        return 0
    except OutputLost as e:
        _silence_stdout(real_stdout)
        return _error(f"cannot write to standard output: {e}")
    finally:
        sys.stdout = real_stdout
        try:
            if real_stdout is not None:
                real_stdout.flush()
        except OSError:
            _silence_stdout(real_stdout)
        if early:
            signal.signal(signal.SIGINT, interrupted_early)
