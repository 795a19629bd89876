"""The run plan: the one place where options (a command line's, a campaign cell's, a profile's)
become a checked RunConfig, so that every rule holds for every command that stores a run.

    p = Plan(["sys.*"], suite="os", rounds=3, samples=5, params=["mem.*:size=4K,1M"],
             labels={"build": "12"}, names=["nightly"])
        # checks what needs nothing else, one TickmarkError line for the first problem: the
        # limits (LIMITS, the core's own), the --param syntax and scopes, the labels, the names
    p.check_store(store)            # the names are not taken yet (before anything runs)
    cfg = p.config(core, name="nightly")
        # with the core: every pattern selects a benchmark, every --param is a parameter of a
        # selected benchmark, the sample length fits the run's size -> RunConfig
    Run(store, core, cfg).execute()

Patterns and a suite combine: `--suite os 'sys.*'` runs the suite's patterns and sys.*; without
either, the default suite. `params` are `[BENCH:]NAME=V[,V...]`: NAME=... replaces the sweep of
every selected benchmark that has the parameter NAME, BENCH:NAME=... only of the benchmarks that
BENCH (a glob: '*', '?') matches, and wins over the first form; the core applies them
(registry.c), the plan only checks them. `one_point` (a profile) allows one value per parameter.

A core whose target takes no arguments (a console without a shell: target.reruns is False) runs
what the board was built to run: one round, and the patterns only when they were given.
`config(None, ...)` makes the configuration of a run that no core is asked about (a captured log,
the harness's own sweeps), with every check that needs no core.

LIMITS is the one table of the numeric options' ranges (the command line's click options and a
campaign file's keys read it); they are the core's own (tickmark-core refuses more).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..analysis import hostclock
from ..base.errors import TickmarkError
from ..base.names import check_label, check_name, parse_labels, printable
from ..base.patterns import matches, normalized
from ..base.units import parse_size
from .keys import written_out

if TYPE_CHECKING:
    from ..store import Store
    from ..targets.base import Core

# a benchmark's record as the core lists it (t: bench, name, params: [{name, sweep, ...}], ...)
Bench = dict[str, Any]

# option -> (lowest, highest): the command line, a campaign file and the core agree on them
LIMITS = {
    "rounds": (1, 100),
    "max_rounds": (1, 100),
    "samples": (1, 1000),
    "sample_ms": (1, 10000),
    "seed": (0, 2**31 - 1),
    "timeout": (1, 86400),
}
DEFAULTS = {"rounds": 3, "max_rounds": 5, "samples": 5, "sample_ms": None, "seed": None, "timeout": None}

LARGE_RUN_INSTANCES = 200
LARGE_RUN_SAMPLE_MS = 5

_VALUE = r"[0-9]+[KMGkmg]?"
_PARAM = re.compile(rf"(?:([A-Za-z0-9_.*?]+):)?([A-Za-z_][A-Za-z0-9_]*)=({_VALUE}(?:,{_VALUE})*)")
_MAX_OVERRIDE_NAME = 63  # the core keeps BENCH:NAME in 64 bytes (runner.h: tm_override)


@dataclass
class RunConfig:
    """What a run does, as the engine (engine.Run) reads it; made by Plan.config()."""

    patterns: list[str]
    rounds: int = 3
    max_rounds: int = 5
    samples: int = 5
    sample_ms: int | None = None
    seed: int | None = None
    params: list[str] = field(default_factory=list)
    timeout: int | None = None
    name: str | None = None
    suite: str | None = None
    budget_s: float | None = None  # time for extra rounds; default: engine.extra_budget()
    labels: dict[str, str] = field(default_factory=dict)  # KEY=VALUE stored in the run's notes (history orders by them)
    host_clock: bool = False  # the host times the samples from the core's marks (--host-clock)
    before: str | None = None  # a shell command run on the target before each round (--before)
    cpu: int | None = None  # the CPU the core runs the benchmarks on (--cpu; None: the one it starts on)

    def __post_init__(self) -> None:
        check_pattern_words(self.patterns)

    def options(self) -> dict[str, Any]:
        return (
            {
                k: getattr(self, k)
                for k in ("rounds", "max_rounds", "samples", "sample_ms", "seed", "params", "timeout", "budget_s")
            }
            | ({"host_clock": True} if self.host_clock else {})
            | ({"before": self.before} if self.before else {})
            | ({"cpu": self.cpu} if self.cpu is not None else {})
        )


def option_name(key: str, in_file: bool = False) -> str:
    """How a user wrote an option: --sample-ms on the command line, 'sample_ms' in a file."""
    return f"'{key}'" if in_file else "--" + key.replace("_", "-")


def _clip(text: object, n: int = 60) -> str:
    text = printable(str(text))
    return text if len(text) <= n else text[: n - 3] + "..."


@dataclass(frozen=True)
class Param:
    """One --param: its scope (a glob of benchmark names, None: every benchmark), its name and values."""

    text: str
    scope: str | None
    name: str
    values: tuple[str, ...]

    def applies(self, bench: str) -> bool:
        return self.scope is None or matches(bench, self.scope)


def parse_params(params: Sequence[object], one_point: bool = False, in_file: bool = False) -> list[Param]:
    """[BENCH:]NAME=V[,V...] strings -> [Param]: integers (K/M/G suffixes) that fit 64 bits, at
    most as many values as the core sweeps (its TM_MAX_SWEEP), each [BENCH:]NAME once; one value
    each with one_point. A one-line error naming the first problem."""
    from ..targets.build import core_limit

    what = option_name("params", in_file) if in_file else "--param"
    max_sweep, max_text, max_given = (
        core_limit(k) for k in ("TM_MAX_SWEEP", "TM_MAX_OVERRIDE_VALUE", "TM_MAX_OVERRIDES")
    )
    if len(params) > max_given:
        raise TickmarkError(f"{what}: {len(params)} given; the core takes at most {max_given}")
    out: list[Param] = []
    seen: set[str] = set()
    for p in params:
        m = _PARAM.fullmatch(p) if isinstance(p, str) else None
        if not m:
            form = "NAME=V" if one_point else "[BENCH:]NAME=V[,V...]"
            raise TickmarkError(f"bad {what} '{_clip(p)}' (expected {form} with integers, e.g. size=4K,64K)")
        scope, name, vals = m.groups()
        label = f"{scope}:{name}" if scope else name
        if len(label) > _MAX_OVERRIDE_NAME:
            raise TickmarkError(f"{what} {_clip(label, 40)}: BENCH:NAME is longer than {_MAX_OVERRIDE_NAME} characters")
        if label in seen:
            raise TickmarkError(f"{what} {label} given twice (list every value in one: {label}=A,B)")
        seen.add(label)
        values = vals.split(",")
        if one_point and len(values) > 1:
            raise TickmarkError(f"bad {what} '{_clip(p)}' (a profile takes one point: NAME=V)")
        if len(values) > max_sweep:
            raise TickmarkError(f"{what} {label}: {len(values)} values; at most {max_sweep} per parameter")
        got: dict[int, str] = {}
        for v in values:
            n = parse_size(v)  # None: more digits than any 64-bit value
            if n is None or n > 2**63 - 1:
                raise TickmarkError(f"{what} {label}: value {_clip(v, 30)} is too large (at most 2^63-1)")
            if n in got:
                raise TickmarkError(f"{what} {label}: value {_clip(v, 30)} is the same as {got[n]} (a point runs once)")
            got[n] = v
        if len(vals) > max_text:
            raise TickmarkError(f"{what} {label}: its values are {len(vals)} characters; the core takes {max_text}")
        out.append(Param(m.string, scope, name, tuple(values)))  # m.string: p, the text matched
    return out


def check_param_ranges(params: Sequence[Param], patterns: Iterable[object], in_file: bool = False) -> None:
    """Every --param value lies in the range the core's source declares for that parameter of
    each benchmark the patterns select and the --param applies to (targets/param_ranges.py):
    a value the core would refuse is said before a build."""
    from ..targets import param_ranges

    if not params:
        return
    what = option_name("params", in_file) if in_file else "--param"
    heads = [p.partition("[")[0] for p in patterns if isinstance(p, str)]
    for bench, ranges in sorted(param_ranges.declared().items()):
        if not any(matches(bench, h) for h in heads):
            continue
        for p in params:
            if p.name not in ranges or not p.applies(bench):
                continue
            lo, hi = param_ranges.bounds(ranges[p.name])
            for v in p.values:
                if not lo <= parse_size(v) <= hi:
                    label = f"{p.scope}:{p.name}" if p.scope else p.name
                    raise TickmarkError(
                        f"{what} {label}: value {_clip(v, 30)} is outside {ranges[p.name]}, "
                        f"the values {bench} takes for {p.name}"
                    )


def sweep_of(bench: Bench, name: str, params: Sequence[Param]) -> int:
    """The number of points of parameter `name` of a bench record under these Params (the core's
    rule: a scoped one that applies wins over an unscoped one)."""
    scoped = [p for p in params if p.scope is not None and p.name == name and p.applies(bench["name"])]
    plain = [p for p in params if p.scope is None and p.name == name]
    chosen = (scoped or plain)[-1] if scoped or plain else None
    if chosen is not None:
        return len(chosen.values)
    d: dict[str, Any] = next((d for d in bench.get("params", []) if d["name"] == name), {})
    return len(str(d.get("sweep", "")).split(","))


def check_params_used(params: Iterable[Param], benches: Sequence[Bench], in_file: bool = False) -> None:
    """Every Param names a parameter of a benchmark it applies to among the bench records."""
    what = option_name("params", in_file) if in_file else "--param"
    for p in params:
        has = [b for b in benches if p.applies(b["name"]) and any(d.get("name") == p.name for d in b.get("params", []))]
        if has:
            continue
        if p.scope is not None and not any(p.applies(b["name"]) for b in benches):
            raise TickmarkError(f"{what} {p.scope}:{p.name}: '{p.scope}' matches no selected benchmark")
        where = f"matching '{p.scope}' " if p.scope else ""
        raise TickmarkError(f"{what} {p.name}: no selected benchmark {where}has a parameter '{p.name}'")


def planned_instances(benches: Iterable[Bench], params: Iterable[Param | str] = ()) -> int:
    """How many instances the bench records (from check_patterns) make with these --param
    overrides (strings or Params): the product of each benchmark's sweep lengths."""
    ps = [p if isinstance(p, Param) else parse_params([p])[0] for p in params]
    total = 0
    for b in benches:
        if not b.get("supported", 1):
            total += 1  # a skipped benchmark is one instance
            continue
        n = 1
        for d in b.get("params", []):
            n *= sweep_of(b, d["name"], ps)
        total += n
    return total


