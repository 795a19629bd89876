"""A small synthetic store for the report tests: two runs with every kind of series the report
draws (latency sweep with cache knees, ctx_ring, an event histogram, bandwidth, memfn, nbench
kernels, a skipped and a crashed instance). Numbers are made up but exact, so the report model
built from them can be checked value by value."""

from tickmark.analysis import stats
from tickmark.store import Store

FP = {
    "cpu_model": "Test CPU 9000",
    "arch": "x86_64",
    "cpus_online": 4,
    "kernel": "6.1.0-test",
    "os": "Debian GNU/Linux 12 (bookworm)",
    "libc": "glibc 2.36",
    "compiler": "gcc 12.2.0",
    "cflags": "-O2",
    "variant": "gcc -O2",
    "clock": "CLOCK_MONOTONIC",
    "clock_res_ns": 1,
    "timer_overhead_ps": 20000,
    "cycles_method": "calibrated-freq",
    "fcore_khz": 3000000,
    "governor": "performance",
    "boost": False,
    "virtualization": "kvm",
    "page_size": 4096,
    "thp": "madvise",
    "flags": ["virtualized"],
    "caches": [
        {"level": "1", "type": "Data", "size": "32K"},
        {"level": "1", "type": "Instruction", "size": "32K"},
        {"level": "2", "type": "Unified", "size": "1024K"},
        {"level": "3", "type": "Unified", "size": "16384K"},
    ],
}

KIB = 1024
MIB = 1024 * 1024
# latency (ns) per working set: L1 32K at 1.2 ns, L2 1M at 4 ns, L3 16M at 15 ns, memory 90 ns
LAT = [
    (4 * KIB, 1.2),
    (8 * KIB, 1.2),
    (16 * KIB, 1.2),
    (32 * KIB, 1.25),
    (64 * KIB, 4.0),
    (128 * KIB, 4.0),
    (256 * KIB, 4.05),
    (512 * KIB, 4.1),
    (1 * MIB, 4.2),
    (2 * MIB, 15.0),
    (4 * MIB, 15.0),
    (8 * MIB, 15.2),
    (16 * MIB, 16.0),
    (32 * MIB, 90.0),
    (64 * MIB, 92.0),
    (128 * MIB, 93.0),
]


def samples(ns_per_op, rounds=3, per_round=5, ops=1000, spread=0.002, slow=1.0):
    """Deterministic samples around ns_per_op (a small fixed ripple, round r scaled by slow**r)."""
    out = []
    for r in range(1, rounds + 1):
        for i in range(per_round):
            v = ns_per_op * (1 + spread * ((i * 7 + r * 3) % 5 - 2)) * slow ** (r - 1)
            out.append({"round": r, "i": i, "iters": ops, "ops": ops, "ns": int(v * ops), "cyc": int(v * ops * 3)})
    return out


def add(
    st,
    run_id,
    bench,
    params=None,
    ns=100.0,
    stat="median",
    bpo=0,
    hist=None,
    status="ok",
    reason="",
    scale=1.0,
    subs=None,
    key=None,
):
    params = params or {}
    key = key or bench + ("[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]" if params else "")
    if status != "ok":
        st.add_result(run_id, key=key, bench=bench, params=params, status=status, reason=reason)
        return
    ss = samples(ns * scale)
    if subs:
        for s in ss:
            s["sub"] = {k: int(s["ns"] * f) for k, f in subs.items()}
    hists = [dict(hist, round=1)] if hist else []
    summary = stats.summarize(
        ss, stat=stat, bytes_per_op=bpo, hists=hists, cycles_method="calibrated-freq", env_flags=["virtualized"]
    )
    rid = st.add_result(
        run_id, key=key, bench=bench, params=params, stat=stat, meta={"bytes_per_op": bpo}, stats=summary
    )
    st.add_samples(rid, 1, ss)
    if hist:
        st.add_hist(rid, 1, hist)


HIST = {
    "unit": "ns",
    "count": 1000,
    "min": 3000,
    "max": 250000,
    "sum": 4_100_000,
    "buckets": [[2944, 10], [3072, 400], [3200, 350], [3456, 150], [4096, 60], [8192, 20], [65536, 9], [131072, 1]],
}

PROFILE = {
    "key": "cpu.stringsort",
    "tool": "perf",
    "event": "cpu-clock 999 Hz",
    "hits": 2000,
    "seconds": 2.0,
    "ns_per_op": 9.0e6,
    "unit": "iteration",
    "kernel": "sampled",
    "notes": [],
    "routines": [
        {
            "name": "memmove",
            "symbols": ["__memmove_avx_unaligned_erms"],
            "group": "libc",
            "dso": "libc.so.6",
            "self": 0.25,
            "total": 0.25,
        },
        {
            "name": "stringsort_kernel",
            "symbols": ["stringsort_kernel"],
            "group": "core",
            "dso": "tickmark-core",
            "self": 0.70,
            "total": 0.95,
        },
        {"name": "main", "symbols": ["main"], "group": "core", "dso": "tickmark-core", "self": 0.0, "total": 1.0},
        {
            "name": "page_fault",
            "symbols": ["asm_exc_page_fault"],
            "group": "kernel",
            "dso": "[kernel]",
            "self": 0.05,
            "total": 0.05,
        },
    ],
}

