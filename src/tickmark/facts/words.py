"""The machine a run ran on, in words: one function, `lines(fp)`, that `tickmark info`, the header
of `tickmark show` and the report's machine section (terminal, Markdown, HTML) all render, so that
one run's caches, timer, CPUs and cycles read the same in each.

Each line words some fingerprint keys (fingerprint.KEYS); a line is in a run's one-line header
when one of its keys is a header key (Key.header), so the header is derived from the key
registry, never listed again. A setting that was not recorded reads 'unknown' (never None); a
line whose keys the run does not have at all (no board, no QEMU -icount) is left out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..base.exact import exact_counts, explanation
from ..base.fmt import known
from ..base.shapes import Fingerprint
from . import fingerprint


@dataclass(frozen=True)
class Line:
    """One line of the machine in words: its label, the fingerprint keys it words, and how
    (fingerprint -> text, or None where the run has nothing to say on it)."""

    label: str
    keys: tuple[str, ...]
    words: Callable[[Fingerprint], str | None]

    @property
    def header(self) -> bool:
        return any(fingerprint.KEYS[k].header for k in self.keys)


def where(fp: Fingerprint) -> str:
    """Where a run ran, in words: its target (local, ssh://..., serial:..., a log it was read
    from) and the host that drove it."""
    text = known(fp.get("target_uri"), "not recorded")
    if fp.get("host"):
        text += f" (driven from {known(fp['host'])})"
    elif fp.get("ingested_on"):
        text += f" (read on {known(fp['ingested_on'])})"
    return text


def _cpu(fp: Fingerprint) -> str:
    return f"{known(fp.get('cpu_model'))} ({known(fp.get('arch'))}, {known(fp.get('cpus_online'), '?')} CPUs)"


def _caches(fp: Fingerprint) -> str:
    return fingerprint.in_words("caches", fp.get("caches")) or "not reported"


def _os(fp: Fingerprint) -> str:
    parts = [known(fp.get("os")), f"kernel {known(fp.get('kernel'))}"]
    return ", ".join(parts + ([known(fp["libc"])] if fp.get("libc") else []))


def _compiler(fp: Fingerprint) -> str:
    return f"{known(fp.get('compiler'))} {known(fp.get('cflags'), '')}".strip()


def _target(fp: Fingerprint) -> str:
    return where(fp) + (", emulated: not for timing claims" if fp.get("emulated") else "")


def _core_links(fp: Fingerprint) -> str | None:
    if not fp.get("linkage") and not fp.get("core_libc"):
        return None
    return f"{known(fp.get('linkage'))}, C library {known(fp.get('core_libc'))}"


def _timer(fp: Fingerprint) -> str:
    parts = [known(fp.get("clock"))]
    tick = "insn" if exact_counts(fp) else "ns"  # QEMU -icount: the virtual clock counts instructions
    if fp.get("clock_res_ns") is not None:
        parts.append(f"resolution {known(fp['clock_res_ns'])} {tick}")
    if fp.get("timer_overhead_ps"):
        parts.append(f"read costs {fp['timer_overhead_ps'] / 1000:.1f} {tick}")
    if fp.get("ticks"):
        parts.append(f"ticks {known(fp['ticks'])}")
    return ", ".join(parts)


def _cycles(fp: Fingerprint) -> str:
    method = fp.get("cycles_method") or "none"
    text = fingerprint.CYCLES_METHODS.get(method, ("", method))[1]
    if method in ("calibrated-freq", "given-freq") and fp.get("fcore_khz"):
        text += f", {fp['fcore_khz'] / 1e6:.2f} GHz"
    return text


def _counters(fp: Fingerprint) -> str:
    text = known(fp.get("counters"), "none")
    if fp.get("counters_unsupported"):
        text += f"; not supported: {known(fp['counters_unsupported'])}"
    if fp.get("perf_event_paranoid") is not None:
        text += f"; perf_event_paranoid={known(fp['perf_event_paranoid'])}"
    return text


def _time_base(fp: Fingerprint) -> str | None:
    return explanation(fp)  # the one sentence of an exact-count run (exact.py), else no line


def _frequency(fp: Fingerprint) -> str:
    return f"governor {known(fp.get('governor'))}, boost {known(fp.get('boost'))}"


def _given(name: str, fmt: Callable[[str], str] = str) -> Callable[[Fingerprint], str | None]:
    return lambda fp: None if fp.get(name) in (None, "") else fmt(known(fp[name]))


def _load(fp: Fingerprint) -> str | None:
    """The background load of a run (run/load.py's record): 'messages (2 groups of ...),
    145,408 messages/s'."""
    load = fp.get("load")
    if not isinstance(load, dict):
        return None
    rate = load.get("intensity")
    rate = f", {rate:,.0f} {load.get('unit') or ''}".rstrip() if isinstance(rate, (int, float)) else ""
    return f"{known(load.get('name'))} ({known(load.get('what'))}){rate}"


LINES = (
    Line("CPU", ("cpu_model", "arch", "cpus_online"), _cpu),
    Line("board", ("board",), _given("board")),
    Line("caches (OS)", ("caches",), _caches),
    Line("OS", ("os", "kernel", "libc"), _os),
    Line("compiler", ("compiler", "cflags"), _compiler),
    Line("variant", ("variant",), lambda fp: known(fp.get("variant"))),
    Line("target", ("target_uri", "host", "ingested_on", "emulated"), _target),
    Line("target triple", ("target",), _given("target")),
    Line("core binary", ("binary_sha256",), _given("binary_sha256", lambda s: f"sha256 {s[:16]}")),
    Line("core links", ("linkage", "core_libc"), _core_links),
    Line("timer", ("clock", "clock_res_ns", "timer_overhead_ps", "ticks"), _timer),
    Line("cycles", ("cycles_method", "fcore_khz"), _cycles),
    Line("counters", ("counters", "counters_unsupported", "perf_event_paranoid"), _counters),
    Line("time base", ("qemu_icount",), _time_base),
    Line("frequency", ("governor", "boost"), _frequency),
    Line("virtualization", ("virtualization",), lambda fp: known(fp.get("virtualization"))),
    Line(
        "memory",
        ("page_size", "thp"),
        lambda fp: f"page {known(fp.get('page_size'), '?')} B, transparent huge pages {known(fp.get('thp'))}",
    ),
    Line("clocksource", ("clocksource",), lambda fp: known(fp.get("clocksource"))),
    Line("load average", ("loadavg",), _given("loadavg")),
    Line("before each round", ("before",), _given("before")),
    Line("pinned to CPU", ("cpu",), _given("cpu")),
    Line("load", ("load",), _load),
)


def lines(fp: object, header: bool = False) -> list[list[str]]:
    """The machine of a fingerprint in words -> [[label, text]], in the registry's order; with
    header, only the lines of the run's header (those wording a header key)."""
    fp = fp if isinstance(fp, dict) else {}
    out: list[list[str]] = []
    for line in LINES:
        if header and not line.header:
            continue
        text = line.words(fp)
        if text is not None:
            out.append([line.label, text])
    return out
