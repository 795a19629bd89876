"""Helpers shared by the commands: the result store, the target, the core and pattern checks."""

import atexit
import os

from ..base.errors import TickmarkError
from ..base.names import printable


def store_of(ctx, readonly=False):
    """The result store of this invocation (opened once, on first use); readonly for commands
    that only read (then a store on read-only media works)."""
    from ..store import Store

    root = ctx.find_root()
    obj = root.obj
    if obj.get("store") is None:
        obj["store"] = store = Store(obj["store_path"], readonly=readonly)
        root.call_on_close(store.close)  # closed when the command ends (its log written back)
    return obj["store"]


def store_for_refs(ctx, refs):
    """The store for commands that take runs or exported files (compare, profile --diff): None
    when every argument is a file by the rule of store/refs.py (a path, `file:PATH`, or an
    existing file where no store can be read); a warning on stderr for an argument that names
    both a stored run and a file here (the run is taken)."""
    import os

    import click

    from ..store.refs import is_file_ref

    runs = [r for r in refs if not is_file_ref(r)]
    if not runs:
        return None
    try:
        store = store_of(ctx, readonly=True)
    except TickmarkError:
        if all(os.path.isfile(r) for r in runs):
            return None
        raise
    for r in runs:
        if os.path.isfile(r) and _stored(store, r):
            click.echo(
                f"tickmark: warning: '{printable(r)}' is a stored run and a file here: the run is compared "
                f"(write ./{printable(r)} or file:{printable(r)} for the file)",
                err=True,
            )
    return store


def _stored(store, ref):
    try:
        store.run(ref)
        return True
    except TickmarkError:
        return False


def target_of(ctx):
    """The target of this invocation (--target / TICKMARK_TARGET; default: this machine).
    Opened once and closed when the command ends, whatever way it ends."""
    from ..targets import check_boots, open_target

    obj = ctx.find_root().obj
    if obj.get("target") is None:
        opts = {"prebuilt": obj.get("core")}
        opts.update({k: obj[k] for k in ("kernel", "append") if obj.get(k) is not None})
        uri = obj.get("target_uri") or "local"
        if "kernel" in opts or "append" in opts:
            check_boots(uri)
        if obj.get("power_cycle"):
            opts["power_cycle"] = True
        tgt = open_target(uri, **opts)
        obj["target"] = tgt
        ctx.find_root().call_on_close(tgt.close)
        atexit.register(tgt.close)
    return obj["target"]


def prepare_core(ctx, cc=None, cflags=None, memfn=None):
    """The core for this invocation's target, built (or picked) for the variant."""
    from ..targets import Variant

    return target_of(ctx).prepare(Variant(cc=cc, cflags=cflags, memfn=memfn))


def hello_of(core):
    """The hello record of the core: timer, cycles method, counters ({} if it cannot be had)."""
    try:
        recs = core.call(["hello"], timeout=60)
    except TickmarkError:
        return {}
    return next((r for r in recs if r.get("t") == "hello"), {})


def _set_store(ctx, param, value):
    if value is not None:
        obj = ctx.find_root().obj
        if obj.get("store") is not None:
            obj["store"].close()
        obj["store_path"], obj["store"] = value, None
    return value


def add_store_option(cmd):
    """--store after the subcommand too (tickmark run --store X): it wins over the one before
    the subcommand, which wins over TICKMARK_STORE."""
    import click

    cmd.params.append(
        click.Option(
            ["--store"],
            metavar="PATH|URL",
            expose_value=False,
            callback=_set_store,
            is_eager=True,
            help="Result store (SQLite file or postgresql:// URL); also before the subcommand or TICKMARK_STORE.",
        )
    )
    return cmd


# options whose empty value means something: no compiler flags, the headline metric, no more
# kernel arguments
EMPTY_ALLOWED = ("cflags", "metric", "append")


def refuse_empty(cmd):
    """Every text option and argument of cmd refuses an empty value ('' never means "not given":
    `--target ''` would run here, `--since ''` filter nothing) with one line; -> cmd."""
    import click

    for p in cmd.params:
        if p.name not in EMPTY_ALLOWED and isinstance(p.type, (click.types.StringParamType, click.Path)):
            p.callback = _no_empty(p.callback)
    return cmd


def _no_empty(callback):
    def check(ctx, param, value):
        values = value if isinstance(value, (tuple, list)) else (value,)
        if any(v == "" for v in values):
            if param.param_type_name == "option":
                raise TickmarkError(f"bad {max(param.opts, key=len)}: empty (give a value, or leave the option out)")
            raise TickmarkError(f"bad {param.human_readable_name}: an empty argument ('') names nothing")
        return callback(ctx, param, value) if callback else value

    return check


