"""The environment fingerprint stored with every run: what machine, OS, compiler and settings
produced these numbers. This module is its registry of keys (what each key means, how it is
compared and worded) and the readings every part shares (the cycles method, the variant's name,
the flags of the environment); probe.py takes the fingerprint from the target.
"""

import os
from dataclasses import dataclass

from ..base.names import decimal
from ..base.units import fmt_size, parse_size


# ---------------------------------------------------------------- the keys
@dataclass(frozen=True)
class Key:
    """One fingerprint key, as every part of tickmark reads it (pyperf's metadata registry is the
    model): its type, its label in words, what a difference between two runs means, and how the
    export document declares it.

    type          "text", "int", "bool", "list" or "object" (the JSON type of its value)
    incomparable  runs that differ here measured in different units: a comparison is refused;
                  the label says what a run with a value measures, `absent` what one without does
    shown         a difference is named above a comparison (the settings that explain a change)
    volatile      differs between runs of one setup (load, calibrations): history does not call
                  a difference a change
    separates     runs that differ here are never one series of a history (another target,
                  instruction set, unit or cycles method: their values cannot be compared)
    export        the type the export document's schema holds the value to ("word": a short text
                  or null, "int": an integer or null; None: any value)
    info          a label of the run's info line in OpenMetrics exports
    header        shown in a run's header (`tickmark show`, the report's essentials)"""

    name: str
    type: str
    label: str
    incomparable: bool = False
    absent: str = ""
    shown: bool = False
    volatile: bool = False
    separates: bool = False
    export: str = None
    info: bool = False
    header: bool = False


_KEYS = (
    # the target and the machine
    Key("target_uri", "text", "target", shown=True, info=True, header=True, separates=True),
    Key("board", "text", "board", shown=True),
    Key("cpu_model", "text", "CPU", shown=True, export="word", info=True, header=True),
    Key("arch", "text", "architecture", shown=True, export="word", info=True, header=True, separates=True),
    Key("cpus_online", "int", "CPUs online", shown=True, export="int", header=True),
    Key("caches", "list", "caches the OS reports", shown=True),
    Key("caches_source", "text", "where the OS reports its caches (sysfs, device tree)"),
    Key("tlb_pages", "int", "TLB size in 4 KiB pages (/proc/cpuinfo)"),
    Key("mem_available", "int", "memory available at the start (bytes)", volatile=True),
    Key("kernel", "text", "kernel", shown=True, export="word", info=True, header=True),
    Key("os", "text", "operating system", shown=True, export="word"),
    Key("libc", "text", "C library", shown=True, export="word"),
    Key("port", "text", "core port", shown=True),
    # the build
    Key("compiler", "text", "compiler", shown=True, export="word", info=True, header=True),
    Key("cflags", "text", "compiler flags", shown=True, export="word", info=True, header=True),
    Key("variant", "text", "variant", shown=True, export="word", info=True),
    Key("linkage", "text", "core linkage (static or dynamic)", shown=True, export="word"),
    Key(
        "core_libc",
        "text",
        "C library the core runs (linked in, or the target's shared one)",
        shown=True,
        export="word",
    ),
    Key("cc", "text", "C compiler command"),
    Key("memfn", "text", "memory routine file"),
    Key("binary_sha256", "text", "core binary (sha256)"),
    Key("build_hash", "text", "build cache key"),
    Key("core_version", "text", "core version"),
    Key("code_size", "object", "code size (the core's text, data, bss; each benchmark's functions)"),
    Key("tickmark", "text", "tickmark version"),
    # settings that move numbers
    Key("governor", "text", "CPU frequency governor", shown=True, export="word"),
    Key("boost", "bool", "turbo boost", shown=True),
    Key("page_size", "int", "page size (bytes)", shown=True, export="int"),
    Key("thp", "text", "transparent huge pages", shown=True),
    Key("virtualization", "text", "virtualization", shown=True, export="word", header=True),
    Key("emulated", "bool", "emulated", shown=True),
    Key("clocksource", "text", "kernel clock source", shown=True, export="word"),
    Key("perf_event_paranoid", "int", "perf_event_paranoid"),
    # the time base and the counters
    Key("clock", "text", "timer", export="word", header=True),
    Key("host_clock", "bool", "timed on the host from the core's marks", shown=True),
    Key("before", "text", "command run before each round", shown=True, header=True),
    Key("cpu", "int", "benchmarks pinned to CPU (--cpu)", shown=True, header=True),
    Key("load", "object", "background load beside the run (--load)", shown=True, header=True, separates=True),
    Key("clock_res_ns", "int", "timer resolution (ns)", export="int", header=True),
    Key("timer_overhead_ps", "int", "timer read cost (ps)", volatile=True, export="int"),
    Key("loop_overhead_ps", "int", "loop overhead (ps)", volatile=True),
    Key("ticks", "text", "tick counter", shown=True, export="word"),
    Key("ticks_khz", "int", "tick counter frequency (kHz)", volatile=True),
    Key("fcore_khz", "int", "core clock estimate (kHz)", volatile=True, export="int"),
    Key("cycles_method", "text", "cycles method", shown=True, export="word", info=True, header=True, separates=True),
    Key("counters", "text", "hardware counters"),
    Key("counters_unsupported", "text", "counters not supported"),
    Key("kernel_excluded", "int", "counters count user space only"),
    Key("flags", "list", "flags on every result", volatile=True, header=True),
    # where it ran
    Key("target", "text", "target triple", export="word"),
    Key("host", "text", "host that drove the run", export="word", header=True),
    Key("hostname", "text", "target host name"),
    Key("loadavg", "text", "load average at the start", volatile=True),
    Key("ingested_on", "text", "host that read the log", header=True),
    Key("baud", "int", "console baud rate"),
    Key("labgrid", "object", "labgrid place", volatile=True),
    # emulators
    Key(
        "qemu_icount",
        "text",
        "guest instructions under QEMU -icount",
        incomparable=True,
        absent="measured time",
        header=True,
        separates=True,
    ),
    Key("qemu", "text", "QEMU version"),
    Key("qemu_args", "text", "QEMU machine"),
    Key("qemu_accel", "text", "QEMU accelerator"),
    Key("accel_probe", "text", "why that accelerator"),
    Key("kernel_image", "text", "kernel image"),
    Key("kernel_image_size", "int", "kernel image size (bytes)", export="int"),
    Key("rtos", "object", "RTOS kernel (name, version, port, configuration)", shown=True),
    Key("kernel_cmdline", "text", "kernel command line"),
    Key("kernel_dtb", "text", "device tree"),
)
KEYS = {k.name: k for k in _KEYS}

