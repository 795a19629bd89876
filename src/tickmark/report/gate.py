"""The words of the one gate (analysis/verdict.py's Gate) that `compare --fail-above` and
`history --fail-on-change` print on stderr, and the --inconclusive option the three gates take."""

from ..base.fmt import listed


def gate_lines(g, slower=None, passed=None):
    """The gate's verdict (analysis/verdict.py's Gate) in lines: one per kind of failure, or one
    saying that it passed. slower, passed: the line of the slower rows and the one of a pass,
    when the caller words them."""
    what = f"{g.metric} " if g.metric else ""
    lines = []
    slow = sorted(g.of_kind("slower"), key=lambda f: -f.slower)
    if slow:
        worst = listed(f"{f.key} {f.why}" for f in slow)
        default = f"{len(slow)} {what}regression(s) above {g.threshold * 100:g}% against {g.baseline}: {worst}"
        lines.append(slower(slow) if slower else default)
    lost = g.of_kind("not measured")
    for run in dict.fromkeys(f.run for f in lost):
        mine = [f for f in lost if f.run == run]
        which = listed(f"{f.key} ({f.why})" for f in mine)
        lines.append(f"{len(mine)} benchmark(s) of {g.baseline} not measured in {run}: {which}")
    for f in g.of_kind("unfinished"):
        lines.append(f"{f.run} is {f.why}: the gate cannot pass an unfinished run")
    lines += inconclusive_lines(g)
    if not lines:
        lines.append(passed or f"no {what}regression above {g.threshold * 100:g}% against {g.baseline}")
    lines += bounded_lines(g)
    return lines


def bounded_lines(g):
    """The benchmarks whose wall time was contended and whose CPU time neither won nor lost, but
    whose CPU-time interval (of the floor, the fastest samples, where it was taken:
    verdict.cpu_bound) lies under the threshold: the gate passed them on that interval."""
    mine = getattr(g, "bounded", None)
    if not mine:
        return []
    which = listed(f"{key} (at most {bound * 100:+.1f}%)" for _, key, bound in mine)
    return [
        f"{len(mine)} benchmark(s) with contended wall time held to the gate by their task-clock "
        f"interval (95 %, of the fastest samples), under {g.threshold * 100:g}%: {which}"
    ]


def inconclusive_lines(g):
    """The benchmarks the one rule could not decide (their wall time contended, no CPU-time
    verdict), in one line that says what the gate made of them (--inconclusive)."""
    mine = g.undecided
    if not mine:
        return []
    what = {"pass": "passed (--inconclusive=pass)", "fail": "failed (--inconclusive=fail)"}.get(
        g.inconclusive, f"inconclusive (exit status {g.EXIT_INCONCLUSIVE})"
    )
    which = listed(f"{f.key} ({f.why})" for f in mine)
    return [f"{len(mine)} benchmark(s) cannot be told apart from {g.baseline}, {what}: {which}"]
