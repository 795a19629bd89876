#!/usr/bin/env python3
"""How `tickmark history` and `tickmark runs` scale with the number of stored runs
(docs/history.md, "At a lab's scale").

    python tools/history_scale.py                                   # 1,000 and 10,000 runs, both backends
    python tools/history_scale.py --runs 1000,10000,100000 --backends sqlite,postgresql
    python tools/history_scale.py --template STORE --runs 200 --backends sqlite --check 3

The shape of a run: the newest complete run of --template (without it, a run made here by
`tickmark run --rounds 1 --max-rounds 1`, the default suite, as a nightly job would make it).
Generated run i is that run again with its values varied: every time figure of every result, and
the nanoseconds of its samples, multiplied by a log-normal factor (NOISE between runs); from run
STEP on (3/5 of the way), one benchmark (--step-bench; else cpu.idea where the template has it,
else the first that reports a time) is STEP_SIZE slower and the fingerprint's cflags change. Runs
are an hour apart, named nightly-N and labelled build=N.

The stores are filled by a bulk writer (executemany in one transaction per batch on SQLite, COPY
on PostgreSQL) that writes the rows the store's own API writes, in every table: --check K writes
K of the runs again through the API (Store.create_run, add_result, add_samples, add_hist) into a
second store and compares every column of their rows but the ids, text for text.

Then, per store, each command in a process of its own, its wall time, CPU time and peak RSS
(wait4, see TIMER): `tickmark history` (the table, into a pipe), `tickmark history --format json -o FILE`
(every point; the planted step must be found at the planted run), `tickmark runs` (into a pipe).
Prints a Markdown table with the load average before and after. The stores are deleted as soon as
they are measured (--keep DIR keeps the SQLite ones there, and the PostgreSQL databases).
"""

import argparse
import copy
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from tickmark.store import Store  # noqa: E402
from tickmark.store.copies import HEAD_COLS, brief_of, head_of, labels_of  # noqa: E402

NOISE = 0.02  # log-normal sigma of the factor between runs
STEP_SIZE = 1.2  # the planted slowdown
STEP_AT = 0.6  # where it starts, as a fraction of the runs
BATCH = 500  # runs a bulk write holds in memory
HOUR = 3600.0

# Fields of a statistics summary that a slowdown multiplies (times) or divides (rates); in a
# summary whose unit is MB/s the value fields are rates.
VALUE_FIELDS = {"value", "median", "mean", "min", "max", "avg", "mad", "p50", "p90", "p99", "p99.9"}
VALUE_FIELDS |= {"ci95_lo", "ci95_hi", "round_medians"}
TIME_FIELDS = {"ns_per_op", "cycles_per_op"}
RATE_FIELDS = {"ops_per_s"}


def scaled(base, power, f):
    """One number under a slowdown f: a time times f, a rate over f."""
    return base * f if power > 0 else base / f


def leaves(stats):
    """[(path, power)] of the floats of a result's statistics that a slowdown scales."""
    out = []
    for m, d in stats.items():
        if not isinstance(d, dict):
            continue
        rate = d.get("unit") == "MB/s"
        for k, v in d.items():
            if k in VALUE_FIELDS:
                p = -1 if rate else 1
            elif k in TIME_FIELDS:
                p = 1
            elif k in RATE_FIELDS:
                p = -1
            elif k == "counters_per_op" and isinstance(v, dict):
                if isinstance(v.get("task_clock"), float) and math.isfinite(v["task_clock"]):
                    out.append(((m, k, "task_clock"), 1))
                continue
            else:
                continue
            if isinstance(v, list):
                out += [((m, k, j), p) for j, x in enumerate(v) if isinstance(x, float) and math.isfinite(x)]
            elif isinstance(v, float) and math.isfinite(v):
                out.append(((m, k), p))
    return out


def _get(d, path):
    for k in path:
        d = d[k]
    return d


def _set(d, path, v):
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = v


def dump(x):
    """What the store writes for a JSON column (store/rows.py's _dump)."""
    return json.dumps(x, sort_keys=True)


