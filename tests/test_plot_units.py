"""The report's figures of a run that counts guest instructions (QEMU -icount) give their axes in
instructions, never in a unit of time; the same figures of a timed run keep their time axes."""

import re

import pytest

from tickmark.report import plots

TIME_TICK = re.compile(r"^[\d.,]+\s*(ns|us|µs|ms|s)$")
LAT = {
    "points_4k": [(4096, 4.0), (65536, 12.0), (1 << 20, 40.0), (16 << 20, 120.0)],
    "points_huge": [],
    "os_levels": [],
    "levels": [],
}
RING = [{"size_kib": 0, "points": [(2, 900.0, 850.0, 950.0), (4, 1100.0, 1000.0, 1200.0), (8, 1500.0, None, None)]}]


def texts(svg):
    """The words of an SVG drawn with svg.fonttype none: its <text> elements (the tick labels
    among them)."""
    return [t.strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)] + re.findall(r"<!-- (.*?) -->", svg)


@pytest.mark.parametrize(
    "draw, word",
    [
        (lambda exact: plots.latency(LAT, "lat", exact=exact), "instructions per load"),
        (lambda exact: plots.ctx_ring(RING, "ring", exact=exact), "instructions per hop"),
    ],
)
def test_an_exact_run_plots_instructions_not_time(draw, word):
    timed = texts(draw(False))
    assert any(TIME_TICK.match(t) for t in timed), timed  # the check can see a time tick
    counted = texts(draw(True))
    assert not [t for t in counted if TIME_TICK.match(t)], counted
    assert any(word in t for t in counted), counted
