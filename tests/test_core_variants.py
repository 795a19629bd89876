"""Variants of the core's build that change the instruction set: with -mno-sse2 the core builds
(the non-temporal stores are compiled for SSE2 alone, which every x86-64 has) and its
non-temporal benchmark still verifies what it writes."""

import json
import platform
import subprocess

import pytest


@pytest.mark.skipif(platform.machine() != "x86_64", reason="an x86-64 build option")
def test_a_build_without_sse2_in_its_flags(make_core):
    core = make_core("CFLAGS=-O2 -mno-sse2")
    out = subprocess.run(
        [str(core), "run", "mem.bw_nt", "--param", "size=65536", "--samples", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    ends = [json.loads(ln[4:]) for ln in out.splitlines() if ln.startswith("TM1 ") and '"t":"end"' in ln]
    assert ends and all(e["status"] == "ok" and e["verified"] for e in ends), out
