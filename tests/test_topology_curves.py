"""The curves that topology reads from stored results: a result whose headline carries no value
(an imported document may hold one: its statistics are kept as they came) gives no point, and
the other points are read as before."""

from tickmark.analysis import topology as topo


def _row(size, stats):
    return {"bench": "mem.lat_rand", "params": {"size": size}, "status": "ok", "stats": {"": stats}}


def test_a_headline_without_a_value_is_no_point_of_the_curve():
    rows = [_row(4096, {"min": 1.5}), _row(8192, {"min": None, "value": None}), _row(16384, {"value": 2.5})]
    p4k, phuge, stride, ratio = topo.curves(rows)
    assert p4k == {4096: 1.5, 16384: 2.5}
    assert (phuge, stride, ratio) == ({}, {}, None)
