"""Exact counts: a run whose figures are counts of guest instructions (QEMU -icount), not times.

Under `-icount shift=0,sleep=off` the guest's virtual clock advances one nanosecond per guest
instruction, so what the core reads as "ns" is a count of instructions, the same on every run with
one seed. One predicate says whether a run is such a run (`exact_counts`), one sentence says what
its figures are (`EXPLANATION`), and `unit` gives a figure's unit in such a run: every command,
view and export asks these, none re-derives them. A view that cannot show a count honestly (a
rate per second, a time, a time ratio) leaves the figure out.
"""

from __future__ import annotations

from typing import Any

from .units import INSN_OP as COUNT_UNIT
from .units import NS_OP as TIME_UNIT

ICOUNT_METHOD = "icount-insns"  # the cycles method of such a run (its "cycles" are instructions)

EXPLANATION = (
    "every figure is a count of guest instructions (the guest's virtual clock advances one "
    "nanosecond per instruction), the same on every run with the same seed: not a time, never a rate"
)


def _get(x: Any, name: str) -> Any:
    """A fingerprint's field: of a dict, or of anything read as one (history's RunFingerprint)."""
    return x.get(name) if callable(getattr(x, "get", None)) else None


def exact_counts(fingerprint: object) -> bool:
    """Is this run's every figure a count of guest instructions (QEMU -icount)? From its
    fingerprint (a dict; None or anything else: no)."""
    return bool(_get(fingerprint, "qemu_icount")) or _get(fingerprint, "cycles_method") == ICOUNT_METHOD


def unit(unit_name: str | None, exact: bool) -> str | None:
    """The unit a figure is shown in: a time per operation of an exact-count run is guest
    instructions per operation; any other unit (MB/s, a figure's own) is as it is."""
    return COUNT_UNIT if exact and unit_name in (None, "", TIME_UNIT) else unit_name


def explanation(fingerprint: object) -> str | None:
    """The sentence a view prints about an exact-count run ("QEMU -icount shift=0,sleep=off: ..."),
    or None for a run that measured time."""
    if not exact_counts(fingerprint):
        return None
    setting = _get(fingerprint, "qemu_icount")
    return f"QEMU -icount{' ' + str(setting) if setting else ''}: " + EXPLANATION