class Template:
    """A real run as the store's API returns it: its row, its result rows, their samples and
    histograms."""

    def __init__(self, path):
        st = Store(path, readonly=True)
        try:
            runs = [r for r in st.runs() if r["status"] == "complete"]
            if not runs:
                raise SystemExit(f"{path}: no complete run to take the shape of")
            self.run = runs[-1]
            self.results = st.results(self.run["id"])
            self.samples = {r["id"]: st.samples(r["id"]) for r in self.results}
            self.hists = {r["id"]: st.hists(r["id"]) for r in self.results}
        finally:
            st.close()


class Generator:
    """Run i of n (0-based) generated from a template: as the API takes it (doc) and as the rows
    a bulk writer writes (rows), the same run either way."""

    def __init__(self, template, n, step_bench=None, seed=0):
        self.t, self.n, self.seed = template, n, seed
        keys = [r["key"] for r in template.results if r["status"] == "ok"]
        times = sorted(r["key"] for r in template.results if r["status"] == "ok" and r["stats"][""]["unit"] != "MB/s")
        self.step_key = step_bench if step_bench in keys else ("cpu.idea" if "cpu.idea" in keys else (times or keys)[0])
        self.step_at = max(2, int(n * STEP_AT))
        run = template.run
        self.t0 = 1.7e9
        self.duration = (run["finished"] or run["started"]) - run["started"]
        fp = run["fingerprint"]
        self.fingerprints = (fp, dict(fp, cflags=f"{fp.get('cflags') or '-O2'} -fno-inline"))
        self.fp_text = tuple(dump(x) for x in self.fingerprints)
        self.brief = tuple(brief_of(x) for x in self.fingerprints)
        self.fixed = {k: dump(run[k]) for k in ("patterns", "options", "hello")}
        self.results = []
        for r in template.results:
            paths = leaves(r["stats"]) if r["status"] == "ok" else []
            marked = copy.deepcopy(r["stats"])
            for j, (path, _) in enumerate(paths):
                _set(marked, path, f"@@{j}@@")
            parts = re.split(r'"@@(\d+)@@"', dump(marked))  # the text between the leaves, in the text's order
            order = [int(x) for x in parts[1::2]]
            assert sorted(order) == list(range(len(paths))), r["key"]
            smp = self.t.samples[r["id"]]
            extras = [
                dump({k: v for k, v in s.items() if k not in ("iters", "ops", "ns", "cyc", "i", "round")}) for s in smp
            ]
            hists = [(h["round"], dump({k: v for k, v in h.items() if k != "round"})) for h in self.t.hists[r["id"]]]
            head = list(head_of(r["stats"]))  # result_heads' figures, scaled as their leaves are
            power = dict(paths)
            where = {c: ("", "counters_per_op", c) if c == "task_clock" else ("", c) for c in HEAD_COLS}
            head_paths = [(j, where[c], power[where[c]]) for j, c in enumerate(HEAD_COLS) if where[c] in power]
            self.results.append(
                {
                    "row": r,
                    "head": head,
                    "head_paths": [(j, p, _get(r["stats"], path)) for j, path, p in head_paths],
                    "paths": paths,
                    "bases": [_get(r["stats"], p) for p, _ in paths],
                    "parts": parts[0::2],
                    "order": order,
                    "text": (dump(r["params"]), dump(r["meta"])),
                    "samples": list(zip(smp, extras)),
                    "hists": hists,
                }
            )

    def planted_run(self):
        return self.name(self.step_at)

    def name(self, i):
        return f"nightly-{i + 1}"

    def factors(self, i):
        """The slowdown of each result of run i."""
        rng = np.random.default_rng([self.seed, i])
        f = np.exp(rng.normal(0.0, NOISE, len(self.results)))
        out = [float(x) for x in f]
        if i >= self.step_at:
            for k, res in enumerate(self.results):
                if res["row"]["key"] == self.step_key:
                    out[k] *= STEP_SIZE
        return out

    def _run_fields(self, i):
        notes = dict(self.t.run["notes"], labels={"build": str(i + 1)})
        started = self.t0 + i * HOUR
        return notes, started, started + self.duration

    # ---- as the API takes it
    def doc(self, i):
        run = self.t.run
        notes, started, finished = self._run_fields(i)
        results = []
        for res, f in zip(self.results, self.factors(i)):
            r = res["row"]
            stats = copy.deepcopy(r["stats"])
            for (path, p), base in zip(res["paths"], res["bases"]):
                _set(stats, path, scaled(base, p, f))
            samples = {}
            for s, _ in res["samples"]:
                s = dict(s, ns=round(s["ns"] * f))
                if s.get("cyc") is not None:
                    s["cyc"] = round(s["cyc"] * f)
                samples.setdefault(s["round"], []).append(s)
            results.append(
                (
                    r,
                    stats,
                    samples,
                    [(h["round"], {k: v for k, v in h.items() if k != "round"}) for h in self.t.hists[r["id"]]],
                )
            )
        return {
            "name": self.name(i),
            "suite": run["suite"],
            "patterns": run["patterns"],
            "options": run["options"],
            "fingerprint": self.fingerprints[i >= self.step_at],
            "hello": run["hello"],
            "status": run["status"],
            "started": started,
            "finished": finished,
            "notes": notes,
            "results": results,
        }

    # ---- as a bulk writer writes it
    def rows(self, i, run_id, result_id):
        """{table: [rows]} of run i with ids from run_id and result_id on, the columns in the
        order of TABLES."""
        run = self.t.run
        notes, started, finished = self._run_fields(i)
        step = i >= self.step_at
        out = {t: [] for t, _ in TABLES}
        out["runs"].append(
            (run_id, self.name(i), started, finished, run["status"], run["suite"], self.fixed["patterns"])
            + (self.fixed["options"], self.fp_text[step], self.fixed["hello"], dump(notes))
        )
        out["run_brief"].append((run_id, self.brief[step], labels_of(notes)))
        for k, (res, f) in enumerate(zip(self.results, self.factors(i))):
            r, rid = res["row"], result_id + k
            parts, paths, bases = res["parts"], res["paths"], res["bases"]
            text = [parts[0]]
            for j, part in zip(res["order"], parts[1:]):
                text += [repr(scaled(bases[j], paths[j][1], f)), part]
            params, meta = res["text"]
            out["results"].append(
                (rid, run_id, r["key"], r["bench"], params, r["metric"], r["status"], r["reason"], r["unit"], r["stat"])
                + (meta, "".join(text))
            )
            head = list(res["head"])
            for j, p, base in res["head_paths"]:
                head[j] = scaled(base, p, f)
            out["result_heads"].append((rid, run_id, *head))
            for s, extra in res["samples"]:
                cyc = None if s.get("cyc") is None else round(s["cyc"] * f)
                out["samples"].append((rid, s["round"], s["i"], s["iters"], s["ops"], round(s["ns"] * f), cyc, extra))
            out["hists"] += [(rid, rnd, data) for rnd, data in res["hists"]]
        return out


