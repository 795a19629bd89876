"""The environment fingerprint taken from the machine the core runs on (the target), never guessed.

The facts come from a fixed set of texts (files under /proc, /sys and /etc, and the output of a
few commands such as `uname -m`). `read_local()` reads them here; `PROBE_SCRIPT` is a POSIX sh
script that prints the same texts on another machine in one go (over SSH, for example) and
`parse_probe()` reads its output back. `from_texts()` turns either into the fingerprint, so the
parsing is the same wherever the texts came from. A target without a shell (a serial console, a
captured log) has only what its `hello` record carries: `from_texts({}, build, hello)`. What each
key of the fingerprint means, and how it is compared and worded, is the registry's
(fingerprint.py).
"""

import glob
import os
import platform
import resource
import shutil
import subprocess
from pathlib import Path

from .. import __version__
from ..base.names import decimal, plain_all, word
from .fingerprint import cache_numbers, env_flags, variant_label

# name -> file read on the target
# The probe runs inside the SSH target's holder script: its variables are tm_-prefixed.
FILES = {
    "cpuinfo": "/proc/cpuinfo",
    "online": "/sys/devices/system/cpu/online",
    "governor": "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
    "boost": "/sys/devices/system/cpu/cpufreq/boost",
    "no_turbo": "/sys/devices/system/cpu/intel_pstate/no_turbo",
    "paranoid": "/proc/sys/kernel/perf_event_paranoid",
    "os_release": "/etc/os-release",
    "thp": "/sys/kernel/mm/transparent_hugepage/enabled",
    "clocksource": "/sys/devices/system/clocksource/clocksource0/current_clocksource",
    "loadavg": "/proc/loadavg",
    "sys_vendor": "/sys/class/dmi/id/sys_vendor",
    "product_name": "/sys/class/dmi/id/product_name",
    "board": "/proc/device-tree/model",
    "meminfo": "/proc/meminfo",
}
# name -> shell command run on the target (stderr dropped; a missing command gives no text)
COMMANDS = {
    "uname_s": "uname -s",
    "uname_r": "uname -r",
    "uname_m": "uname -m",
    "hostname": "uname -n",
    "page_size": "getconf PAGESIZE",
    "glibc": "getconf GNU_LIBC_VERSION",
    "musl": "ldd 2>&1 | sed -n 's/^Version /musl /p'",
    "virt_vm": "systemd-detect-virt --vm",
    "virt_ct": "systemd-detect-virt --container",
}
_CACHE_DIR = "/sys/devices/system/cpu/cpu0/cache"
_CACHE_KEYS = ("level", "type", "size", "coherency_line_size")
_MARK = "@@tickmark "
# The device tree's caches (boards whose kernel has no sysfs cache folders): the first CPU's
# L1 data cache, and every node with a cache-level under /cpus (two deep) or at the root. The
# values are big-endian cells, read as hex bytes (`od`).
_DT = "/proc/device-tree"
_DT_GLOBS = (
    "cpus/cpu@*/d-cache-size",
    "cpus/cpu@*/d-cache-line-size",
    "cpus/*/cache-*",
    "cpus/*/*/cache-*",
    "*/cache-*",
)


def _probe_script():
    out = []
    for name, path in FILES.items():
        out.append(f"echo '{_MARK}{name}'; tr -d '\\000' 2>/dev/null < {path}; echo")
    for name, cmd in COMMANDS.items():
        out.append(f"echo '{_MARK}{name}'; ({cmd}) 2>/dev/null; echo")
    keys = " ".join(_CACHE_KEYS)
    out.append(
        f'for tm_i in {_CACHE_DIR}/index*; do [ -d "$tm_i" ] || continue; for tm_k in {keys}; do '
        f'echo "{_MARK}cache/${{tm_i##*/}}/$tm_k"; cat "$tm_i/$tm_k" 2>/dev/null; echo; done; done'
    )
    globs = " ".join(f"{_DT}/{g}" for g in _DT_GLOBS)
    out.append(
        f'for tm_f in {globs}; do [ -f "$tm_f" ] || continue; '
        f'echo "{_MARK}dt/${{tm_f#{_DT}/}}"; od -An -tx1 "$tm_f" 2>/dev/null; echo; done'
    )
    return "\n".join(out) + "\n"


PROBE_SCRIPT = _probe_script()


def parse_probe(text):
    """Output of PROBE_SCRIPT -> {name: text}; an empty text counts as missing."""
    texts, name, buf = {}, None, []
    for line in text.splitlines():
        if line.startswith(_MARK):
            if name is not None:
                texts[name] = "\n".join(buf).strip()
            name, buf = line[len(_MARK) :].strip(), []
        elif name is not None:
            buf.append(line)
    if name is not None:
        texts[name] = "\n".join(buf).strip()
    return {k: v for k, v in texts.items() if v}


