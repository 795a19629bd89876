"""Hostile TM1 lines: a fuzz of mutated record lines never crashes the reader and keeps the valid
records."""

import json

import pytest

from hostilefix import HOSTILE_VALUES  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


def _stream_lines(n_inst=20, samples=5):
    lines = ['TM1 {"t":"hello","v":1,"core":"0.1.0","target":"x86_64-linux-gnu"}']
    for k in range(n_inst):
        key = f"b.k[size={k}]"
        lines.append(json.dumps({"t": "meta", "bench": "b.k", "key": key, "params": {"size": k}, "iters": 10}))
        for i in range(samples):
            lines.append(
                json.dumps(
                    {"t": "sample", "key": key, "i": i, "iters": 10, "ops": 10, "ns": 100 + i, "ctr": {"task_clock": 5}}
                )
            )
        lines.append(json.dumps({"t": "end", "key": key, "status": "ok", "reason": "", "wall_ns": 1}))
    lines.append(json.dumps({"t": "bye", "instances": n_inst}))
    return [ln if ln.startswith("TM1 ") else "TM1 " + ln for ln in lines]


def _mutate_line(rng, line):
    how = rng.randrange(8)
    if how == 0:  # cut it short
        return line[: rng.randrange(len(line))]
    if how == 1:  # flip a character
        i = rng.randrange(len(line))
        return line[:i] + chr(rng.randrange(1, 0x250)) + line[i + 1 :]
    if how == 2:  # noise around it, or a second marker
        return rng.choice(["junk ", "\x00\x1b[2J", "TM1 {", "TM1 TM1 "]) + line + rng.choice(["", " TM1 {", "\r"])
    rec = json.loads(line[4:])
    field = rng.choice(sorted(rec))
    if how in (3, 4):  # a hostile value
        rec[field] = rng.choice(HOSTILE_VALUES)
    elif how == 5:
        del rec[field]
    elif how == 6:
        rec["t"] = rng.choice(["sample", "meta", "end", "hist", "bye", "hello", "nope", 5])
    else:
        return "TM1 " + "[" * rng.randrange(1, 5000) + line[4:]
    return "TM1 " + json.dumps(rec)


def test_fuzz_tm1_lines_no_crash_and_valid_records_kept():
    import random

    from tickmark.base.tm1 import Reader, validate

    rng = random.Random(20261123)
    mutated = 0
    base = _stream_lines()
    while mutated < 10000:
        lines = list(base)
        sample_rows = [i for i, ln in enumerate(lines) if '"t": "sample"' in ln]
        hit = set(rng.sample(sample_rows, 25))
        for i in hit:
            lines[i] = _mutate_line(rng, lines[i])
        mutated += len(hit)
        r = Reader()
        recs = [rec for ln in lines for rec in r.feed_line(ln)]
        assert all(validate(x) is None for x in recs)
        kept = {(x["key"], x["i"]) for x in recs if x["t"] == "sample"}
        intact = {(json.loads(lines[i][4:])["key"], json.loads(lines[i][4:])["i"]) for i in sample_rows if i not in hit}
        assert intact <= kept, "a valid record was lost"
        assert sum(x["t"] == "end" for x in recs) == 20 and recs[-1]["t"] == "bye"
        assert all(n <= len(lines) for n, _ in r.problems)
    # and wholly random damage anywhere in the stream: never an exception
    for _ in range(20):
        r = Reader()
        for ln in base:
            r.feed_line(_mutate_line(rng, ln) if rng.random() < 0.5 else ln)
        r.close()