# ---------------------------------------------------------------- writers
def write_api(store, gen, i):
    """Run i through the store's API (what `tickmark import` calls)."""
    d = gen.doc(i)
    with store.transaction():
        run_id = store.create_run(**{k: d[k] for k in d if k != "results"})
        for r, stats, samples, hists in d["results"]:
            rid = store.add_result(
                run_id,
                **{k: r[k] for k in ("key", "bench", "params", "metric", "status", "reason", "unit", "stat", "meta")},
                stats=stats,
            )
            for rnd in sorted(set(samples) | {h for h, _ in hists}):
                if samples.get(rnd):
                    store.add_samples(rid, rnd, samples[rnd])
                for hr, data in hists:
                    if hr == rnd:
                        store.add_hist(rid, rnd, data)
    return run_id


# The tables a run fills, with their columns (what the bulk writers write).
TABLES = (
    ("runs", "id, name, started, finished, status, suite, patterns, options, fingerprint, hello, notes"),
    ("run_brief", "run_id, fields, labels"),
    ("results", "id, run_id, key, bench, params, metric, status, reason, unit, stat, meta, stats"),
    ("result_heads", "result_id, run_id, " + ", ".join(HEAD_COLS)),
    ("samples", "result_id, round, idx, iters, ops, ns, cyc, extra"),
    ("hists", "result_id, round, data"),
)
COLS = dict(TABLES)


def batches(gen):
    """{table: [rows]} of BATCH runs at a time."""
    rid = 1
    for a in range(0, gen.n, BATCH):
        out = {t: [] for t, _ in TABLES}
        for i in range(a, min(a + BATCH, gen.n)):
            for t, rows in gen.rows(i, i + 1, rid).items():
                out[t] += rows
            rid += len(gen.results)
        yield out


