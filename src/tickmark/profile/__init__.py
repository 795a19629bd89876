"""Profiles: what a sampler recorded, read into the routines an instance's time goes to, grouped
as the core's own code, the C library, the kernel and other; and the difference between two.

Samplers: Linux `perf record` (cpu-clock, DWARF call chains; see perf.py) and gprof on a `-pg`
build (gprof.py). Symbols are resolved on the host from the unstripped core binary. Running the
instance under a sampler is the target's part (targets/profiling.py), choosing the sampler and
driving it the run's (run/profile.py), which stores the profile through the run engine.
"""

import struct

from ..base.errors import TickmarkError

TOOLS = ("auto", "perf", "gprof")
SAMPLES = 10  # samples of the instance, each seconds/SAMPLES long
KEEP_SELF = 0.001  # routines kept in a stored profile: self share at least 0.1 % ...
KEEP_TOTAL = 0.01  # ... or total share at least 1 %
KEEP_MAX = 60


# ---------------------------------------------------------------- symbols of the binary
def has_symtab(path):
    """Does this ELF file have a symbol table (.symtab)? False for a stripped binary."""
    try:
        with open(path, "rb") as f:
            ident = f.read(16)
            if ident[:4] != b"\x7fELF":
                raise TickmarkError(f"{path} is not an ELF executable; profiles read ELF binaries only")
            is64, end = ident[4] == 2, "<" if ident[5] == 1 else ">"
            hdr = f.read(48 if is64 else 36)
            if is64:
                (shoff,) = struct.unpack(end + "Q", hdr[24:32])
                shentsize, shnum = struct.unpack(end + "HH", hdr[42:46])
            else:
                (shoff,) = struct.unpack(end + "I", hdr[16:20])
                shentsize, shnum = struct.unpack(end + "HH", hdr[30:34])
            for i in range(shnum):
                f.seek(shoff + i * shentsize + 4)
                (sh_type,) = struct.unpack(end + "I", f.read(4))
                if sh_type == 2:  # SHT_SYMTAB
                    return True
    except (OSError, struct.error) as e:
        raise TickmarkError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}")
    return False


def check_symbols(binary):
    if not has_symtab(binary):
        raise TickmarkError(
            f"the core binary {binary} is stripped (no symbol table): a profile cannot "
            "name its routines; profile an unstripped build"
        )


# ---------------------------------------------------------------- one profiled instance
def keep(routines, total):
    """The routines a stored profile keeps (shares of total), biggest self share first."""
    rows = []
    for name, r in routines.items():
        self_f, tot_f = r["self"] / total, r["total"] / total
        if self_f >= KEEP_SELF or tot_f >= KEEP_TOTAL:
            row = {
                "name": name,
                "symbols": r["symbols"],
                "group": r["group"],
                "dso": r.get("dso", ""),
                "self": round(self_f, 6),
                "total": round(min(1.0, max(tot_f, self_f)), 6),
            }
            if r.get("calls") is not None:
                row["calls"] = r["calls"]
            rows.append(row)
    rows.sort(key=lambda x: (-x["self"], -x["total"], x["name"]))
    return rows[:KEEP_MAX]


DEFAULT_SECONDS = {"perf": 1.0, "gprof": 2.0}  # gprof samples at 100 Hz, perf here at 1999 Hz


def attach_ns(prof, ns_per_op, source):
    prof["ns_per_op"] = ns_per_op
    prof["ns_source"] = source
    return prof