def _read(path):
    try:
        return Path(path).read_bytes().replace(b"\0", b"").decode(errors="replace").strip()
    except OSError:
        return None


def _cmd(argv):
    if not shutil.which(argv[0]):
        return None
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip()


def read_local():
    """The texts of this machine (no shell needed)."""
    texts = {name: _read(path) for name, path in FILES.items()}
    u = platform.uname()
    texts.update(
        uname_s=u.system,
        uname_r=u.release,
        uname_m=u.machine,
        hostname=u.node,
        virt_vm=_cmd(["systemd-detect-virt", "--vm"]),
        virt_ct=_cmd(["systemd-detect-virt", "--container"]),
    )
    if hasattr(os, "sysconf"):
        texts["page_size"] = str(os.sysconf("SC_PAGE_SIZE"))
    libc = local_libc()
    if libc:
        texts["glibc" if libc.startswith("glibc") else "musl"] = libc
    for d in sorted(glob.glob(f"{_CACHE_DIR}/index*")):
        for k in _CACHE_KEYS:
            texts[f"cache/{os.path.basename(d)}/{k}"] = _read(f"{d}/{k}")
    for g in _DT_GLOBS:
        for f in glob.glob(f"{_DT}/{g}"):
            try:
                texts["dt/" + os.path.relpath(f, _DT)] = Path(f).read_bytes()[:64].hex(" ")
            except OSError:
                pass
    return {k: v for k, v in texts.items() if v}


def cpuinfo(texts):
    info = {}
    for line in (texts.get("cpuinfo") or "").splitlines():
        k, _, v = line.partition(":")
        k, v = k.strip(), v.strip()
        wanted = (
            "model name",
            "Model",
            "uarch",
            "isa",
            "CPU part",
            "CPU implementer",
            "flags",
            "Features",
            "Hardware",
            "cpu model",
        )
        if k in wanted and k not in info:
            info[k] = v
    return info


def cpu_count(texts):
    """Online CPUs from /sys/devices/system/cpu/online ("0-3,6"), else processors in cpuinfo."""
    n = 0
    for part in filter(None, (texts.get("online") or "").split(",")):
        lo, _, hi = part.partition("-")
        lo, hi = decimal(lo.strip(), 6), decimal(hi.strip(), 6) if hi else None
        if lo is None or (part.count("-") and hi is None):
            n = 0
            break
        n += hi - lo + 1 if hi is not None else 1
    if n:
        return n
    procs = sum(1 for line in (texts.get("cpuinfo") or "").splitlines() if line.split(":")[0].strip() == "processor")
    return procs or None


def caches(texts):
    """The caches sysfs describes: [{"level", "type", "size", "coherency_line_size"}], the level,
    size (bytes) and line size as numbers."""
    idx = sorted({k.split("/")[1] for k in texts if k.startswith("cache/")}, key=lambda s: (len(s), s))
    return cache_numbers([{k: texts.get(f"cache/{i}/{k}") for k in _CACHE_KEYS} for i in idx])


def _cell(text):
    """A device-tree cell (hex bytes, `od -An -tx1`) -> its big-endian 32-bit value, or None."""
    try:
        b = bytes.fromhex("".join((text or "").split()))
    except ValueError:
        return None
    return int.from_bytes(b[:4], "big") if len(b) >= 4 else None


def dt_caches(texts):
    """The caches the device tree describes, in the shape of the sysfs ones (caches()): the
    first CPU's L1 data cache, then each node with a cache level above 1 (one per level)."""
    dt = {k[3:]: v for k, v in texts.items() if k.startswith("dt/")}
    cpus = sorted({k.split("/")[1] for k in dt if k.startswith("cpus/cpu@") and k.count("/") == 2})
    out = []
    size = _cell(dt.get(f"cpus/{cpus[0]}/d-cache-size")) if cpus else None
    if size:
        line = _cell(dt.get(f"cpus/{cpus[0]}/d-cache-line-size"))
        out.append({"level": 1, "type": "Data", "size": size, "coherency_line_size": line})
    for key in sorted(k for k in dt if k.endswith("/cache-level")):
        node = key[: -len("cache-level")]
        lvl, size = _cell(dt[key]), _cell(dt.get(node + "cache-size"))
        if lvl and size and lvl > 1 and all(o["level"] != lvl for o in out):
            line = _cell(dt.get(node + "cache-line-size"))
            out.append({"level": lvl, "type": "Unified", "size": size, "coherency_line_size": line})
    return sorted(out, key=lambda c: c["level"])


