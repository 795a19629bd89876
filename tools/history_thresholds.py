#!/usr/bin/env python3
"""The table THRESHOLDS of analysis/changepoints.py: for each series length of the grid, the (1 -
ALPHA) quantile of the largest change statistic over the splits of that many points of normal
noise, by simulation (analysis/changepoints.simulated_threshold). Prints the Python text of the table.

    python tools/history_thresholds.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tickmark.analysis import changepoints  # noqa: E402

GRID = tuple(range(2 * changepoints.MIN_SEGMENT, 21)) + (24, 28, 32, 40, 48, 56, 64, 80, 96, 128, 160, 200)


def main():
    values = {n: changepoints.simulated_threshold(n) for n in GRID}
    print("THRESHOLDS = {")
    items = [f"{n}: {v:.3f}" for n, v in values.items()]
    for i in range(0, len(items), 8):
        print("    " + ", ".join(items[i : i + 8]) + ",")
    print("}")


if __name__ == "__main__":
    main()