NBENCH_NS = {
    "cpu.numsort": 2.0e6,
    "cpu.stringsort": 9.0e6,
    "cpu.bitfield": 4.0e5,
    "cpu.fpemu": 4.0e6,
    "cpu.fourier": 2.5e5,
    "cpu.assign": 1.5e7,
    "cpu.idea": 5.0e4,
    "cpu.huffman": 1.2e5,
    "cpu.nnet": 4.0e6,
    "cpu.lu": 1.8e5,
}


def fill(st, name, scale=1.0, fp=None, param_value=None):
    rid = st.create_run(
        name=name,
        suite=None,
        patterns=["*"],
        fingerprint=dict(fp or FP, variant=name),
        hello={"counters": ["task_clock"]},
        status="complete",
        started=1_700_000_000,
        finished=1_700_000_100,
        notes={"rounds": 3, "problems": []},
    )
    for size, ns in LAT:
        add(st, rid, "mem.lat_rand", {"size": size, "thp": 0}, ns=ns, stat="min", scale=scale)
    for procs in (2, 8, 32):
        for size in (0, 16):
            add(
                st,
                rid,
                "sched.ctx_ring",
                {"procs": procs, "size": size},
                ns=2000 + 40 * procs + 100 * size,
                scale=scale,
            )
    add(st, rid, "sched.pipe_pingpong", {"cross": 0}, ns=3500, hist=HIST, scale=scale)
    for size in (16 * KIB, 256 * KIB, 4 * MIB):
        add(st, rid, "mem.bw_read", {"size": size}, ns=size / 20.0, stat="max", bpo=size, scale=scale)
    for impl, f in ((0, 1.0), (1, 8.0)):
        for size in (64, 4096):
            add(st, rid, "memfn.memcpy", {"impl": impl, "size": size}, ns=size * 0.05 * f + 2, scale=scale)
    for k, ns in NBENCH_NS.items():
        add(st, rid, k, ns=ns, scale=scale)
    add(st, rid, "sync.mutex", ns=40, subs={"lock": 0.6, "unlock": 0.4}, scale=scale)
    add(st, rid, "sys.getppid", ns=50, scale=scale)
    add(st, rid, "sys.skipper", status="skip", reason="needs a unicorn")
    add(st, rid, "sys.crasher", status="crashed", reason="SIGSEGV")
    st.add_profile(rid, "cpu.stringsort", PROFILE)
    if param_value is not None:
        # a parameter's value is an integer (the protocol's): hostile text reaches the views in the key
        add(st, rid, "sys.param", {"name": 1}, ns=70, scale=scale, key=f"sys.param[name={param_value}]")
    return rid


def make_store(path, second=True, name_a="base", name_b="slow", **kw):
    st = Store(path)
    fill(st, name_a, **kw)
    if second:
        fill(st, name_b, scale=1.25, fp=dict(FP, cflags="-Os"), **kw)
    return st


BOARD_OS = {
    "sys.getppid": 180.0,
    "sys.read": 250.0,
    "sys.write": 210.0,
    "sys.stat": 900.0,
    "sys.open_close": 2100.0,
    "signal.install": 300.0,
    "signal.catch": 1400.0,
    "proc.fork_exit": 90000.0,
    "proc.fork_exec": 400000.0,
    "proc.fork_sh": 1100000.0,
    "ipc.tcp_connect": 30000.0,
}


def make_board_store(path):
    """Four runs of one board that share no benchmark: an os-suite run (system calls, processes,
    IPC latency and bandwidth), a context-switch sweep (sched.ctx_ring, procs x size, with its
    switch_derived sub-metric), a bandwidth run (mem.bw_*) and a latency sweep (mem.lat_rand,
    mem.lat_stride) -> (store, run ids)."""
    st = Store(path)

    def run(name):
        return st.create_run(
            name=name,
            patterns=["*"],
            fingerprint=dict(FP, variant="gcc -O2"),
            hello={},
            status="complete",
            started=1_700_000_000,
            finished=1_700_000_100,
            notes={"rounds": 3, "problems": []},
        )

    os_run = run("board-os")
    for bench, ns in BOARD_OS.items():
        add(st, os_run, bench, ns=ns)
    for bench, ns in (("ipc.pipe_lat", 9000.0), ("ipc.unix_stream_lat", 11000.0), ("ipc.tcp_lat", 25000.0)):
        for cross in (0, 1):
            add(st, os_run, bench, {"cross": cross}, ns=ns * (1 + cross), hist=HIST)
    for bench, mbs in (("ipc.pipe_bw", 1200.0), ("ipc.unix_bw", 1500.0), ("ipc.tcp_bw", 1900.0)):
        size = 65536
        add(st, os_run, bench, {"msg": size, "cross": 0}, ns=size * 1000.0 / mbs, stat="max", bpo=size)
    ctx_run = run("board-ctx")
    for procs in (2, 8, 16):
        for size in (0, 16, 64):
            hop = 3000.0 + 50 * procs + 40 * size
            add(st, ctx_run, "sched.ctx_ring", {"procs": procs, "size": size}, ns=hop, subs={"switch_derived": 0.5})
    bw_run = run("board-bw")
    for bench, mbs in (("mem.bw_read", 9000.0), ("mem.bw_write", 7000.0), ("mem.bw_copy", 3000.0)):
        for size in (16 * KIB, 128 * MIB):
            f = 10 if size < MIB else 1
            add(st, bw_run, bench, {"size": size}, ns=size * 1000.0 / (mbs * f), stat="max", bpo=size)
    topo_run = run("board-topo")
    for size, ns in LAT:
        add(st, topo_run, "mem.lat_rand", {"size": size, "thp": 0}, ns=ns, stat="min")
    for stride, ns in ((8, 2.0), (16, 2.0), (32, 2.0), (64, 3.0), (128, 3.0), (256, 3.0)):
        add(st, topo_run, "mem.lat_stride", {"span": 262144, "stride": stride}, ns=ns, stat="min")
    return st, [os_run, ctx_run, bw_run, topo_run]


