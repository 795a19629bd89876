#!/usr/bin/env python3
"""A stand-in for tickmark-core that speaks TM1 (docs/protocol.md) with synthetic numbers.

Used by the harness tests so they run without a C compiler. FAKECORE_MODE (comma list):
  noise     junk and malformed lines around the records
  die=N     exit with status 3 after N instances, no 'bye'
  slowkey=K sleep 30 s inside instance K (for interrupt tests); slow=S: S seconds instead
  usage     refuse 'run' as bad usage (exit 2, a message on stderr)
  error     an 'error' record ("record too long") where the hello belongs
  noisy=K   instance K is 20 % slower in every second invocation (needs FAKECORE_LOG)
  slower=K:F  instance K takes F times as long (wall and on-CPU time)
  oncpu=K:F   instance K takes F times as much on-CPU time (task-clock), its wall time unchanged
  contend=K:F instance K is kept off the CPU: F times the wall time (give or take 20 %), its on-CPU
            time unchanged (other work on a busy machine)
  cpujitter=K:F the on-CPU time of instance K varies by up to +-F (a fraction) from sample to sample
  cflags=X  the flags the hello record says the core was built with (-O2 otherwise)
  bad=KIND  a hostile stream for sys.fast: bigns, strns, nons, negns, floatns (sample 0's ns),
            dup (every sample twice), endfirst (end before the samples), twoperline (samples
            two to a line), stall (stop writing, stay alive)
FAKECORE_LOG: append each argv (one line) to this file.

Patterns select as the real core's do (tests/test_tm1.py holds the two together): the project's
pattern rule (tickmark.base.patterns), on a benchmark's name, or with a '[' on an instance's key.
"""

import json
import os
import random
import shutil
import sys
import time

from tickmark.base.patterns import matches

BENCHES = [
    {"name": "sys.fast", "unit": "call", "stat": "median", "params": [], "subs": [], "ns": 100},
    {"name": "sys.skipme", "unit": "call", "stat": "median", "params": [], "subs": [], "skip": "needs a unicorn"},
    {"name": "sys.crashy", "unit": "call", "stat": "median", "params": [], "subs": [], "crash": "SIGSEGV"},
    {
        "name": "lat.sweep",
        "unit": "load",
        "stat": "min",
        "params": [{"name": "size", "sweep": "1024,65536", "help": "bytes"}],
        "subs": [],
        "ns": 2,
    },
    {"name": "bw.copy", "unit": "byte", "stat": "max", "params": [], "subs": [], "ns": 5, "bpo": 64},
    {"name": "sync.lockpair", "unit": "pair", "stat": "median", "params": [], "subs": ["lock", "unlock"], "ns": 40},
    {"name": "ipc.ping", "unit": "round trip", "stat": "median", "params": [], "subs": [], "ns": 5000, "hist": True},
]

MODE = dict((m.split("=") + [""])[:2] for m in os.environ.get("FAKECORE_MODE", "").split(",") if m)


def _factor(mode, key):
    """F of a mode K:F for instance K, else 1."""
    k, _, f = MODE.get(mode, "").rpartition(":")
    return float(f) if k == key else 1.0


def _jitter(key, rng):
    """1, or for instance K of cpujitter=K:F a factor from 1 - F to 1 + F."""
    f = _factor("cpujitter", key)
    return 1.0 if f == 1 else 1 + f * (2 * rng.random() - 1)


def emit(obj):
    if "noise" in MODE:
        print("[  12.345] uart: noise before TM1 record")
        print('TM1 {"t": "sample", broken')
        print("garbage TM1 " + json.dumps(obj, separators=(",", ":")) + "\r")
    else:
        print("TM1 " + json.dumps(obj, separators=(",", ":")))
    sys.stdout.flush()


def bench_selected(name, pattern):
    """Like the core: a pattern selects a benchmark by its name; one with a '[' (an instance's
    key) selects the benchmark its part before the '[' names."""
    return matches(name, pattern.split("[")[0])


def instance_selected(key, name, pattern):
    """Like the core: a pattern with a '[' selects instances by their key, one without every
    instance of the benchmarks it names."""
    return matches(key, pattern) if "[" in pattern else matches(name, pattern)