def _set_target(ctx, param, value):
    if value is not None:
        ctx.find_root().obj["target_uri"] = value
    return value


def _set_obj(name):
    def cb(ctx, param, value):
        if value is not None:
            ctx.find_root().obj[name] = value
        return value

    return cb


def _set_power_cycle(ctx, param, value):
    if value:
        ctx.find_root().obj["power_cycle"] = True
    return value


def label_option(f):
    """--label KEY=VALUE (repeatable): labels stored with the run(s), for history's --by label:KEY."""
    import click

    return click.option(
        "--label",
        "labels",
        multiple=True,
        metavar="KEY=VALUE",
        help="A label stored with the run (tickmark history orders and filters by labels); repeatable.",
    )(f)


def inconclusive_option(f):
    """--inconclusive=pass|fail of the three gates (compare --fail-above, export --fail-above,
    history --fail-on-change): what a benchmark the one rule cannot decide does to the gate."""
    import click

    from ..analysis.verdict import EXIT_INCONCLUSIVE, INCONCLUSIVE_POLICIES

    return click.option(
        "--inconclusive",
        type=click.Choice(INCONCLUSIVE_POLICIES),
        help="What the gate makes of a benchmark it cannot decide (its wall time kept off the CPU by other work "
        f"and no task-clock verdict): pass, or fail (exit 1); by default exit status {EXIT_INCONCLUSIVE}.",
    )(f)


def run_filter_options(f):
    """The filters of the commands that read many runs (runs, history): --name GLOB (repeatable),
    --target GLOB, --label KEY=VALUE (repeatable), --since DATE|AGE, given to the command as
    names, target, labels, since (report/history.py select_runs() applies them)."""
    import click

    for opt in reversed(
        [
            click.option(
                "--name", "names", multiple=True, metavar="GLOB", help="Only runs whose name matches; repeatable."
            ),
            click.option("--target", metavar="GLOB", help="Only runs on a target URI that matches (e.g. 'ssh://*')."),
            click.option(
                "--label", "labels", multiple=True, metavar="KEY=VALUE", help="Only runs with this label; repeatable."
            ),
            click.option(
                "--since", metavar="DATE|AGE", help="Only runs started since a date (2026-11-01) or an age (7d, 12h)."
            ),
        ]
    ):
        f = opt(f)
    return f


def target_option(f=None, *, kind="usage", boots=True):
    """--target URI on a command (also TICKMARK_TARGET): where the core runs; with
    --kernel IMAGE [--append ARGS] for a kernel image under qemu-system (boots=False: a command
    that cannot boot one leaves them out); --power-cycle. kind: the targets the command supports,
    by the attribute that names them in help (targets.usages: "usage", every one;
    "profile_usage", those a sampler runs beside)."""
    if f is None:
        return lambda g: target_option(g, kind=kind, boots=boots)
    import click

    from ..targets import usages

    uris = usages(kind)
    f = click.option(
        "--power-cycle",
        is_flag=True,
        expose_value=False,
        callback=_set_power_cycle,
        help="Switch the board off and on before it is used (a target with power control: "
        f"{usages(having='power_cycles')}).",
    )(f)
    if boots:
        f = click.option(
            "--kernel",
            metavar="IMAGE",
            type=click.Path(dir_okay=False),
            expose_value=False,
            callback=_set_obj("kernel"),
            is_eager=True,
            help=f"With --target {usages('kernel_usage')}: the Linux kernel image to boot.",
        )(f)
        f = click.option(
            "--append",
            metavar="ARGS",
            expose_value=False,
            callback=_set_obj("append"),
            is_eager=True,
            help="With --kernel: more kernel command-line arguments.",
        )(f)
    return click.option(
        "--target",
        "target_uri",
        metavar="URI",
        envvar="TICKMARK_TARGET",
        expose_value=False,
        callback=_set_target,
        is_eager=True,
        help=f"Where to run: {uris}.",
    )(f)


ROUND_OPTIONS = ("rounds", "max_rounds", "samples", "sample_ms", "seed", "params", "timeout")


