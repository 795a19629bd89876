"""The target seam: URIs, the local target, qemu-user, and the core deciding what patterns select."""

import os
import shutil
import sys

import pytest

from conftest import FAKECORE
from tickmark.base.errors import TickmarkError
from tickmark.run.plan import check_patterns
from tickmark.targets import open_target, schemes


def test_unknown_and_bad_uris_are_one_line_errors():
    for uri, words in [
        ("nosuch:x", "unknown target"),
        ("qemu-user:sparc", "qemu-user:ARCH"),
        ("local:x", "bad target"),
        ("qemu-user:aarch64\n", "control characters"),
    ]:
        with pytest.raises(TickmarkError, match=words):
            open_target(uri)
    assert {"local", "qemu-user"} <= set(schemes())


NEW_TARGET = """
from tickmark.targets.base import Target, register


@register("toy")
class ToyTarget(Target):
    scheme = "toy"
    usage = "toy:SLOT"
    kernel_usage = "toy:SLOT?os=linux"
"""


def test_a_target_is_one_module_that_help_and_checks_find(tmp_path, monkeypatch):
    """A module beside the others in targets/ is found, and what it says of itself reaches the
    help texts and the checks (no list of targets to extend)."""
    import tickmark.targets as targets
    from tickmark.targets import base

    (tmp_path / "toy_target.py").write_text(NEW_TARGET)
    monkeypatch.setattr(targets, "__path__", [*targets.__path__, str(tmp_path)])
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.delitem(sys.modules, "tickmark.targets.toy_target", raising=False)
    try:
        assert "toy" in targets.schemes() and "toy:SLOT" in targets.usages()
        assert "toy:SLOT?os=linux" in targets.usages("kernel_usage")
        targets.check_boots("toy:1")
        with pytest.raises(TickmarkError, match=r"use them with --target .*toy:SLOT\?os=linux"):
            targets.check_boots("local")
        with pytest.raises(TickmarkError, match="unknown target 'nosuch:x'.*toy"):
            open_target("nosuch:x")
    finally:
        sys.modules.pop("tickmark.targets.toy_target", None)


def test_prebuilt_core_only_where_it_makes_sense():
    with pytest.raises(TickmarkError, match="prebuilt"):
        open_target("qemu-user:aarch64", prebuilt="/bin/true")


def test_local_fingerprint_names_target_and_host():
    core = open_target("local", prebuilt=f"{sys.executable} {FAKECORE}").prepare()
    fp = core.fingerprint({"target": "x86_64-linux-gnu"})
    assert fp["target_uri"] == "local" and fp["host"] and fp["emulated"] is False
    assert "emulated" not in fp["flags"]


def test_core_call_failure_and_unmatched_patterns():
    core = open_target("local", prebuilt=f"{sys.executable} {FAKECORE}").prepare()
    assert [b["name"] for b in check_patterns(core, ["sys.f*"])] == ["sys.fast"]
    with pytest.raises(TickmarkError, match="no benchmark matches 'nope.*'"):
        check_patterns(core, ["sys.fast", "nope.*"])
    failing = open_target("local", prebuilt=shutil.which("false")).prepare()
    with pytest.raises(TickmarkError, match="tickmark-core list failed on local: exit status 1"):
        failing.call(["list"])


@pytest.mark.integration
def test_real_core_decides_instance_key_patterns(real):
    core = open_target("local").prepare()
    got = check_patterns(core, ["mem.lat_rand[size=4096,thp=0]"])
    assert [b["name"] for b in got] == ["mem.lat_rand"]
    with pytest.raises(TickmarkError, match="no benchmark matches"):
        check_patterns(core, ["mem.nosuch[size=1]"])


def _need(tool, pkg):
    if shutil.which(tool):
        return
    if os.environ.get("CI"):
        pytest.fail(f"{tool} missing: bootstrap test should have installed {pkg}")
    pytest.skip(f"{tool} not installed (apt-get install {pkg})")


@pytest.mark.integration
def test_qemu_user_aarch64_run_is_flagged_emulated(tmp_path, monkeypatch, cli, build_cache):
    _need("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu libc6-dev-arm64-cross")
    _need("qemu-aarch64", "qemu-user")
    monkeypatch.setenv("XDG_CACHE_HOME", str(build_cache))
    store = tmp_path / "s.db"
    rc, out, err = cli(
        "--store",
        str(store),
        "run",
        "-q",
        "--rounds",
        "1",
        "--samples",
        "2",
        "--target",
        "qemu-user:aarch64",
        "cpu.numsort",
        "--name",
        "a64",
    )
    assert rc == 0, err
    from tickmark.store import Store

    run = Store(store).run("a64")
    fp = run["fingerprint"]
    assert fp["target_uri"] == "qemu-user:aarch64" and fp["emulated"] is True
    assert fp["arch"] == "aarch64" and "emulated" in fp["flags"]
    res = Store(store).results(run["id"])
    assert res and all(r["status"] == "ok" for r in res)
    assert all("emulated" in r["stats"][""]["flags"] for r in res)
