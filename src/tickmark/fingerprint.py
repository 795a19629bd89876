"""The environment fingerprint stored with every run: what machine, OS, compiler and settings
produced these numbers. Everything is read from /proc, /sys and a few commands; a value that
cannot be read is left out (or "unknown"), never guessed."""
import os
import platform
import resource
import shutil
import subprocess
from pathlib import Path

from . import __version__


def _read(path, default=None):
    try:
        return Path(path).read_text().strip()
    except OSError:
        return default


def _cmd(argv):
    if not shutil.which(argv[0]):
        return None
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip()


def cpuinfo():
    info = {}
    text = _read("/proc/cpuinfo", "")
    for line in text.splitlines():
        k, _, v = line.partition(":")
        k, v = k.strip(), v.strip()
        wanted = ("model name", "Model", "uarch", "isa", "CPU part", "CPU implementer", "flags", "Features")
        if k in wanted and k not in info:
            info[k] = v
    return info


def caches():
    out = []
    base = Path("/sys/devices/system/cpu/cpu0/cache")
    for d in sorted(base.glob("index*")):
        out.append({k: _read(d / k) for k in ("level", "type", "size", "coherency_line_size")})
    return out


def governor_and_boost():
    gov = _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    boost = _read("/sys/devices/system/cpu/cpufreq/boost")
    if boost is None:
        no_turbo = _read("/sys/devices/system/cpu/intel_pstate/no_turbo")
        if no_turbo is not None:
            boost = "0" if no_turbo == "1" else "1"
    return gov, (None if boost is None else boost == "1")


def virtualization():
    vm = _cmd(["systemd-detect-virt", "--vm"])
    ct = _cmd(["systemd-detect-virt", "--container"])
    if vm or ct:
        vm, ct = vm or "none", ct or "none"
        if ct == "none":
            return vm
        return ct if vm == "none" else f"{vm} ({ct})"
    if "hypervisor" in cpuinfo().get("flags", "").split():
        vendor = _read("/sys/class/dmi/id/sys_vendor", "")
        return f"hypervisor ({vendor})" if vendor else "hypervisor"
    for f in ("sys_vendor", "product_name"):
        s = (_read(f"/sys/class/dmi/id/{f}", "") or "").lower()
        for name in ("qemu", "kvm", "vmware", "virtualbox", "xen", "microsoft", "amazon ec2"):
            if name in s:
                return name
    return "none"


def thp_mode():
    s = _read("/sys/kernel/mm/transparent_hugepage/enabled")
    if not s:
        return None
    for word in s.split():
        if word.startswith("["):
            return word.strip("[]")
    return s


def rt_priority():
    """Can this user raise itself to real-time priority?"""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return {"allowed": True, "why": "root"}
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_RTPRIO)
    except (AttributeError, OSError):
        return {"allowed": False, "why": "RLIMIT_RTPRIO unknown"}
    return {"allowed": hard > 0, "why": f"RLIMIT_RTPRIO={hard}"}


def affinity():
    try:
        cpus = sorted(os.sched_getaffinity(0))
        return {"available": True, "cpus": cpus}
    except (AttributeError, OSError):
        return {"available": False, "cpus": []}


def collect(build=None, hello=None):
    """Fingerprint dict of this machine; build is a BuildInfo (or dict), hello the core's hello."""
    hello = hello or {}
    ci = cpuinfo()
    gov, boost = governor_and_boost()
    uname = platform.uname()
    paranoid = _read("/proc/sys/kernel/perf_event_paranoid")
    os_name = None
    for line in (_read("/etc/os-release", "") or "").splitlines():
        if line.startswith("PRETTY_NAME="):
            os_name = line.split("=", 1)[1].strip('"')
    libc = " ".join(x for x in platform.libc_ver() if x) or None
    if build is not None and not isinstance(build, dict):
        build = build.as_dict()
    fp = {
        "tickmark": __version__,
        "arch": uname.machine,
        "cpu_model": ci.get("model name") or ci.get("Model") or ci.get("uarch") or "unknown",
        "cpus_online": os.cpu_count(),
        "caches": caches(),
        "os": os_name or uname.system,
        "kernel": uname.release,
        "libc": libc,
        "compiler": (build or {}).get("cc_version") or hello.get("cc"),
        "cc": (build or {}).get("cc"),
        "cflags": (build or {}).get("cflags") or hello.get("cflags"),
        "binary_sha256": (build or {}).get("binary_sha256"),
        "build_hash": (build or {}).get("hash"),
        "core_version": hello.get("core"),
        "port": hello.get("port"),
        "clock": hello.get("clock"),
        "clock_res_ns": hello.get("clock_res_ns"),
        "timer_overhead_ps": hello.get("timer_overhead_ps"),
        "ticks": hello.get("ticks"),
        "ticks_khz": hello.get("ticks_khz"),
        "fcore_khz": hello.get("fcore_khz"),
        "cycles_method": hello.get("cycles", "none") if hello else None,
        "counters": ",".join(hello["counters"]) if isinstance(hello.get("counters"), list) else hello.get("counters"),
        "counters_unsupported": hello.get("counters_unsupported"),
        "kernel_excluded": hello.get("kernel_excluded"),
        "loop_overhead_ps": hello.get("loop_overhead_ps"),
        "target": hello.get("target") or hello.get("arch"),
        "perf_event_paranoid": int(paranoid) if paranoid and paranoid.lstrip("-").isdigit() else None,
        "governor": gov,
        "boost": boost,
        "virtualization": virtualization(),
        "thp": thp_mode(),
        "page_size": os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else None,
        "clocksource": _read("/sys/devices/system/clocksource/clocksource0/current_clocksource"),
        "loadavg": _read("/proc/loadavg"),
    }
    fp["memfn"] = os.path.basename((build or {}).get("memfn") or "") or hello.get("memfn") or None
    cc_name = fp.get("cc") or " ".join((hello.get("cc") or "").split()[:1])
    fp["variant"] = (build or {}).get("variant") or variant_label(cc_name, fp.get("cflags"), fp["memfn"])
    fp["flags"] = env_flags(fp)
    return fp


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
    return flags