def bulk_sqlite(path, gen):
    import sqlite3

    Store(path).close()  # the tables, as a new store has them
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA synchronous = OFF")
        for batch in batches(gen):
            con.execute("BEGIN")
            for table, cols in TABLES:
                marks = ",".join("?" * len(cols.split(",")))
                con.executemany(f"INSERT INTO {table} ({cols}) VALUES ({marks})", batch[table])
            con.execute("COMMIT")
    finally:
        con.close()


def bulk_postgres(url, gen):
    import psycopg

    Store(url).close()
    with psycopg.connect(url, autocommit=True) as con:
        for batch in batches(gen):
            with con.transaction():
                for table, cols in TABLES:
                    with con.cursor().copy(f"COPY {table} ({cols}) FROM STDIN") as cp:
                        for row in batch[table]:
                            cp.write_row(row)
        for table in ("runs", "results"):  # ids given here: the identity goes on after them
            con.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        con.execute("ANALYZE")  # what autovacuum does soon after such a load (SQLite: never, unasked)


def check(bulk, api, gen, picks):
    """Runs `picks` written again through the API into the store `api` have the rows the bulk
    writer wrote into `bulk`, column for column -> the number of rows compared."""
    a, b = Store(api), Store(bulk, readonly=True)
    try:
        for i in picks:
            write_api(a, gen, i)
        n = 0
        for i in picks:
            got, want = dump_run(b, gen.name(i)), dump_run(a, gen.name(i))
            if got != want:
                for x, y in zip(got, want):
                    if x != y:
                        raise SystemExit(f"bulk writer differs from the store's API in run {gen.name(i)}:\n{x}\n{y}")
                raise SystemExit(f"bulk writer differs from the store's API in run {gen.name(i)}: row counts")
            n += len(got)
        return n
    finally:
        a.close()
        b.close()


def dump_run(st, name):
    """Every row of a run as stored (in every table of TABLES), without the ids the database gave."""
    x = st.backend.execute
    order = st.backend.order_col
    (run,) = x(f"SELECT {COLS['runs']} FROM runs WHERE name = ?", (name,)).fetchall()
    out = [("run",) + tuple(run[1:])]
    out += [
        ("brief",) + tuple(b[1:]) for b in x(f"SELECT {COLS['run_brief']} FROM run_brief WHERE run_id = ?", (run[0],))
    ]
    for res in x(f"SELECT {COLS['results']} FROM results WHERE run_id = ? ORDER BY id", (run[0],)).fetchall():
        out.append(("result",) + tuple(res[2:]))
        for table, order_by in (
            ("result_heads", "result_id"),
            ("samples", f"round, idx, {order}"),
            ("hists", f"round, {order}"),
        ):
            rows = x(f"SELECT {COLS[table]} FROM {table} WHERE result_id = ? ORDER BY {order_by}", (res[0],))
            ids = 2 if table == "result_heads" else 1  # result_id (and run_id): the database's
            out += [(table, res[2]) + tuple(r[ids:]) for r in rows]
    return out


# ---------------------------------------------------------------- measuring
def tickmark(*args):
    return [sys.executable, "-m", "tickmark.cli", *args]


# Runs a command and writes its wall time, CPU time, peak RSS (KiB) and exit status: a small
# process between this one and the command, since a child forked from this one counts this one's
# memory in its peak RSS (Linux keeps the largest of every memory image a process had).
TIMER = """
import os, sys, time
t = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, ru = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    print(time.perf_counter() - t, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status), file=f)
"""


def measure(argv, src=None):
    """Run a command with its output into a pipe that is read and dropped -> (wall seconds, CPU
    seconds (user and system), peak RSS in MB, exit status, the end of its stderr). src: another
    tickmark's source tree, first on the path."""
    env = dict(os.environ, COLUMNS="80")
    if src:
        env["PYTHONPATH"] = os.pathsep.join([str(Path(src) / "src"), *filter(None, [env.get("PYTHONPATH")])])
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as times:
        timer = [sys.executable, "-c", TIMER, times.name]
        p = subprocess.Popen(timer + argv, stdout=subprocess.PIPE, stderr=err, env=env)
        while p.stdout.read(1 << 16):
            pass
        p.wait()
        wall, cpu, kb, rc = times.read().split()
        err.seek(0)
        tail = err.read().decode(errors="replace")[-400:]
    return float(wall), float(cpu), int(kb) / 1024, int(rc), tail


