"""Targets: where the core runs. Everything that starts tickmark-core goes through here.

    tgt = open_target("ssh://root@board")      # or None / "local", "qemu-user:aarch64", ...
    with tgt:
        core = tgt.prepare(Variant(cflags="-Os"))   # build or pick the core for this target
        core.call(["list", "sys.*"])                 # run to completion -> records
        session = core.start(["run", "sys.*"])       # one round: lines as they arrive
        tgt.fingerprint(core, hello)                 # the target's own fingerprint

A target is one module in this package that subclasses Target (and Core/Session where it must)
and registers its URI scheme with @register; base.py declares the contract, uri.py parses a URI's
options, toolchain.py picks the compiler, qemu.py holds what the qemu-system targets share.
"""

from ..errors import TickmarkError
from ..names import text_problem
from .base import Core, ProcessSession, Session, Target, Variant, register, registered, shown

__all__ = [
    "Core",
    "ProcessSession",
    "Session",
    "Target",
    "Variant",
    "check_uri",
    "open_target",
    "register",
    "schemes",
    "source_identity",
]

_MODULES = ("local", "qemu_user", "ssh", "serial", "qemu_system", "labgrid")


def _load_all():
    import importlib

    for m in _MODULES:
        try:
            importlib.import_module(f"{__name__}.{m}")
        except ModuleNotFoundError as e:  # a target module that is not part of this installation
            if e.name != f"{__name__}.{m}":
                raise


def schemes():
    _load_all()
    return sorted(registered())


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
            raise TickmarkError(f"--power-cycle: target '{shown(uri)}' has no power control (labgrid:PLACE has)")
        options["power_cycle"] = True
    return cls.from_uri(uri, **options)
