"""`tickmark bisect`: from a good and a bad revision of a git repository to the first commit that
made a benchmark slower (analysis/bisect.py holds the search and the verdict of a step).

Each revision is checked out into a work tree of its own, in a private clone kept in the cache
(`${XDG_CACHE_HOME:-~/.cache}/tickmark/bisect/`), never in the user's checkout; the build command
runs there. A step measures the candidate and the good revision interleaved (run/matrix.py's
Matrix, a round of each in a random order, so that drift of the machine between steps cannot
decide) and stores both as ordinary runs labelled `bisect=ID`, `commit=SHA` and `role=good|
candidate` (`try=N`), so history, compare and report read them, and a bisect run again with the
same arguments (the same ID) takes the finished steps from the store instead of measuring them.

What is measured is either core benchmarks of a variant whose routine file (--memfn), flags
(--cflags) or compiler (--cc) come from the revision's tree, or a program of the tree measured
as `tickmark exec` measures it: `{tree}` in those options is the revision's work tree.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, overload

from ..analysis import bisect as search
from ..base.errors import TickmarkError
from ..base.names import printable, run_labels
from .exec import ExecCell, ExecMatrix
from .matrix import C, Cell, Matrix, Progress, build_all

if TYPE_CHECKING:
    from ..base.shapes import Row
    from ..store import Store
    from ..targets.base import Target
    from .plan import Plan, RunConfig

# a step's two roles, each with its commit: ("good", the good end), ("candidate", the commit)
Roles = list[tuple[str, "Commit"]]

TREE = "{tree}"
BUILD_TIMEOUT_S = 3600


@dataclass
class Commit:
    sha: str
    subject: str
    author: str

    @property
    def short(self) -> str:
        return self.sha[:10]


@dataclass
class Spec:
    """What a step builds and measures. Strings may hold {tree}: the revision's work tree."""

    build: str | None = None  # a shell command run in the tree (None: nothing to build)
    exec_command: str | None = None  # a command measured as `tickmark exec -c` would
    memfn: str | None = None
    cflags: str | None = None
    cc: str | None = None
    patterns: tuple[str, ...] = ()
    suite: str | None = None
    threshold: float = 0.05
    metric: str = ""
    run_options: dict[str, Any] = field(default_factory=dict)

    def identity(self) -> dict[str, Any]:
        """What makes two bisects the same search (the store's finished steps are reused)."""
        keep = {k: v for k, v in self.__dict__.items() if k != "run_options"}
        keep["run_options"] = {k: v for k, v in self.run_options.items() if k in ("samples", "sample_ms", "params")}
        return keep


# ---------------------------------------------------------------- git
@overload
def git(repo: str, *args: str, check: Literal[True] = True) -> str: ...


@overload
def git(repo: str, *args: str, check: bool) -> str | None: ...


def git(repo: str, *args: str, check: bool = True) -> str | None:
    """git's output (stripped); a TickmarkError with git's own message when it fails."""
    try:
        p = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, timeout=600)
    except FileNotFoundError:
        raise TickmarkError("git is not installed (apt-get install git)") from None
    if check and p.returncode != 0:
        msg = (p.stderr.strip().splitlines() or ["failed"])[-1]
        raise TickmarkError(f"git {args[0]} in {repo}: {printable(msg)}")
    return p.stdout.strip() if p.returncode == 0 else None


def resolve(repo: str, rev: str) -> str:
    sha = git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
    if not sha:
        raise TickmarkError(f"'{printable(rev)[:60]}' is no commit of {repo}")
    return sha


