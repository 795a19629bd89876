"""The units module: one size grammar (the union of what patterns, --param, the core's sweeps,
the OS's cache sizes and the exporters read), one size formatter, each unit's direction, and no
unit name written out anywhere else in the package."""

import ast
import re
from pathlib import Path

import pytest

from tickmark.base import units
from tickmark.base.units import parse_size

SRC = Path(__file__).resolve().parent.parent / "src" / "tickmark"


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


def test_stats_asks_the_units_for_the_direction():
    from tickmark.analysis import stats

    assert stats.higher_is_better({"stat": "max", "bytes_per_op": 64}) is True  # bandwidth
    assert stats.higher_is_better({"stat": "median"}) is False
    assert stats.higher_is_better({"figure": {"unit": units.MB_S, "higher": False}}) is False
    assert stats.higher_is_better({"figure": {"unit": "s", "higher": True}}) is True


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


UNIT_NAMES = re.compile(r"(?<![\w/])(MB/s|GB/s|ns/op|insn/op|cycles/op|ops/s|it/s)(?![\w/])")


def _docstrings(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def unit_literals(source, name="<source>"):
    """(line, text) of each string constant outside docstrings that names a unit."""
    tree = ast.parse(source, name)
    docs = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
        if UNIT_NAMES.search(node.value)
    ]


def test_no_unit_name_outside_the_units_module():
    """A unit's name is written once, in units.py; every other module uses its constant (prose
    in docstrings and comments may name a unit)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path == SRC / "base" / "units.py":
            continue
        for line, text in unit_literals(path.read_text(), str(path)):
            found.append(f"{path.relative_to(SRC)}:{line}: {text!r}")
    assert not found, "unit names written out (use tickmark.base.units):\n" + "\n".join(found)


def test_the_grep_finds_a_unit_name():
    source = '"""A module on MB/s."""\nx = f"{v} MB/s"\ny = "ns/op"  # in ns/op\nz = "ops/sec, nsxop"\n'
    assert sorted(text for _, text in unit_literals(source)) == [" MB/s", "ns/op"]


@pytest.mark.parametrize(
    "pattern, full",
    [
        ("mem.bw_copy[size=32M]", "mem.bw_copy[size=33554432]"),
        ("mem.bw_copy[size=32m]", "mem.bw_copy[size=33554432]"),
        ("mem.lat_rand[size=4K,stride=64]", "mem.lat_rand[size=4096,stride=64]"),
        ("x.y[a=1K,2G]", "x.y[a=1024,2147483648]"),
        ("x.y[a=-1K]", "x.y[a=-1024]"),
        ("x.y[a=4096]", "x.y[a=4096]"),
        ("x.y[a=32KB]", "x.y[a=32KB]"),  # not the core's form: stands for itself
        ("x.y[a=" + "9" * 30 + "K]", "x.y[a=" + "9" * 30 + "K]"),
        ("mem.*", "mem.*"),
    ],
)
def test_patterns_read_sizes_as_the_core_does(pattern, full):
    from tickmark.base.patterns import matches, normalized

    assert normalized(pattern) == full
    assert matches(full, pattern)


def test_param_values_read_with_the_one_grammar(monkeypatch):
    from tickmark.base.errors import TickmarkError
    from tickmark.run import plan

    monkeypatch.setattr("tickmark.targets.build.core_limit", lambda name: 64)
    (p,) = plan.parse_params(["mem.*:size=4K,64k,1M,100"])
    assert p.values == ("4K", "64k", "1M", "100")  # as written: the core reads them itself
    with pytest.raises(TickmarkError, match="the same as 4K"):
        plan.parse_params(["size=4K,4096"])
    for big in ("99999999999G", "9" * 10000, "8589934592G"):
        with pytest.raises(TickmarkError, match="too large"):
            plan.parse_params([f"size={big}"])
    assert plan.parse_params(["size=8589934591G"])[0].values == ("8589934591G",)  # 2^63 - 2^30: fits
    with pytest.raises(TickmarkError, match="bad --param"):
        plan.parse_params(["size=32KB"])
