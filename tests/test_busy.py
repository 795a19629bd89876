"""The gate on a busy machine, on the real core under a defined load (tests/loadfix.py): one short
try of the checks that tools/busy_check.py counts over ten tries of ten runs (docs/compare.md,
"Contention"). Six runs of cpu.idea, three -O2 then three -O0, runs 2 and 5 under the load: a
regression fails compare, the JUnit export and history whichever side was disturbed; the same
build never fails; every verdict says what decided it; the step is found at build 4."""

import pytest

import busyfix
from conftest import need_cc

pytestmark = [pytest.mark.alone, pytest.mark.integration]


def test_the_gate_is_right_or_says_it_cannot_tell_under_load(tmp_path, build_cache, monkeypatch):
    need_cc()
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    for var in ("TICKMARK_CORE", "TICKMARK_TARGET", "CC", "CFLAGS"):
        monkeypatch.delenv(var, raising=False)
    store = tmp_path / "results.db"
    busyfix.make_series(store, plan=busyfix.SHORT)
    held = busyfix.checks(store, plan=busyfix.SHORT)
    # a regression is never passed and the same build never fails; an -O2/-O2 pair may be
    # inconclusive in a try (exit 3, JUnit error) where the load moved task-clock too, and other
    # work on a shared machine may show a second change in the series (tools/busy_check.py
    # counts both over ten tries)
    same = ("-O2 quiet / -O2", "-O2 loaded / -O2", "(and no other)")
    strict = {k: v for k, v in held.items() if not any(x in k for x in same)}
    assert all(strict.values()), {k: v for k, v in strict.items() if not v}
    rc_same = [busyfix.compare_gate(store, a, b)[0] for a, b in busyfix.same_build_pairs(busyfix.SHORT)]
    assert all(rc in (0, 3) for rc in rc_same), rc_same
