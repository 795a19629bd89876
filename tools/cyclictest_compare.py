#!/usr/bin/env python3
"""timer.cyclic_rt against cyclictest, idle and under load, in interleaved runs (docs/os.md,
"Against cyclictest beside hackbench"): each round runs every side once in a shuffled order,
each a fresh process with the same period, priority, CPU and number of wake-ups.

    python tools/cyclictest_compare.py [--rounds 6] [--cpu 0] [--period 200] [--wakeups 4000]

The sides: tickmark run timer.cyclic_rt --cpu N idle, with --load messages and beside hackbench;
cyclictest -aN -N idle and beside hackbench, with its main thread on CPU N (its default) and on
another CPU (--mainaffinity). hackbench (-g 2 -f 5 -s 100, the shape of --load messages) starts
1 s before a side and is killed after it. Lateness in ns from both tools (cyclictest -N; tickmark's
histogram, whose buckets are about 3 % wide, gives its percentiles). Prints a Markdown table: per
side the median and the range over the rounds of min, avg, max and p50, and the load average.
Needs root (SCHED_FIFO, mlockall) and rt-tests; run it on an otherwise quiet machine if you can.
"""

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HACKBENCH = ["hackbench", "-g", "2", "-f", "5", "-s", "100", "-l", "100000000"]


def percentile(hist, count, q):
    """The value below which q % of a {value: count} histogram's events lie."""
    acc = 0
    for v in sorted(hist):
        acc += hist[v]
        if acc * 100 >= q * count:
            return v
    return max(hist)


def cyclictest(args, extra):
    """One cyclictest run -> {min, avg, max, p50} in ns."""
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "ct.json")
        cmd = ["cyclictest", f"-p{args.prio}", "-m", f"-i{args.period}", f"-l{args.wakeups}", f"-a{args.cpu}"]
        cmd += ["-q", "--laptop", "-N", "-h", "100000", f"--json={js}", *extra]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        t = json.load(open(js))["thread"]["0"]
    hist = {}
    for line in out.splitlines():  # the histogram: one line per ns value below 100 us, with its count
        words = line.split()
        if len(words) == 2 and words[0].isdigit() and int(words[1]):
            hist[int(words[0])] = int(words[1])
    return {"min": t["min"], "avg": t["avg"], "max": t["max"], "p50": percentile(hist, t["cycles"], 50)}


def tickmark(args, extra, store):
    """One `tickmark run timer.cyclic_rt` -> {min, avg, max, p50} in ns (and its load's intensity)."""
    name = f"cmp-{time.time_ns()}"
    cmd = [args.tickmark, "run", "timer.cyclic_rt", "--param", f"period={args.period}"]
    cmd += ["--param", f"count={args.wakeups // 4}", "--rounds", "1", "--max-rounds", "1", "--samples", "3"]
    cmd += ["--cpu", str(args.cpu), "-q", "--store", store, "--name", name, *extra]
    subprocess.run(cmd, check=True, capture_output=True)
    out = subprocess.run([args.tickmark, "export", "--store", store, name], check=True, capture_output=True).stdout
    run = json.loads(out)
    (h,) = run["results"][0]["hist"]  # calibration's wake-ups and three samples': all of them
    hist = {}
    for lo, n in h["buckets"]:  # a bucket's middle (its width: 1/32 of the power of two it is in)
        hist[lo + ((1 << max(0, lo.bit_length() - 6)) if lo >= 32 else 0) / 2] = n
    got = {"min": h["min"], "avg": h["sum"] / h["count"], "max": h["max"], "p50": percentile(hist, h["count"], 50)}
    load = run["run"]["fingerprint"].get("load")
    if load:
        got["intensity"] = load["intensity"]
    return got


def sides(args, store):
    other = next((c for c in sorted(os.sched_getaffinity(0)) if c != args.cpu), None)
    tm, ct = (lambda extra: lambda: tickmark(args, extra, store)), (lambda extra: lambda: cyclictest(args, extra))
    out = {
        "`tickmark run timer.cyclic_rt`": (tm([]), False),
        "`tickmark run timer.cyclic_rt --load messages`": (tm(["--load", "messages"]), False),
        "`tickmark run timer.cyclic_rt` beside `hackbench`": (tm([]), True),
        "`cyclictest`": (ct([]), False),
        "`cyclictest` beside `hackbench`": (ct([]), True),
    }
    if other is not None:
        out[f"`cyclictest --mainaffinity={other}`"] = (ct([f"--mainaffinity={other}"]), False)
        out[f"`cyclictest --mainaffinity={other}` beside `hackbench`"] = (ct([f"--mainaffinity={other}"]), True)
    return out


def run_side(fn, loaded):
    if not loaded:
        return fn()
    hb = subprocess.Popen(HACKBENCH, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        time.sleep(1)
        return fn()
    finally:
        os.killpg(hb.pid, signal.SIGKILL)
        hb.wait()


def us(ns):
    return f"{ns / 1000:.1f}" if ns < 100_000 else f"{ns / 1000:.0f}"


def table(results):
    print("| | min | avg | p50 | max | load average |")
    print("|---|---|---|---|---|---|")
    for side, runs in results.items():
        cells = []
        for k in ("min", "avg", "p50", "max"):
            v = [r[k] for r in runs]
            cells.append(f"{us(statistics.median(v))} ({us(min(v))}–{us(max(v))})")
        la = [r["load"] for r in runs]
        cells.append(f"{statistics.median(la):.1f} ({min(la):.1f}–{max(la):.1f})")
        print(f"| {side} | " + " | ".join(cells) + " |")
    print("\nµs: the median of the runs, their range in brackets.")
    for side, runs in results.items():
        if "intensity" in runs[0]:
            rates = sorted(r["intensity"] for r in runs)
            print(f"{side}: the load moved {rates[0]:,.0f}–{rates[-1]:,.0f} messages/s.")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--cpu", type=int, default=0)
    ap.add_argument("--period", type=int, default=200, help="us")
    ap.add_argument("--prio", type=int, default=80, help="timer.cyclic_rt's own: SCHED_FIFO 80")
    ap.add_argument("--wakeups", type=int, default=4000, help="a multiple of 4 (calibration and three samples)")
    ap.add_argument("--tickmark", default=str(ROOT / ".venv" / "bin" / "tickmark"))
    ap.add_argument("--log", help="a file to append each run to (JSON lines)")
    args = ap.parse_args()
    for tool in ("cyclictest", "hackbench"):
        if not shutil.which(tool):
            sys.exit(f"cyclictest_compare: {tool} not found (install rt-tests)")
    if args.prio != 80 or args.wakeups % 4:
        sys.exit("cyclictest_compare: timer.cyclic_rt runs at priority 80; --wakeups must be a multiple of 4")
    with tempfile.TemporaryDirectory() as d:
        store = os.path.join(d, "compare.db")
        todo = sides(args, store)
        results = {side: [] for side in todo}
        for rnd in range(args.rounds):
            order = list(todo)
            random.shuffle(order)
            for side in order:
                load = os.getloadavg()[0]
                got = dict(run_side(*todo[side]), load=load)
                results[side].append(got)
                line = json.dumps(dict(got, side=side, round=rnd))
                print(line, file=sys.stderr, flush=True)
                if args.log:
                    with open(args.log, "a") as f:
                        print(line, file=f)
    table(results)


if __name__ == "__main__":
    main()