def commit_line(repo: str, good: str, bad: str) -> list[Commit]:
    """The first-parent line of commits from good to bad, oldest first, both ends included."""
    if not os.path.isdir(repo) or git(repo, "rev-parse", "--git-dir", check=False) is None:
        raise TickmarkError(f"{repo} is not a git repository")
    g, b = resolve(repo, good), resolve(repo, bad)
    if g == b:
        raise TickmarkError("the good and the bad revision are the same commit")
    if subprocess.run(["git", "-C", repo, "merge-base", "--is-ancestor", g, b]).returncode != 0:
        raise TickmarkError(f"the good revision {good} is not an ancestor of the bad one {bad}")
    shas = git(repo, "rev-list", "--first-parent", "--reverse", f"{g}..{b}").split()
    if b not in shas:
        raise TickmarkError(f"{bad} is not on the first-parent line from {good}")
    out = []
    for sha in [g, *shas[: shas.index(b) + 1]]:
        subject, author = git(repo, "show", "-s", "--format=%s%x00%an <%ae>", sha).split("\0", 1)
        out.append(Commit(sha, subject, author))
    return out


def cache_root() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tickmark", "bisect")


class Trees:
    """Work trees of a repository's revisions in a private clone of it (the user's checkout and
    its work-tree list are never touched); a tree's build is done once and remembered."""

    def __init__(self, repo: str, root: str | None = None) -> None:
        self.repo = os.path.abspath(repo)
        digest = hashlib.sha256(self.repo.encode()).hexdigest()[:12]
        self.root = os.path.join(root or cache_root(), digest)
        self.clone = os.path.join(self.root, "repo")
        os.makedirs(self.root, exist_ok=True)
        if not os.path.isdir(os.path.join(self.clone, ".git")):
            tmp = self.clone + ".tmp"
            subprocess.run(["rm", "-rf", tmp], check=True)
            git(self.root, "clone", "--quiet", "--shared", "--no-checkout", self.repo, tmp)
            os.rename(tmp, self.clone)

    def tree(self, sha: str) -> str:
        """The work tree of one commit (checked out once)."""
        path = os.path.join(self.root, "trees", sha)
        if not os.path.isfile(os.path.join(path, ".tickmark-checked-out")):
            subprocess.run(["rm", "-rf", path], check=True)
            git(self.clone, "worktree", "prune")
            git(self.clone, "worktree", "add", "--quiet", "--detach", path, sha)
            open(os.path.join(path, ".tickmark-checked-out"), "w").close()
        return path

    def build(self, sha: str, command: str | None) -> str | None:
        """Build one commit's tree with COMMAND (sh -c, in the tree) -> None, or the build's last
        lines when it failed. A build that succeeded is not run again."""
        path = self.tree(sha)
        done = os.path.join(path, ".tickmark-built")
        if command is None or os.path.isfile(done):
            return None
        try:
            p = subprocess.run(
                ["sh", "-c", command],
                cwd=path,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=BUILD_TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return f"the build ran past {BUILD_TIMEOUT_S} s"
        if p.returncode != 0:
            lines = [ln.strip() for ln in (p.stdout + p.stderr).splitlines() if ln.strip()]
            errors = [ln for ln in lines if "error" in ln.lower()]
            return printable("; ".join((errors or lines)[-2:]) or f"exit status {p.returncode}")[:200]
        open(done, "w").close()
        return None


# ---------------------------------------------------------------- one step
def session_id(repo: str, good: str, bad: str, spec: Spec) -> str:
    text = json.dumps([os.path.abspath(repo), good, bad, spec.identity()], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def labels_of(sid: str, commit: str, role: str, attempt: int, candidate: str) -> dict[str, str]:
    return {"bisect": sid, "commit": commit, "role": role, "try": str(attempt), "candidate": candidate[:12]}


class Bisect:
    """One bisect: the commits, the trees, the store, and how a step is measured."""

    def __init__(
        self,
        store: Store,
        target: Target,
        repo: str,
        good: str,
        bad: str,
        spec: Spec,
        echo: Callable[[str], object],
        progress: Progress | None = None,
        trees_root: str | None = None,
    ) -> None:
        self.store, self.target, self.spec, self.echo, self.progress = store, target, spec, echo, progress
        self.commits = commit_line(repo, good, bad)
        self.by_sha = {c.sha: c for c in self.commits}
        self.sid = session_id(repo, self.commits[0].sha, self.commits[-1].sha, spec)
        self.trees = Trees(repo, trees_root)
        self.search = search.Search([c.sha for c in self.commits])
        self.measured = 0  # steps measured by this invocation (not taken from the store)

    # -- the stored steps
    def stored(self) -> dict[tuple[Any, Any], dict[str, Row]]:
        """{(candidate sha, try): {role: run}} of this bisect's complete runs in the store."""
        out: dict[tuple[Any, Any], dict[str, Row]] = {}
        for r in self.store.run_rows():
            lab = run_labels(r)
            if lab.get("bisect") != self.sid or r["status"] != "complete":
                continue
            if lab.get("role") not in ("good", "candidate"):
                continue
            out.setdefault((lab.get("candidate"), lab.get("try")), {})[lab["role"]] = r
        return out

    def _stored_pair(self, sha: str, attempt: int) -> tuple[int, int] | None:
        """(good run id, candidate run id) of a finished try of one commit, else None."""
        pair = self.stored().get((sha[:12], str(attempt)), {})
        if set(pair) == {"good", "candidate"}:
            return pair["good"]["id"], pair["candidate"]["id"]
        return None

    # -- measuring
    def judge(self, good_id: int, cand_id: int) -> tuple[str, str, dict[str, Any]]:
        """Compare the candidate's run with its good baseline -> (state, why, worst row)."""
        from ..store.refs import run_compare

        metric = self.spec.metric or None
        try:
            _, pairs = run_compare(self.store, [str(good_id), str(cand_id)], metric=metric)
        except TickmarkError as e:
            return search.INCONCLUSIVE, str(e), {}
        return search.classify(pairs, self.spec.threshold, self.spec.metric)

    def step(self, sha: str) -> search.Step:
        """Measure (or take from the store) one commit -> search.Step; a second, longer try when
        the first is inconclusive, then a skip."""
        c = self.by_sha[sha]
        good = self.commits[0].sha
        for attempt in (1, 2):
            stored = self._stored_pair(sha, attempt)
            if stored:
                ids = stored
                state, why, worst = self.judge(*ids)
                self.echo(f"{c.short}  try {attempt} taken from the store: {state} ({why})")
            else:
                for rev in (good, sha):
                    err = self.trees.build(rev, self.spec.build)
                    if err and rev == good:
                        raise TickmarkError(f"the good revision {self.commits[0].short} does not build: {err}")
                    if err:
                        return search.Step(sha, search.SKIP, f"does not build: {err}")
                ids = self.measure(sha, attempt)
                self.measured += 1
                state, why, worst = self.judge(*ids)
            if state != search.INCONCLUSIVE:
                return search.Step(sha, state, why, ids, worst)
            self.echo(f"{c.short}  try {attempt} inconclusive: {why}")
        return search.Step(sha, search.SKIP, f"inconclusive twice: {why}", ids, worst)

    def measure(self, sha: str, attempt: int) -> tuple[int, int]:
        """One interleaved measurement of the good revision and the candidate -> (good run id,
        candidate run id)."""
        from .plan import LIMITS

        good = self.commits[0]
        cand = self.by_sha[sha]
        opts = dict(self.spec.run_options)
        if attempt > 1:
            opts["rounds"] = min(LIMITS["rounds"][1], 2 * (opts.get("rounds") or 3))
        roles = [("good", good), ("candidate", cand)]
        names = [f"bisect-{self.sid}-{cand.short}-{role}-{attempt}" for role, _ in roles]
        labels = {f"{role} {c.short}": labels_of(self.sid, c.sha, role, attempt, cand.sha) for role, c in roles}
        self.echo(f"{cand.short}  measuring against {good.short} (try {attempt}): {printable(cand.subject)[:60]}")
        if self.spec.exec_command:
            return self._measure_exec(self.spec.exec_command, roles, names, labels, opts)
        return self._measure_core(roles, names, labels, opts)

    def _measure_core(
        self, roles: Roles, names: list[str], labels: dict[str, dict[str, str]], opts: dict[str, Any]
    ) -> tuple[int, int]:
        from .plan import Plan

        s = self.spec
        cells = []
        for role, c in roles:
            tree = self.trees.tree(c.sha)
            cells.append(
                Cell(
                    cc=fill(s.cc, tree),
                    cflags=fill(s.cflags, tree),
                    memfn=fill(s.memfn, tree),
                    label=f"{role} {c.short}",
                )
            )
        build_all(self.target, cells, self.echo)
        broken = [c for c in cells if c.core is None]
        if broken:
            raise TickmarkError(f"the core of {broken[0].label} does not build: {broken[0].error}")
        plan = Plan(list(s.patterns), s.suite, names=names, name_what="bisect run name", **opts)
        plan.check_store(self.store)
        m = _Pair(self.store, cells, plan, dict(zip([c.label for c in cells], names)), labels, self.progress)
        good_id, cand_id = m.execute()
        return good_id, cand_id

    def _measure_exec(
        self, command: str, roles: Roles, names: list[str], labels: dict[str, dict[str, str]], opts: dict[str, Any]
    ) -> tuple[int, int]:
        from . import exec as ex
        from .plan import Plan

        specs = []
        for _, c in roles:
            argv = ex.check_argv(ex.split_command(fill(command, self.trees.tree(c.sha))))
            specs.append(ex.ExecSpec(argv, ex.bench_name(argv)))
        if specs[0].bench != specs[1].bench:
            raise TickmarkError("the measured command names another program in the two revisions")
        core = self.target.prepare()
        cells = []
        for (role, c), spec in zip(roles, specs):
            cell = ex.ExecCell(f"{role} {c.short}", spec, self.target.uri)
            cell.target, cell.core = self.target, core
            cells.append(cell)
        exec_opts = {k: v for k, v in opts.items() if k in ("rounds", "max_rounds", "samples", "seed", "timeout")}
        plan = Plan([specs[0].key], names=names, name_what="bisect run name", **exec_opts)
        plan.check_store(self.store)
        m = _ExecPair(self.store, cells, plan, dict(zip([c.label for c in cells], names)), labels, self.progress)
        good_id, cand_id = m.execute()
        return good_id, cand_id

    # -- the search
    def run(self) -> search.Search:
        """Measure the bad end, then narrow down -> the search (its steps, its first bad commit)."""
        bad = self.commits[-1].sha
        first = self.step(bad)
        self.search.steps.append(first)
        if first.state != search.BAD:
            return self.search
        while (sha := self.search.next()) is not None:
            self.search.record(self.step(sha))
            st = self.search.steps[-1]
            self.echo(f"{self.by_sha[sha].short}  {st.state}: {st.why}")
        return self.search


@overload
def fill(text: str, tree: str) -> str: ...


@overload
def fill(text: str | None, tree: str) -> str | None: ...


def fill(text: str | None, tree: str) -> str | None:
    """A spec's string with {tree} replaced by the revision's work tree."""
    return None if text is None else text.replace(TREE, shlex.quote(tree) if " " in tree else tree)


class _Named(Matrix[C]):
    """A Matrix whose cells' runs have given names and labels of their own."""

    def __init__(
        self,
        store: Store,
        cells: Sequence[C],
        plan: Plan,
        names: dict[str, str],
        labels: dict[str, dict[str, str]],
        progress: Progress | None,
    ) -> None:
        self._names, self._labels = names, labels
        super().__init__(store, cells, plan, name=None, progress=progress)

    def run_name(self, name: str | None, c: C) -> str | None:
        return self._names[c.label]

    def config(self, plan: Plan, c: C, name: str | None) -> RunConfig:
        cfg = super().config(plan, c, name)
        cfg.labels = dict(cfg.labels, **self._labels[c.label])
        return cfg


class _Pair(_Named[Cell]):
    pass


class _ExecPair(_Named[ExecCell], ExecMatrix):
    pass
