"""Import: an export document (store/document.py, validated, its statistics recomputed) stored as a
new run, its results written through the ResultWriter (results.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base.exact import COUNT_UNIT, TIME_UNIT, exact_counts
from ..base.names import numbered
from ..facts import fingerprint
from ..store import NameTaken
from .results import ResultWriter

if TYPE_CHECKING:
    from ..base.shapes import Fingerprint
    from ..store import Store


def import_document(store: Store, doc: dict[str, Any]) -> int:
    """Store an export document (store/document.py, validated, its statistics recomputed) as a
    new run: a new id, the same fingerprint, its name made unique -> run id. One transaction;
    its result rows through the ResultWriter."""
    run = doc["run"]
    fp, hello = run["fingerprint"], run["hello"]
    notes = dict(run.get("notes") or {}, imported_from=run.get("id"))
    status = run["status"]
    if status == "running":  # nothing writes it here: it is what it was when exported, unfinished
        status = "incomplete"
        notes.pop("owner", None)
        notes.setdefault("incomplete", "exported while it was still running: imported as it was then")
    for _ in range(99):  # another import may take the free name first: the next one
        try:
            return _import_as(store, doc, _free_name(store, run.get("name")), fp, hello, status, notes)
        except NameTaken:
            pass
    return _import_as(store, doc, _free_name(store, run.get("name")), fp, hello, status, notes)  # the 100th try


def _free_name(store: Store, name: str | None) -> str | None:
    """The name, or its first numbered form (names.numbered) that no run has."""
    if not name:
        return name
    base, n = name, 1
    while store.name_taken(name):
        n += 1
        name = numbered(base, n)
    return name


def _import_as(
    store: Store,
    doc: dict[str, Any],
    name: str | None,
    fp: Fingerprint,
    hello: dict[str, Any],
    status: str,
    notes: dict[str, Any],
) -> int:
    """import_document's transaction: the run under `name` with its results -> run id."""
    run = doc["run"]
    with store.transaction():
        if name and store.name_taken(name):
            raise NameTaken(name)
        run_id = store.create_run(
            name=name,
            suite=run.get("suite"),
            patterns=run["patterns"],
            options=run["options"],
            fingerprint=fp,
            hello=hello,
            status=status,
            started=run["started"],
            finished=run["finished"],
            notes=dict(notes),
        )
        w = ResultWriter(store, run_id, fingerprint.cycles_method(fp, hello), fp.get("flags"))
        exact = exact_counts(fp)
        for r in doc["results"]:
            fields = {k: r[k] for k in ("params", "metric", "unit", "stat")}
            if exact and fields["metric"] == COUNT_UNIT:  # stored as the core gave them, as a time
                fields["metric"] = TIME_UNIT
            rid, _ = w.row(
                r["key"], r.get("meta", {}), r["status"], r["reason"], fields=dict(fields, bench=r["benchmark"])
            )
            for rnd in sorted({s["round"] for s in r["samples"]} | {h["round"] for h in r["hist"]}):
                w.add(
                    rid,
                    rnd,
                    [s for s in r["samples"] if s["round"] == rnd],
                    [h for h in r["hist"] if h["round"] == rnd],
                )
            w.restat(rid)
        for p in doc.get("profiles") or []:
            store.add_profile(run_id, p["key"], p)
    return run_id