LINUX_IRQ = "user space cannot raise an interrupt (signal.catch is the nearest figure)"
# (name, fingerprint, cycles method, instructions or ns per entry of trap.syscall, abort, undef,
# irq, loop.control; a text: the benchmark's skip reason)
SYSTEMS = [
    ("bare-m3", {"os": "bare metal", "board": "mps2-an385", "arch": "armv7m"}, "icount-insns", (2, 16, 12, 8, 2)),
    ("freertos-m7", {"os": "FreeRTOS V11.2.0", "board": "mps2-an500", "arch": "armv7m"}, "icount-insns",
     (2, 16, 12, 8, 2)),
    ("linux-a53", {"os": "Linux", "board": "virt-aarch64", "arch": "aarch64"}, "icount-insns",
     (494, 6568, 5922, LINUX_IRQ, 2)),
    ("native", {"os": "Debian GNU/Linux 12 (bookworm)", "arch": "x86_64"}, "calibrated-freq",
     (410, 8100, 12500, LINUX_IRQ, 0.35)),
    # timed from the host over its serial line: the system call and the control loop alone
    ("hosted", {"os": "bare metal", "board": "mps2-an500", "arch": "armv7m", "host_clock": True}, "none",
     (4350, None, None, None, 3.69)),
]  # fmt: skip
# what the host clock found (analysis/hostclock.py) for each result of the host-timed run:
# (host ps per op, board ps per op, a sample's uncertainty in ppm, resolution ns)
HOSTED = {"trap.syscall": (4_350_000, 4_552_600, 348_900, 6_210_000), "loop.control": (3690, 3655, 156_500, 3_470_000)}


def make_systems_store(path):
    """The kernel-entry benchmarks (trap.*) and the control loop on four systems (bare metal on a
    Cortex-M3, FreeRTOS on a Cortex-M7, Linux under qemu-system, a native Linux whose cycles are
    calibrated, so its figures are times), a board timed from the host (the system call and the
    control loop alone), and a run without them -> (store, run ids)."""
    from tickmark.analysis.kernel_entry import FIGURES

    st = Store(path)
    ids = []
    for name, fp, method, figures in SYSTEMS:
        rid = st.create_run(
            name=name,
            patterns=["trap.*", "loop.control"],
            fingerprint=dict(FP, cycles_method=method, flags=[], kernel=None, **fp),
            hello={"port": "linux" if "Linux" in fp["os"] else "baremetal"},
            status="complete",
            started=1_700_000_000,
            finished=1_700_000_100,
            notes={"rounds": 3, "problems": []},
        )
        for (_, key), ns in zip(FIGURES, figures):
            if ns is None:
                continue
            if isinstance(ns, str):
                add(st, rid, key, status="skip", reason=ns)
                continue
            ss = [dict(s, cyc=s["ns"] if method == "icount-insns" else s["cyc"]) for s in samples(ns, spread=0)]
            summary = stats.summarize(ss, cycles_method=method)
            meta = {}
            if fp.get("host_clock"):
                h, b, ppm, res = HOSTED[key]
                ss = [dict(s, board_ns=round(s["ns"] * b / h)) for s in ss]  # the board's clock beside
                meta["host_clock"] = {"host_ps_per_op": h, "board_ps_per_op": b, "sample_ppm": ppm, "res_ns": res,
                                      "char_ns": 86805, "jitter_ns": res}  # fmt: skip
            rid_r = st.add_result(rid, key=key, bench=key, params={}, stat="median", stats=summary, meta=meta)
            st.add_samples(rid_r, 1, ss)
        ids.append(rid)
    other = fill(st, "other")  # no kernel-entry benchmark: not in the table
    return st, ids + [other]
