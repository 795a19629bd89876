"""Finding the first bad commit (`tickmark bisect`): the search over a line of commits, and what
one measured step says about its commit.

The commits are the first-parent line from the good revision to the bad one, oldest first: index
0 is good, the last is bad. Each step measures one commit between the last known good and the
first known bad, interleaved with the good revision, and classifies it by compare's one gate
(analysis/verdict.py): a regression above the threshold makes it bad, a pass with every gated
row decided makes it good, anything else is inconclusive (the caller measures it once more with
more rounds, then skips it). A commit that does not build is skipped, as `git bisect skip` does;
the next candidate is then the one nearest the middle that is not skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import verdict

GOOD, BAD, SKIP, INCONCLUSIVE = "good", "bad", "skipped", "inconclusive"


@dataclass
class Step:
    """What one measured (or failed) commit said: its state, why, and the gate's figures."""

    commit: str
    state: str  # GOOD, BAD, SKIP (INCONCLUSIVE only between a first try and its retry)
    why: str = ""
    runs: tuple[Any, ...] = ()  # the stored runs (good baseline, candidate) of its last measurement
    worst: dict[str, Any] = field(default_factory=dict)  # the most regressed row: key, ratio, ci, slower


class Search:
    """The search over `commits` (oldest first; the first is good, the last bad)."""

    def __init__(self, commits: list[str]) -> None:
        if len(commits) < 2:
            raise ValueError("a search needs a good and a bad commit")
        self.commits = list(commits)
        self.state = {commits[0]: GOOD, commits[-1]: BAD}
        self.steps: list[Step] = []  # in the order measured

    def record(self, step: Step) -> None:
        self.steps.append(step)
        self.state[step.commit] = step.state

    def bounds(self) -> tuple[int, int]:
        """(index of the last good commit, index of the first bad one) known so far."""
        idx = {c: i for i, c in enumerate(self.commits)}
        bad = min(idx[c] for c, s in self.state.items() if s == BAD)
        good = max(idx[c] for c, s in self.state.items() if s == GOOD and idx[c] < bad)
        return good, bad

    def next(self) -> str | None:
        """The next commit to measure, or None when the search is over: the untried commit
        between the bounds nearest their middle (the lower one first on a tie)."""
        lo, hi = self.bounds()
        mid = (lo + hi) / 2
        untried = [i for i in range(lo + 1, hi) if self.commits[i] not in self.state]
        if not untried:
            return None
        return self.commits[min(untried, key=lambda i: (abs(i - mid), i))]

    def first_bad(self) -> str | None:
        """The first bad commit when the search has found it, else None."""
        lo, hi = self.bounds()
        return self.commits[hi] if hi == lo + 1 else None

    def suspects(self) -> list[str]:
        """The commits that may hold the change: the first bad one and the skipped ones before it
        (after the last good one)."""
        lo, hi = self.bounds()
        return self.commits[lo + 1 : hi + 1]

    def max_steps(self) -> int:
        """How many measured steps a search of this many commits takes without skips."""
        n, steps = len(self.commits) - 2, 0
        while n > 0:
            n //= 2
            steps += 1
        return steps


def worst_slowdown(row: dict[str, Any]) -> float | None:
    """How much slower B may be than A by the row's 95 % CI, as a fraction (its upper end; the
    lower end of a rate's), or None where the row has no interval (an exact count: its ratio)."""
    ci = row.get("ci")
    if not ci:
        return verdict.slower_by(row)
    lo, hi = ci
    return verdict.slower_by(dict(row, ratio=1 + (lo if row.get("higher") else hi)))


def classify(pairs: list[Any], threshold: float, metric: str = "") -> tuple[str, str, dict[str, Any]]:
    """A measured step (compare's pairs, the good baseline as A and the commit as B) -> (state,
    why, worst row). BAD: the gate finds a regression above the threshold; GOOD: the gate passes
    and every gated row is within the threshold with confidence (the verdict says no difference
    or faster, or the CI's slow end stays under the threshold); INCONCLUSIVE: a row's CI reaches
    past the threshold without the gate calling it slower, or the commit's run did not measure
    what the baseline did (a crash of the commit is no regression the search may assume)."""
    g = verdict.gate(pairs, threshold, metric)
    rows = [r for _, res in pairs for r in res["rows"] if r.get("metric", "") == metric]
    slow = sorted(g.of_kind("slower"), key=lambda f: -(f.slower or 0.0))  # a "slower" failure has its figure
    if slow:
        worst = next(r for r in rows if r["key"] == slow[0].key)
        return BAD, f"{slow[0].key} {slow[0].why}", worst
    lost = g.of_kind("not measured") + g.of_kind("unfinished")
    if lost:
        return INCONCLUSIVE, "; ".join(f"{f.key or 'run'}: {f.why}" for f in lost[:3]), {}
    cannot = g.of_kind("inconclusive")  # the gate's one rule: contended wall time, no CPU-time verdict
    if cannot:
        return INCONCLUSIVE, f"{cannot[0].key}: cannot tell ({cannot[0].why})", {}
    if not rows:
        return INCONCLUSIVE, "nothing in common with the good revision was measured", {}

    def within(r: dict[str, Any]) -> bool:
        if isinstance(r.get("decided"), dict) and not r["decided"].get("on"):
            return False  # contended wall time that nothing else decided: never good from it
        if r.get("verdict") in (verdict.SAME, verdict.FASTER, verdict.SLOWER):
            return True  # decided; a slower one is within the threshold (the gate passed it)
        w = worst_slowdown(r) if r.get("verdict") != verdict.FEW else None
        return w is not None and w <= threshold

    undecided = [r for r in rows if not within(r)]
    if undecided:
        r = undecided[0]
        w = worst_slowdown(r)
        reach = f" (up to {w * 100:+.1f}% by its CI)" if w is not None else ""
        return INCONCLUSIVE, f"{r['key']}: {r['verdict']}{reach}", r
    worst = max(rows, key=lambda r: worst_slowdown(r) or float("-inf"))
    return GOOD, f"within {threshold * 100:g}%", worst
