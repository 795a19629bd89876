"""Export a stored run as a versioned JSON document (with raw samples) or CSV; import such a
document back (strictly validated, all or nothing)."""
import csv
import io
import json

from .errors import TickmarkError
from .stats import Stats

FORMAT = "tickmark-results"
VERSION = 1
_SAMPLE_KEYS = ("round", "i", "iters", "ops", "ns", "cyc")


def to_document(store, run):
    results = []
    for r in store.results(run["id"]):
        results.append({
            "benchmark": r["bench"], "key": r["key"], "params": r["params"], "metric": r["metric"],
            "status": r["status"], "reason": r["reason"], "unit": r["unit"], "stat": r["stat"],
            "meta": r["meta"], "stats": r["stats"],
            "samples": store.samples(r["id"]),
            "hist": store.hists(r["id"]),
        })
    run_doc = {k: run[k] for k in ("id", "name", "started", "finished", "status", "suite",
                                   "patterns", "options", "fingerprint", "hello", "notes")}
    doc = {"format": FORMAT, "version": VERSION, "run": run_doc, "results": results}
    profiles = store.profiles(run["id"])
    if profiles:  # optional: runs with profiles (tickmark profile) only
        doc["profiles"] = [profiles[k] for k in sorted(profiles)]
    return doc


def to_json(store, run):
    return json.dumps(to_document(store, run), indent=1, sort_keys=True) + "\n"


CSV_STATS = ("value", "median", "min", "max", "p90", "mean", "n", "rcv", "cv", "round_cv",
             "ci95_lo", "ci95_hi", "determinism", "ops_per_s", "cycles_per_op", "cycles_method")


def to_csv(store, run):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["run", "key", "benchmark", "params", "sub", "metric", "status", "reason", "unit_op",
                "stat", "value_unit", *CSV_STATS, "flags"])
    for r in store.results(run["id"]):
        st = Stats.of(r)
        for sub, d in st.items() if st else [("", None)]:
            w.writerow([run["id"], r["key"], r["bench"], json.dumps(r["params"], sort_keys=True), sub,
                        r["metric"], r["status"], r["reason"], r["unit"], r["stat"], d.unit if d else "",
                        *[_csv(getattr(d, k, None)) for k in CSV_STATS], " ".join(d.flags if d else [])])
    return out.getvalue()


def _csv(v):
    return "" if v is None else v


# ---- import ----
class _Bad(Exception):
    pass


def _need(obj, key, types, where):
    if not isinstance(obj, dict) or key not in obj:
        raise _Bad(f"{where}: missing '{key}'")
    v = obj[key]
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in _tuple(types)):
        raise _Bad(f"{where}.{key}: expected {_names(types)}, got {type(v).__name__}")
    return v


def _tuple(t):
    return t if isinstance(t, tuple) else (t,)


def _names(types):
    return " or ".join("null" if t is type(None) else t.__name__ for t in _tuple(types))


NUM = (int, float)
STATUSES = ("ok", "skip", "failed", "crashed", "timeout")


