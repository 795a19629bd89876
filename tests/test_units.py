"""The units module: one size grammar (the union of what patterns, --param, the core's sweeps,
the OS's cache sizes and the exporters read), one size formatter, each unit's direction, and no
unit name written out anywhere else in the package."""

import re
import pytest

from tickmark import units
from tickmark.units import parse_size

@pytest.mark.parametrize(
    "text, size",
    [
        # the core's form (patterns' size=32M, --param values, the sweeps `tickmark list` shows)
        ("4096", 4096),
        ("0", 0),
        ("32K", 32 << 10),
        ("32k", 32 << 10),
        ("32M", 32 << 20),
        ("32m", 32 << 20),
        ("2G", 2 << 30),
        ("2g", 2 << 30),
        ("1536", 1536),
        # what an OS reports (sysfs "32K", lscpu "32 KiB") and the exporters read
        ("32 K", 32 << 10),
        ("32KiB", 32 << 10),
        ("32 KiB", 32 << 10),
        ("32KB", 32 << 10),
        ("32kb", 32 << 10),
        ("1MiB", 1 << 20),
        ("512B", 512),
        (" 36864K \n", 36864 << 10),
        (32768, 32768),
        # not sizes
        ("", None),
        ("K", None),
        ("32X", None),
        ("32KK", None),
        ("3.5M", None),
        ("-32K", None),
        ("32iB", None),
        ("1" * 21, None),
        (None, None),
        (True, None),
        ([], None),
    ],
)
def test_one_size_grammar(text, size):
    assert parse_size(text) == size


def test_a_signed_size_only_when_asked():
    assert parse_size("-1K", signed=True) == -1024
    assert parse_size("-1K") is None
    assert parse_size(-5) is None and parse_size(-5, signed=True) == -5


@pytest.mark.parametrize(
    "n, text, estimate",
    [
        (None, "-", "-"),
        (512, "512B", "512B"),
        (1024, "1K", "1K"),
        (1536, "1.5K", "1.5K"),
        (32 << 10, "32K", "32K"),
        (446_464, "436K", "436K"),
        (1 << 20, "1M", "1M"),
        (2_317_352, "2.21M", "2.21M"),
        (2_321_000, "2.21M", "2.21M"),
        (36 << 20, "36M", "36M"),
        (1_234_567_890, "1.15G", "1.15G"),
        (3 << 30, "3G", "3G"),
        (200 * 1024 + 300, "200.29K", "200K"),
    ],
)
def test_one_size_formatter(n, text, estimate):
    assert units.fmt_size(n) == text
    assert units.fmt_size(n, digits=3) == estimate


@pytest.mark.parametrize("n", [0, 1, 512, 1024, 32 << 10, 1 << 20, 36 << 20, 2 << 30, 3 << 30])
def test_a_whole_size_reads_back_as_written(n):
    assert parse_size(units.fmt_size(n)) == n


@pytest.mark.parametrize(
    "unit, said, higher",
    [
        (units.NS_OP, None, False),
        (None, None, False),  # a headline without a unit is a time per operation
        (units.INSN_OP, None, False),
        (units.CYCLES_OP, None, False),
        (units.MB_S, None, True),
        (units.OPS_S, None, True),
        (units.IT_S, None, True),
        (units.BYTES, None, False),
        # a program's own figure says which way is better, whatever its unit
        (units.MB_S, False, False),
        (units.NS_OP, True, True),
        ("Mbit/s", True, True),
        ("Mbit/s", False, False),
        ("Mbit/s", None, False),
    ],
)
def test_which_way_is_better(unit, said, higher):
    assert units.higher_is_better(unit, said) is higher


@pytest.mark.parametrize(
    "x, unit, text",
    [
        (1250.0, units.NS_OP, "1.25 us"),
        (1250.0, None, "1.25 us"),
        (1_250_000.0, units.INSN_OP, "1.25 M insn"),
        (1250.0, units.MB_S, "1250 MB/s"),
        (12.5, "Mbit/s", "12.5 Mbit/s"),
        (3.0, "", "3.00"),
    ],
)
def test_a_value_in_its_unit(x, unit, text):
    assert units.show(x, unit) == text


def test_every_unit_shows_a_number():
    for u in units.UNITS.values():
        assert u.show(None) == "-", u.name
        assert re.search(r"\d", u.show(1234.5)), u.name
        assert u.higher in (True, False, None)
