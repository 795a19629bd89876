"""A result whose stored headline carries no value (statistics edited by hand in the store: they
are read as they are while their version is current) gives no point to the analyses that read
headlines, and the other results are read as before."""

import pytest

from tickmark.analysis import memfn
from tickmark.analysis import topology as topo

NO_VALUE = {"min": None, "value": None}


def _row(bench, params, stats):
    return {"bench": bench, "params": params, "status": "ok", "stats": {"": stats}}


def test_a_topology_curve_leaves_the_point_out():
    rows = [
        _row("mem.lat_rand", {"size": 4096}, {"min": 1.5}),
        _row("mem.lat_rand", {"size": 8192}, NO_VALUE),
        _row("mem.lat_rand", {"size": 16384}, {"value": 2.5}),
    ]
    p4k, phuge, stride, ratio = topo.curves(rows)
    assert p4k == {4096: 1.5, 16384: 2.5}
    assert (phuge, stride, ratio) == ({}, {}, None)


def test_the_memfn_table_leaves_the_implementation_out():
    rows = [
        _row("memfn.memcpy", {"impl": 0, "size": 64}, {"value": 8.0}),
        _row("memfn.memcpy", {"impl": 1, "size": 64}, NO_VALUE),
        _row("memfn.memcpy", {"impl": 2, "size": 64}, {"value": 2.0}),
    ]
    table, failures = memfn.table_rows(rows)
    assert failures == {}
    assert [(r[0], r[1], r[3]) for r in table] == [("memcpy", 64, "word")]
    assert table[0][2] == {"libc": pytest.approx(8.0), "word": pytest.approx(2.0)}