def measure_store(url, gen, workdir, baseline=None):
    """history, history --format json and runs on one store, each by this tickmark and by the
    one of the source tree `baseline` in turn -> {version: ({command: (wall s, CPU s, MB)}, where
    the step was found, how many other changes, points)}."""
    versions = {"this": None, **({"baseline": baseline} if baseline else {})}
    out = {v: {} for v in versions}
    for name, args in (
        ("history", ("history",)),
        ("history json", ("history", "--format", "json", "-o")),
        ("runs", ("runs",)),
    ):
        for v, src in versions.items():
            argv = tickmark("--store", str(url), *args) + ([str(workdir / f"{v}.json")] if "-o" in args else [])
            wall, cpu, mb, rc, err = measure(argv, src)
            if rc != 0:
                raise SystemExit(f"{name} ({v}) exited {rc}: {err}")
            out[v][name] = (wall, cpu, mb)
    return {v: (out[v], *found_in(workdir / f"{v}.json", gen)) for v in versions}


def found_in(path, gen):
    """(the run where the planted step was found and its size, other changes, points) of a
    history's JSON."""
    model = json.loads(path.read_text())
    found, other = None, 0
    for s in model["series"]:
        for c in s["changes"]:
            at = s["points"][c["index"]]["run"]
            if s["key"] == gen.step_key and at == gen.planted_run():
                found = (at, c["pct"])
            else:
                other += 1
    return found, other, sum(len(s["points"]) for s in model["series"])


def load():
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def size_mb(url, path):
    if path is not None:
        return sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 1e6
    import psycopg

    with psycopg.connect(str(url)) as c:
        return c.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 1e6


# ---------------------------------------------------------------- stores
class Postgres:
    """Where the PostgreSQL stores are made: the server of `url` (a database each), else a
    throw-away cluster (tests/pgserver.py: Debian's initdb and pg_ctl)."""

    def __init__(self, url=None):
        self.srv = None
        if url is None:
            sys.path.insert(0, str(ROOT / "tests"))
            from pgserver import PgServer, pg_bindir

            bindir = pg_bindir()
            if not bindir:
                raise SystemExit("PostgreSQL server binaries (initdb, pg_ctl) not found: install postgresql")
            self.srv = PgServer(bindir).start()
            url = self.srv.url()
        self.url = url
        self.n = 0

    def new(self):
        import psycopg

        self.n += 1
        name = f"tickmark_scale_{os.getpid()}_{self.n}"
        with psycopg.connect(self.url, autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def drop(self, url):
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url, autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self):
        if self.srv is not None:
            self.srv.stop()


