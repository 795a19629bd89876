"""The code size of a built core, measured once when it is built (build.py) and stored with every
run of it (the fingerprint's code_size): the core's text, data and bss (binutils' `size` of the
binary) and, per benchmark, the bytes of the functions of its bench file (`nm -S` of the file's
object: the file's own code, whatever the linker then put around it). A cross build is measured
with the cross binutils that go with its compiler (aarch64-linux-gnu-nm), else with the plain
ones (GNU binutils read every ELF)."""

import os
import re
import shutil
import subprocess

_DESCRIPTOR = re.compile(r"^TM_BENCH\(\w+\) = \{(.*?)^\};", re.M | re.S)
_NAME = re.compile(r'\.name = "([^"]+)"')
_CC = re.compile(r"(.*-)?(gcc|cc|clang)(-[0-9.]+)?")
CODE_TYPES = set("tTwW")  # functions (weak ones too)
TIMEOUT = 60


def bench_names(source):
    """The benchmark names a bench file's TM_BENCH descriptors define."""
    try:
        text = open(source, encoding="utf-8", errors="replace").read()
    except OSError:
        return []
    return [m.group(1) for d in _DESCRIPTOR.finditer(text) if (m := _NAME.search(d.group(1)))]


def tool(cc, name):
    """binutils' `name` for the compiler cc: its cross prefix's (aarch64-linux-gnu-nm), else the
    plain one, else LLVM's -> path or None."""
    base = os.path.basename((cc or "cc").split()[0])
    m = _CC.fullmatch(base)
    prefix = (m.group(1) or "") if m else ""
    return shutil.which(prefix + name) or shutil.which(name) or shutil.which(f"llvm-{name}")


def _run(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=TIMEOUT)
    except (OSError, subprocess.SubprocessError) as e:
        return None, str(e)
    return (r.stdout, "") if r.returncode == 0 else (None, (r.stderr.strip().splitlines() or ["failed"])[-1])


def core_size(binary, cc):
    """{"text", "data", "bss"} of the binary (Berkeley format: text includes read-only data)."""
    size = tool(cc, "size")
    if not size:
        return None, "binutils' size not found (apt-get install binutils)"
    out, err = _run([size, "-B", binary])
    lines = (out or "").strip().splitlines()
    fields = lines[1].split() if len(lines) > 1 else []
    if len(fields) < 3 or not all(f.isdigit() for f in fields[:3]):
        return None, f"size could not read {os.path.basename(binary)}: {err or 'no figures'}"
    return dict(zip(("text", "data", "bss"), map(int, fields[:3]))), ""


def function_bytes(objects, cc):
    """The bytes of the functions defined in each object file -> {path: bytes}, or None."""
    nm = tool(cc, "nm")
    if not nm or not objects:
        return None
    out, _ = _run([nm, "-S", "--defined-only", *objects])
    if out is None:
        return None
    sizes, current = {o: 0 for o in objects}, objects[0]
    for line in out.splitlines():
        if line.endswith(":") and line[:-1] in sizes:  # nm names each file when it reads several
            current = line[:-1]
            continue
        parts = line.split()
        if len(parts) == 4 and parts[2] in CODE_TYPES:
            try:
                sizes[current] += int(parts[1], 16)
            except ValueError:
                pass
    return sizes


def measure(binary, bench_objects, cc):
    """The code size of a core: binary, its compiler, and [(bench source, its object)] ->
    {"core": {"text", "data", "bss"}, "benches": {name: bytes}, "tool": ...}, or {"error": why}."""
    core, err = core_size(binary, cc)
    if core is None:
        return {"error": err}
    per_obj = function_bytes([o for _, o in bench_objects], cc) or {}
    benches = {}
    for src, obj in bench_objects:
        if obj in per_obj:
            for name in bench_names(src):
                benches[name] = per_obj[obj]
    return {"core": core, "benches": benches, "tool": os.path.basename(tool(cc, "nm") or "")}