def default_sample_ms(
    benches: Iterable[Bench], params: Iterable[Param | str] = (), sample_ms: int | None = None
) -> int | None:
    """The sample length a run uses: the one given, else the core's default (10 ms), except for a
    run of more than LARGE_RUN_INSTANCES instances (`run '*'`, about 480), whose samples last
    LARGE_RUN_SAMPLE_MS so that everything fits in about a minute and a half here (measured side
    by side, the results of 5 and 10 ms samples differ by 1.2 % in the median) -> ms or None."""
    if sample_ms is not None or planned_instances(benches, params) <= LARGE_RUN_INSTANCES:
        return sample_ms
    return LARGE_RUN_SAMPLE_MS


def check_pattern_words(patterns: Iterable[object]) -> None:
    """Patterns name benchmarks: never empty, never something the core could take for an option."""
    for p in patterns:
        if not isinstance(p, str) or not p or p.startswith("-"):
            raise TickmarkError(
                f"bad pattern '{printable(str(p))[:60]}': a pattern names benchmarks (sys.*, "
                "mem.lat_rand[size=4096]); it cannot be empty or start with '-'"
            )


def check_patterns(core: Core, patterns: Sequence[str], cpu: int | None = None) -> list[Bench]:
    """The bench records the patterns select, as the core decides; error when one selects nothing
    (or, with cpu, when the core cannot run on that CPU: it refuses --cpu N for list too)."""
    check_pattern_words(patterns)
    recs = core.call(["list", *(["--cpu", str(cpu)] if cpu is not None else []), "--", *patterns])
    for r in recs:
        if r.get("t") == "unmatched":
            raise TickmarkError(f"no benchmark matches '{r.get('pattern')}' (tickmark list shows them)")
    return [r for r in recs if r.get("t") == "bench"]


