"""A campaign file: its keys checked and read into a Spec, and its cells (target x variant x
workload, each a run named CAMPAIGN:TARGET:VARIANT:WORKLOAD). campaign.py runs them.

File format (README.md has the user's version):

    name = "lab-nov"                  # required: names the runs, the key for resuming
    rounds = 3                        # optional, as `tickmark run`: rounds max_rounds samples
                                      # sample_ms seed timeout params baseline (limits: plan.LIMITS)
    lease = 60                        # optional: seconds a claim lives without being renewed
    [labels]                          # optional: KEY = "VALUE" stored with every cell's run
    build = "1234"
    [targets]                         # NAME = "URI" (any --target URI), in order
    board-a = "labgrid:rpi4-a"
    [variants]                        # NAME = { cc, cflags, memfn }  (default: one, the defaults)
    O2 = { cflags = "-O2" }
    [workloads]                       # NAME = "SUITE" or ["PATTERN", ...]
    os = "os"
"""

import os
import re
from dataclasses import dataclass, field

from ..errors import TickmarkError
from ..names import printable
from ..targets import check_uri, source_identity
from .plan import LIMITS, Plan, check_params_used

_NAME = re.compile(r"[A-Za-z0-9_.+-]+")


_TOP_KEYS = {"name", "targets", "variants", "workloads", "params", "baseline", "lease", "labels", *LIMITS}


LEASE = 60  # seconds a claim on a cell lives without being renewed (claims.py)


@dataclass
class Spec:
    name: str
    targets: dict  # name -> URI
    variants: dict  # name -> {"cc", "cflags", "memfn"}
    workloads: dict  # name -> {"suite": str|None, "patterns": [..]}
    options: dict = field(default_factory=dict)  # the run options (plan.LIMITS keys, params)
    baseline: str = None  # the target the others are compared against (default: the first)
    path: str = ""
    lease: float = LEASE  # seconds: a dead process's cell is taken over this long after its last renewal
    labels: dict = field(default_factory=dict)  # stored with every cell's run (history orders by them)
    machines: dict = field(default_factory=dict)  # target name -> the machine it runs on (Target.host_key())
    sources: dict = field(default_factory=dict, repr=False)  # target name -> target_sources(), once read

    def target_sources(self, tname):
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

    def plan(self, workload, name=None):
        """The run plan of a workload's cells (run/plan.py: the command line's checks and limits)."""
        w = self.workloads[workload]
        o = dict(self.options)
        params = o.pop("params", [])
        return Plan(
            w["patterns"] if w["suite"] is None else (),
            w["suite"],
            params=params,
            labels=self.labels,
            names=[name],
            name_what="cell run name",
            in_file=True,
            **o,
        )

    def add_labels(self, labels):
        """Labels from the command line (--label), beside the file's [labels]: a key the file sets
        to another value is refused (every cell's run must carry the same labels)."""
        for k, v in labels.items():
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
    machine: str = None  # what the target runs on: one cell at a time on it (claims by this key)
    state: str = "pending"  # pending, done (this start), finished (before), failed, interrupted, not run
    run_id: int = None
    results: int = 0
    message: str = ""
    seconds: float = 0.0

    @property
    def id(self):
        return f"{self.target}:{self.variant}:{self.workload}"


# ---------------------------------------------------------------- the file
def load(path):
    """Read and check a campaign file -> Spec. Every mistake is one TickmarkError line."""
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as e:
        raise TickmarkError(f"cannot read campaign {path}: {e.strerror}")
    except tomllib.TOMLDecodeError as e:
        raise TickmarkError(f"campaign {path} is not valid TOML: {e}")
    return parse(doc, path)


def parse(doc, path="campaign"):
    def bad(msg):
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
    machines = {}
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
    workloads = {}
    from ..suites import SUITES

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
    for wname in workloads:  # the run options, as the command line's (run/plan.py)
        try:
            spec.plan(wname)
        except TickmarkError as e:
            bad(f"workloads.{wname}: {e}" if "pattern" in str(e) else str(e))
    return spec


def _table(doc, key, bad, required=False):
    t = doc.get(key)
    if t is None and not required:
        return {}
    if not isinstance(t, dict) or not t:
        bad(f"[{key}] must be a table with one entry at least")
    for n in t:
        if not _NAME.fullmatch(n):
            bad(f"{key}.{n}: a name of letters, digits, '_', '.', '+' or '-' please")
    return dict(t)


def cells(spec):
    out = []
    for t in spec.targets:
        for v in spec.variants:
            for w in spec.workloads:
                out.append(Cell(t, v, w, f"{spec.name}:{t}:{v}:{w}", machine=spec.machines.get(t, spec.targets[t])))
    return out


def check_workloads(spec, core):
    """Every workload's patterns select benchmarks on this core, and every parameter applies to a
    benchmark of some workload (the cells check their own workload again on their own core)."""
    benches = []
    for wname in spec.workloads:
        try:
            benches += spec.plan(wname).benches(core)
        except TickmarkError as e:
            raise TickmarkError(f"campaign {spec.path}: workloads.{wname}: {e}")
    try:
        check_params_used(spec.plan(next(iter(spec.workloads))).params, benches, in_file=True)
    except TickmarkError as e:
        raise TickmarkError(f"campaign {spec.path}: {e}")
