"""Hostile numbers and target URIs: Unicode digits, huge numbers, ports, shell signs."""

import time

import pytest

from hostilefix import RUN, one_error_line  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


NUMBERS = [
    (["show", "²"], "no run '²'"),
    (["show", "١"], "no run '١'"),
    (["show", "9" * 5000], "no run"),
    (["info", "--target", "serial:/dev/ttyS0?baud=²"], "baud must be one of"),
    (["info", "--target", "serial:/dev/ttyS0?baud=" + "9" * 5000], "baud must be one of"),
    (["info", "--target", "serial:/dev/ttyS0?silence=²"], "silence wants seconds"),
    (["info", "--target", "serial:/dev/ttyS0?silence=١٢"], "silence wants seconds"),
    (["info", "--target", "labgrid:p?wait=²"], "wait wants seconds"),
    (["info", "--target", "labgrid:p?boot-wait=" + "9" * 5000], "boot-wait wants seconds"),
    (["info", "--target", "ssh://root@h:0"], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root@h:²"], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root@h:" + "9" * 5000], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root@h:+22"], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root@[::1]:0"], "the port must be a number, 1..65535"),
    (["info", "--target", "ssh://root:S3cret@h"], "a password cannot be part"),
    (["info", "--target", "serial:/dev/ttyS0?core=/usr/bin/tick mark"], "core must be a plain path"),
    (["info", "--target", "serial:/dev/ttyS0?core=/bin/x%20--help"], "core must be a plain path"),
    (["info", "--target", "serial:/dev/ttyS0?core=/bin/x%09y"], "core must be a plain path"),
]


@pytest.mark.parametrize("args,says", NUMBERS, ids=[" ".join(a)[:50] for a, _ in NUMBERS])
def test_unicode_digits_huge_numbers_and_odd_uris(env, cli, args, says):
    rc, out, err = cli(*args)
    one_error_line(rc, err, says)
    assert "S3cret" not in err and len(err) < 500


def test_unicode_digits_in_columns(env, cli, monkeypatch):
    rc, out, err = cli(*RUN, "sys.fast")
    assert rc == 0, err
    for cols in ("²", "١٢٠", "9" * 5000):
        monkeypatch.setenv("COLUMNS", cols)
        rc, out, err = cli("show")
        assert rc == 0 and "sys.fast" in out, err


def test_a_name_of_unicode_digits_is_a_name(env, cli):
    rc, out, err = cli(*RUN, "sys.fast", "--name", "²")
    assert rc == 0, err
    rc, out, err = cli("show", "²")
    assert rc == 0 and "'²'" in out


def _parse_target(uri):
    """A target URI parsed the way --target parses it, without connecting to anything -> the
    canonical URI, or TickmarkError."""
    from tickmark.targets import labgrid, open_target

    if uri.startswith("labgrid:"):  # opening it reaches for the coordinator: parse only
        if any(ord(c) < 32 or ord(c) == 127 for c in uri):
            from tickmark.base.errors import TickmarkError

            raise TickmarkError("bad --target: control characters in the URI")
        return labgrid.parse_uri(uri)[0]
    with open_target(uri) as t:
        return t.uri


TARGET_SEEDS = [
    "local",
    "ssh://root@10.0.0.2:2222",
    "ssh://[fe80::1]:22",
    "ssh:lab-imx6",
    "serial:/dev/ttyUSB0?baud=115200&core=/usr/bin/tickmark-core&silence=5",
    "labgrid:rpi4-a?via=ssh&wait=5&boot-wait=10&power-cycle=1",
    "qemu-user:aarch64",
    "qemu-system:mps2-an500?icount=0",
    "qemu-system:x86_64?accel=tcg&kernel=/nonexistent/vmlinuz",
]


URI_PIECES = ["²", "١", "0", "00", "65536", "9" * 30, "9" * 5000, "%00", "%20", "%", "&", "?", "=", ":", "@", "[", "]"]


URI_PIECES += [
    "/",
    " ",
    "\t",
    "\n",
    "\x00",
    "-",
    "--help",
    ";reboot",
    "$(id)",
    "'",
    '"',
    "\u202e",
    "ﬀ",
    "core=",
    "baud=",
]


def _mutate_uri(rng, uri):
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(uri) + 1)
        how = rng.randrange(4)
        if how == 0:  # insert a piece
            uri = uri[:i] + rng.choice(URI_PIECES) + uri[i:]
        elif how == 1:  # replace a run of characters
            uri = uri[:i] + rng.choice(URI_PIECES) + uri[i + rng.randrange(1, 6) :]
        elif how == 2:  # cut
            uri = uri[: i + rng.randrange(0, 3)] if rng.random() < 0.3 else uri[:i] + uri[i + 1 :]
        else:  # an option twice, or one of another scheme
            uri += rng.choice(["&baud=9600", "?icount=1", "&wait=²", "&silence=0", "?via=serial", ":22", "&core=a b"])
    return uri


def test_fuzz_target_uris():
    """Mutated target URIs: each is a target whose canonical URI reads back as itself, or one
    line of error that never echoes a password; never an exception."""
    import random

    from tickmark.base.errors import TickmarkError

    rng = random.Random(1119)
    accepted = refused = 0
    t0 = time.monotonic()
    for _ in range(20000):
        uri = _mutate_uri(rng, rng.choice(TARGET_SEEDS))
        try:
            canon = _parse_target(uri)
        except TickmarkError as e:
            msg = str(e)
            assert "\n" not in msg and len(msg) < 600, (uri, msg)
            refused += 1
            continue
        assert _parse_target(canon) == canon, (uri, canon)
        accepted += 1
    assert accepted > 500 and refused > 2000, (accepted, refused)
    print(f"target URI fuzz: {accepted + refused} cases, {accepted} accepted, {time.monotonic() - t0:.1f} s")
