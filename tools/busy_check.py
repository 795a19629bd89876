#!/usr/bin/env python3
"""The busy-machine checks of the gate, counted over many tries (docs/compare.md, "Contention";
docs/history.md): each try stores a series of ten runs of one CPU benchmark on the real core, five
built -O2 then five -O0, runs 3 and 8 under `stress-ng --cpu 2 --fork 4 --switch 4` started in
this session, and holds compare --fail-above, the JUnit export and history --fail-on-change to
what they must say (tests/busyfix.py; tests/test_busy.py holds one try).

    python tools/busy_check.py [--tries 10] [--bench cpu.idea] [--keep DIR]

Prints a Markdown table: per check, in how many tries it held.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tries", type=int, default=10)
    ap.add_argument("--bench", default="cpu.idea")
    ap.add_argument("--keep", help="a folder to keep each try's store in")
    args = ap.parse_args()
    import busyfix

    held, exits, t0 = {}, [], time.monotonic()  # exits: per -O2/-O2 pair, (default, --inconclusive=pass)
    for i in range(1, args.tries + 1):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(args.keep or tmp)
            folder.mkdir(parents=True, exist_ok=True)
            store = folder / f"try-{i}.db"
            busyfix.make_series(store, args.bench)
            for check, ok in busyfix.checks(store, args.bench).items():
                held.setdefault(check, []).append(ok)
                if not ok:
                    print(f"try {i}: did not hold: {check}", file=sys.stderr, flush=True)
            for a, b in busyfix.same_build_pairs():
                rc, _, row = busyfix.compare_gate(store, a, b, args.bench)
                passing, _, _ = busyfix.compare_gate(store, a, b, args.bench, "--inconclusive=pass")
                exits.append((rc, passing))
                print(f"try {i}: -O2 build {a} / {b}: exit {rc}, {said(row)}", file=sys.stderr, flush=True)
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        print(f"try {i} done ({time.monotonic() - t0:.0f} s, load average {load})", file=sys.stderr, flush=True)
        table(held, exits, args.bench, i)


def said(row):
    """What decided a same-build pair's headline row, with the intervals the gate held."""
    d = row.get("decided") or {}
    ci = {k: (d.get(k) or {}).get("ci") for k in ("cpu", "floor")}
    ci["task-clock"] = d.get("ci") if d.get("on") else None
    shown = [f"{k} {lo * 100:+.1f}% .. {hi * 100:+.1f}%" for k, v in ci.items() if v for lo, hi in [v]]
    return f"{row['verdict']}" + (f" ({'; '.join(shown)})" if shown else "")


def table(held, exits, bench, tries):
    """The Markdown table of the checks so far (printed after every try: a long count that is
    stopped still leaves its table)."""
    print(f"\n| check ({bench}, {tries} tries) | held |")
    print("|---|--:|")
    for check, oks in held.items():
        print(f"| {check} | {sum(oks)} of {len(oks)} |")
    print("\n-O2/-O2 pairs, exit status of compare --fail-above 5%:")
    for k, policy in enumerate(("", " --inconclusive=pass")):
        codes = [pair[k] for pair in exits]
        counts = ", ".join(f"{rc} in {codes.count(rc)}" for rc in (0, 3, 1))
        print(f"  {policy.strip() or 'default'}: {counts} of {len(codes)}", flush=True)


if __name__ == "__main__":
    main()
