"""The loopback interface inside a kernel image (`--kernel`): up before the core starts, so the
TCP benchmarks run there (lo was down, and a TCP program waited for its whole timeout)."""

from kernelfix import boot_store, debian_kernel


def test_loopback_tcp_runs_inside_a_kernel_image(tmp_path, monkeypatch, cli, build_cache):
    kernel = debian_kernel()
    boot_store(tmp_path, monkeypatch, build_cache)
    rc, out, err = cli(
        "run", "--target", "qemu-system:x86_64", "--kernel", kernel, "--name", "net", "-q", "--rounds", "1",
        "--samples", "2", "--sample-ms", "2", "ipc.tcp_lat", "ipc.tcp_connect", "--param", "cross=0",
    )  # fmt: skip
    assert rc == 0, err + out
    from tickmark.store import Store

    st = Store(str(tmp_path / "r.db"))
    res = {r["key"]: r for r in st.results(st.run("net")["id"])}
    for key in ("ipc.tcp_lat[cross=0]", "ipc.tcp_connect"):
        assert res[key]["status"] == "ok", (key, res[key]["reason"])
        assert res[key]["stats"][""]["median"] > 0
