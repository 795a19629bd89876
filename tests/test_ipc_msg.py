"""The message-size sweep of the round-trip benchmarks (ipc.unix_stream_lat, ipc.unix_dgram_lat,
ipc.pipe_lat, ipc.tcp_lat: `--param msg=...`) on the real core: msg bytes each way per round trip,
the default 1 byte keeping the keys without msg; a datagram above the system's largest skips; a
value outside the declared range is refused before any build."""

import re

from boards import stored
from tickmark.run.plan import Plan
from tickmark.targets import param_ranges


def _ns(result):
    assert result["status"] == "ok", (result["key"], result["reason"])
    return result["stats"][""]["ns_per_op"]


def test_msg_sweep_on_linux(real, cli):
    """The sweep runs on this machine (UNIX sockets, pipes, TCP), selected by today's keys: 1 byte
    keeps its key, larger messages carry msg=N in theirs and take longer (512K each way against
    1 byte: ten times at least over a UNIX socket, four over a pipe or TCP, whatever the load); a
    datagram larger than Linux sends in one (its default send buffer, about 208K) skips saying so."""
    rc, out, err = cli(
        "run", "--rounds", "1", "--samples", "3", "--name", "sweep", "-q",
        "ipc.unix_stream_lat[cross=0]", "ipc.unix_dgram_lat[cross=0]", "ipc.pipe_lat[cross=0]", "ipc.tcp_lat[cross=0]",
        "--param", "msg=1,64K,512K",
    )  # fmt: skip
    assert rc == 0, err + out
    _, res = stored(real, "sweep")
    stream = [res[k] for k in ("ipc.unix_stream_lat[cross=0]", "ipc.unix_stream_lat[cross=0,msg=65536]",
                               "ipc.unix_stream_lat[cross=0,msg=524288]")]  # fmt: skip
    assert [r["params"]["msg"] for r in stream] == [1, 65536, 524288]
    one, mid, big = (_ns(r) for r in stream)
    assert one < mid < big and big > 10 * one, (one, mid, big)
    assert _ns(res["ipc.unix_dgram_lat[cross=0,msg=65536]"]) > _ns(res["ipc.unix_dgram_lat[cross=0]"])
    for bench in ("ipc.pipe_lat", "ipc.tcp_lat"):
        assert _ns(res[f"{bench}[cross=0,msg=524288]"]) > 4 * _ns(res[f"{bench}[cross=0]"]), bench
    skip = res["ipc.unix_dgram_lat[cross=0,msg=524288]"]
    assert skip["status"] == "skip"
    assert skip["reason"] == "msg=524288 is more than the largest datagram this system sends"


def test_a_msg_outside_its_range_is_refused_before_the_build(cli, tmp_path, monkeypatch):
    """msg 0, 2M, or one bad value in a sweep: one line naming the value and the range, exit 1,
    and no core built (not even the NuttX board's, minutes of work)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("TICKMARK_STORE", str(tmp_path / "results.db"))
    for given, value in (("msg=0", "0"), ("msg=1,64K,2M", "2M"), ("ipc.unix_*:msg=1M,1025K", "1025K")):
        rc, out, err = cli(
            "run", "--target", "qemu-system:virt-aarch64?os=nuttx", "ipc.unix_stream_lat", "--param", given
        )  # fmt: skip
        assert rc != 0 and out == "", (rc, out)
        assert re.fullmatch(
            rf"tickmark: error: --param {re.escape(given.split('=')[0])}: value {value} is outside 1\.\.1M, "
            r"the values ipc.unix_stream_lat takes for msg\n",
            err,
        ), err
    assert not (tmp_path / "cache").exists()
    # a --param is held to the ranges of the benchmarks it applies to among those selected only
    Plan(["sys.getppid", "ipc.unix_bw"], params=["ipc.unix_stream_lat:msg=0", "sys.*:msg=2M"])
    Plan(["ipc.unix_stream_lat[cross=0]"], params=["msg=1M", "ipc.pipe_*:msg=0"])


def test_declared_ranges_are_the_cores(real, cli):
    """The ranges the harness reads from the core's source are those the built core lists, for
    every benchmark (a parameter macro or a new way of writing one cannot slip past the reader)."""
    import json

    rc, out, err = cli("list", "--json")
    assert rc == 0, err
    listed = {
        b["name"]: {p["name"]: p["range"] for p in b["params"] if "range" in p}
        for b in json.loads(out)
        if b["t"] == "bench"
    }
    declared = param_ranges.declared()
    assert declared == {k: v for k, v in listed.items() if v}
    for ranges in declared.values():
        for text in ranges.values():
            lo, hi = param_ranges.bounds(text)
            assert lo is not None and hi is not None and lo <= hi, text
    assert listed["ipc.unix_stream_lat"] == {"msg": "1..1M"} and listed["ipc.unix_bw"] == {"msg": "1..1M"}
