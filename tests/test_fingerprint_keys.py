"""The fingerprint key registry: every key a target writes is registered with the type its values
have, and the readers (compare, the export schema, history) take their keys from it."""

import shutil

import pytest

from conftest import fake_core
from tickmark.analysis import history
from tickmark.base.errors import TickmarkError
from tickmark.facts import fingerprint
from tickmark.run.ingest import LogTarget
from tickmark.store import document
from tickmark.targets import open_target

TYPES = {"text": str, "int": int, "bool": bool, "list": list, "object": dict}


def _hello():
    recs = fake_core().call(["run", "sys.fast", "--samples", "1"])
    return next(r for r in recs if r["t"] == "hello")


def _fingerprints(tmp_path):
    """The fingerprints of the targets that can be made here without hardware."""
    from tickmark.targets.kernel_image import KernelCore
    from tickmark.targets.qemu_system import BoardCore
    from tickmark.targets.serial import SerialCore

    hello = _hello()
    build = {"cc": "cc", "cc_version": "cc 12", "cflags": "-O2", "hash": "h", "binary_sha256": "s", "variant": "v"}
    out = {"local": fake_core().fingerprint(hello)}
    log = LogTarget("log:board.log")
    out["log"] = log.fingerprint(None, hello)
    board = open_target("qemu-system:mps2-an500")
    out["board"] = board.fingerprint(BoardCore(board, "/nonexistent", build), hello)
    image = tmp_path / "bzImage"
    image.write_bytes(b"\0")
    kernel = open_target("qemu-system:x86_64?accel=tcg", kernel=str(image))
    out["kernel"] = kernel.fingerprint(KernelCore(kernel, "/nonexistent", build, "tcg"), hello)
    serial = open_target("serial:/dev/null?baud=9600")
    out["serial"] = serial.fingerprint(SerialCore(serial, None), hello)
    if shutil.which("ssh"):
        from tickmark.targets.ssh import SshCore

        ssh = open_target("ssh://root@board")
        out["ssh"] = ssh.fingerprint(SshCore(ssh, build, "core"), hello)
    return out


def test_every_key_a_target_writes_is_registered_with_its_type(tmp_path):
    for target, fp in _fingerprints(tmp_path).items():
        unknown = sorted(set(fp) - set(fingerprint.KEYS))
        assert not unknown, (target, unknown)
        for k, v in fp.items():
            if v is not None:
                assert isinstance(v, TYPES[fingerprint.KEYS[k].type]), (target, k, v)
                assert fingerprint.KEYS[k].type != "int" or not isinstance(v, bool), (target, k, v)


def test_a_board_says_what_it_is_and_nothing_of_this_machine(tmp_path):
    fps = _fingerprints(tmp_path)
    board, kernel = fps["board"], fps["kernel"]
    assert board["cycles_method"] == "icount-insns" and board["qemu_icount"] == "shift=0,sleep=off"
    for fp in (board, kernel):
        for k in ("governor", "boost", "thp", "clocksource", "loadavg", "perf_event_paranoid", "hostname"):
            assert fp[k] is None, k  # the host's values say nothing of the emulated machine
        assert fp["caches"] == [] and fp["emulated"] is True


def test_the_readers_take_their_keys_from_the_registry():
    fa = {"variant": "gcc -O2", "loadavg": "1.0", "cpu_model": "x"}
    fb = {"variant": "gcc -Os", "loadavg": "2.0", "cpu_model": "x"}
    assert [(k.name, a, b) for k, a, b in fingerprint.differences(fa, fb)] == [("variant", "gcc -O2", "gcc -Os")]
    assert "loadavg" in history.VOLATILE and "variant" not in history.VOLATILE
    props = document.SCHEMA["properties"]["run"]["properties"]["fingerprint"]["properties"]
    assert set(props) == set(fingerprint.KEYS)  # every registered key typed, none beside them
    for k in fingerprint.KEYS.values():  # the keys reports read, held closer (a short text, an integer)
        closer = k.export is not None or k.name in ("flags", "caches")
        assert (props[k.name].get("type") != [document._JSON_TYPE[k.type], "null"]) == closer, k.name
    assert fingerprint.incomparable({"qemu_icount": "shift=0"}, {})[1:] == (
        "guest instructions under QEMU -icount",
        "measured time",
    )
    assert fingerprint.incomparable({"qemu_icount": "shift=0"}, {"qemu_icount": "shift=0"}) is None


def test_history_orders_by_registered_fields_only():
    from tickmark.report.history import check_by

    assert check_by("kernel") == "kernel" and check_by("label:build") == "label:build"
    with pytest.raises(TickmarkError, match="bad --by 'kernal'"):
        check_by("kernal")
