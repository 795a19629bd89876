"""The distribution-free tail statement of a latency histogram (analysis/worstcase.py), against
the order-statistics facts it rests on and against random samples of a known distribution."""

import numpy as np

from tickmark.analysis import worstcase as wc


def test_buckets_match_the_core():
    """The bucket scheme is the core's (hist.c): values below 32 one each, then 32 per octave."""
    assert [wc.bucket_index(v) for v in (0, 31, 32, 33, 63, 64, 66, 1000)] == [0, 31, 32, 33, 63, 64, 65, 190]
    for idx in range(0, 600):
        assert wc.bucket_index(wc.bucket_lower(idx)) == idx


def test_the_maximum_bounds_a_quantile_from_the_textbook_count():
    """The maximum of n events bounds the q-quantile at 95 % once 1 - q^n >= 0.95: for p99.99
    that takes 29,956 events; one fewer gives no statement."""
    assert wc.events_needed(0.9999) == 29956
    assert wc.rank_from_top(29956, 0.9999) == 1
    assert wc.rank_from_top(29955, 0.9999) is None
    # many events: the bound moves down from the maximum (about n(1-q) - 1.645 sqrt(n(1-q)))
    j = wc.rank_from_top(10_000_000, 0.9999)
    assert 940 < j < 955, j  # 1000 - 1.645 x 31.6 = 948


def test_not_enough_events_is_said():
    b = wc.quantile_bound([[100, 500], [200, 500]], 210)
    assert b["bound"] is None and b["needed"] == 29956 and b["events"] == 1000
    line = wc.statement(b, lambda v: f"{v} ns")
    assert line == "p99.99: not enough events for 95 % confidence (1,000 of 29,956)"


def test_the_statement_holds_in_95_of_100_trials_or_more():
    """Samples of a known distribution (exponential, mean 1000 ns): the stated bound is at or
    above the true p99.99 in at least 90 of 100 trials (95 expected; never far below)."""
    rng = np.random.default_rng(1)
    true_q = -1000 * np.log(1 - 0.9999)
    held = 0
    for _ in range(100):
        x = rng.exponential(1000, 60_000).astype(int) + 1
        idx = np.array([wc.bucket_index(v) for v in x])
        uniq, cnt = np.unique(idx, return_counts=True)
        buckets = [[wc.bucket_lower(i), c] for i, c in zip(uniq, cnt)]
        b = wc.quantile_bound(buckets, int(x.max()))
        assert b["bound"] is not None
        held += b["bound"] >= true_q
    assert held >= 90, held
    assert "p99.99 <= " in wc.statement(b, lambda v: f"{v} ns")


def test_show_says_the_tail_statement_under_the_event_table():
    """The event table of `show` ends with the statement per benchmark, within the width."""
    from rich.console import Console

    from tickmark.analysis.stats import hist_percentiles
    from tickmark.report.model.run import event_texts
    from tickmark.report.terminal import print_events

    few = hist_percentiles([{"buckets": [[100, 500], [200, 500]], "min": 100, "max": 210, "sum": 150000}])
    many = hist_percentiles([{"buckets": [[1000, 40000], [5000, 9], [9000, 1]], "min": 1000, "max": 9100}])
    rows = [
        {"status": "ok", "key": "timer.cyclic[period=200]", "hist": few, "hist_text": event_texts(few, False)},
        {"status": "ok", "key": "timer.cyclic_rt[period=200]", "hist": many, "hist_text": event_texts(many, False)},
    ]
    con = Console(width=60, record=True, color_system=None)
    print_events(con, rows, plain=True)
    out = con.export_text()
    assert all(len(line) <= 60 for line in out.splitlines()), out
    flat = " ".join(out.split())
    assert "timer.cyclic[period=200]: p99.99: not enough events for 95 % confidence (1,000 of 29,956)" in flat
    # 40,010 events: the maximum bounds p99.99 (1 - 0.9999^40010 = 0.98); the bound is the
    # largest event's bucket, clamped to the maximum
    assert "timer.cyclic_rt[period=200]: p99.99 <= 9.10 us with 95 % confidence (40,010 events)" in flat