# The cycles methods: (short tag for a table, meaning in words)
CYCLES_METHODS = {
    "perf": ("perf", "hardware cycle counter (perf)"),
    "pmu": ("pmu", "hardware cycle counter (PMU registers)"),
    "calibrated-freq": (
        "cal",
        "time x a core frequency calibrated from a dependent-add chain (no cycle counter reachable)",
    ),
    "given-freq": ("given", "time x the core frequency given on the command line (--fcore-khz)"),
    "icount-insns": ("insn", "guest instructions counted by QEMU -icount (not cycles; the same on every run)"),
    "none": ("", "not available"),
}


def keys(**where):
    """The keys whose attributes equal `where` (keys(shown=True): the differences of a
    comparison), in the registry's order."""
    return [k for k in _KEYS if all(getattr(k, a) == v for a, v in where.items())]


def label(name):
    """The words for a key, or for one field of an object key ("rtos.heap": "RTOS kernel ...: heap")."""
    if name in KEYS:
        return KEYS[name].label
    parent, _, field = name.partition(".")
    return f"{KEYS[parent].label}: {field}" if parent in KEYS and field else name


def differences(fa, fb):
    """[(key, a, b)] of the shown keys whose values differ between two fingerprints (a list of
    caches in words; an object such as the RTOS kernel's settings field by field, each as a key
    "rtos.FIELD" of its own, when both name the same thing: two FreeRTOS trees; else by name)."""
    out = []
    for k in keys(shown=True):
        a, b = fa.get(k.name), fb.get(k.name)
        if k.type == "object" and (isinstance(a, dict) or isinstance(b, dict)):
            a, b = a if isinstance(a, dict) else {}, b if isinstance(b, dict) else {}
            if a.get("name") != b.get("name"):  # two different kernels: their names say it
                out.append((k, a.get("name"), b.get("name")))
                continue
            for field in list(a) + [f for f in b if f not in a]:
                if a.get(field) != b.get(field):
                    sub = Key(f"{k.name}.{field}", "text", label(f"{k.name}.{field}"), shown=True)
                    out.append((sub, in_words(field, a.get(field)), in_words(field, b.get(field))))
            continue
        a, b = in_words(k.name, a), in_words(k.name, b)
        if a != b:
            out.append((k, a, b))
    return out


