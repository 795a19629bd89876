from tickmark.tm1 import Parser, parse_text


def test_records_inside_noise():
    text = ("U-Boot 2024.01 booting...\n"
            '[    1.234] console: TM1 {"t":"hello","v":1,"seed":7}\n'
            "random kernel message\n"
            'xyzTM1 {"t":"sample","key":"a","ns":10}\r\n'
            "\n"
            'TM1 {"t":"bye","instances":1}   trailing\n')
    recs, p = parse_text(text)
    assert [r["t"] for r in recs] == ["hello", "sample", "bye"]
    assert recs[1]["ns"] == 10
    assert p.junk == 2 and p.malformed == 0


def test_malformed_lines_are_counted_and_skipped():
    text = ('TM1 {"t":"meta","key":"a"\n'       # truncated JSON
            'TM1 {}\n'                           # empty object
            'TM1 {"no_t":1}\n'                    # no type
            'TM1 {"t":5}\n'                       # type not a string
            'TM1 {"t":"end","key":"a","status":"ok"}\n')
    recs, p = parse_text(text)
    assert [r["t"] for r in recs] == ["end"]
    assert p.malformed == 4


def test_incremental_feed_across_chunk_boundaries():
    line = 'TM1 {"t":"sample","key":"k","i":3,"ns":123456}\n'
    stream = ("junk\n" + line) * 3
    p = Parser()
    recs = []
    for i in range(0, len(stream), 7):  # chunks that cut lines and records apart
        recs += p.feed(stream[i:i + 7])
    recs += p.close()
    assert len(recs) == 3 and all(r["ns"] == 123456 for r in recs)
    assert p.junk == 3


def test_truncated_stream_keeps_complete_records():
    stream = 'TM1 {"t":"hello","v":1}\nTM1 {"t":"sample","key":"a","ns":1}\nTM1 {"t":"sam'
    p = Parser()
    recs = p.feed(stream)
    assert [r["t"] for r in recs] == ["hello", "sample"]
    assert p.close() == []
    assert p.malformed == 1


def test_last_line_without_newline_is_parsed():
    recs, _ = parse_text('TM1 {"t":"bye","instances":0}')
    assert recs == [{"t": "bye", "instances": 0}]