def mem_available(texts):
    """Bytes of memory available (MemAvailable of /proc/meminfo), or None."""
    for line in (texts.get("meminfo") or "").splitlines():
        k, _, v = line.partition(":")
        n = decimal(v.split()[0], 15) if k.strip() == "MemAvailable" and v.split() else None
        if n is not None:
            return n * 1024
    return None


def tlb_pages(texts):
    """The TLB size /proc/cpuinfo gives (AMD: "TLB size : 3072 4K pages"), or None."""
    for line in (texts.get("cpuinfo") or "").splitlines():
        k, _, v = line.partition(":")
        words = v.split()
        if k.strip() == "TLB size" and len(words) >= 2 and words[1] == "4K":
            return decimal(words[0], 9)
    return None


def governor_and_boost(texts):
    gov, boost = texts.get("governor"), texts.get("boost")
    if boost is None and texts.get("no_turbo") is not None:
        boost = "0" if texts["no_turbo"] == "1" else "1"
    return gov, (None if boost is None else boost == "1")


def virtualization(texts):
    vm, ct = texts.get("virt_vm"), texts.get("virt_ct")
    if vm or ct:
        vm, ct = vm or "none", ct or "none"
        if ct == "none":
            return vm
        return ct if vm == "none" else f"{vm} ({ct})"
    if "hypervisor" in cpuinfo(texts).get("flags", "").split():
        vendor = texts.get("sys_vendor")
        return f"hypervisor ({vendor})" if vendor else "hypervisor"
    for f in ("sys_vendor", "product_name"):
        s = (texts.get(f) or "").lower()
        for name in ("qemu", "kvm", "vmware", "virtualbox", "xen", "microsoft", "amazon ec2"):
            if name in s:
                return name
    return "none" if texts else None


def thp_mode(texts):
    s = texts.get("thp")
    if not s:
        return None
    for w in s.split():
        if w.startswith("["):
            return w.strip("[]")
    return s


def os_name(texts):
    for line in (texts.get("os_release") or "").splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.split("=", 1)[1].strip().strip('"')
    return None


def local_libc():
    """This machine's C library ('glibc 2.36'), or None."""
    lib, ver = platform.libc_ver()
    return f"{lib} {ver}".strip() if lib else None


# What a process may do on the target (`tickmark info`): its user, its real-time priority limit
# (the hard RLIMIT_RTPRIO) and the CPUs it may run on, asked with these commands through the
# target's shell (LIMITS_SCRIPT, read back with parse_probe), or read here (local_limit_texts).
LIMIT_COMMANDS = {
    "uid": "id -u",
    "rtprio": "ulimit -H -r",
    "cpus_allowed": "sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status",
}
LIMITS_SCRIPT = "".join(f"echo '{_MARK}{name}'; ({cmd}) 2>/dev/null; echo\n" for name, cmd in LIMIT_COMMANDS.items())


def local_limit_texts():
    """LIMIT_COMMANDS' texts of this process (no shell needed)."""
    texts = {}
    if hasattr(os, "geteuid"):
        texts["uid"] = str(os.geteuid())
    try:
        hard = resource.getrlimit(resource.RLIMIT_RTPRIO)[1]
        texts["rtprio"] = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
    except (AttributeError, OSError, ValueError):
        pass
    try:
        texts["cpus_allowed"] = ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        pass
    return texts


def cpu_list(text):
    """'0-3,6' -> [0, 1, 2, 3, 6]; None for a text that is not such a list."""
    cpus = []
    for part in filter(None, (text or "").replace(" ", "").split(",")):
        lo, _, hi = part.partition("-")
        a, b = decimal(lo, 6), decimal(hi, 6) if hi else None
        if a is None or (hi and (b is None or b < a)):
            return None
        cpus += list(range(a, (b if b is not None else a) + 1))
    return cpus or None


def process_limits(texts):
    """LIMIT_COMMANDS' texts -> {"rt_priority": {"allowed", "why"} or None, "affinity":
    {"available", "cpus"} or None} (None: the target did not say)."""
    rt = None
    rtprio = (texts.get("rtprio") or "").strip()
    if (texts.get("uid") or "").strip() == "0":
        rt = {"allowed": True, "why": "root"}
    elif rtprio == "unlimited" or decimal(rtprio, 9) is not None:
        rt = {"allowed": rtprio == "unlimited" or int(rtprio) > 0, "why": f"RLIMIT_RTPRIO={rtprio}"}
    cpus = cpu_list(texts.get("cpus_allowed"))
    return {"rt_priority": rt, "affinity": {"available": True, "cpus": cpus} if cpus else None}


def _int(s):
    s = (s or "").strip()
    n = decimal(s.removeprefix("-"))
    return None if n is None else -n if s.startswith("-") else n


