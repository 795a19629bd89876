"""A key as `show` prints it, given back as a pattern: a memfn routine by its name
(impl=user), a key with some of its parameters (mem.lat_rand[size=4K], whose instances also
sweep thp): the run measures those instances (the core refused them as matching nothing); a
parameter the benchmark lacks is one clear line."""

from conftest import one_error_line


def test_keys_as_show_prints_them_select_their_instances(real, cli):
    rc, out, err = cli(
        "run", "-q", "--rounds", "1", "--samples", "2", "--name", "k",
        "mem.lat_rand[size=4K]", "memfn.memcpy[impl=libc,size=64,salign=0,dalign=0]",
    )  # fmt: skip
    assert rc == 0, err
    rc, out, err = cli("export", "k")
    keys = sorted(r["key"] for r in __import__("json").loads(out)["results"])
    assert keys == [
        "mem.lat_rand[size=4096,thp=0]",
        "mem.lat_rand[size=4096,thp=1]",
        "memfn.memcpy[impl=0,size=64,salign=0,dalign=0]",
    ], keys
    rc, out, err = cli(
        "run", "-q", "--rounds", "1", "--samples", "2", "--name", "t", "--param", "thp=1", "mem.lat_rand[size=4K]"
    )
    assert rc == 0, err  # the parameter not given takes the --param's sweep
    rc, out, err = cli("export", "t")
    assert [r["key"] for r in __import__("json").loads(out)["results"]] == ["mem.lat_rand[size=4096,thp=1]"]
    rc, out, err = cli("run", "-q", "--rounds", "1", "mem.lat_rand[sz=4K]")
    one_error_line(rc, err, "mem.lat_rand has no parameter sz", "size, thp")
