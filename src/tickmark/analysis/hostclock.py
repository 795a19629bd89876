"""A clock on the host side: the rate of a benchmark on a board whose own clock cannot be trusted
or read, from the times at which the marks the core prints arrive (`tickmark-core run
--host-clock`, docs/protocol.md: the mark record).

The core runs each sample as two chunks of the benchmark, of N and of 2N iterations, and prints a
mark after each (and one before the first). The host takes the time each mark arrives: a serial
console's session timestamps its lines as they come off the wire, a captured log carries a time
at the start of each line (`ts`, grabserial). A sample is the 2N chunk's time less the N chunk's,
t2 - 2·t1 + t0: N iterations, with what a mark costs to print and to travel cancelled, since each
chunk ends with one. The board's own clock, printed in each mark, gives the same difference for
comparison.

Resolution. A mark's arrival is known to within one character on the line (10 bits at the baud
rate) and the jitter of the host's timestamps (reading the port, scheduling). The jitter is
measured from the marks themselves (jitter_ns: against the board's clock where the marks carry
it, else against a model of the chunks). A timestamp's resolution is the larger of the two; a
sample, a combination of three timestamps, is good to √6 times that, and the figure stated is two
of those (about 95 %).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ..base.shapes import Row

MIN_MARKS_FOR_FIT = 5  # three unknowns and two degrees of freedom at least
ASSUMED_JITTER_NS = 1_000_000  # before a run measures it: 1 ms, a USB serial adapter's latency timer
PRECISION = 0.01  # the precision a host-clock sample is sized for when tickmark chooses its length


def samples(marks: list[dict[str, Any]], ops_per_iter: int = 1) -> tuple[list[dict[str, Any]], int]:
    """The marks of one instance (records with i, iters, host_ns and maybe board_ns, in order)
    -> (samples, dropped): sample records whose ns is the host's time for iters iterations
    (board_ns: the board's for the same), and how many pairs were left out (a mark missing, or
    the longer chunk not longer: noise larger than the chunk)."""
    by_i = {m["i"]: m for m in marks}
    out: list[dict[str, Any]] = []
    dropped = 0
    n_pairs = (max(by_i) if by_i else 0) // 2
    for s in range(n_pairs):
        m0, m1, m2 = by_i.get(2 * s), by_i.get(2 * s + 1), by_i.get(2 * s + 2)
        if m0 is None or m1 is None or m2 is None or m2["iters"] != 2 * m1["iters"] or not m1["iters"]:
            dropped += 1
            continue
        ns = m2["host_ns"] - 2 * m1["host_ns"] + m0["host_ns"]
        if ns <= 0:
            dropped += 1
            continue
        rec = {"i": s, "iters": m1["iters"], "ops": m1["iters"] * ops_per_iter, "ns": ns, "clock": "host"}
        if all("board_ns" in m for m in (m0, m1, m2)):
            board = m2["board_ns"] - 2 * m1["board_ns"] + m0["board_ns"]
            if board >= 0:
                rec["board_ns"] = board
        out.append(rec)
    return out, dropped


def jitter_ns(marks: list[dict[str, Any]]) -> float | None:
    """The spread (standard deviation) of the host's timestamps of one instance's marks, in ns ->
    float, or None with too few marks to tell. Where the marks carry the board's clock, against
    it: the residuals of host = a + b·board (the same events on two clocks: what is left is the
    path's jitter, and the board clock's own). Else against the model t_k = a + b·c_k + p·k (c_k
    iterations before mark k): then what the board's speed varies is in it too, so the figure
    errs on the large side."""
    ms = sorted(marks, key=lambda m: m["i"])
    if len(ms) < MIN_MARKS_FOR_FIT:
        return None
    t = np.array([m["host_ns"] for m in ms], dtype=float)
    t -= t[0]
    if all("board_ns" in m for m in ms):
        board = np.array([m["board_ns"] for m in ms], dtype=float)
        x = np.column_stack([np.ones(len(ms)), board - board[0]])
    else:
        cum = np.cumsum([m["iters"] for m in ms], dtype=float)
        x = np.column_stack([np.ones(len(ms)), cum, np.array([m["i"] for m in ms], dtype=float)])
    coef, *_ = np.linalg.lstsq(x, t, rcond=None)
    resid = t - x @ coef
    return float(math.sqrt(float(resid @ resid) / (len(ms) - x.shape[1])))


def resolution(marks: list[dict[str, Any]], char_ns: float | None, sample_ns: float | None) -> dict[str, Any]:
    """What the serial path allows for one instance -> dict: char_ns (one character on the line),
    jitter_ns (measured, or None), res_ns (a timestamp's resolution: the larger), sample_pct (a
    sample's uncertainty, 2·√6·res_ns, against a sample's time sample_ns, in %)."""
    jit = jitter_ns(marks)
    res = max(char_ns or 0, jit if jit is not None else 0)
    pct = 200 * math.sqrt(6) * res / sample_ns if sample_ns else None
    return {"char_ns": char_ns or 0, "jitter_ns": jit, "res_ns": res, "sample_pct": pct}


def sample_ms(char_ns: float | None, precision: float = PRECISION) -> int:
    """How long a sample (its N chunk) must last for the precision wanted, before a run has
    measured anything: 2·√6 times the larger of a character and ASSUMED_JITTER_NS, over the
    precision -> whole milliseconds."""
    res = max(char_ns or 0, ASSUMED_JITTER_NS)
    return math.ceil(2 * math.sqrt(6) * res / precision / 1e6)


def _over_all(result: Row, samples: list[Row]) -> tuple[float | None, float | None]:
    """(host, board) ps per operation over every sample of a result (all its rounds), by its
    headline's statistic (the minimum for a min headline, else the median): the host's figure is
    the result's headline itself; the board's is None unless every sample carries its clock."""
    from .stats import Stats

    main = Stats.of(result).main
    host = main.value * 1000 if main is not None and main.value else None
    pick = np.min if result.get("stat") == "min" else np.median
    board = [s["board_ns"] / s["ops"] for s in samples if s.get("ops") and isinstance(s.get("board_ns"), int)]
    return host, (float(pick(board)) * 1000 if board and len(board) == len(samples) else None)


def agreement(results: list[Row], samples_of: Callable[[Row], list[Row]] | None = None) -> list[dict[str, Any]]:
    """For each host-timed result: its time per operation by the host and by the board's own
    clock (from the same chunks), how far apart in %, and the resolution stated -> list of dicts
    (key, host_ns, board_ns, differ_pct, sample_pct, res_ns, char_ns, jitter_ns). samples_of(result)
    -> its samples: both figures over all the rounds, the host's the result's own headline (one
    figure for one quantity); without it, the last round's medians the core's meta recorded."""
    out: list[dict[str, Any]] = []
    for r in results:
        hc = (r.get("meta") or {}).get("host_clock")
        if r.get("status") != "ok" or not isinstance(hc, dict):
            continue
        h, b = _over_all(r, samples_of(r)) if samples_of else (hc.get("host_ps_per_op"), hc.get("board_ps_per_op"))
        out.append(
            {
                "key": r["key"],
                "host_ns": h / 1000 if h else None,
                "board_ns": b / 1000 if b else None,
                "differ_pct": 100 * (h - b) / b if h and b else None,
                "sample_pct": hc["sample_ppm"] / 1e4 if hc.get("sample_ppm") is not None else None,
                "res_ns": hc.get("res_ns"),
                "char_ns": hc.get("char_ns"),
                "jitter_ns": hc.get("jitter_ns"),
                # how long a sample must last for PRECISION with the resolution measured
                "needed_ms": math.ceil(2 * math.sqrt(6) * hc["res_ns"] / PRECISION / 1e6) if hc.get("res_ns") else None,
            }
        )
    return out


def instance(
    meta: dict[str, Any] | None, marks: list[dict[str, Any]], char_ns: float | None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None, int]:
    """One instance's marks of one round -> (samples, meta, dropped): the host-timed samples,
    its meta record with what the host clock found (host_clock: the resolution in ns, a sample's
    uncertainty in parts per million, the medians per operation by host and board in ps; integers,
    as every stored record), and how many samples were left out."""
    recs, dropped = samples(marks, (meta or {}).get("ops_per_iter") or 1)
    if not recs:
        return recs, meta, dropped
    res = resolution(marks, char_ns, float(np.median([s["ns"] for s in recs])))
    # a sample shorter than one timestamp's resolution is the timestamps' noise, not the chunk: a
    # mark that arrived late made a chunk of a millisecond read as 2 us (1.29 ns for a getppid)
    kept = [s for s in recs if s["ns"] > res["res_ns"]]
    dropped += len(recs) - len(kept)
    if not kept:
        return kept, meta, dropped
    recs = kept
    mid = float(np.median([s["ns"] for s in recs]))
    res = resolution(marks, char_ns, mid)
    board = [s["board_ns"] / s["ops"] for s in recs if "board_ns" in s]
    hc = {
        "char_ns": int(res["char_ns"]),
        "res_ns": int(round(res["res_ns"])),
        "sample_ppm": int(round(res["sample_pct"] * 1e4)),
        "host_ps_per_op": int(round(1000 * float(np.median([s["ns"] / s["ops"] for s in recs])))),
        "samples_dropped": dropped,
    }
    if res["jitter_ns"] is not None:
        hc["jitter_ns"] = int(round(res["jitter_ns"]))
    if board:  # a pair whose board chunks came out in the wrong order (noise) has no board figure
        hc["board_ps_per_op"] = int(round(1000 * float(np.median(board))))
        if len(board) < len(recs):
            hc["board_samples_dropped"] = len(recs) - len(board)
    return recs, dict(meta or {}, host_clock=hc), dropped