def collect(build=None, hello=None):
    """Fingerprint of this machine; build is a BuildInfo (or dict), hello the core's hello."""
    return from_texts(read_local(), build, hello)


def from_texts(texts, build=None, hello=None):
    """Fingerprint from the target's texts (read_local() or parse_probe()), its build and hello.

    With no texts (serial console, captured log) only the hello record speaks for the target;
    what it does not carry stays None, never the host's value."""
    hello = hello or {}
    ci = cpuinfo(texts)
    gov, boost = governor_and_boost(texts)
    if build is not None and not isinstance(build, dict):
        build = build.as_dict()
    build = build or {}
    paranoid = _int(texts.get("paranoid"))
    triple = hello.get("target") or hello.get("arch")
    arch = texts.get("uname_m") or hello.get("machine") or (triple.split("-")[0] if triple else None)
    kernel_os = texts.get("uname_s") or hello.get("os")
    fp = {
        "tickmark": __version__,
        "arch": arch,
        "cpu_model": (
            ci.get("model name")
            or ci.get("Model")
            or ci.get("uarch")
            or ci.get("cpu model")
            or ci.get("Hardware")
            or "unknown"
        ),
        "board": texts.get("board"),
        "hostname": texts.get("hostname"),
        "cpus_online": cpu_count(texts) or hello.get("cpus"),
        "caches": caches(texts) or dt_caches(texts),
        "caches_source": "sysfs" if caches(texts) else "device tree" if dt_caches(texts) else None,
        "tlb_pages": tlb_pages(texts),
        "mem_available": mem_available(texts),
        "os": os_name(texts) or kernel_os,
        "kernel": texts.get("uname_r") or hello.get("kernel"),
        "libc": texts.get("glibc") or texts.get("musl"),
        "compiler": build.get("cc_version") or hello.get("cc"),
        "cc": build.get("cc"),
        "cflags": build.get("cflags") or hello.get("cflags"),
        "binary_sha256": build.get("binary_sha256"),
        "build_hash": build.get("hash"),
        "core_version": hello.get("core"),
        "port": hello.get("port"),
        "clock": "host: the core's marks as they arrive" if hello.get("host_clock") else hello.get("clock"),
        "host_clock": True if hello.get("host_clock") else None,
        "clock_res_ns": None if hello.get("host_clock") else hello.get("clock_res_ns"),
        "timer_overhead_ps": hello.get("timer_overhead_ps"),
        "ticks": hello.get("ticks"),
        "ticks_khz": hello.get("ticks_khz"),
        "fcore_khz": hello.get("fcore_khz"),
        "cycles_method": hello.get("cycles", "none") if hello else None,
        "counters": ",".join(hello["counters"]) if isinstance(hello.get("counters"), list) else hello.get("counters"),
        "counters_unsupported": hello.get("counters_unsupported"),
        "kernel_excluded": hello.get("kernel_excluded"),
        "loop_overhead_ps": hello.get("loop_overhead_ps"),
        "target": triple,
        "perf_event_paranoid": paranoid,
        "governor": gov,
        "boost": boost,
        "virtualization": virtualization(texts),
        "thp": thp_mode(texts),
        "page_size": _int(texts.get("page_size")) or hello.get("page_size"),
        "clocksource": texts.get("clocksource"),
        "loadavg": texts.get("loadavg"),
    }
    fp["linkage"] = build.get("linkage") or None
    fp["core_libc"] = core_libc(fp["linkage"], build.get("libc"), fp["libc"])
    fp["code_size"] = build.get("code_size")
    fp["memfn"] = os.path.basename(build.get("memfn") or "") or hello.get("memfn") or None
    cc_name = fp.get("cc") or " ".join((hello.get("cc") or "").split()[:1])
    fp["variant"] = build.get("variant") or variant_label(cc_name, fp.get("cflags"), fp["memfn"])
    fp["flags"] = env_flags(fp)
    # what the target printed, by the store's one rule for texts (names.plain): a control or
    # invisible character in `uname -r` becomes a visible escape, a field is at most a word long
    return {k: word(v) if isinstance(v, str) else plain_all(v) for k, v in fp.items()}


def core_libc(linkage, built_with, target_libc):
    """The C library whose routines the core runs: a static core's is the one it was linked with
    (the build's toolchain: 'glibc 2.36 (static)'), a dynamic core's the target's own shared one
    (as the target says, else as the build's headers say)."""
    if linkage == "static":
        return f"{built_with} (static)" if built_with else "linked in (static)"
    if linkage == "dynamic":
        lib = target_libc or built_with
        return f"{lib} (shared)" if lib else None
    return None
