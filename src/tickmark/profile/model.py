"""What a profile is, how routines are named and grouped, and how two profiles differ.

A profile is a plain dict (stored as JSON with the run, exported in the results document):

    {"key": "cpu.stringsort", "tool": "perf", "event": "cpu-clock 1999 Hz", "hits": 2246,
     "seconds": 2.25, "ns_per_op": 1.02e6, "unit": "iteration", "ns_source": "...",
     "kernel": "sampled" | "<why not>", "notes": [...],
     "routines": [{"name": "memmove", "symbols": ["__memmove_avx512_unaligned_erms"],
                   "group": "libc", "dso": "libc.so.6", "self": 0.25, "total": 0.25}, ...]}

`self` and `total` are fractions of the instance's sampled time (the benchmark's own process,
not the runner that starts it); time per operation is share x ns_per_op.
"""

import re

GROUPS = ("core", "libc", "kernel", "other")

# Shared objects of the C library (and its loader and maths library) on Linux.
_LIBC_DSO = re.compile(
    r"^(libc|libm|libpthread|librt|libdl|ld-linux[^/]*|ld-musl[^/]*|ld)([.-].*)?\.so([.\d]*)$"
    r"|^(libc|ld)-[\d.]+\.so$"
)
# Tags of the CPU-specific copies a libc selects at load time (ifuncs): __memmove_avx512_unaligned_erms.
_ISA_TAGS = {
    "sse2",
    "ssse3",
    "sse4",
    "sse42",
    "avx",
    "avx2",
    "avx512",
    "evex",
    "evex512",
    "erms",
    "unaligned",
    "aligned",
    "rtm",
    "generic",
    "asimd",
    "neon",
    "sve",
    "mops",
    "zva",
    "thunderx",
    "thunderx2",
    "falkor",
    "kunpeng",
    "a64fx",
    "oryon1",
    "emag",
    "power7",
    "power8",
    "power9",
    "power10",
    "vsx",
    "rvv",
    "ifunc",
    "ermsb",
    "fsrm",
    "nt",
    "chk",
    "base",
    "nocancel",
}
_CLONE_SUFFIX = re.compile(r"(\.(constprop|isra|part|cold|lto_priv|localalias)(\.\d+)?)+$")
_USER = "tm_user_"


def routine_name(symbol, group):
    """The name a routine is compared under: the libc's CPU-specific copy and a --memfn file's
    replacement both count as the routine they implement (memmove), compiler clone suffixes
    (.constprop.0, .isra.0, .part.0) are dropped."""
    s = _CLONE_SUFFIX.sub("", symbol)
    if s.startswith(_USER) and len(s) > len(_USER):
        return s[len(_USER) :]
    if group == "libc":
        m = re.fullmatch(r"_*([a-z][a-z0-9]*)_([a-z0-9_]+)", s)
        if m and any(t in _ISA_TAGS for t in m.group(2).split("_")):
            return m.group(1)
        m = re.fullmatch(r"__(mem[a-z]+|str[a-z]+|stp[a-z]+|wmem[a-z]+|wcs[a-z]+)", s)
        if m:
            return m.group(1)
    return s


def dso_group(dso, core_paths):
    """core / libc / kernel / other for a perf shared-object name."""
    base = dso.rsplit("/", 1)[-1]
    if dso in core_paths or base in {p.rsplit("/", 1)[-1] for p in core_paths}:
        return "core"
    if (
        dso.startswith("[kernel")
        or dso in ("[vdso]", "[vsyscall]")
        or dso.endswith(".ko")
        or dso.startswith("[")
        and dso.endswith("]")
        and dso not in ("[unknown]", "[anon]", "[heap]", "[stack]")
    ):
        return "kernel"
    if _LIBC_DSO.match(base):
        return "libc"
    return "other"


def group_shares(prof):
    """Self share of each group (core, libc, kernel, other)."""
    out = {g: 0.0 for g in GROUPS}
    for r in prof["routines"]:
        out[r["group"]] = out.get(r["group"], 0.0) + r["self"]
    return out


# ---------------------------------------------------------------- diff
def diff(a, b):
    """Rows of routines whose share or time per operation changed, biggest change first.

    Each row: name, group_a, group_b, self_a, self_b, total_a, total_b, ns_a, ns_b, dns (B - A
    time per operation from the routine's self share; None without both ns/op figures)."""
    ra = {r["name"]: r for r in a["routines"]}
    rb = {r["name"]: r for r in b["routines"]}
    nsa, nsb = a.get("ns_per_op"), b.get("ns_per_op")
    rows = []
    for name in set(ra) | set(rb):
        x, y = ra.get(name), rb.get(name)
        row = {
            "name": name,
            "group_a": x["group"] if x else None,
            "group_b": y["group"] if y else None,
            "symbols_a": x["symbols"] if x else [],
            "symbols_b": y["symbols"] if y else [],
            "self_a": x["self"] if x else 0.0,
            "self_b": y["self"] if y else 0.0,
            "total_a": x["total"] if x else 0.0,
            "total_b": y["total"] if y else 0.0,
        }
        if nsa is not None and nsb is not None:
            row["ns_a"], row["ns_b"] = row["self_a"] * nsa, row["self_b"] * nsb
            row["dns"] = row["ns_b"] - row["ns_a"]
        else:
            row["ns_a"] = row["ns_b"] = row["dns"] = None
        rows.append(row)
    if nsa is not None and nsb is not None:
        # time per operation is what a user pays; the share breaks ties (and orders equal time)
        rows.sort(key=lambda r: (-abs(r["dns"]), -abs(r["self_b"] - r["self_a"]), r["name"]))
    else:
        rows.sort(key=lambda r: (-abs(r["self_b"] - r["self_a"]), r["name"]))
    return rows


def _pct(x):
    p = x * 100
    return f"{p:.0f} %" if p >= 9.5 or p == 0 else f"{p:.1f} %"


def describe(row, unit="op"):
    """'memmove: 25 % -> 90 % self, +4.1 ms per iteration (libc -> core: tm_user_memmove)'."""
    from ..base.fmt import fmt_time

    text = f"{row['name']}: {_pct(row['self_a'])} \u2192 {_pct(row['self_b'])} self"
    if row.get("dns") is not None:
        sign = "+" if row["dns"] >= 0 else "\u2212"
        text += f", {sign}{fmt_time(abs(row['dns']))} per {unit}"
    ga, gb = row.get("group_a"), row.get("group_b")
    if ga and gb and ga != gb:
        sym = (row.get("symbols_b") or [row["name"]])[0]
        text += f" ({ga} \u2192 {gb}: {sym})"
    elif not ga:
        text += " (new in B)"
    elif not gb:
        text += " (gone in B)"
    return text


def top_change(a, b):
    """The one-line description of the routine that changed most from profile a to b."""
    rows = diff(a, b)
    return describe(rows[0], b.get("unit") or a.get("unit") or "op") if rows else None