def in_words(name, v):
    """A key's value as a person reads it: a list of caches as 'L1d 32K, L2u 512K', another list
    as its items joined by commas, an object as its key=value pairs; anything else as it is."""
    if isinstance(v, dict):
        return ", ".join(f"{k}={x}" for k, x in v.items()) or None
    if name == "caches" and isinstance(v, list):
        return (
            ", ".join(
                f"L{c.get('level')}{(c.get('type') or '?')[:1].lower()} {fmt_size(parse_size(c.get('size')))}"
                for c in v
                if isinstance(c, dict)
            )
            or None
        )
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or None
    return v


def incomparable(fa, fb):
    """(key, what A measures, what B measures) of the first key in whose units two runs differ,
    or None when they can be compared."""
    for k in keys(incomparable=True):
        a, b = fa.get(k.name), fb.get(k.name)
        if a != b:
            if a and b:
                return k, f"{k.label} {a}", f"{k.label} {b}"
            return k, k.label if a else k.absent, k.label if b else k.absent
    return None


def cache_numbers(cs):
    """A list of caches with its level, size and line size as numbers (bytes), however they were
    written: the OS's text ("32K", "1"), as fingerprints before this one stored them, or numbers
    already. A value that is no size reads None; a list that is not one is kept as it is."""
    if not isinstance(cs, list):
        return cs
    out = []
    for c in cs:
        if isinstance(c, dict):
            c = dict(c)
            for k in ("level", "coherency_line_size"):
                if k in c and c[k] is not None:
                    c[k] = _number(c[k])
            if c.get("size") is not None:
                c["size"] = parse_size(c["size"])
        out.append(c)
    return out


def _number(v):
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    return decimal(v.strip(), 12) if isinstance(v, str) else None


def cycles_method(fp, hello=None):
    """What the cycles of a stored run are (the statistics' cycles method): the run's own, as its
    fingerprint records it (QEMU icount: instructions), else what the core's hello said."""
    return (fp or {}).get("cycles_method") or (hello or {}).get("cycles") or "none"


def variant_label(cc, cflags, memfn=None):
    """A readable name of a build variant: 'gcc -O2', 'clang -Os memfn=fast.c'."""
    if not cc and not cflags:
        return None
    words = (cc or "").split()
    name = os.path.basename(words[0]) if words else "cc"
    label = " ".join([name] + words[1:] + ([cflags] if cflags else []))
    if memfn:
        label += f" memfn={os.path.basename(memfn)}"
    return label


# What each flag on every result of a run means, in words (env_flags; `emulated`: base_fingerprint)
ENV_FLAG_MEANINGS = {
    "virtualized": "the run was in a virtual machine or container: a neighbour can steal time, "
    "and the timer and counters may be emulated",
    "freq-scaling": "the CPU frequency may change during the run (governor not 'performance', or "
    "turbo boost on): times can drift between samples",
    "kernel-excluded": "the hardware counters count user space only (perf_event_paranoid), so "
    "cycles miss the time spent in the kernel",
    "emulated": "the core ran under an emulator: times are the emulator's, not the target processor's",
    "host-clock": "timed on the host, from the arrival of the core's marks on its console, not by the "
    "board's clock (the host-clock table states the resolution)",
}


def env_flags(fp):
    """Flags that apply to every result of a run on this machine."""
    flags = []
    if fp.get("virtualization") not in (None, "none"):
        flags.append("virtualized")
    if (fp.get("governor") not in (None, "performance")) or fp.get("boost"):
        flags.append("freq-scaling")
    excluded = fp.get("kernel_excluded")
    if excluded is None:
        excluded = (fp.get("perf_event_paranoid") or 0) >= 2
    if fp.get("cycles_method") == "perf" and excluded:
        flags.append("kernel-excluded")
    if fp.get("host_clock"):
        flags.append("host-clock")
    return flags
