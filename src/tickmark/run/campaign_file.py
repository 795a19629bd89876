"""A campaign file: its keys checked and read into a Spec, and its cells (target x variant x
workload [x load], each a run named CAMPAIGN:TARGET:VARIANT:WORKLOAD, or CAMPAIGN:TARGET:VARIANT:
WORKLOAD:LOAD for a cell under a load). campaign.py runs them.

File format (README.md has the user's version):

    name = "lab-nov"                  # required: names the runs, the key for resuming
    rounds = 3                        # optional, as `tickmark run`: rounds max_rounds samples
                                      # sample_ms seed timeout params baseline (limits: plan.LIMITS)
    lease = 60                        # optional: seconds a claim lives without being renewed
    loads = ["idle", "messages"]      # optional: each cell once per load (run/load.py; "idle" is
                                      # none, its cells keep the name without ':LOAD'); local targets only
    [labels]                          # optional: KEY = "VALUE" stored with every cell's run
    build = "1234"
    [targets]                         # NAME = "URI" (any --target URI), in order
    board-a = "labgrid:rpi4-a"
    [variants]                        # NAME = { cc, cflags, memfn }  (default: one, the defaults)
    O2 = { cflags = "-O2" }
    [workloads]                       # NAME = "SUITE" or ["PATTERN", ...]
    os = "os"
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from ..base.errors import TickmarkError
from ..base.names import printable
from ..targets import check_uri, source_identity
from .load import IDLE
from .plan import LIMITS, Bench, Plan, check_params_used

if TYPE_CHECKING:
    from ..targets.base import Core

# a campaign file's mistake: one TickmarkError line naming the file
Bad = Callable[[str], NoReturn]

_NAME = re.compile(r"[A-Za-z0-9_.+-]+")


_TOP_KEYS = {"name", "targets", "variants", "workloads", "params", "baseline", "lease", "labels", "loads", *LIMITS}


LEASE = 60  # seconds a claim on a cell lives without being renewed (claims.py)


@dataclass
class Spec:
    name: str
    targets: dict[str, str]  # name -> URI
    variants: dict[str, dict[str, str]]  # name -> {"cc", "cflags", "memfn"}
    workloads: dict[str, dict[str, Any]]  # name -> {"suite": str|None, "patterns": [..]}
    options: dict[str, Any] = field(default_factory=dict)  # the run options (plan.LIMITS keys, params)
    baseline: str | None = None  # the target the others are compared against (default: the first)
    path: str = ""
    lease: float = LEASE  # seconds: a dead process's cell is taken over this long after its last renewal
    labels: dict[str, str] = field(default_factory=dict)  # stored with every cell's run (history orders by them)
    machines: dict[str, str] = field(default_factory=dict)  # target name -> the machine it runs on (Target.host_key())
    sources: dict[str, Any] = field(default_factory=dict, repr=False)  # target name -> target_sources(), once read
    loads: list[str] = field(default_factory=lambda: [IDLE])  # each cell runs once under each (run/load.py)

    def target_sources(self, tname: str) -> dict[str, Any]:
        """What target tname builds its core from besides the core and the variant (an OS tree, a
        kernel image: Target.source_identity), read once per start of the campaign, without
        building or booting; where it cannot be read (a missing tree), why: the cell then runs,
        and says so, rather than keeping a run made from what is gone."""
        if tname not in self.sources:
            try:
                self.sources[tname] = source_identity(self.targets[tname])
            except TickmarkError as e:
                self.sources[tname] = {"unreadable": {"what": "the target's sources", "error": str(e)}}
        return self.sources[tname]

    def plan(self, workload: str, name: str | None = None, load: str = IDLE) -> Plan:
        """The run plan of a workload's cells (run/plan.py: the command line's checks and limits);
        a cell under a load carries the label load=NAME, as `tickmark run --load` does."""
        w = self.workloads[workload]
        o = dict(self.options)
        params = o.pop("params", [])
        return Plan(
            w["patterns"] if w["suite"] is None else (),
            w["suite"],
            params=params,
            labels=self.labels if load == IDLE else dict(self.labels, load=load),
            names=[name],
            name_what="cell run name",
            in_file=True,
            **o,
        )

    def add_labels(self, labels: dict[str, str]) -> None:
        """Labels from the command line (--label), beside the file's [labels]: a key the file sets
        to another value is refused (every cell's run must carry the same labels)."""
        for k, v in labels.items():
            if k == "load" and self.loads != [IDLE]:
                raise TickmarkError(f"--label load=...: campaign {self.path} has loads: the label 'load' is theirs")
            if k in self.labels and self.labels[k] != v:
                raise TickmarkError(
                    f"--label {k}={printable(v)[:40]}: campaign {self.path} sets {k} = "
                    f"'{printable(self.labels[k])[:40]}' in its [labels] (change it there, or give another key)"
                )
        self.labels.update(labels)


@dataclass
class Cell:
    target: str
    variant: str
    workload: str
    run_name: str
    load: str = IDLE  # the background load the cell runs under (run/load.py)
    machine: str | None = None  # what the target runs on: one cell at a time on it (claims by this key)
    state: str = "pending"  # pending, done (this start), finished (before), failed, interrupted, not run
    run_id: int | None = None
    results: int = 0
    message: str = ""
    seconds: float = 0.0

    @property
    def id(self) -> str:
        return f"{self.target}:{self.variant}:{self.workload}" + ("" if self.load == IDLE else f":{self.load}")


# ---------------------------------------------------------------- the file
def load(path: str) -> Spec:
    """Read and check a campaign file -> Spec. Every mistake is one TickmarkError line."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python before 3.11
        import tomli as tomllib
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as e:
        raise TickmarkError(f"cannot read campaign {path}: {e.strerror}")
    except tomllib.TOMLDecodeError as e:
        raise TickmarkError(f"campaign {path} is not valid TOML: {e}")
    return parse(doc, path)


def parse(doc: dict[str, Any], path: str = "campaign") -> Spec:
    def bad(msg: str) -> NoReturn:
        raise TickmarkError(f"campaign {path}: {msg}")

    unknown = sorted(set(doc) - _TOP_KEYS)
    if unknown:
        bad(f"unknown key '{unknown[0]}' (known: {', '.join(sorted(_TOP_KEYS))})")
    name = doc.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name.isdigit():
        bad("'name' must be a word of letters, digits, '_', '.', '+' or '-' (it names the runs)")
    opts = {k: doc[k] for k in LIMITS if k in doc}
    params = doc.get("params", [])
    if not isinstance(params, list):
        bad("'params' must be a list of '[BENCH:]NAME=V[,V...]' strings")
    opts["params"] = list(params)

    targets = _table(doc, "targets", bad, required=True)
    machines: dict[str, str] = {}
    for tname, uri in targets.items():
        if not isinstance(uri, str) or not uri:
            bad(f"targets.{tname}: expected a target URI string")
        try:
            machines[tname] = check_uri(uri)
        except TickmarkError as e:
            bad(f"targets.{tname}: {e}")
    variants = _table(doc, "variants", bad) or {"default": {}}
    base_dir = os.path.dirname(os.path.abspath(path)) if path else os.getcwd()
    for vname, v in list(variants.items()):
        if not isinstance(v, dict):
            bad(f'variants.{vname}: expected a table such as {{ cflags = "-O2" }}')
        extra = sorted(set(v) - {"cc", "cflags", "memfn"})
        if extra:
            bad(f"variants.{vname}: unknown key '{extra[0]}' (known: cc, cflags, memfn)")
        for k, x in v.items():
            if not isinstance(x, str):
                bad(f"variants.{vname}.{k}: expected a string")
        v = dict(v)
        if v.get("memfn"):
            mf = v["memfn"] if os.path.isabs(v["memfn"]) else os.path.join(base_dir, v["memfn"])
            if not os.path.isfile(mf):
                bad(f"variants.{vname}.memfn: {v['memfn']} does not exist")
            v["memfn"] = mf
        variants[vname] = v
    workloads: dict[str, dict[str, Any]] = {}
    from ..base.suites import SUITES

    for wname, w in _table(doc, "workloads", bad, required=True).items():
        if isinstance(w, str):
            if w not in SUITES:
                bad(f"workloads.{wname}: unknown suite '{w}' (known: {', '.join(sorted(SUITES))})")
            workloads[wname] = {"suite": w, "patterns": list(SUITES[w])}
        elif isinstance(w, list) and w and all(isinstance(p, str) and p for p in w):
            workloads[wname] = {"suite": None, "patterns": list(w)}
        else:
            bad(f"workloads.{wname}: expected a suite name or a non-empty list of patterns")
    baseline = doc.get("baseline", next(iter(targets)))
    if not isinstance(baseline, str) or baseline not in targets:
        bad(f"baseline {baseline!r} is not one of the targets ({', '.join(targets)})")
    lease = doc.get("lease", LEASE)
    if not isinstance(lease, (int, float)) or isinstance(lease, bool) or not 2 <= lease <= 3600:
        bad("'lease' must be a number of seconds in 2..3600")
    labels = doc.get("labels", {})
    if not isinstance(labels, dict):
        bad('[labels] must be a table such as { build = "1234" }')
    spec = Spec(name, targets, variants, workloads, opts, baseline, str(path), float(lease), dict(labels), machines)
    spec.loads = _loads(doc, targets, labels, bad)
    for wname in workloads:  # the run options, as the command line's (run/plan.py)
        try:
            spec.plan(wname)
        except TickmarkError as e:
            bad(f"workloads.{wname}: {e}" if "pattern" in str(e) else str(e))
    return spec


def _loads(doc: dict[str, Any], targets: dict[str, str], labels: dict[str, Any], bad: Bad) -> list[str]:
    """The loads axis: a list of load names (run/load.py's, or "idle"), each once; a load runs on
    this machine, so every target must be local."""
    from .load import LOADS, check_local

    loads = doc.get("loads", [IDLE])
    known = [IDLE, *LOADS]
    if not isinstance(loads, list) or not loads or not all(isinstance(x, str) for x in loads):
        bad(f"'loads' must be a non-empty list of load names ({', '.join(known)})")
    for x in loads:
        if x not in known:
            bad(f"loads: unknown load '{printable(x)[:40]}' (known: {', '.join(known)})")
        if loads.count(x) > 1:
            bad(f"loads: '{x}' is named twice")
    if loads != [IDLE] and "load" in labels:
        bad("[labels]: the label 'load' is the loads' own (each loaded cell's run carries load=NAME)")
    for load in loads:
        if load == IDLE:
            continue
        for tname, uri in targets.items():
            try:
                check_local(uri, f"load '{load}' runs")
            except TickmarkError as e:
                bad(f"targets.{tname}: {e}")
    return list(loads)


def _table(doc: dict[str, Any], key: str, bad: Bad, required: bool = False) -> dict[str, Any]:
    t = doc.get(key)
    if t is None and not required:
        return {}
    if not isinstance(t, dict) or not t:
        bad(f"[{key}] must be a table with one entry at least")
    for n in t:
        if not _NAME.fullmatch(n):
            bad(f"{key}.{n}: a name of letters, digits, '_', '.', '+' or '-' please")
    return dict(t)


def cells(spec: Spec) -> list[Cell]:
    out = []
    for t in spec.targets:
        for v in spec.variants:
            for w in spec.workloads:
                for load in spec.loads:
                    c = Cell(t, v, w, "", load=load, machine=spec.machines.get(t, spec.targets[t]))
                    c.run_name = f"{spec.name}:{c.id}"
                    out.append(c)
    return out


def check_workloads(spec: Spec, core: Core) -> None:
    """Every workload's patterns select benchmarks on this core, and every parameter applies to a
    benchmark of some workload (the cells check their own workload again on their own core)."""
    benches: list[Bench] = []
    for wname in spec.workloads:
        try:
            benches += spec.plan(wname).benches(core)
        except TickmarkError as e:
            raise TickmarkError(f"campaign {spec.path}: workloads.{wname}: {e}")
    try:
        check_params_used(spec.plan(next(iter(spec.workloads))).params, benches, in_file=True)
    except TickmarkError as e:
        raise TickmarkError(f"campaign {spec.path}: {e}")
