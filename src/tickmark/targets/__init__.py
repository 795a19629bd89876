"""Targets: where the core runs. Everything that starts tickmark-core goes through here.

    tgt = open_target("ssh://root@board")      # or None / "local", "qemu-user:aarch64", ...
    with tgt:
        core = tgt.prepare(Variant(cflags="-Os"))   # build or pick the core for this target
        core.call(["list", "sys.*"])                 # run to completion -> records
        session = core.start(["run", "sys.*"])       # one round: lines as they arrive
        tgt.fingerprint(core, hello)                 # the target's own fingerprint

A target is one module in this package that subclasses Target (and Core/Session where it must),
says how help texts name it (usage, profile_usage, ...) and registers its URI scheme with
@register: every module here is imported to find them, and help texts and checks read them.
base.py declares the contract, uri.py parses a URI's options, toolchain.py picks the compiler,
qemu.py holds what the qemu-system targets share.
"""

from ..base.errors import TickmarkError
from ..base.names import text_problem
from .base import Core, ProcessSession, Session, Target, Variant, register, registered, shown

__all__ = [
    "Core",
    "ProcessSession",
    "Session",
    "Target",
    "Variant",
    "check_boots",
    "check_uri",
    "open_target",
    "register",
    "schemes",
    "source_identity",
    "targets",
    "usages",
]


def _load_all():
    """Import every module of this package: a target registers itself there (@register), so a
    new target is one module (asv finds its plugins the same way)."""
    import importlib
    import pkgutil

    for m in pkgutil.iter_modules(__path__):
        try:
            importlib.import_module(f"{__name__}.{m.name}")
        except ModuleNotFoundError as e:  # a target module that is not part of this installation
            if e.name != f"{__name__}.{m.name}":
                raise


def schemes():
    _load_all()
    return sorted(registered())


def targets():
    """The registered target classes, one per scheme, as help texts list them: this machine
    first, then by scheme."""
    _load_all()
    reg = registered()
    return [reg[s] for s in sorted(reg, key=lambda s: (s != "local", s))]


def usages(kind="usage", having=None):
    """How a help text names the targets: every one (kind "usage"), those a sampler can run
    beside (profile_usage), those that boot a kernel image (kernel_usage) or start any program
    (program_usage), joined with commas; having: only those with that capability (power_cycles)."""
    return ", ".join(
        getattr(cls, kind) for cls in targets() if getattr(cls, kind) and (having is None or getattr(cls, having))
    )


def check_boots(uri):
    """--kernel and --append only with a target that boots a kernel image (one error for every
    command)."""
    if not _target_class(uri or "local").kernel_usage:
        raise TickmarkError(
            f"--kernel and --append boot a kernel image: use them with --target {usages('kernel_usage')}"
        )


def _target_class(uri):
    _load_all()
    bad = text_problem(uri)  # the store's one rule for texts: the URI is stored with the run
    if bad:
        raise TickmarkError(f"bad --target '{shown(uri)}': {bad}")
    scheme = uri.split(":", 1)[0] if ":" in uri else uri
    cls = registered().get(scheme)
    if cls is None:
        raise TickmarkError(f"unknown target '{shown(uri)}' (known: {', '.join(schemes())})")
    return cls


def check_uri(uri):
    """A target URI checked without reaching the target (a campaign checks every one before it
    runs anything) -> the machine its cores run on (Target.host_key()). TickmarkError when bad."""
    return _target_class(uri or "local").check_uri(uri or "local")


def source_identity(uri):
    """What the target URI builds its core from besides the core and the variant, read without
    building, booting or reaching it (Target.source_identity). TickmarkError when unreadable."""
    return _target_class(uri or "local").source_identity_of(uri or "local")


def open_target(uri=None, power_cycle=False, **options):
    """A Target for URI (None, "" or "local": this machine). Raises TickmarkError for a bad URI.
    power_cycle: switch the board off and on first (a target with power control)."""
    uri = uri or "local"
    cls = _target_class(uri)
    if power_cycle:
        if not cls.power_cycles:
            raise TickmarkError(
                f"--power-cycle: target '{shown(uri)}' has no power control ({usages(having='power_cycles')} has)"
            )
        options["power_cycle"] = True
    return cls.from_uri(uri, **options)