def validate(doc):
    """Raise TickmarkError naming the first thing wrong with an import document."""
    try:
        if not isinstance(doc, dict):
            raise _Bad("document is not a JSON object")
        if doc.get("format") != FORMAT:
            raise _Bad(f"format is {doc.get('format')!r}, expected '{FORMAT}'")
        if doc.get("version") != VERSION:
            raise _Bad(f"version {doc.get('version')!r} is not supported (this tickmark reads {VERSION})")
        run = _need(doc, "run", dict, "document")
        _need(run, "started", NUM, "run")
        _need(run, "finished", NUM + (type(None),), "run")
        if _need(run, "status", str, "run") not in ("running", "complete", "incomplete"):
            raise _Bad(f"run.status: unknown value {run['status']!r}")
        _need(run, "name", (str, type(None)), "run")
        _need(run, "suite", (str, type(None)), "run")
        pats = _need(run, "patterns", list, "run")
        if not all(isinstance(p, str) for p in pats):
            raise _Bad("run.patterns: expected a list of strings")
        for k in ("options", "fingerprint", "hello"):
            _need(run, k, dict, "run")
        if "notes" in run:
            _need(run, "notes", dict, "run")
        results = _need(doc, "results", list, "document")
        keys = set()
        for i, r in enumerate(results):
            w = f"results[{i}]"
            for k in ("benchmark", "key", "metric", "reason", "unit", "stat"):
                _need(r, k, str, w)
            if _need(r, "status", str, w) not in STATUSES:
                raise _Bad(f"{w}.status: unknown value {r['status']!r}")
            if r["key"] in keys:
                raise _Bad(f"{w}.key: duplicate key {r['key']!r}")
            keys.add(r["key"])
            for k in ("params", "stats"):
                _need(r, k, dict, w)
            if "meta" in r:
                _need(r, "meta", dict, w)
            for j, s in enumerate(_need(r, "samples", list, w)):
                ws = f"{w}.samples[{j}]"
                for k in ("round", "iters", "ops", "ns"):
                    _need(s, k, int, ws)
                if "cyc" in s:
                    _need(s, "cyc", (int, type(None)), ws)
            for j, h in enumerate(_need(r, "hist", list, w)):
                _need(h, "round", int, f"{w}.hist[{j}]")
                _need(h, "buckets", list, f"{w}.hist[{j}]")
        if "profiles" in doc:
            _validate_profiles(_need(doc, "profiles", list, "document"), keys)
    except _Bad as e:
        raise TickmarkError(f"invalid results document: {e}")


def _validate_profiles(profiles, keys):
    from .profile.model import GROUPS

    seen = set()
    for i, p in enumerate(profiles):
        w = f"profiles[{i}]"
        key = _need(p, "key", str, w)
        if key not in keys:
            raise _Bad(f"{w}.key: {key!r} is not a result of this run")
        if key in seen:
            raise _Bad(f"{w}.key: duplicate key {key!r}")
        seen.add(key)
        for k in ("tool", "event", "unit"):
            _need(p, k, str, w)
        _need(p, "hits", int, w)
        _need(p, "seconds", NUM, w)
        _need(p, "ns_per_op", NUM + (type(None),), w)
        for j, r in enumerate(_need(p, "routines", list, w)):
            wr = f"{w}.routines[{j}]"
            _need(r, "name", str, wr)
            if _need(r, "group", str, wr) not in GROUPS:
                raise _Bad(f"{wr}.group: unknown value {r['group']!r}")
            for k in ("self", "total"):
                if not 0 <= _need(r, k, NUM, wr) <= 1:
                    raise _Bad(f"{wr}.{k}: a share between 0 and 1, got {r[k]!r}")
            _need(r, "symbols", list, wr)


def read_document(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise TickmarkError(f"cannot read {path}: {e.strerror}")
    except UnicodeDecodeError:
        raise TickmarkError(f"{path} is not a UTF-8 text file")
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise TickmarkError(f"{path} is not valid JSON ({e.msg} at line {e.lineno})")
    validate(doc)
    return doc


def import_document(store, doc):
    """Write the document as a new run (new id, same fingerprint) in one transaction -> run id."""
    run = doc["run"]
    name = run.get("name")
    if name:
        base, n = name, 1
        while store.name_taken(name):
            n += 1
            name = f"{base}-{n}"
    with store.transaction():
        rid_run = store.create_run(
            name=name, suite=run.get("suite"), patterns=run["patterns"], options=run["options"],
            fingerprint=run["fingerprint"], hello=run["hello"], status=run["status"],
            started=run["started"], finished=run["finished"],
            notes=dict(run.get("notes") or {}, imported_from=run.get("id")))
        for r in doc["results"]:
            rid = store.add_result(rid_run, key=r["key"], bench=r["benchmark"], params=r["params"],
                                   metric=r["metric"], status=r["status"], reason=r["reason"],
                                   unit=r["unit"], stat=r["stat"], meta=r.get("meta", {}), stats=r["stats"])
            by_round = {}
            for s in r["samples"]:
                by_round.setdefault(s["round"], []).append(s)
            for rnd, ss in by_round.items():
                store.add_samples(rid, rnd, ss)
            for h in r["hist"]:
                store.add_hist(rid, h["round"], {k: v for k, v in h.items() if k != "round"})
        for p in doc.get("profiles", []):
            store.add_profile(rid_run, p["key"], p)
    return rid_run