def make_template(workdir):
    """A real run of the default suite, one round (the shape of a nightly run)."""
    path = workdir / "template.db"
    argv = tickmark("--store", str(path), "run", "-q", "--rounds", "1", "--max-rounds", "1", "--name", "template")
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode not in (0, 1):
        raise SystemExit(f"tickmark run failed: {r.stderr[-400:]}")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default="1000,10000", help="comma-separated store sizes (default 1000,10000)")
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--template", help="a store whose newest complete run gives the shape (default: a run made here)")
    ap.add_argument("--step-bench", help="the benchmark that gets the planted step (default cpu.idea)")
    ap.add_argument("--check", type=int, default=3, metavar="K", help="runs written again through the API and compared")
    ap.add_argument("--keep", metavar="DIR", help="keep the SQLite stores in DIR and the PostgreSQL databases")
    ap.add_argument("--baseline", metavar="SRC", help="another tickmark's source tree, timed beside this one")
    ap.add_argument("--pg", metavar="URL", help="a PostgreSQL server to make databases in (default: a throw-away one)")
    ap.add_argument("--dir", help="where the stores are made (default: a temporary folder)")
    a = ap.parse_args()
    sizes = [int(x.replace("_", "")) for x in a.runs.split(",")]
    backends = [b.strip() for b in a.backends.split(",")]
    if set(backends) - {"sqlite", "postgresql"}:
        raise SystemExit("--backends: sqlite and/or postgresql")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the stores and the cluster are removed
    workdir = Path(tempfile.mkdtemp(prefix="tickmark-scale-", dir=a.dir))
    pg = Postgres(a.pg) if "postgresql" in backends else None
    try:
        template = Template(a.template or make_template(workdir))
        t = template
        print(
            f"template: run {t.run['name'] or t.run['id']}, {len(t.results)} results, "
            f"{sum(len(s) for s in t.samples.values())} samples; load average {load()}",
            file=sys.stderr,
        )
        rows = []
        for n in sizes:
            gen = Generator(template, n, a.step_bench)
            picks = sorted({0, gen.step_at - 1, gen.step_at, n - 1})[: max(a.check, 0)]
            for backend in backends:
                before = load()
                if backend == "sqlite":
                    path = workdir / f"scale-{n}.db"
                    url, check_url = path, workdir / f"check-{n}.db"
                    t0 = time.perf_counter()
                    bulk_sqlite(str(path), gen)
                else:
                    path, url, check_url = None, pg.new(), pg.new()
                    t0 = time.perf_counter()
                    bulk_postgres(url, gen)
                fill = time.perf_counter() - t0
                compared = check(url, check_url, gen, picks) if picks else 0
                mb = size_mb(url, path)
                measured = measure_store(url, gen, workdir, a.baseline)
                for version, (figures, found, other, points) in measured.items():
                    rows.append(
                        dict(
                            n=n, backend=backend, version=version, mb=mb, fill=fill, figures=figures, found=found,
                            other=other, points=points, load=(before, load()), compared=compared,
                        )
                    )  # fmt: skip
                    print(row_text(rows[-1]), file=sys.stderr)
                if backend == "sqlite":
                    if a.keep:
                        shutil.move(str(path), Path(a.keep) / path.name)
                    for p in workdir.glob("*.db*"):
                        if p.name != "template.db":
                            p.unlink()
                else:
                    pg.drop(check_url)
                    if a.keep:
                        print(f"kept {url}", file=sys.stderr)
                    else:
                        pg.drop(url)
                if measured["this"][1] is None:
                    raise SystemExit(f"the planted step ({gen.step_key} at {gen.planted_run()}) was not found")
        print(markdown(rows, gen.step_key))
    finally:
        if pg:
            pg.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def row_text(r):
    figs = ", ".join(f"{k} {s:.2f} s ({c:.2f} s CPU) {m:.0f} MB" for k, (s, c, m) in r["figures"].items())
    return (
        f"{r['n']} runs on {r['backend']} ({r['version']}): {r['mb']:.0f} MB filled in {r['fill']:.0f} s "
        f"({r['compared']} rows checked); {figs}; step found at {r['found']}, {r['other']} other changes, "
        f"{r['points']} points; load {r['load'][0]} -> {r['load'][1]}"
    )


def markdown(rows, step_key):
    versions = len({r["version"] for r in rows}) > 1
    out = [
        "| runs | store | size (filled in) |" + (" tickmark |" if versions else "")
        + " history | history --format json | runs | step found at | other changes | load |",
        "|--:|---|--:|" + ("---|" if versions else "") + "--:|--:|--:|---|--:|---|",
    ]  # fmt: skip
    for r in rows:
        fig = r["figures"]
        cells = [
            f"{fig[k][0]:.1f} s ({fig[k][1]:.1f} s CPU), {fig[k][2]:.0f} MB"
            for k in ("history", "history json", "runs")
        ]
        at = f"{r['found'][0]} ({r['found'][1]:+.1f} %)" if r["found"] else "not found"
        out.append(
            f"| {r['n']:,} | {r['backend']} | {r['mb']:,.0f} MB ({r['fill']:.0f} s) | "
            + (f"{r['version']} | " if versions else "")
            + " | ".join(cells)
            + f" | {at} | {r['other']} | {r['load'][0].split()[0]}–{r['load'][1].split()[0]} |"
        )
    out.append("")
    out.append(
        f"Each cell: wall time (CPU time of the command's process), peak RSS. The planted step: {step_key}, "
        f"+{(STEP_SIZE - 1) * 100:.0f} %; load: the 1-minute load average before and after, on {os.cpu_count()} CPUs."
    )
    return "\n".join(out)


if __name__ == "__main__":
    main()