def instances(b, overrides):
    if not b["params"]:
        return [(b["name"], {})]
    p = b["params"][0]
    scoped = [
        v
        for k, v in overrides.items()
        if ":" in k and matches(b["name"], k.split(":")[0]) and k.split(":")[1] == p["name"]
    ]  # like the core: BENCH:NAME wins over NAME
    vals = (scoped[-1] if scoped else overrides.get(p["name"], p["sweep"])).split(",")
    return [(f"{b['name']}[{p['name']}={v}]", {p["name"]: int(v)}) for v in vals]


def main(argv):
    if os.environ.get("FAKECORE_LOG"):
        with open(os.environ["FAKECORE_LOG"], "a") as f:
            f.write(json.dumps(argv) + "\n")
    cmd, rest = argv[0], argv[1:]
    if "usage" in MODE and cmd == "run":
        print("tickmark-core: --samples wants 1..1000 (try: tickmark-core help)", file=sys.stderr)
        return 2
    globs, opts, iters, params = [], {"samples": 5, "seed": 1}, {}, {}
    i = 0
    while i < len(rest):
        a = rest[i]
        if a == "--":  # like the core: the rest are patterns
            globs += rest[i + 1 :]
            break
        if a.startswith("--"):
            v = rest[i + 1]
            i += 2
            if a == "--iters":
                k, _, n = v.rpartition("=")
                iters[k] = int(n)
            elif a == "--param":
                k, _, vs = v.partition("=")
                params[k] = vs
            elif a in ("--samples", "--seed", "--sample-ms", "--timeout"):
                opts[a[2:]] = int(v)
            else:
                print(f"tickmark-core: unknown option {a}", file=sys.stderr)
                return 2
        else:
            globs.append(a)
            i += 1
    sel = [b for b in BENCHES if not globs or any(bench_selected(b["name"], g) for g in globs)]
    if cmd == "list":
        for b in sel:
            emit(
                {
                    "t": "bench",
                    "name": b["name"],
                    "summary": "synthetic " + b["name"],
                    "unit": b["unit"],
                    "requires": "",
                    "params": b["params"],
                    "subs": ",".join(b["subs"]),
                    "stat": b["stat"],
                    "supported": 0 if "skip" in b else 1,
                    "reason": b.get("skip", ""),
                }
            )
        for g in globs:
            if not any(bench_selected(b["name"], g) for b in BENCHES):
                emit({"t": "unmatched", "pattern": g})
        return 0
    # like the real core: a scratch folder $TMPDIR/tickmark-<pid> while it runs, removed with what
    # is in it at its end (a core killed earlier with the same PID may have left files there)
    scratch = os.path.join(os.environ.get("TMPDIR") or "/tmp", f"tickmark-{os.getpid()}")
    os.makedirs(scratch, exist_ok=True)
    try:
        return run(opts, globs, iters, params, sel)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(opts, globs, iters, params, sel):
    rng = random.Random(opts["seed"])
    order = [b["name"] for b in sel]
    rng.shuffle(order)
    hello = {
        "t": "hello",
        "v": 1,
        "core": "0.1.0",
        "target": "x86_64-linux-gnu",
        "port": "fake",
        "cc": "fakecc 1",
        "cflags": MODE.get("cflags") or "-O2",
        "memfn": "",
        "seed": opts["seed"],
        "samples": opts["samples"],
        "sample_ms": 10,
        "clock": "CLOCK_MONOTONIC",
        "clock_res_ns": 1,
        "timer_overhead_ps": 20000,
        "loop_overhead_ps": 500,
        "loop_overhead_mcyc": 0,
        "ticks": "rdtsc",
        "kernel_excluded": 0,
        "counters_grouped": 0,
        "counters_unsupported": "cycles,instructions",
        "ticks_khz": 3000000,
        "fcore_khz": 3000000,
        "cycles": "calibrated-freq",
        "counters": ["task_clock"],
        "cpus": 2,
        "cpu": 0,
        "page_size": 4096,
        "os": "Linux",
        "kernel": "6.1.0-fake",
        "machine": "x86_64",
        "tlb_src": "cpuid 0x18",
        "order": order,
    }
    emit({"t": "error", "reason": "record too long"} if "error" in MODE else hello)
    done = 0
    calls = 0
    if os.environ.get("FAKECORE_LOG"):
        with open(os.environ["FAKECORE_LOG"]) as f:
            calls = sum(1 for _ in f)
    for name in order:
        b = next(x for x in BENCHES if x["name"] == name)
        for key, p in instances(b, params):
            if globs and not any(instance_selected(key, name, g) for g in globs):
                continue
            if "die" in MODE and done >= int(MODE["die"]):
                sys.stderr.write("fake core: simulated crash of the runner\n")
                return 3
            done += 1
            if "skip" in b:
                emit({"t": "end", "key": key, "status": "skip", "reason": b["skip"], "wall_ns": 1000})
                continue
            n = iters.get(key, 1000)
            emit(
                {
                    "t": "meta",
                    "bench": name,
                    "key": key,
                    "params": p,
                    "unit": b["unit"],
                    "iters": n,
                    "ops_per_iter": 10,
                    "bytes_per_op": b.get("bpo", 0),
                    "method": "direct",
                    "stat": b["stat"],
                    "blocking": 0,
                    "calib_ns": 1000000,
                    "fcore_khz": 3000000,
                    "loop_overhead_ps": 500,
                }
            )
            if "crash" in b:
                emit({"t": "end", "key": key, "status": "crashed", "reason": b["crash"], "wall_ns": 5000})
                continue
            if MODE.get("slowkey") == key:
                time.sleep(float(MODE.get("slow", 30)))
            bad = MODE.get("bad", "") if name == "sys.fast" else ""
            if bad == "stall":
                time.sleep(3600)
            if bad == "endfirst":
                emit({"t": "end", "key": key, "status": "ok", "reason": "", "wall_ns": 60_000_000})
            pending = []
            for i in range(opts["samples"]):
                ops = n * 10
                bias = 1.2 if MODE.get("noisy") == key and calls % 2 else 1.0
                bias *= _factor("slower", key)
                per = b["ns"] * bias * (1 + 0.01 * rng.random()) * (1 + p.get("size", 0) / 65536)
                cpu_ns = int(ops * per)
                off = _factor("contend", key)
                ns = int(cpu_ns * off * (1 + 0.2 * rng.random())) if off != 1 else cpu_ns
                s = {
                    "t": "sample",
                    "key": key,
                    "i": i,
                    "iters": n,
                    "ops": ops,
                    "ns": ns,
                    "cyc": ns * 3,
                    "nivcsw": 0,
                    "minflt": 0,
                    "cpu0": 1,
                    "cpu1": 1,
                    "retaken": 0,
                    "ctr_ops": ops,
                    "ctr": {"task_clock": int(cpu_ns * _factor("oncpu", key) * _jitter(key, rng))},
                    "multiplexed": 0,
                }
                if b["subs"]:
                    s["sub"] = {"lock": ns * 6 // 10, "unlock": ns * 4 // 10}
                if i == 0 and bad in ("bigns", "strns", "nons", "negns", "floatns"):
                    s["ns"] = {"bigns": 10**30, "strns": "abc", "negns": -5, "floatns": 1.5}.get(bad)
                    if bad == "nons":
                        del s["ns"]
                if bad == "twoperline":
                    pending.append("TM1 " + json.dumps(s, separators=(",", ":")))
                    if len(pending) == 2 or i == opts["samples"] - 1:
                        print(" ".join(pending), flush=True)
                        pending = []
                    continue
                emit(s)
                if bad == "dup":
                    emit(s)
            if b.get("hist"):
                emit(
                    {
                        "t": "hist",
                        "key": key,
                        "unit": "ns",
                        "count": 100,
                        "min": 4000,
                        "max": 90000,
                        "sum": 50 * 4096 + 45 * 4992 + 4 * 8192 + 65536,
                        "buckets": [[4096, 50], [4992, 45], [8192, 4], [65536, 1]],
                    }
                )
            if bad != "endfirst":
                emit({"t": "end", "key": key, "status": "ok", "reason": "", "wall_ns": 60_000_000})
    emit({"t": "bye", "instances": done, "wall_ns": 1})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
