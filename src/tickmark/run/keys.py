"""A result's key as the tables show it, taken back as a pattern: `show` writes a memfn routine
by its name (memfn.memcpy[impl=user,...]) and a key may be given with some of its parameters
only (mem.lat_rand[size=4K], whose instances also sweep thp). Such a pattern is written out here
as the core's keys (every parameter, in the core's order, values as integers: the named
implementation as its number, the parameters not given over their sweeps), so the core selects
what the user meant; a parameter the benchmark does not have, or a value that is not a number,
is refused before anything runs."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..analysis.memfn import IMPLS
from ..base.errors import TickmarkError
from ..base.names import printable
from ..base.patterns import normalized
from ..base.units import parse_size

if TYPE_CHECKING:
    from ..targets.base import Core


class Param(Protocol):
    """What a --param is here (plan.Param, which imports this module): its scope (a glob of
    benchmark names, None: every benchmark), its name and values."""

    @property
    def scope(self) -> str | None: ...

    @property
    def name(self) -> str: ...

    @property
    def values(self) -> tuple[str, ...]: ...

    def applies(self, bench: str) -> bool: ...


_NAMED = {"memfn.": {"impl": {name: n for n, name in IMPLS.items()}}}


def written_out(core: Core, patterns: Sequence[str], params: Sequence[Param] = ()) -> list[str]:
    """The patterns with each key pattern written out as the core's keys (see the module's
    comment); params (plan.Param): the --param sweeps, which replace a parameter's own."""
    partial = [parts for p in patterns if (parts := _key_parts(p)) is not None]
    if not partial:
        return list(patterns)
    heads = sorted({head for head, _ in partial})
    benches = {r["name"]: r for r in core.call(["list", "--", *heads]) if r.get("t") == "bench"}
    out: list[str] = []
    for p in patterns:
        parts = _key_parts(p)
        bench = benches.get(parts[0]) if parts else None
        out += [p] if bench is None or parts is None else _keys(p, parts[1], bench, params)
    return list(dict.fromkeys(out))


def _key_parts(p: object) -> tuple[str, list[tuple[str, str]]] | None:
    """'BENCH[k=v,...]' without wildcards -> (BENCH, [(k, v)]), else None."""
    if not isinstance(p, str) or "*" in p or "?" in p:
        return None
    head, bracket, rest = p.partition("[")
    if not bracket or not rest.endswith("]") or not head:
        return None
    pairs = [kv.partition("=") for kv in rest[:-1].split(",")]
    if not all(k and eq and v for k, eq, v in pairs):
        raise TickmarkError(
            f"bad pattern '{printable(p)[:60]}': a key's parameters are NAME=VALUE, separated by commas"
        )
    return head, [(k, v) for k, _, v in pairs]


def _keys(p: str, pairs: list[tuple[str, str]], bench: dict[str, Any], params: Sequence[Param]) -> list[str]:
    name = bench["name"]
    declared = [d["name"] for d in bench.get("params") or []]
    named = next((v for prefix, v in _NAMED.items() if name.startswith(prefix)), {})
    given = {}
    for k, v in pairs:
        if k not in declared:
            have = ", ".join(declared) or "none"
            raise TickmarkError(
                f"bad pattern '{printable(p)[:60]}': {name} has no parameter {k} (its parameters: {have})"
            )
        value = named.get(k, {}).get(v, v)
        full = normalized(f"x[{k}={value}]")[len(k) + 3 : -1]
        if not full.lstrip("-").isdigit():
            raise TickmarkError(f"bad pattern '{printable(p)[:60]}': {k}={printable(v)[:20]} is not a number")
        given[k] = [full]
    sweeps = [given.get(d["name"]) or _sweep(d, name, params) for d in bench.get("params") or []]
    return [_key(name, bench.get("params") or [], point) for point in itertools.product(*sweeps)]


def _key(name: str, defs: list[dict[str, Any]], point: Sequence[str]) -> str:
    """The core's key of one point: a parameter at its unkeyed value is left out (bench.h)."""
    shown = [f"{d['name']}={v}" for d, v in zip(defs, point) if v != str(parse_size(d.get("unkeyed"), signed=True))]
    return f"{name}[{','.join(shown)}]" if shown else name


def _sweep(d: dict[str, Any], bench: str, params: Sequence[Param]) -> list[str]:
    """A parameter's sweep: a --param's values (the core's rule: a scoped one that applies wins
    over an unscoped one), else its own as the core lists it ('1K,1536') -> ['1024', '1536']."""
    scoped = [q for q in params if q.scope is not None and q.name == d["name"] and q.applies(bench)]
    plain = [q for q in params if q.scope is None and q.name == d["name"]]
    chosen = (scoped or plain)[-1] if scoped or plain else None
    sweep = ",".join(chosen.values) if chosen is not None else str(d.get("sweep") or "")
    text = normalized(f"x[v={sweep.replace(',', ',v=')}]")
    return [v.partition("=")[2] for v in text[2:-1].split(",")]
