"""The `tickmark` command line: the group and its entry point; each command is a module of this
package (options.py: what they share). The only layer that imports click. Every error is one
line `tickmark: error: ...` and exit status 2."""

import sys

import click

from .. import __version__
from ..errors import TickmarkError
from ..names import printable
from .campaign import campaign_cmd
from .compare import compare_cmd
from .document import export_cmd, import_cmd
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


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        if not args:
            click.echo(cli.get_help(click.Context(cli, info_name="tickmark")))
            return 0
        rv = cli.main(args=args, prog_name="tickmark", standalone_mode=False)
        return rv if isinstance(rv, int) and not isinstance(rv, bool) else 0  # ctx.exit(N) -> N
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
        return 0
    finally:
        sys.stdout.flush()