def patterns_of(
    patterns: Iterable[str] | None = (), suite: str | None = None, default: str | None = "default"
) -> tuple[list[str], str | None]:
    """Patterns and a suite together -> (patterns, the suite to store or None): the suite's
    patterns, then the others (each once); neither: the `default` suite (None: no pattern)."""
    from ..base.suites import patterns_for

    patterns = [normalized(p) if isinstance(p, str) else p for p in patterns or ()]
    if suite is None and not patterns:
        suite = default
    if suite is None:
        return patterns, None
    out = patterns_for(suite)
    out += [p for p in patterns if p not in out]
    return out, suite


class Plan:
    """Options checked once, whatever their source (see the module's comment).

    patterns, suite: what runs (combined; neither: `default_suite`, None for no pattern at all);
    rounds, max_rounds, samples, sample_ms, seed, timeout: numbers within LIMITS (None: the
    default); params: [BENCH:]NAME=V,V texts (one_point: one value each, a profile); labels: a
    {KEY: VALUE} or KEY=VALUE texts; names: every run name the command will make (None entries
    are runs without a name), checked now and distinct, `name_what` naming them in errors;
    in_file: errors name the keys as a file writes them ('samples', not --samples);
    stored_suite: the suite column to store instead (the harness's own sweeps: "topology");
    budget_s: the time for extra rounds (default: engine.extra_budget()); host_clock: the host
    times the samples (--host-clock: their length, when not given, is what a 1 % sample needs on
    the target's console, analysis/hostclock.py); cpu: the CPU the core runs the benchmarks on
    (--cpu N, as cyclictest -a N or taskset place a program; None: the CPU the core starts on)."""

    def __init__(
        self,
        patterns: Sequence[str] = (),
        suite: str | None = None,
        *,
        params: Sequence[object] = (),
        labels: dict[str, str] | Iterable[str] | None = None,
        names: Iterable[str | None] = (),
        name_what: str = "--name",
        one_point: bool = False,
        in_file: bool = False,
        stored_suite: str | None = None,
        default_suite: str | None = "default",
        budget_s: float | None = None,
        host_clock: bool = False,
        before: str | None = None,
        cpu: int | None = None,
        **numbers: int | None,
    ) -> None:
        self.in_file = in_file
        self.host_clock = bool(host_clock)
        self.before = before
        self.cpu = cpu
        unknown = sorted(set(numbers) - set(LIMITS))
        if unknown:
            raise TypeError(f"Plan: unknown option {unknown[0]}")
        vals: dict[str, Any] = dict(DEFAULTS)
        vals.update({k: v for k, v in numbers.items() if v is not None})
        for k, (lo, hi) in LIMITS.items():
            v = vals[k]
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi):
                raise TickmarkError(f"{option_name(k, in_file)} must be an integer in {lo}..{hi}")
        vals["max_rounds"] = max(vals["max_rounds"], vals["rounds"])
        self.numbers = vals
        self.budget_s = budget_s
        self.params = parse_params(params, one_point, in_file)
        self.patterns, self.suite = patterns_of(patterns, suite, default_suite)
        if stored_suite is not None:
            self.suite = stored_suite
        check_pattern_words(self.patterns)
        check_param_ranges(self.params, self.patterns, in_file)
        self.given_patterns = bool(patterns)
        if labels is None:
            labels = {}
        elif not isinstance(labels, dict):
            labels = parse_labels(labels)
        for key, value in labels.items():
            check_label(key, value, "label" if in_file else "--label")
        self.labels = dict(labels)
        self.names = [n for n in names if n is not None]
        seen: dict[str, bool] = {}
        for n in self.names:
            check_name(n, name_what)
            if n in seen:
                raise TickmarkError(f"two runs would be named '{_clip(n)}' ({name_what}): make the names differ")
            seen[n] = True

    def check_store(self, store: Store) -> None:
        """The run names are free in the store (checked before anything runs)."""
        for n in self.names:
            if store.name_taken(n):
                raise TickmarkError(f"a run named '{_clip(n)}' exists already (choose another --name)")

    def benches(self, core: Core, patterns: Sequence[str] | None = None) -> list[Bench]:
        """The bench records the plan's patterns select on this core (the core decides)."""
        return check_patterns(core, list(patterns or self.patterns), self.cpu)

    def config(
        self,
        core: Core | None,
        name: str | None = None,
        benches: list[Bench] | None = None,
        params_checked: bool = False,
    ) -> RunConfig:
        """The RunConfig for one run on `core` (None: no core is asked), named `name` (one of the
        plan's names). benches: the bench records when the caller has them already;
        params_checked: the --params were checked over more than this run's benchmarks (a
        campaign checks them over all its workloads)."""
        if name is not None and name not in self.names:
            check_name(name)
        n = dict(self.numbers)
        patterns = list(self.patterns)
        sample_ms = n["sample_ms"]
        if core is not None and not core.target.reruns:  # the board runs what it was built to run
            n["rounds"] = n["max_rounds"] = 1
            if not self.given_patterns:
                patterns = []
        elif core is not None:
            patterns = written_out(core, patterns, self.params)  # keys as the tables show them: the core's keys
            if benches is None:
                benches = self.benches(core, patterns)
            if not params_checked:
                check_params_used(self.params, benches, self.in_file)
            sample_ms = default_sample_ms(benches, self.params, sample_ms)
            if self.host_clock and n["sample_ms"] is None:
                sample_ms = hostclock.sample_ms(core.target.char_ns)
        return RunConfig(
            patterns=patterns,
            rounds=n["rounds"],
            max_rounds=n["max_rounds"],
            samples=n["samples"],
            sample_ms=sample_ms,
            seed=n["seed"],
            params=[p.text for p in self.params],
            timeout=n["timeout"],
            name=name,
            suite=self.suite if patterns else None,
            budget_s=self.budget_s,
            labels=dict(self.labels),
            host_clock=self.host_clock,
            before=self.before,
            cpu=self.cpu,
        )
