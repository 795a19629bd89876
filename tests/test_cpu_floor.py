"""The CPU time of a contended pair read at its floor (analysis/verdict.py floor_change, decide,
cpu_bound): a core shared with other work runs slower without leaving it (SMT, the host, caches,
the clock), so a loaded side's task-clock can be 20 % higher in most rounds with its code
unchanged. Other work only ever adds time: the fastest samples are the least disturbed figure.
On per-sample values shaped as this 2-CPU VM gave them (an -O2 build of cpu.idea: 65.4 us a
sample alone, 76-85 us while its core was shared), a gate never fails the same build on the
medians that moved with the load, never passes a real regression, and says which it was."""

import numpy as np
import pytest

from tickmark.analysis import verdict

TRUE = 65_400.0  # ns per operation of the unchanged code, alone on a core
SHARED = 1.2  # the factor of a round whose core was shared with other work


def side(rounds, factor=1.0, seed=1, per=5):
    """Per-sample task-clock values and their rounds: `rounds` is a string, one letter a round:
    q (alone: the true cost and up to 3 % more), s (a shared core: SHARED times it, but for one
    sample of the round that ran alone: the load's workers come and go), S (shared throughout)."""
    rng = np.random.default_rng(seed)
    vals, grp = [], []
    for i, kind in enumerate(rounds, 1):
        shared = np.full(per, kind in "sS")
        if kind == "s":
            shared[rng.integers(per)] = False
        base = TRUE * factor * np.where(shared, SHARED, 1.0)
        vals += list(base * (1 + 0.03 * rng.random(per)))
        grp += [i] * per
    return np.array(vals), np.array(grp)


def decided(a, b):
    """The row of B against A decided by the one rule (its wall time said to be contended)."""
    (va, ra), (vb, rb) = a, b
    cpu = verdict.verdict(va, ra, vb, rb)
    cpu["floor"] = verdict.floor_change(va, vb)
    row = {"verdict": verdict.INCONCLUSIVE, "key": "cpu.idea", "metric": ""}
    return verdict.decide(row, cpu, "contention: on CPU 100% of the time in A, 24% in B (least of a round)")


def test_the_floor_is_the_fastest_samples_with_an_interval():
    """The floors' ratio, inside its interval; a floor that only three samples reached is not
    vouched for (the interval reaches the shared rounds), one that five reached is."""
    va, _ = side("qqq")
    for rounds, vouched in (("sss", False), ("sssss", True)):
        vb, _ = side(rounds, seed=2)
        f = verdict.floor_change(va, vb)
        assert f["ratio"] == pytest.approx(vb.min() / va.min())
        lo, hi = f["ci"]
        assert lo <= f["ratio"] - 1 <= hi and (hi < 0.05) == vouched, (rounds, f)
    assert verdict.floor_change(va[:8], vb) is None  # too few samples to say


@pytest.mark.parametrize("b_rounds", ["sssss", "sssssss"])
def test_the_same_build_on_a_shared_core_is_not_a_regression(b_rounds):
    """The loaded side's medians are 20 % higher (task-clock says slower); its floor is not:
    inconclusive, said so, and a 5 % gate passes it on the floor's interval."""
    a, b = side("qqq"), side(b_rounds, seed=3)
    row = decided(a, b)
    assert row["verdict"] == verdict.INCONCLUSIVE and row["decided"]["on"] is None, row
    assert "slower but its floor" in row["note"] and "the CPU time was disturbed too" in row["note"], row["note"]
    bound = verdict.cpu_bound(row)
    assert bound is not None and bound < 0.05
    res = {"rows": [row]}
    assert verdict.undecided(res, "", 0.05) == [] and verdict.regressions(res, 0.05) == []


def test_a_baseline_on_a_shared_core_does_not_make_a_build_faster():
    """The mirror case: the loaded side is A. The medians say B is faster; the floors do not."""
    row = decided(side("sssss", seed=4), side("qqq", seed=5))
    assert row["verdict"] == verdict.INCONCLUSIVE and "faster but its floor" in row["note"], row["note"]


@pytest.mark.parametrize("factor", [3.8, 1.5])
def test_a_regression_on_a_shared_core_is_still_one(factor):
    """-O0 against -O2 (3.8 times) or a 50 % regression, the regressed side loaded: the floors
    agree with the medians; slower, decided on task-clock."""
    row = decided(side("qqq"), side("sssss", factor, seed=6))
    assert row["verdict"] == verdict.SLOWER and row["decided"]["on"] == verdict.CPU_TIME, row
    assert verdict.regressions({"rows": [row]}, 0.05)


@pytest.mark.parametrize("a_rounds,b_rounds", [("qqq", "sssss"), ("sssss", "qqq"), ("qqq", "SSSSS")])
def test_a_small_regression_under_the_load_never_passes_the_gate(a_rounds, b_rounds):
    """An 8 % regression, either side loaded (or B shared in every round): the gate fails it or
    cannot tell (exit 3), never passes it."""
    row = decided(side(a_rounds, seed=7), side(b_rounds, 1.08, seed=8))
    res = {"rows": [row]}
    failed = verdict.regressions(res, 0.05)
    held = verdict.undecided(res, "", 0.05)
    assert failed or held, row
