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

DESCRIPTOR = re.compile(r"^TM_BENCH\(\w+\) = \{(.*?)^\};", re.M | re.S)
BENCH_NAME = re.compile(r'\.name = "([^"]+)"')
_CC = re.compile(r"(.*-)?(gcc|cc|clang)(-[0-9.]+)?")
CODE_TYPES = set("tTwW")  # functions (weak ones too)
TIMEOUT = 60


def bench_names(source):
    """The benchmark names a bench file's TM_BENCH descriptors define."""
    try:
        text = open(source, encoding="utf-8", errors="replace").read()
    except OSError:
        return []
    return [m.group(1) for d in DESCRIPTOR.finditer(text) if (m := BENCH_NAME.search(d.group(1)))]


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


def _links(objects, nm):
    """{object: the global names it defines, the names it uses from elsewhere} by one `nm` run."""
    out, _ = _run([nm, *objects]) if nm and objects else (None, "")
    if out is None:
        return None
    links, current = {o: (set(), set()) for o in objects}, objects[0]
    for line in out.splitlines():
        if line.endswith(":") and line[:-1] in links:
            current = line[:-1]
            continue
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            links[current][1].add(parts[1])
        elif len(parts) == 3 and parts[1] in "TWDBR":
            links[current][0].add(parts[2])
    return links


def _helpers_used(obj, helpers, links):
    """The helper objects OBJ calls into, directly or through another helper (in HELPERS order)."""
    used, todo = set(), [obj]
    while todo:
        needs = links[todo.pop()][1]
        for h in helpers:
            if h not in used and h != obj and links[h][0] & needs:
                used.add(h)
                todo.append(h)
    return [h for h in helpers if h in used]


def measure(binary, bench_objects, cc):
    """The code size of a core: binary, its compiler, and [(bench source, its object)] ->
    {"core": {"text", "data", "bss"}, "benches": {name: bytes}, "helpers": {name: [file]},
    "tool": ...}, or {"error": why}. A benchmark's bytes are its bench file's functions and those
    of every shared helper file (a bench file that defines no benchmark: bench/common/twoparty.c)
    it calls into, each counted in full for every benchmark that uses it; "helpers" names them."""
    core, err = core_size(binary, cc)
    if core is None:
        return {"error": err}
    objects = [o for _, o in bench_objects]
    per_obj = function_bytes(objects, cc) or {}
    links = _links(objects, tool(cc, "nm"))
    helpers = [o for src, o in bench_objects if not bench_names(src)]
    benches, shared = {}, {}
    for src, obj in bench_objects:
        if obj not in per_obj:
            continue
        used = _helpers_used(obj, helpers, links) if links and helpers else []
        for name in bench_names(src):
            benches[name] = per_obj[obj] + sum(per_obj.get(h, 0) for h in used)
            if used:
                shared[name] = [_source_name(bench_objects, h) for h in used]
    return {"core": core, "benches": benches, "helpers": shared, "tool": os.path.basename(tool(cc, "nm") or "")}


def _source_name(bench_objects, obj):
    """bench/FAMILY/FILE.c of an object."""
    return next("/".join(src.replace(os.sep, "/").split("/")[-3:]) for src, o in bench_objects if o == obj)