def round_options(rounds_help, seed_help="Seed of the benchmark orders."):
    """The sampling options of every command that runs benchmarks (run, matrix): --rounds,
    --max-rounds, --samples, --sample-ms, --seed, --param, --timeout, given to the command as
    one keyword, `run_options` (a dict for run/plan.py's Plan(..., **run_options)); their ranges
    are the run plan's one table (run/plan.py LIMITS), which campaign files use too."""
    import functools

    import click

    from ..run.plan import LIMITS

    def rng(key):
        return click.IntRange(*LIMITS[key])

    lo, hi = LIMITS["samples"]
    ms_lo, ms_hi = LIMITS["sample_ms"]
    opts = [
        click.option("--rounds", type=rng("rounds"), default=3, show_default=True, help=rounds_help),
        click.option(
            "--max-rounds",
            type=rng("max_rounds"),
            default=5,
            show_default=True,
            help="Upper bound of rounds with the adaptive extension for noisy results.",
        ),
        click.option(
            "--samples", type=rng("samples"), default=5, show_default=True, help=f"Samples per round ({lo}-{hi})."
        ),
        click.option(
            "--sample-ms",
            type=rng("sample_ms"),
            help=f"Target length of one sample (ms, {ms_lo}-{ms_hi}; default 10, "
            "or 5 in a run of more than 200 instances).",
        ),
        click.option("--seed", type=rng("seed"), help=seed_help),
        click.option(
            "--param",
            "params",
            multiple=True,
            metavar="[BENCH:]NAME=V,V",
            help="Override a parameter sweep (BENCH: only for the benchmarks that glob matches); repeatable.",
        ),
        click.option(
            "--timeout",
            type=rng("timeout"),
            help="Per-instance time limit (seconds; default 60): an instance that runs longer is "
            "stopped and recorded as timeout, and the run goes on.",
        ),
    ]

    def deco(f):
        @functools.wraps(f)
        def command(*args, **kwargs):
            kwargs["run_options"] = {k: kwargs.pop(k) for k in ROUND_OPTIONS}
            return f(*args, **kwargs)

        for opt in reversed(opts):
            command = opt(command)
        return command

    return deco


def _store_files(ctx):
    """The files of this invocation's SQLite store (the database and SQLite's logs beside it)."""
    from ..store.location import default_path, is_pg_url, locate

    path = ctx.find_root().obj.get("store_path")
    target = locate(path) if path else default_path()
    if is_pg_url(target):
        return []
    base = os.path.expanduser(str(target))
    return [base + suffix for suffix in ("", "-wal", "-shm", "-journal")]


def check_output(ctx, path, inputs=()):
    """An output file (-o, --report) that is not the store or one of its logs, nor one of the
    command's input files (writing there would destroy them), in a folder that exists -> path;
    checked before the command does anything."""
    if not path:
        return path
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise TickmarkError(f"cannot write {path}: no folder {os.path.dirname(path) or folder}")
    for f in inputs:
        if real == os.path.realpath(f) or (os.path.exists(path) and os.path.exists(f) and os.path.samefile(path, f)):
            raise TickmarkError(f"refusing to write {path}: it is the command's input {f} (choose another file)")
    for f in _store_files(ctx):
        same = real == os.path.realpath(f)
        if not same and os.path.exists(path) and os.path.exists(f):
            try:
                same = os.path.samefile(path, f)
            except OSError:
                pass
        if same:
            raise TickmarkError(f"refusing to write {path}: it is a file of the result store (choose another file)")
    return path


def write_file(path, text):
    """Write a command's output file (UTF-8) whole or not at all: into a temporary file in the
    same folder, renamed over the old one once written (a full disk or an interruption keeps
    the old file). A device or a pipe (/dev/stdout) is written directly. One-line error when it
    cannot be written. `text`: a string, or strings to write one after the other (a long output
    that is never held whole) -> the bytes written."""
    import tempfile

    parts = [text] if isinstance(text, str) else text
    written = 0

    def write(f):
        nonlocal written
        for part in parts:
            data = part.encode("utf-8")
            f.write(data)
            written += len(data)

    real = os.path.realpath(path)
    if os.path.exists(path) and not os.path.isfile(path):  # /dev/stdout of a pipe: no real path
        try:
            with open(path, "wb") as f:
                write(f)
        except BrokenPipeError:
            return written  # its reader has gone (| head): not an error
        except OSError as e:
            raise TickmarkError(f"cannot write {printable(path)}: {e.strerror or e}")
        return written
    try:
        folder, name = os.path.split(real)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                write(f)
                f.flush()
                os.fsync(f.fileno())
            try:
                mode = os.stat(real).st_mode & 0o7777
            except FileNotFoundError:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(tmp, mode)
            os.replace(tmp, real)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise
    except OSError as e:
        raise TickmarkError(f"cannot write {printable(path)}: {e.strerror or e} (any file it held is unchanged)")
    return written


def emit(output, text, fmt):
    """A command's document: written whole to the file output (saying so on stderr), or to
    standard output when there is none. `text`: a string, or strings to write one after the
    other (a long document, never held whole)."""
    import click

    if output:
        size = write_file(output, text)
        click.echo(f"tickmark: wrote {printable(output)} ({size // 1024} KiB, {fmt})", err=True)
    else:
        for part in [text] if isinstance(text, str) else text:
            click.echo(part, nl=False)
