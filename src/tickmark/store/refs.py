"""Runs by reference for a comparison: an id, a name, 'latest' or an exported JSON file, loaded
with their results and raw samples (analysis/compare.py compares them)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..analysis import compare
from ..base.errors import NoRun, TickmarkError
from ..base.names import printable
from ..base.shapes import Row, StoreReader
from .document import read_document


def _label(run: Row, fallback: str) -> str:
    fp = run.get("fingerprint") or {}
    name = run.get("name")
    variant = fp.get("variant")
    rid = run.get("id")
    base = name or (f"run {rid}" if rid is not None else fallback)
    return printable(f"{base} ({variant})" if variant and variant != name else base)


FILE_PREFIX = "file:"


def is_file_ref(ref: str) -> bool:
    """An argument that names an exported file, whatever the store holds: `file:PATH`, or a
    path that says it is one (it starts with '/', './', '../' or '~/'). Any other argument is a
    stored run first (id, name, 'latest'; a name may hold '/' or end in '.json'), and a file
    only when the store has no run of that name (docs/compare.md, "Which runs")."""
    return ref.startswith((FILE_PREFIX, "/", "./", "../", "~/"))


def file_path(ref: str) -> str:
    """The path an argument names as a file (`file:` taken off, `~` expanded)."""
    path = ref[len(FILE_PREFIX) :] if ref.startswith(FILE_PREFIX) else ref
    return os.path.expanduser(path)


def _from_file(ref: str) -> compare.Side:
    path = file_path(ref)
    if not os.path.isfile(path):
        raise TickmarkError(f"no exported run at {printable(path)}: not a file")
    doc = read_document(path)
    run = doc["run"]
    results: dict[str, Row] = {}
    for r in doc["results"]:
        results[r["key"]] = dict(r, bench=r["benchmark"])
    profiles = {p["key"]: p for p in doc.get("profiles", [])}
    return compare.Side(
        _label(run, os.path.basename(path)), ref, run, results, source=f"file {path}", profiles=profiles
    )


def load(store: StoreReader | None, ref: str) -> compare.Side:
    """A run by id, name or 'latest' from the store, or an exported JSON file -> Side (the
    rule: is_file_ref)."""
    if is_file_ref(ref):
        return _from_file(ref)
    if store is None and os.path.isfile(ref):
        return _from_file(ref)
    if store is None:
        raise TickmarkError(f"no run '{printable(ref)}': not a file, and no store to look in")
    try:
        run = store.run(ref)
    except TickmarkError:
        if os.path.isfile(ref):  # no run of that name, but a file
            return _from_file(ref)
        raise
    results: dict[str, Row] = {}
    for r in store.results(run["id"]):
        r = dict(r, samples=store.samples(r["id"]))
        results[r["key"]] = r
    return compare.Side(
        _label(run, ref), ref, run, results, source=f"run {run['id']}", profiles=store.profiles(run["id"])
    )


def is_run(store: StoreReader | None, ref: str) -> bool:
    """An argument that names a run: a file by the rule of is_file_ref, an existing file, or a
    run of the store (id, name, 'latest')."""
    if is_file_ref(ref) or os.path.isfile(ref):
        return True
    if store is None:
        return False
    try:
        store.run(ref)
    except NoRun:  # a store that cannot be read says so, it is not "no run"
        return False
    return True


def run_compare(
    store: StoreReader | None,
    refs: Sequence[str],
    baseline: str | None = None,
    metric: str | None = None,
    patterns: Sequence[str] = (),
) -> tuple[list[compare.Side], list[compare.Pair]]:
    """Load the runs and compare the baseline (first, or --baseline) with each of the others
    (metric, patterns: compare.compare_sides)."""
    return compare.compare_sides(load_sides(store, refs, baseline), metric=metric, patterns=patterns)


def load_sides(store: StoreReader | None, refs: Sequence[str], baseline: str | None = None) -> list[compare.Side]:
    """The runs to compare, the baseline first -> [Side]."""
    return ([load(store, baseline)] if baseline is not None else []) + [load(store, r) for r in refs]
