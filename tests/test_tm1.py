"""The TM1 reader: records inside noise, validation against the protocol, stream order, duplicates,
line numbers of every problem; and the synthetic core (tests/fakecore.py) held to what the real
core emits, so that protocol drift fails here."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FAKECORE
from tickmark.base.tm1 import Parser, Reader, parse_text, validate

HELLO = '{"t":"hello","v":1,"core":"0.1.0"}'
META = '{"t":"meta","bench":"a","key":"a"}'


def sample(i, key="a", ns=10):
    return json.dumps({"t": "sample", "key": key, "i": i, "iters": 1, "ops": 1, "ns": ns})


END = '{"t":"end","key":"a","status":"ok"}'
BYE = '{"t":"bye","instances":1}'


def test_records_inside_noise():
    text = (
        "U-Boot 2024.01 booting...\n"
        f"[    1.234] console: TM1 {HELLO}\n"
        "random kernel message\n"
        f"TM1 {META}\n"
        f"xyzTM1 {sample(0)}\r\n"
        "\n"
        f"TM1 {END}   trailing\n"
        f"TM1 {BYE}"
    )
    recs, r = parse_text(text)
    assert [x["t"] for x in recs] == ["hello", "meta", "sample", "end", "bye"]
    assert recs[2]["ns"] == 10
    assert r.junk == 2 and r.malformed == 0 and r.problems == []


def test_two_records_on_one_line_are_both_kept():
    recs, r = parse_text(f"TM1 {HELLO} TM1 {META}\nTM1 {sample(0)}TM1 {sample(1)}\n")
    assert [x["t"] for x in recs] == ["hello", "meta", "sample", "sample"]
    assert r.malformed == 0


BAD = [
    # (line after hello+meta, what the problem says)
    ('TM1 {"t":"sample","key":"a"', "bad JSON"),
    ("TM1 {}", "no record type"),
    ('TM1 {"t":5}', "no record type"),
    ('TM1 {"t":"frob"}', "unknown record type"),
    ('TM1 {"t":"sample","key":"a","i":0,"iters":1,"ops":1}', "missing 'ns'"),
    ('TM1 {"t":"sample","key":"a","i":0,"iters":1,"ops":1,"ns":"abc"}', "'ns' is not"),
    ('TM1 {"t":"sample","key":"a","i":0,"iters":1,"ops":1,"ns":1000000000000000000000000000000}', "out of range"),
    ('TM1 {"t":"sample","key":"a","i":0,"iters":1,"ops":1,"ns":-5}', "'ns' is out of range (-5)"),
    ('TM1 {"t":"sample","key":"a","i":0,"iters":1,"ops":1,"ns":1.5}', "'ns' is not"),
    ('TM1 {"t":"sample","key":"a","i":0,"iters":1,"ops":1,"ns":NaN}', "NaN is not a number"),
    ('TM1 {"t":"sample","key":"a","i":0,"iters":1,"ops":1,"ns":1,"ctr":{"x":"y"}}', "'ctr'"),
    ('TM1 {"t":"sample","key":"a","i":0,"iters":1,"ops":1,"ns":1,"extra":[1e400]}', "64-bit integer"),
    ('TM1 {"t":"hist","key":"a","buckets":[["1",2]]}', "'buckets'"),
    ('TM1 {"t":"end","key":"a","status":"great"}', "'status' is not one of"),
    ('TM1 {"t":"sample","key":"\\u001b[2J","i":0,"iters":1,"ops":1,"ns":1}', "control characters"),
    ('TM1 {"a":' + "[" * 200000, "bad JSON"),
    ("TM1 " + '{"a":' * 100000, "bad JSON"),
    (f"TM1 {sample(0, key='b')}", "without its meta"),
    (f"TM1 {sample(0)}\nTM1 {sample(0)}", "sample 0 of a twice (duplicate)"),
    (f"TM1 {META}", "started twice"),
]


@pytest.mark.parametrize("line,says", BAD)
def test_bad_record_is_dropped_and_reported_with_its_line(line, says):
    text = f"TM1 {HELLO}\nTM1 {META}\n{line}\nTM1 {sample(5)}\nTM1 {END}\nTM1 {BYE}\n"
    recs, r = parse_text(text)
    assert [x["t"] for x in recs][-3:] == ["sample", "end", "bye"]  # what follows is kept
    assert r.malformed == 1
    ((n, msg),) = r.problems
    assert says in msg
    assert n == 3 + line.count("\n")


def test_out_of_order_records():
    text = "\n".join(f"TM1 {x}" for x in [sample(0), HELLO, META, END, sample(1), sample(2), BYE, sample(3)])
    recs, r = parse_text(text)
    assert [x["t"] for x in recs] == ["hello", "meta", "end", "bye"]
    assert [(n, m) for n, m in r.problems] == [
        (1, "sample before the hello record"),
        (5, "sample for a after its end"),
        (6, "sample for a after its end"),
        (8, "sample after the bye record"),
    ]
    assert r.summary(limit=2)[-1] == "... 2 more bad TM1 record(s)"


def test_duplicate_instance_and_end():
    text = "\n".join(f"TM1 {x}" for x in [HELLO, META, sample(0), END, END, META, sample(0), END, BYE])
    recs, r = parse_text(text)
    assert [x["t"] for x in recs] == ["hello", "meta", "sample", "end", "bye"]
    assert [m for _, m in r.problems] == [
        "end of a twice (duplicate)",
        "meta: instance a ran twice in one stream (duplicate)",
        "sample for a after its end",
        "end of a twice (duplicate)",
    ]


def test_instance_without_end_and_a_new_run():
    text = "\n".join(f"TM1 {x}" for x in [HELLO, META, sample(0), HELLO, META, END, BYE])
    recs, r = parse_text(text)
    assert [x["t"] for x in recs] == ["hello", "meta", "sample", "hello", "meta", "end", "bye"]
    assert [m for _, m in r.problems] == [
        "instance a has no end record",
        "the run before this hello ended without its bye record",
    ]


def test_skipped_and_crashed_instances_need_no_meta():
    text = "\n".join(
        f"TM1 {x}"
        for x in [
            HELLO,
            '{"t":"end","key":"s","status":"skip","reason":"no"}',
            '{"t":"end","key":"c","status":"crashed","reason":"SIGSEGV"}',
            BYE,
        ]
    )
    recs, r = parse_text(text)
    assert len(recs) == 4 and r.problems == []


def test_incremental_feed_across_chunk_boundaries():
    stream = f"TM1 {HELLO}\nTM1 {META}\n" + "".join(f"junk\nTM1 {sample(i)}\n" for i in range(3))
    r = Reader()
    recs = []
    for i in range(0, len(stream), 7):  # chunks that cut lines and records apart
        recs += r.feed(stream[i : i + 7])
    recs += r.close()
    assert [x["t"] for x in recs] == ["hello", "meta", "sample", "sample", "sample"]
    assert r.junk == 3


def test_truncated_stream_keeps_complete_records():
    r = Reader()
    recs = r.feed(f'TM1 {HELLO}\nTM1 {META}\nTM1 {sample(0)}\nTM1 {{"t":"sam')
    assert [x["t"] for x in recs] == ["hello", "meta", "sample"]
    assert r.close() == []
    assert r.malformed == 1 and r.problems[0][0] == 4
    assert r.open_keys() == ["a"]


def test_parser_gives_one_record_per_call():
    p = Parser()
    assert p.next_record(f"TM1 {HELLO} TM1 {META}")["t"] == "hello"
    assert p.next_record("noise")["t"] == "meta"
    assert p.next_record("noise") is None


# ---- the synthetic core against the real one ----


def _stream(argv, env=None):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    recs, reader = parse_text(r.stdout)
    assert reader.problems == [], reader.problems[:5]
    return recs


# fields a real core has or lacks by machine (TLB leaves of the processor, uname of the OS)
BY_MACHINE = {("hello", "tlb"), ("hello", "tlb_src"), ("hello", "os"), ("hello", "kernel"), ("hello", "machine")}


def _shapes(recs):
    """record type -> {field: JSON type name}, over every record of the type."""
    out = {}
    for rec in recs:
        for k, v in rec.items():
            out.setdefault(rec["t"], {}).setdefault(k, set()).add(type(v).__name__)
    return out


def test_fakecore_speaks_the_real_cores_protocol(core_binary):
    fake = [sys.executable, FAKECORE]
    fake_recs = _stream(fake + ["list"]) + _stream(fake + ["run", "--samples", "2"])
    real_recs = _stream([core_binary, "list"]) + _stream(
        [
            core_binary,
            "run",
            "sys.getppid",
            "sync.mutex",
            "timer.cyclic",
            "--param",
            "count=20",
            "--samples",
            "2",
            "--sample-ms",
            "1",
        ]
    )
    for recs in (fake_recs, real_recs):
        assert all(validate(x) is None for x in recs)
    fake_shape, real_shape = _shapes(fake_recs), _shapes(real_recs)
    assert set(fake_shape) == set(real_shape) == {"bench", "hello", "meta", "sample", "hist", "end", "bye"}
    for t, fields in fake_shape.items():
        for k, types in fields.items():
            if (t, k) in BY_MACHINE and k not in real_shape[t]:
                continue
            assert k in real_shape[t], f"fakecore's {t} has '{k}', the real core's has not"
            assert types <= real_shape[t][k], f"{t}.{k}: fakecore {types}, real core {real_shape[t][k]}"
    for t in real_shape:  # fields the real core puts in every record of a type
        always = set.intersection(*(set(x) for x in real_recs if x["t"] == t)) - {k for _, k in BY_MACHINE}
        some_fake = set.union(*(set(x) for x in fake_recs if x["t"] == t))
        assert always <= some_fake, f"fakecore's {t} lacks {always - some_fake}"


CORE_UNIT = Path(__file__).resolve().parent.parent / "src" / "tickmark" / "core" / "tests" / "unit.c"


def test_the_pattern_rule_is_the_cores():
    """The project's pattern rule (tickmark.base.patterns, which the synthetic core selects with)
    answers the core's own glob cases (its unit tests) as the core does."""
    from tickmark.base.patterns import matches

    cases = re.findall(r'CHECK\((!?)tm_glob_match\("([^"]*)", "([^"]*)"\)\)', CORE_UNIT.read_text())
    assert len(cases) >= 5, "the core's glob cases moved"
    for negated, pattern, text in cases:
        assert matches(text, pattern) == (not negated), (pattern, text)


def test_fakecore_selects_what_the_real_core_selects(core_binary):
    """The synthetic core picks benchmarks and instances by the real core's rule, not one of its
    own: on the real core's names and keys, every pattern selects the same."""
    import fakecore

    names = [r["name"] for r in _stream([core_binary, "list"]) if r["t"] == "bench"]
    for pattern in ("sys.*", "s?s.read", "sys.read", "*.bw_*", "mem.lat_rand[size=4096]", "*[*", "[", "sys.re[ad]"):
        real = [r for r in _stream([core_binary, "list", "--", pattern]) if r["t"] in ("bench", "unmatched")]
        chosen = [r["name"] for r in real if r["t"] == "bench"]
        assert chosen == [n for n in names if fakecore.bench_selected(n, pattern)], pattern
        assert any(r["t"] == "unmatched" for r in real) == (not chosen), pattern
    assert fakecore.instance_selected("mem.lat_rand[size=4096]", "mem.lat_rand", "mem.lat_rand[size=4*]")
    assert not fakecore.instance_selected("mem.lat_rand[size=8192]", "mem.lat_rand", "mem.lat_rand[size=4*]")
    assert fakecore.instance_selected("mem.lat_rand[size=8192]", "mem.lat_rand", "mem.*")
