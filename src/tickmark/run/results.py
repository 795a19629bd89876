"""The result writer: a result row per instance key (its benchmark, parameters, metric and unit
from the key and its meta), its samples and histograms per round, and its statistics computed
again from everything stored, with the run's own cycles method. The run engine (engine.py) and
an imported document (importing.py) write their results through it."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..analysis import stats, verdict
from ..base import tm1
from ..base.shapes import Row

if TYPE_CHECKING:
    from ..store import Store


def split_key(key: str) -> tuple[str, dict[str, int]]:
    """'sched.ring[procs=4,size=16]' -> ('sched.ring', {'procs': 4, 'size': 16}); a value that
    is not an integer the protocol can carry is not a parameter (tm1.params_problem)."""
    m = re.fullmatch(r"([^\[]+)(?:\[(.*)\])?", key)
    if not m:
        return key, {}
    params = {}
    for part in filter(None, (m.group(2) or "").split(",")):
        k, _, v = part.partition("=")
        if re.fullmatch(r"-?[0-9]{1,19}", v) and tm1.params_problem({k: int(v)}) is None:
            params[k] = int(v)
    return m.group(1), params


def result_metric(meta: dict[str, Any] | None) -> str:
    return stats.unit_of(meta)


def row_fields(key: str, meta: dict[str, Any]) -> dict[str, Any]:
    """The columns of a result row that come from the instance's key and meta record."""
    bench, params = split_key(key)
    return {
        "bench": meta.get("bench", bench),
        "params": meta.get("params", params),
        "metric": result_metric(meta),
        "unit": meta.get("unit", ""),
        "stat": meta.get("stat", "median"),
    }


class ResultWriter:
    """The one writer of result rows: a row per instance key (created by its first record, its
    status worsened by a later round that failed), its samples and histograms per round, and its
    statistics computed again from everything stored, with the run's own cycles method and
    environment flags. The caller holds the transaction."""

    def __init__(
        self, store: Store, run_id: int, cycles_method: str | None = "none", env_flags: Iterable[str] | None = ()
    ) -> None:
        self.store, self.run_id = store, run_id
        self.cycles_method, self.env_flags = cycles_method or "none", list(env_flags or ())
        self._meta: dict[int, dict[str, Any]] = {}  # result id -> its meta record (rows written here)
        self.disturbance: dict[int, Disturbance] = {}  # result id -> Disturbance of its samples (restat)

    def row(
        self,
        key: str,
        meta: dict[str, Any],
        status: str = "ok",
        reason: str = "",
        rnd: int = 1,
        fields: dict[str, Any] | None = None,
    ) -> tuple[int, bool]:
        """The row of `key` -> (result id, whether it is new). fields: the columns (row_fields)
        when they do not come from the meta record (an imported document)."""
        st = self.store
        rid = st.result_id(self.run_id, key)
        if rid is None:
            cols = fields if fields is not None else row_fields(key, meta)
            rid = st.add_result(self.run_id, key=key, status=status, reason=reason, meta=meta, **cols)
            self._meta[rid] = {"stat": cols.get("stat", "median"), **(meta or {})}
            return rid, True
        if status not in ("ok", "skip"):
            st.update_result(rid, status=status, reason=f"round {rnd}: {reason}" if rnd > 1 else reason)
        return rid, False

    def add(self, rid: int, rnd: int, samples: Sequence[Row] = (), hists: Iterable[Row] = ()) -> None:
        """Samples and histograms of one round."""
        if samples:
            self.store.add_samples(rid, rnd, [dict(s, round=rnd) for s in samples])
        for h in hists:
            self.store.add_hist(rid, rnd, {k: v for k, v in h.items() if k not in ("t", "key", "round")})

    def restat(self, rid: int) -> stats.Stats:
        """The row's statistics from all its samples and histograms -> stats.Stats (stored)."""
        st = self.store
        meta = self._meta.get(rid)
        if meta is None:
            row = next(r for r in st.results(self.run_id) if r["id"] == rid)
            meta = self._meta[rid] = {"stat": row["stat"], **(row["meta"] or {})}
        samples = st.samples(rid)
        s = stats.recompute(
            {"meta": meta},
            samples,
            st.hists(rid),
            cycles_method=self.cycles_method,
            env_flags=self.env_flags,
        )
        st.update_result(rid, stats=s.to_dict())
        self.disturbance[rid] = Disturbance.of(samples, bool(meta.get("blocking")))
        return s


@dataclasses.dataclass
class Disturbance:
    """How much of one result's measurement was disturbed: its on-CPU share (the evidence of
    analysis/verdict.py's one rule), how many of its samples were kept off the CPU, and how many
    reached the floor of its CPU time (what a contended pair is held to: verdict.floor_change)."""

    share: float | None = None  # the least on-CPU share of a round (verdict.least_on_cpu; None: nothing says it)
    off: int = 0  # samples on a CPU less than verdict.ON_CPU_MIN of their wall time
    n: int = 0  # samples whose share is known
    at_floor: int = 0  # samples whose task-clock per operation lies within FLOOR_NEAR of the fastest

    FLOOR_NEAR = 0.02  # the spread of an -O2 kernel's fastest samples on a quiet machine (1-2 %)
    FLOOR_HELD = 5  # a floor the bootstrap vouches for: its interval reaches about the 4th fastest

    @classmethod
    def of(cls, samples: Sequence[Row], blocking: bool = False) -> Disturbance:
        share = verdict.least_on_cpu(samples, blocking)
        if share is None:
            return cls()
        each = [verdict.on_cpu_share([x]) for x in samples]
        known = [x for x in each if x is not None]
        cpu, _ = stats.metric_values(samples, stats.TASK_CLOCK)
        near = int((cpu <= cpu.min() * (1 + cls.FLOOR_NEAR)).sum()) if len(cpu) else 0
        return cls(share, sum(x < verdict.ON_CPU_MIN for x in known), len(known), near)

    @property
    def contended(self) -> bool:
        """The one rule (against a process alone on its CPU), as compare holds it."""
        return verdict.contended(self.share)

    @property
    def floor_unheld(self) -> bool:
        """Contended, and its CPU time's floor reached by too few samples to hold a pair to it:
        other work shared its core in nearly every sample (extra rounds take more samples)."""
        return self.contended and self.at_floor < self.FLOOR_HELD
