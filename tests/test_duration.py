"""`run timer.cyclic --duration TIME`: a long run of the periodic wake-ups in one round, every
wake-up in the histogram."""

import pytest

from boards import stored
from tickmark.base.errors import TickmarkError
from tickmark.run import duration


def test_parse_and_refuse():
    assert duration.parse("10m") == 600 and duration.parse("90s") == 90 and duration.parse("1h") == 3600
    assert duration.parse("2.5") == 2.5
    for bad in ("", "0s", "3x", "-1m", "ten"):
        with pytest.raises(TickmarkError, match="--duration takes a time"):
            duration.parse(bad)


def test_shape_fills_the_duration_within_the_core_limit():
    # ten minutes at 200 µs: 3,000,000 wake-ups, a warm-up and two samples of the core's 1,000,000
    assert duration.shape(600, 200) == (2, 1_000_000)
    assert duration.shape(2, 200) == (1, 5000)  # 10,000 wake-ups: a warm-up and a sample of 5,000
    samples, count = duration.shape(3600, 100)
    assert count <= duration.COUNT_MAX and (samples + 1) * count == pytest.approx(36_000_000, rel=1e-3)


def test_period_from_the_params():
    assert duration.period_of(None) == 200
    assert duration.period_of(["timer.cyclic*:period=1000"]) == 1000
    assert duration.period_of(["mem.*:period=7", "period=500"]) == 500
    with pytest.raises(TickmarkError, match="one period"):
        duration.period_of(["period=200,1000"])


def test_only_the_cyclic_benchmarks(cli):
    rc, out, err = cli("run", "sys.getppid", "--duration", "2s")
    assert rc == 2 and "runs timer.cyclic and timer.cyclic_rt alone" in err
    rc, out, err = cli("run", "--suite", "os", "--duration", "2s")
    assert rc == 2 and "alone" in err


def test_a_short_duration_run(real, cli):
    """Two seconds of wake-ups (a few seconds more on a loaded machine): one round, a warm-up and
    one sample of 5,000, all 10,000 in the stored histogram."""
    rc, out, err = cli("run", "timer.cyclic", "--duration", "2s", "--name", "d", "-q")
    assert rc == 0, err + out
    run, res = stored(real, "d")
    r = res["timer.cyclic[period=200,count=5000]"]
    assert r["status"] == "ok" and len(r["samples"]) == 1
    from tickmark.store import Store

    hists = Store(str(real)).hists(r["id"])
    assert sum(h["count"] for h in hists) == 10_000
    assert "(10,000 of 29,956)" in " ".join(out.split()), out
