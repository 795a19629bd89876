"""The models of the memory family's terminal views: the bandwidth tables (`tickmark bandwidth`),
the memfn.* comparison (`tickmark memfn`) and the detected topology (`tickmark topology`)."""


def bandwidth_model(results, run=None):
    """The bandwidth tables of a run (analysis/bandwidth.py): MB/s per size and way of moving the
    bytes with one CPU, and with every CPU at once ([total, x of one CPU] per operation), each
    size with the cache level it fits (from the run's topology notes, else the OS); the notes
    that explain a column."""
    from ...analysis.bandwidth import caches_for, cores_rows, table_rows

    caches, src = caches_for(run)
    header, rows = table_rows(results, caches)
    n, crows = cores_rows(results, caches)
    notes = []
    if "move" in header:
        notes.append("move: memmove 256 bytes down inside one buffer (in place: no read for ownership)")
    if any(size == 32 << 20 for size, _, _ in rows):
        notes.append(
            "tinymembench: its 'standard memcpy' and 'standard memset' are the 32M row's copy and memset, "
            "best of runs of at least 0.5 s (tickmark run 'mem.bw_*' --sample-ms 500 for the same method)"
        )
    return {
        "levels_from": src,
        "header": header,
        "rows": [{"size": size, "level": lvl, "cells": row} for size, lvl, row in rows],
        "cores": {
            "threads": n,
            "ops": [op for op in ("read", "write", "copy") if any(op in r for _, _, r in crows)],
            "rows": [
                {"size": size, "level": lvl, "cells": {op: list(v) for op, v in row.items()}}
                for size, lvl, row in crows
            ],
        },
        "notes": notes,
    }


def memfn_model(results):
    """The memfn.* comparison (analysis/memfn.py): per routine and size, the time of each
    implementation, the winner and its margin; the implementations that failed verification."""
    from ...analysis.memfn import IMPLS, table_rows

    rows, failures = table_rows(results)
    impls = [i for i in IMPLS.values() if any(i in ns for _, _, ns, _, _ in rows)]
    return {
        "impls": impls,
        "rows": [
            {"routine": routine, "size": size, "ns": ns, "winner": win, "margin": margin}
            for routine, size, ns, win, margin in rows
        ],
        "failures": [
            {"routine": routine, "impl": impl, "reason": reason} for (routine, impl), reason in sorted(failures.items())
        ],
    }


def topology_model(det, osr, runs):
    """What `tickmark topology` found (analysis/topology.py's detection `det` over the runs)
    beside what the OS reports (`osr`), with the verdict of each comparison."""
    from ...analysis.topology import compare, cycle_warning, doubts

    return {
        "runs": list(runs),
        "detected": det,
        "os": osr,
        "checks": [list(c) for c in compare(det, osr)],
        "doubts": [list(d) for d in doubts(det, osr)],
        "cycle_warning": cycle_warning(det),
    }
