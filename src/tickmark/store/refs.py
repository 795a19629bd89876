"""Runs by reference for a comparison: an id, a name, 'latest' or an exported JSON file, loaded
with their results and raw samples (analysis/compare.py compares them)."""

import os

from ..analysis import compare
from ..errors import TickmarkError
from ..names import printable
from .document import read_document


def _label(run, fallback):
    fp = run.get("fingerprint") or {}
    name = run.get("name")
    variant = fp.get("variant")
    rid = run.get("id")
    base = name or (f"run {rid}" if rid is not None else fallback)
    return printable(f"{base} ({variant})" if variant and variant != name else base)


def is_file_ref(ref):
    """An argument that names an exported file rather than a stored run."""
    return ref.endswith(".json") or os.path.sep in ref


def load(store, ref):
    """A run by id, name or 'latest' from the store, or an exported JSON file -> Side."""
    if is_file_ref(ref) or (store is None and os.path.isfile(ref)):
        doc = read_document(ref)
        run = doc["run"]
        results = {}
        for r in doc["results"]:
            results[r["key"]] = dict(r, bench=r["benchmark"])
        profiles = {p["key"]: p for p in doc.get("profiles", [])}
        return compare.Side(
            _label(run, os.path.basename(ref)), ref, run, results, source=f"file {ref}", profiles=profiles
        )
    if store is None:
        raise TickmarkError(f"no run '{ref}': not a file, and no store to look in")
    try:
        run = store.run(ref)
    except TickmarkError:
        if os.path.isfile(ref):  # not a run, but a file of that name
            return load(None, ref)
        raise
    results = {}
    for r in store.results(run["id"]):
        r = dict(r, samples=store.samples(r["id"]))
        results[r["key"]] = r
    return compare.Side(
        _label(run, ref), ref, run, results, source=f"run {run['id']}", profiles=store.profiles(run["id"])
    )


def run_compare(store, refs, baseline=None):
    """Load the runs and compare the baseline (first, or --baseline) with each of the others."""
    sides = []
    if baseline is not None:
        sides.append(load(store, baseline))
    sides += [load(store, r) for r in refs]
    return compare.compare_sides(sides)
